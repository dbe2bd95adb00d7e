//! Auctions and advancing (B5..B9, B16): who bids next, the deck and its
//! reshuffle, flunkies advancing along a project, hiring (B15).

use super::*;

impl BigCheese {
    /// The seat after `p` that has not passed (B5), branch-free: the
    /// lowest open seat above `p`, else the lowest open seat. Some seat
    /// must be open.
    #[inline]
    pub(super) fn next_bidder(&self, p: u8) -> u8 {
        let open = !self.passed as u32 & ((1u32 << self.n) - 1);
        let after = open & !((2u32 << p) - 1);
        let q = if after != 0 { after } else { open };
        debug_assert!(q != 0);
        q.trailing_zeros() as u8
    }

    /// Opens the next auction with the current leader on the top card. If
    /// the deck is empty, shuffles the discards into it; if there is nothing
    /// to reveal at all, advances every project a step until a card comes
    /// free (B16).
    pub(crate) fn start_auction(&mut self) {
        loop {
            if let Some(top) = self.top() {
                self.phase = Phase::Auction;
                self.turn = self.leader;
                self.high = 0;
                self.bidder = NONE;
                self.passed = 0;
                self.bid_in = 0;
                log!(
                    self,
                    Event::Auction {
                        card: top,
                        leader: seat(self.leader),
                    }
                );
                return;
            }
            let total = self.discard_count();
            if total > 0 {
                // B16: shuffle the discards into a new deck.
                for kind in 0..9 {
                    for _ in 0..self.discards[kind] {
                        self.deck[self.deck_len as usize] = Card::from_index(kind);
                        self.deck_len += 1;
                    }
                }
                self.discards = [0; 9];
                let len = self.deck_len as usize;
                self.deck[..len].shuffle(&mut self.rng);
                log!(self, Event::Reshuffled { cards: total });
                continue;
            }
            if self.n_projects == 0 {
                // Cannot happen with conserved cards (number cards never sit
                // in hands); stop rather than loop.
                self.phase = Phase::Over;
                self.winners = 0;
                log!(self, Event::Stuck);
                return;
            }
            // B16 (our ruling): every project advances one step; matured
            // projects resolve in seat order from the current leader.
            log!(self, Event::NothingToReveal);
            self.advance(self.leader);
            if !self.resolve_queue() {
                return;
            }
            if self.check_winners() {
                return;
            }
        }
    }

    /// B8: every project on the table loses one chip to its owner's pool;
    /// matured ones are handed out (specials) or queued (numbers) in seat
    /// order from `first`, oldest first per owner (B9).
    pub(super) fn advance(&mut self, first: u8) {
        // Matured projects are collected in table order (oldest first) in
        // the queue, then ordered by seat from `first` (stable, so each
        // owner's stay oldest first).
        let mut m = 0;
        let mut k = 0;
        for i in 0..self.n_projects as usize {
            let mut p = self.projects[i];
            p.chips -= 1;
            self.free[p.owner as usize] += 1;
            if p.chips == 0 {
                self.queue[m] = Matured {
                    owner: p.owner,
                    card: p.card,
                };
                m += 1;
            } else {
                self.projects[k] = p;
                k += 1;
            }
        }
        self.n_projects = k as u8;
        self.q_head = 0;
        self.q_len = 0;
        if m == 0 {
            return;
        }
        if m > 1 {
            let n = self.n;
            let rank = |o: u8| if o >= first { o - first } else { o + n - first };
            // Insertion sort: stable and allocation-free on a few items.
            for i in 1..m {
                let x = self.queue[i];
                let mut j = i;
                while j > 0 && rank(self.queue[j - 1].owner) > rank(x.owner) {
                    self.queue[j] = self.queue[j - 1];
                    j -= 1;
                }
                self.queue[j] = x;
            }
        }
        // B9: specials go to hand (or hire, B15) first; numbers stay queued.
        let mut q = 0;
        for i in 0..m {
            let mat = self.queue[i];
            let owner = mat.owner;
            match mat.card {
                Card::Veto => {
                    self.vetos[owner as usize] += 1;
                    log!(
                        self,
                        Event::ToHand {
                            owner: seat(owner),
                            card: Card::Veto,
                        }
                    );
                }
                Card::BigCheese if self.opts.dice == DiceMode::NoDice => self.hire(owner),
                Card::BigCheese => {
                    self.cheeses[owner as usize] += 1;
                    log!(
                        self,
                        Event::ToHand {
                            owner: seat(owner),
                            card: Card::BigCheese,
                        }
                    );
                }
                Card::Two
                | Card::Four
                | Card::Six
                | Card::Eight
                | Card::Ten
                | Card::Twelve
                | Card::Twenty => {
                    self.queue[q] = mat;
                    q += 1;
                }
            }
        }
        self.q_len = q as u8;
    }

    /// After the last decision of an advance: finish it and go on.
    pub(super) fn continue_advance(&mut self) {
        if self.resolve_queue() && !self.check_winners() {
            self.start_auction();
        }
    }

    /// The auction is won: B8.
    pub(super) fn take(&mut self) {
        let w = self.bidder;
        let bid = self.high;
        let card = self.pop_top();
        self.free[w as usize] -= bid;
        log!(
            self,
            Event::Take {
                seat: seat(w),
                card,
                chips: bid,
            }
        );
        // B4: the taker leads next.
        self.leader = w;
        self.advance(w);
        let i = self.n_projects as usize;
        self.projects[i] = Project {
            owner: w,
            card,
            chips: bid,
        };
        self.n_projects += 1;
        self.continue_advance();
    }

    /// B15: a matured Big Cheese in `no-dice` hires up to 2 chips, within
    /// the caps (4 per player, 2 x players in the game), and is discarded.
    pub(super) fn hire(&mut self, owner: u8) {
        let o = owner as usize;
        let cap = 2 * self.n;
        let allowed = HIRE
            .min(MAX_HIRED - self.hired[o].min(MAX_HIRED))
            .min(cap - self.hired_total.min(cap));
        self.hired[o] += allowed;
        self.hired_total += allowed;
        self.free[o] += allowed;
        self.discards[Card::BigCheese.index()] += 1;
        log!(
            self,
            Event::Hire {
                owner: seat(owner),
                chips: allowed,
                hired: self.hired[o],
                total: self.hired_total,
            }
        );
    }
}
