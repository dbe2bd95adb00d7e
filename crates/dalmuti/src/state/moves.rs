//! What may be played and playing it: the legal moves of every phase, the
//! checks that name the rule a bad move breaks, applying an action.

use super::*;

impl Dalmuti {
    /// Every legal action of the seat to move, in a fixed order: `pass`
    /// first; then plays by rank (Jesters alone last), then size, then
    /// number of Jesters; gifts by their cards, best first.
    #[inline(always)]
    pub(crate) fn legal_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match (self.phase, self.trick) {
            (Phase::Play, Some((last, _))) => self.follow_moves(last, out),
            _ => self.other_moves(out),
        }
    }

    /// [`Dalmuti::legal_into`] for everything but following a trick.
    #[inline(never)]
    pub(super) fn other_moves(&self, out: &mut Vec<Action>) {
        let s = self.turn as usize;
        match self.phase {
            Phase::Over => {}
            Phase::SeatNew => {
                out.push(Action::SeatNew(Side::Above));
                out.push(Action::SeatNew(Side::Below));
            }
            Phase::Revolution => {
                out.push(Action::Revolution);
                out.push(Action::NoRevolution);
            }
            Phase::GreaterTax => Self::gifts(&self.hands[s], self.tax_size(true), out),
            Phase::LesserTax => Self::gifts(&self.hands[s], self.tax_size(false), out),
            Phase::MarketReturn => Self::gifts(&self.hands[s], 1, out),
            Phase::Market => {
                let n = self.players as usize;
                for p in 3..=n - 3 {
                    let partner = Seat::new(self.at(p) as usize);
                    if self.options.black_market {
                        out.push(Action::BlackMarket(partner));
                    } else {
                        for i in 1..=JESTER {
                            if self.hands[s].0[i] > 0 {
                                out.push(Action::Market(partner, Card::from_index(i)));
                            }
                        }
                    }
                }
                out.push(Action::NoMarket);
            }
            Phase::Play => {
                let h = &self.hands[s].0;
                let jc = h[JESTER];
                match self.trick {
                    None => {
                        // exactly naturals x (jc + 1) sets per rank, plus
                        // the Jesters alone: size the list once, fill it
                        let naturals = self.left[s] - jc;
                        let total = naturals as usize * (jc as usize + 1) + jc as usize;
                        if jc == 0 {
                            // branch-free: copy each rank's whole run of
                            // sizes 1..=12 and advance by the count held
                            out.resize(total + 12, Action::Pass);
                            let mut i = 0;
                            for r in 1..13usize {
                                out[i..i + 12].copy_from_slice(&LEAD_RUNS[r]);
                                i += h[r] as usize;
                            }
                            out.truncate(total);
                        } else {
                            out.resize(total, Action::Pass);
                            let buf = &mut out[..total];
                            let mut i = 0;
                            for r in 1..13usize {
                                let c = h[r];
                                for size in 1..c + jc + 1 {
                                    // Jesters: at most jc and size-1, at least size-c
                                    let jlo = size.saturating_sub(c);
                                    let jhi = jc.min(size - 1);
                                    for j in jlo..jhi + 1 {
                                        buf[i] = Action::Play(Play::raw(r as u8, size - j, j));
                                        i += 1;
                                    }
                                }
                            }
                            // Jesters alone rank 13 (D6): last
                            for j in 1..jc + 1 {
                                buf[i] = Action::Play(Play::raw(JESTER as u8, 0, j));
                                i += 1;
                            }
                            debug_assert_eq!(i, total);
                        }
                    }
                    Some((last, _)) => self.follow_moves(last, out),
                }
            }
        }
    }

    /// The moves on a trick (D9): `pass`, then every set of the same size
    /// and a better rank, by rank then number of Jesters.
    #[inline(always)]
    pub(super) fn follow_moves(&self, last: Play, out: &mut Vec<Action>) {
        let s = self.turn as usize;
        let h = &self.hands[s].0;
        let jc = h[JESTER];
        out.push(Action::Pass);
        let k = last.size();
        let top = last.rank() as u32;
        // SWAR: the high bit of byte r is set iff h[r] >= need
        let x = self.hands[s].lanes() | HIGH;
        // ranks 1..top only
        let below = swar::better_than(top);
        if jc == 0 || k == 1 {
            // fixed trip count, no data-dependent branch: write every rank's
            // play and advance only over the held ones
            let m = swar::sub_each(x, k as u32) & below;
            out.resize(13, Action::Pass);
            let buf = &mut out[..13];
            let mut len = 1;
            for r in 1..13u32 {
                buf[len] = Action::Play(Play::raw(r as u8, k, 0));
                len += ((m >> (8 * r + 7)) & 1) as usize;
            }
            out.truncate(len);
        } else {
            let jmax = jc.min(k - 1);
            // a rank qualifies with up to jmax Jesters
            let mut m = swar::sub_each(x, (k - jmax) as u32) & below;
            while m != 0 {
                let r = (m.trailing_zeros() / 8) as u8;
                let c = h[r as usize];
                for j in k.saturating_sub(c)..jmax + 1 {
                    out.push(Action::Play(Play::raw(r, k - j, j)));
                }
                m &= m - 1;
            }
        }
    }

    /// Every gift of `k` cards (1 or 2) from `hand`, sorted.
    pub(super) fn gifts(hand: &Hand, k: usize, out: &mut Vec<Action>) {
        for i in 1..=JESTER {
            let c = hand.0[i];
            if c == 0 {
                continue;
            }
            let a = Card::from_index(i);
            if k == 1 {
                out.push(Action::Give(Gift::one(a)));
                continue;
            }
            if c >= 2 {
                out.push(Action::Give(Gift::two(a, a)));
            }
            for j in i + 1..=JESTER {
                if hand.0[j] > 0 {
                    out.push(Action::Give(Gift::two(a, Card::from_index(j))));
                }
            }
        }
    }

    pub(super) fn check_held(hand: &Hand, need: &Hand, phase: Phase) -> Result<(), IllegalAction> {
        for i in 1..=JESTER {
            if need.0[i] > hand.0[i] {
                return Err(IllegalAction::NotHeld {
                    card: Card::from_index(i),
                    need: need.0[i],
                    have: hand.0[i],
                    phase,
                });
            }
        }
        Ok(())
    }

    /// Whether the seat to move may take `a`, and if not, why.
    pub(crate) fn check_action(&self, a: Action) -> Result<(), IllegalAction> {
        if self.phase == Phase::Over {
            return Err(IllegalAction::GameOver);
        }
        let wrong = || IllegalAction::WrongPhase {
            action: a,
            phase: self.phase,
        };
        let hand = &self.hands[self.turn as usize];
        match a {
            Action::Pass => {
                if self.phase != Phase::Play {
                    return Err(wrong());
                }
                if self.trick.is_none() {
                    return Err(IllegalAction::MustLead);
                }
                Ok(())
            }
            Action::Play(p) => {
                if self.phase != Phase::Play {
                    return Err(wrong());
                }
                if let Some((last, _)) = self.trick {
                    if !p.beats(last) {
                        return Err(IllegalAction::DoesNotBeat { last });
                    }
                }
                let mut need = Hand::EMPTY;
                need.0[p.rank() as usize] += p.naturals();
                need.0[JESTER] += p.jesters();
                Self::check_held(hand, &need, self.phase)
            }
            Action::Give(g) => {
                let k = match self.phase {
                    Phase::GreaterTax => self.tax_size(true),
                    Phase::LesserTax => self.tax_size(false),
                    Phase::MarketReturn => 1,
                    Phase::SeatNew
                    | Phase::Revolution
                    | Phase::Market
                    | Phase::Play
                    | Phase::Over => return Err(wrong()),
                };
                if g.len() != k {
                    return Err(IllegalAction::GiftSize {
                        expected: k,
                        phase: self.phase,
                    });
                }
                Self::check_held(hand, &g.hand(), self.phase)
            }
            Action::Revolution | Action::NoRevolution => {
                if self.phase != Phase::Revolution {
                    return Err(IllegalAction::NoRevolution);
                }
                Ok(())
            }
            Action::Market(partner, c) => {
                if self.phase != Phase::Market {
                    return Err(wrong());
                }
                if self.options.black_market {
                    return Err(IllegalAction::MarketKind { black: true });
                }
                if !self.is_market_partner(partner) {
                    return Err(IllegalAction::NotMerchant(partner));
                }
                let mut need = Hand::EMPTY;
                need.add(c, 1);
                Self::check_held(hand, &need, self.phase)
            }
            Action::BlackMarket(partner) => {
                if self.phase != Phase::Market {
                    return Err(wrong());
                }
                if !self.options.black_market {
                    return Err(IllegalAction::MarketKind { black: false });
                }
                if !self.is_market_partner(partner) {
                    return Err(IllegalAction::NotMerchant(partner));
                }
                Ok(())
            }
            Action::NoMarket => {
                if self.phase != Phase::Market {
                    return Err(wrong());
                }
                Ok(())
            }
            Action::SeatNew(_) => {
                if self.phase != Phase::SeatNew {
                    return Err(wrong());
                }
                Ok(())
            }
        }
    }

    /// Applies a legal action.
    #[inline(always)]
    pub(crate) fn apply_action(&mut self, a: Action) {
        self.fresh = false;
        match a {
            Action::Pass => self.pass(),
            Action::Play(p) => self.play(p),
            Action::Give(_)
            | Action::Revolution
            | Action::NoRevolution
            | Action::Market(..)
            | Action::BlackMarket(_)
            | Action::NoMarket
            | Action::SeatNew(_) => self.apply_other(a),
        }
    }

    /// [`Dalmuti::apply_action`] for everything but plays and passes.
    #[inline(never)]
    pub(super) fn apply_other(&mut self, a: Action) {
        let s = self.turn;
        match a {
            Action::Pass => self.pass(),
            Action::Play(p) => self.play(p),
            Action::Give(g) => self.give(s, g),
            Action::Revolution => {
                let n = self.players as usize;
                if self.pos[s as usize] as usize == n - 1 {
                    self.revolution = Revolution::Great;
                    say!(self, Event::GreatRevolution { seat: seat(s) });
                    self.order[..n].reverse();
                    self.fix_pos();
                    self.say_roles();
                    self.begin_taxes_or_play(true);
                } else {
                    self.revolution = Revolution::Declared;
                    say!(self, Event::Revolution { seat: seat(s) });
                    self.begin_taxes_or_play(false);
                }
            }
            Action::NoRevolution => {
                // D7: keeping quiet reveals nothing about who held the Jesters
                tell!(self, s, Event::Declined { seat: seat(s) });
                say!(self, Event::NoRevolution);
                let taxes = self.taxes_unless_revolution();
                self.begin_taxes_or_play(taxes);
            }
            Action::Market(partner, c) => {
                let t = partner.index() as u8;
                let g = Gift::one(c);
                self.move_cards(s, t, g);
                self.record(s, t, g, TransferKind::Market);
                say!(
                    self,
                    Event::MarketTrade {
                        seat: seat(s),
                        partner,
                    }
                );
                self.tell_transfer(s, t, g);
                self.market_with = Some(t);
                self.phase = Phase::MarketReturn;
                self.turn = t;
            }
            Action::BlackMarket(partner) => self.black_market(s, partner),
            Action::NoMarket => {
                say!(self, Event::NoTrade { seat: seat(s) });
                self.begin_play();
            }
            Action::SeatNew(side) => {
                let n = self.players as usize;
                say!(
                    self,
                    Event::SeatsNewcomer {
                        seat: seat(s),
                        side
                    }
                );
                let mid = n / 2;
                self.seat_newcomer(match side {
                    Side::Above => mid,
                    Side::Below => mid + 1,
                });
                self.deal();
                self.after_deal();
            }
        }
    }
}
