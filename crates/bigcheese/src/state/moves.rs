//! What may be played and playing it: the legal moves, the checks that
//! name the rule a bad move breaks, applying an action, the outcome.

use super::*;

impl BigCheese {
    /// Checks `action` as if `seat` tried it, with the reasons a seat that
    /// is not to move gets (a passed bidder, B5; another player's roll, B10).
    pub fn check_as(&self, who: Seat, action: Action) -> Result<(), ActError<IllegalAction>> {
        let idx = who.index() as u8;
        match self.phase {
            Phase::Over => return Err(ActError::GameOver),
            // a u32 bit: `who` may be any seat, also one past this table's
            // 6 (a record or scenario can name P16)
            Phase::Auction if idx != self.turn && u32::from(self.passed) & (1 << idx) != 0 => {
                return Err(ActError::Illegal(IllegalAction::AlreadyPassed))
            }
            Phase::Roll if idx != self.roll.owner && matches!(action, Action::Reroll(_)) => {
                return Err(ActError::Illegal(IllegalAction::NotYourRoll))
            }
            Phase::Auction | Phase::Roll => {}
        }
        let to_move = self.to_move_seat();
        if idx != to_move {
            return Err(ActError::NotYourTurn {
                expected: seat(to_move),
                got: who,
            });
        }
        self.check_action(action).map_err(ActError::Illegal)
    }

    #[inline]
    pub(crate) fn to_move_seat(&self) -> u8 {
        match self.phase {
            Phase::Auction => self.turn,
            Phase::Roll => self.roll.owner,
            Phase::Over => NONE,
        }
    }

    pub(crate) fn check_action(&self, action: Action) -> Result<(), IllegalAction> {
        match self.phase {
            Phase::Over => Err(IllegalAction::GameOver),
            Phase::Auction => {
                let p = self.turn as usize;
                match action {
                    Action::Bid(0) => Err(IllegalAction::BidZero),
                    Action::Bid(b) if b <= self.high => Err(IllegalAction::BidNotAbove {
                        bid: b,
                        high: self.high,
                    }),
                    Action::Bid(b) if b > self.free[p] => Err(IllegalAction::BidExceedsChips {
                        bid: b,
                        free: self.free[p],
                    }),
                    Action::Bid(_) | Action::Pass => Ok(()),
                    Action::Veto if self.vetos[p] > 0 && self.may_veto(p) => Ok(()),
                    Action::Veto if self.vetos[p] > 0 => Err(IllegalAction::VetoAfterBid),
                    Action::Veto => Err(IllegalAction::NoVeto),
                    Action::Keep | Action::Reroll(_) => Err(IllegalAction::NoRoll),
                }
            }
            Phase::Roll => match action {
                Action::Bid(_) | Action::Pass | Action::Veto => Err(IllegalAction::RollPending {
                    owner: seat(self.roll.owner),
                    card: self.roll.card,
                }),
                Action::Keep => Ok(()),
                Action::Reroll(d) => self.check_reroll(d),
            },
        }
    }

