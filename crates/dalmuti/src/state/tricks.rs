//! Play (D9..D11): leading and following, passing, going out, and the end
//! of a hand with its scores and the session's end (D12, D16).

use super::*;

impl Dalmuti {
    /// The next seat clockwise (table order) after `s` that still holds
    /// cards.
    #[inline]
    pub(crate) fn next_active(&self, s: u8) -> u8 {
        let p = self.pos[s as usize] as u32;
        let m = self.active_pos as u32;
        let after = m & !((2u32 << p) - 1);
        let q = if after != 0 {
            after.trailing_zeros()
        } else {
            m.trailing_zeros()
        };
        self.order[q as usize]
    }

    #[inline(always)]
    pub(super) fn play(&mut self, p: Play) {
        let s = self.turn;
        let h = &mut self.hands[s as usize];
        h.0[p.rank() as usize] -= p.naturals();
        h.0[JESTER] -= p.jesters();
        let pl = &mut self.played[s as usize];
        pl.0[p.rank() as usize] += p.naturals();
        pl.0[JESTER] += p.jesters();
        self.left[s as usize] -= p.size();
        self.trick = Some((p, s));
        self.passed = 0;
        say!(
            self,
            Event::Play {
                seat: seat(s),
                play: p,
            }
        );
        if self.left[s as usize] == 0 && self.go_out(s) {
            return;
        }
        self.turn = self.next_active(s);
    }

    #[inline(always)]
    pub(super) fn pass(&mut self) {
        let s = self.turn;
        self.passed |= bit(s);
        say!(self, Event::Pass { seat: seat(s) });
        let by = self.trick.expect("a trick to pass on").1;
        // D10: everyone else still holding cards has passed
        if self.active & !bit(by) & !self.passed == 0 {
            self.trick = None;
            self.passed = 0;
            // D11: the lead goes clockwise if the last player went out
            self.turn = if self.active & bit(by) != 0 {
                by
            } else {
                self.next_active(by)
            };
            say!(
                self,
                Event::Leads {
                    seat: seat(self.turn),
                }
            );
        } else {
            self.turn = self.next_active(s);
        }
    }

    /// D11, D12: `s` has no cards left. Returns true if the hand ended.
    pub(super) fn go_out(&mut self, s: u8) -> bool {
        self.active &= !bit(s);
        self.active_pos &= !(1 << self.pos[s as usize]);
        self.finished[self.n_finished as usize] = s;
        self.n_finished += 1;
        let pts = self.active.count_ones() as i64;
        self.scores[s as usize] += pts;
        say!(
            self,
            Event::Out {
                seat: seat(s),
                place: self.n_finished,
                points: pts as u8,
            }
        );
        // the hand ends when at most one seat still holds cards (none only
        // in a position where several seats were already out of cards)
        if self.active.count_ones() <= 1 {
            if self.active != 0 {
                let last = self.active.trailing_zeros() as u8;
                self.finished[self.n_finished as usize] = last;
                self.n_finished += 1;
                say!(self, Event::Last { seat: seat(last) });
            }
            self.end_hand();
            return true;
        }
        false
    }

    /// D12, D14: bonuses, session end, or the next hand in finishing order.
    pub(super) fn end_hand(&mut self) {
        let n = self.players as usize;
        if (self.n_finished as usize) < n {
            // only a position where some seat never held cards: those seats
            // finish after everyone else, in table order
            for p in 0..n {
                let s = self.order[p];
                if !self.finished[..self.n_finished as usize].contains(&s) {
                    self.finished[self.n_finished as usize] = s;
                    self.n_finished += 1;
                }
            }
        }
        let fpos = |g: &Dalmuti, s: u8| {
            g.finished[..n]
                .iter()
                .position(|&x| x == s)
                .expect("everyone finished")
        };
        let (gd, gp) = (self.at(0), self.at(n - 1));
        if self.options.benevolent_rulers {
            if fpos(self, gp) < n - 1 {
                self.scores[gd as usize] += 1;
                say!(
                    self,
                    Event::GreaterPeonRises {
                        peon: seat(gp),
                        dalmuti: seat(gd),
                    }
                );
            }
            if n >= 4 {
                let (ld, lp) = (self.at(1), self.at(n - 2));
                if fpos(self, lp) < n - 2 {
                    self.scores[ld as usize] += 1;
                    say!(
                        self,
                        Event::LesserPeonRises {
                            peon: seat(lp),
                            dalmuti: seat(ld),
                        }
                    );
                }
            }
        }
        if self.options.the_elected && self.finished[0] == gp {
            self.scores[gp as usize] += 1;
            say!(self, Event::Elected { seat: seat(gp) });
        }
        say!(
            self,
            Event::HandOver {
                number: self.hand_no,
                order: self.finished[..n].iter().map(|&s| seat(s)).collect(),
                scores: self.scores[..n].to_vec(),
            }
        );
        let target_hit = self
            .options
            .target
            .is_some_and(|t| self.scores[..n].iter().any(|&x| x >= t as i64));
        if self.hand_no >= self.options.hands || target_hit {
            self.phase = Phase::Over;
            if self.first_out_wins() {
                say!(
                    self,
                    Event::FirstOut {
                        seat: seat(self.finished[0]),
                    }
                );
            } else {
                say!(
                    self,
                    Event::SessionOver {
                        hands: self.hand_no,
                        winners: self.best_scores(),
                        points: self.scores[..n].iter().copied().max().unwrap_or(0),
                    }
                );
            }
            return;
        }
        self.hand_no += 1;
        self.order[..n].copy_from_slice(&self.finished[..n]);
        self.fix_pos();
        self.say_roles();
        self.start_hand();
    }
}
