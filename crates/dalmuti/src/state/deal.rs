//! A hand begins: the first seating draw (D3), newcomers joining (D13),
//! the deal (D2, D5, D15) and what follows it: the revolution (D7).

use super::*;

impl Dalmuti {
    /// D3: each player draws a card from a shuffled 80-card deck; best rank
    /// first, Jesters worst; tied players draw again among themselves.
    pub(super) fn seating_draw(&mut self, fixed: &[Card]) -> Result<(), DrawnOut> {
        let n = self.players as usize;
        let mut deck = Hand::FULL_DECK;
        let mut remaining = 80usize;
        let mut fixed = fixed.iter();
        let mut card = [0u8; MAX_PLAYERS];
        let mut draw = |g: &mut Dalmuti| -> Result<u8, DrawnOut> {
            if let Some(&c) = fixed.next() {
                if deck.count(c) == 0 {
                    return Err(DrawnOut(c));
                }
                deck.remove(c, 1);
                remaining -= 1;
                return Ok(c.index() as u8);
            }
            if remaining == 0 {
                // new ruling: an exhausted draw deck is reshuffled whole
                deck = Hand::FULL_DECK;
                remaining = 80;
            }
            let c = deck.nth(below(&mut g.rng, remaining as u32) as usize);
            deck.remove(c, 1);
            remaining -= 1;
            Ok(c.index() as u8)
        };
        for s in 0..n {
            self.order[s] = s as u8;
            card[s] = draw(self)?;
        }
        say!(
            self,
            Event::SeatingDraw {
                draws: (0..n)
                    .map(|s| Draw {
                        seat: seat(s),
                        card: Card::from_index(card[s] as usize),
                    })
                    .collect(),
            }
        );
        // sort a range of the order by the latest card, stably
        fn sort_range(order: &mut [u8], card: &[u8; MAX_PLAYERS]) {
            for i in 1..order.len() {
                let mut j = i;
                while j > 0 && card[order[j - 1] as usize] > card[order[j] as usize] {
                    order.swap(j - 1, j);
                    j -= 1;
                }
            }
        }
        sort_range(&mut self.order[..n], &card);
        // tied[i]: order[i] and order[i+1] are still tied
        let mut tied = [false; MAX_PLAYERS];
        for i in 0..n - 1 {
            tied[i] = card[self.order[i] as usize] == card[self.order[i + 1] as usize];
        }
        while let Some(a) = (0..n - 1).find(|&i| tied[i]) {
            let mut b = a + 1;
            while b < n - 1 && tied[b] {
                b += 1;
            }
            // positions a..=b are tied: they draw again, in seat order
            let mut group = [0u8; MAX_PLAYERS];
            let len = b - a + 1;
            group[..len].copy_from_slice(&self.order[a..=b]);
            group[..len].sort_unstable();
            for &s in &group[..len] {
                card[s as usize] = draw(self)?;
            }
            say!(
                self,
                Event::SeatingRedraw {
                    draws: group[..len]
                        .iter()
                        .map(|&s| Draw {
                            seat: seat(s),
                            card: Card::from_index(card[s as usize] as usize),
                        })
                        .collect(),
                }
            );
            self.order[a..=b].copy_from_slice(&group[..len]);
            sort_range(&mut self.order[a..=b], &card);
            for i in a..b {
                tied[i] = card[self.order[i] as usize] == card[self.order[i + 1] as usize];
            }
        }
        Ok(())
    }

    /// Starts hand `hand_no`: a join if one is due (D13), then the deal.
    pub(crate) fn start_hand(&mut self) {
        if self.hand_no > 1 && self.options.joins.before(self.hand_no) {
            let n = self.players as usize;
            let newcomer = Seat::new(n);
            say!(self, Event::Joins { seat: newcomer });
            if n % 2 == 0 {
                self.seat_newcomer(n / 2);
            } else {
                self.phase = Phase::SeatNew;
                self.turn = self.at(0);
                return;
            }
        }
        self.deal();
        self.after_deal();
    }