    pub(crate) fn legal_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Over => {}
            Phase::Auction => {
                let p = self.turn as usize;
                out.push(Action::Pass);
                let (lo, hi) = (self.high as usize + 1, self.free[p] as usize);
                if lo <= hi {
                    // A memcpy from a table instead of a push per bid.
                    out.extend_from_slice(&BIDS[lo..=hi]);
                }
                if self.vetos[p] > 0 && self.may_veto(p) {
                    out.push(Action::Veto);
                }
            }
            Phase::Roll => {
                out.push(Action::Keep);
                if self.cheeses[self.roll.owner as usize] == 0 {
                    return;
                }
                match self.opts.dice {
                    DiceMode::Polyhedral | DiceMode::D6 => {
                        out.push(Action::Reroll(RerollDice::Die))
                    }
                    DiceMode::BestOfTwo => {
                        let d = self.roll.dice();
                        out.push(Action::Reroll(RerollDice::Faces(Faces::of(&[d[0]]))));
                        if d[1] != d[0] {
                            out.push(Action::Reroll(RerollDice::Faces(Faces::of(&[d[1]]))));
                        }
                    }
                    DiceMode::HalfOfN => {
                        // Every non-empty sub-multiset of the dice shown.
                        let have = roll_counts(&self.roll);
                        let mut k = [0u8; 6];
                        loop {
                            let mut i = 0;
                            while i < 6 && k[i] == have[i + 1] {
                                k[i] = 0;
                                i += 1;
                            }
                            if i == 6 {
                                break;
                            }
                            k[i] += 1;
                            out.push(Action::Reroll(RerollDice::Faces(Faces::from_counts(k))));
                        }
                    }
                    DiceMode::NoDice => {}
                }
            }
        }
    }

    /// Whether seat `p` may play a Veto now, if it holds one: always (B6),
    /// or with `veto=before-bid` only before its first bid in this auction
    /// (B18).
    pub(crate) fn may_veto(&self, p: usize) -> bool {
        self.opts.veto == VetoTiming::AnyTurn || self.bid_in & (1 << p) == 0
    }

    /// A uniformly random legal action without building the list in an
    /// auction: the list is `pass, bid high+1..=free, [veto]`, so an index
    /// into it maps straight to an action. Rolls use the list.
    #[inline]
    pub(crate) fn sample_action<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<Action>,
    ) -> Action {
        if self.phase != Phase::Auction {
            self.legal_into(scratch);
            return scratch[rng.random_range(0..scratch.len())];
        }
        let p = self.turn as usize;
        let bids = self.free[p].saturating_sub(self.high) as u32;
        let veto = u32::from(self.vetos[p] > 0 && self.may_veto(p));
        let k = rng.random_range(0..1 + bids + veto);
        if k == 0 {
            Action::Pass
        } else if k <= bids {
            Action::Bid(self.high + k as u8)
        } else {
            Action::Veto
        }
    }

    /// Applies a legal action. Bids and passes in an auction (nearly every
    /// action of a game) take a small inlined path, so that after a
    /// sampled action the compiler can skip the dispatch on its type; the
    /// rest, and every auction end, goes through [`BigCheese::apply_slow`].
    #[inline]
    pub(crate) fn apply_action(&mut self, action: Action) {
        if self.phase == Phase::Auction {
            match action {
                Action::Bid(b) => {
                    // B5
                    self.bid_in |= 1 << self.turn;
                    let others = ((1u8 << self.n) - 1) & !(1 << self.turn);
                    if self.passed != others && !self.logging {
                        self.high = b;
                        self.bidder = self.turn;
                        self.turn = self.next_bidder(self.turn);
                        return;
                    }
                }
                Action::Pass => {
                    // B5: the auction goes on while two may still bid
                    let all = (1u8 << self.n) - 1;
                    let passed = self.passed | 1 << self.turn;
                    let ends = if self.bidder == NONE {
                        passed == all
                    } else {
                        passed == all & !(1 << self.bidder)
                    };
                    if !ends && !self.logging {
                        self.passed = passed;
                        self.turn = self.next_bidder(self.turn);
                        return;
                    }
                }
                Action::Veto | Action::Keep | Action::Reroll(_) => {}
            }
        }
        self.apply_slow(action);
    }

    /// [`BigCheese::apply_action`] in full: every action, with logging.
    #[inline(never)]
    pub(super) fn apply_slow(&mut self, action: Action) {
        match self.phase {
            Phase::Over => panic!("apply_unchecked on a finished game"),
            Phase::Auction => match action {
                Action::Bid(b) => {
                    self.high = b;
                    self.bidder = self.turn;
                    self.bid_in |= 1 << self.turn;
                    log!(
                        self,
                        Event::Bid {
                            seat: seat(self.turn),
                            amount: b,
                        }
                    );
                    let others = ((1u8 << self.n) - 1) & !(1 << self.turn);
                    if self.passed == others {
                        self.take();
                    } else {
                        self.turn = self.next_bidder(self.turn);
                    }
                }
                Action::Pass => {
                    self.passed |= 1 << self.turn;
                    log!(
                        self,
                        Event::Pass {
                            seat: seat(self.turn),
                        }
                    );
                    let all = (1u8 << self.n) - 1;
                    if self.bidder == NONE {
                        if self.passed == all {
                            // B7: nobody bid.
                            let card = self.pop_top();
                            self.discards[card.index()] += 1;
                            log!(self, Event::AllPass { card });
                            self.start_auction();
                        } else {
                            self.turn = self.next_bidder(self.turn);
                        }
                    } else if self.passed == all & !(1 << self.bidder) {
                        self.take();
                    } else {
                        self.turn = self.next_bidder(self.turn);
                    }
                }
                Action::Veto => {
                    // B6
                    let p = self.turn as usize;
                    self.vetos[p] -= 1;
                    self.discards[Card::Veto.index()] += 1;
                    let card = self.pop_top();
                    self.discards[card.index()] += 1;
                    log!(
                        self,
                        Event::Veto {
                            seat: seat(self.turn),
                            card,
                        }
                    );
                    self.start_auction();
                }
                Action::Keep | Action::Reroll(_) => panic!("{action} in an auction"),
            },
            Phase::Roll => match action {
                Action::Keep => {
                    let roll = self.roll;
                    self.pay(&roll, Via::Keep { new: false });
                    self.continue_advance();
                }
                Action::Reroll(d) => self.reroll(d),
                Action::Bid(_) | Action::Pass | Action::Veto => panic!("{action} during a roll"),
            },
        }
    }

    pub(crate) fn outcome_now(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let n = self.n as usize;
        let scores: Vec<i64> = self.scores[..n].iter().map(|&s| s as i64).collect();
        let winners: Vec<Seat> = (0..self.n)
            .filter(|p| self.winners & (1 << p) != 0)
            .map(seat)
            .collect();
        if winners.is_empty() {
            return Some(Outcome::capped(scores));
        }
        // Places: winners first, then by score (B14).
        let key = |p: usize| (self.winners & (1 << p) != 0, self.scores[p], self.scored[p]);
        let places = (0..n)
            .map(|p| 1 + (0..n).filter(|&q| key(q) > key(p)).count() as u8)
            .collect();
        Some(Outcome {
            winners,
            places,
            scores,
            capped: false,
        })
    }
}