    /// D13: the newcomer (next seat index) sits at table position `p`.
    pub(super) fn seat_newcomer(&mut self, p: usize) {
        let n = self.players as usize;
        let s = n as u8;
        for i in (p..n).rev() {
            self.order[i + 1] = self.order[i];
        }
        self.order[p] = s;
        self.players += 1;
        self.scores[s as usize] = 0;
        self.fix_pos();
        say!(
            self,
            Event::Sits {
                seat: seat(s),
                place: p as u8 + 1,
                role: Role::of(p, n + 1),
            }
        );
    }

    /// Clears everything that belongs to one hand.
    pub(crate) fn reset_hand(&mut self) {
        self.hands = [Hand::EMPTY; MAX_PLAYERS];
        self.played = [Hand::EMPTY; MAX_PLAYERS];
        self.left = [0; MAX_PLAYERS];
        self.active = 0;
        self.active_pos = 0;
        self.passed = 0;
        self.trick = None;
        self.n_finished = 0;
        self.jester_holder = None;
        self.revolution = Revolution::None;
        self.taxes = false;
        self.greater_gift = None;
        self.lesser_gift = None;
        self.market_with = None;
        self.n_transfers = 0;
    }

    /// D2, D5: shuffle this hand's deck and deal it one card at a time from
    /// the Greater Dalmuti in table order. D15: a digital deal cannot expose
    /// a card, so the rulebook's misdeal rule never applies.
    pub(crate) fn deal(&mut self) {
        self.reset_hand();
        let n = self.players as usize;
        self.deck = self.options.deck(n);
        let len = self.deck.len();
        let mut cards = deck_list(&self.deck);
        // Fisher-Yates, dealing as it goes: once swapped, position i is
        // final, and the card at position i goes to table position i mod n
        // (the same deal as shuffling first and dealing from the top)
        let mut p = (len - 1) % n;
        for i in (1..len).rev() {
            let j = below(&mut self.rng, i as u32 + 1) as usize;
            cards.swap(i, j);
            self.hands[self.order[p] as usize].0[cards[i] as usize] += 1;
            p = if p == 0 { n - 1 } else { p - 1 };
        }
        debug_assert_eq!(p, 0);
        self.hands[self.order[0] as usize].0[cards[0] as usize] += 1;
        self.after_hands_set();
        say!(
            self,
            Event::Deal {
                number: self.hand_no,
                cards: len as u8,
            }
        );
    }

    /// Recomputes card counts and the active set from the hands.
    pub(crate) fn after_hands_set(&mut self) {
        self.active = 0;
        for s in 0..self.players as usize {
            self.left[s] = self.hands[s].len() as u8;
            if self.left[s] > 0 {
                self.active |= bit(s as u8);
            }
        }
        self.fix_active_pos();
        if self.logging {
            for s in 0..self.players as usize {
                let hand = self.hands[s];
                tell!(
                    self,
                    s,
                    Event::Dealt {
                        seat: seat(s),
                        hand
                    }
                );
            }
        }
    }

    /// D7, D8: whether taxes follow if the pending revolution decision is
    /// declined (never under `auto_revolution`, where only a Great
    /// Revolution brings them). Public: it depends on the options only.
    pub(crate) fn taxes_unless_revolution(&self) -> bool {
        !self.options.auto_revolution
    }

    /// D7: offer a revolution when it would matter, else go to taxes or
    /// play.
    pub(crate) fn after_deal(&mut self) {
        let n = self.players as usize;
        let settling = self.options.settling_hand && self.hand_no == 1;
        if !settling {
            let holder = (0..n).find(|&s| self.hands[s].jesters() == 2);
            if let Some(h) = holder {
                let is_gp = self.pos[h] as usize == n - 1;
                if !self.options.auto_revolution || is_gp {
                    self.jester_holder = Some(h as u8);
                    self.phase = Phase::Revolution;
                    self.turn = h as u8;
                    // D7 (new ruling): the table learns only that a
                    // decision is pending, never whose it is
                    say!(self, Event::RevolutionPending);
                    tell!(self, h, Event::BothJesters { seat: seat(h) });
                    return;
                }
            }
        }
        let taxes = !settling && !self.options.auto_revolution;
        self.begin_taxes_or_play(taxes);
    }
}
