//! The view sampler behind [`game::Game::sample_from_view`]: a full state
//! consistent with what one seat knows ([`View`]), the hidden hands and
//! the transfers it did not see drawn at random, for the search bots.
//!
//! Kept apart from the views themselves (`view`), which only copy what a
//! seat may know out of the state, and from `sample_action`, which draws
//! a random legal action.

use crate::action::Gift;
use crate::card::{Card, Hand, JESTER};
use crate::role::Phase;
use crate::state::{Dalmuti, Transfer, TransferKind, MAX_PLAYERS};
use crate::view::View;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How many times [`Dalmuti::sample_state`] redraws a sample that contradicts
/// what the view implies (D7) before it accepts one anyway.
pub(crate) const SAMPLE_TRIES: usize = 64;

impl Dalmuti {
    /// A full state consistent with `view`, hidden parts drawn from `rng`.
    ///
    /// The unseen cards are dealt uniformly to the opponents, given their
    /// card counts, the cards this seat knows they hold (its own transfers)
    /// and these inferences:
    /// - D7, pending decision: both Jesters are in one opponent's hand, that
    ///   opponent picked with probability proportional to the ways its hand
    ///   can hold both (`left * (left - 1)`), among those who would be asked
    ///   (only the Greater Peon under `auto_revolution`); exact.
    /// - D7, declined by an opponent: some opponent who would have been
    ///   asked held both Jesters as dealt; reject-and-redraw, and that
    ///   opponent becomes the sample's holder.
    /// - D7, not offered although it would have mattered (no settling hand;
    ///   taxes on, or the Greater Peon under `auto_revolution`): no such
    ///   opponent held both Jesters as dealt; reject-and-redraw.
    /// - D8, forced taxes: a Dalmuti who received the Peon's best cards
    ///   knows the Peon had no better card than the worst one paid (Jesters
    ///   worst): the Peon's unknown cards are drawn only from cards at least
    ///   that bad (exact, by construction).
    ///
    /// "As dealt" is a hand now, plus its played cards, plus what it gave,
    /// minus what it received, using the sample's own transfers.
    /// Redraws are bounded ([`SAMPLE_TRIES`]); after that the last draw is
    /// accepted (and a declined holder is picked among the candidates).
    ///
    /// Remaining approximations: transfers between two opponents are made
    /// up from the receiver's sampled hand (not, for example, the Peon's
    /// best cards), so they need not agree with D8; a declared revolution
    /// keeps both Jesters with the declarer unless this seat saw them
    /// leave; a Dalmuti's choices and players' past plays are not used as
    /// evidence about their hands.
    pub(crate) fn sample_state(view: &View, rng: &mut (impl Rng + ?Sized)) -> Dalmuti {
        let pv = &view.public;
        let n = pv.players;
        let me = view.seat.index();
        let mut g = Dalmuti::public_state(view, rng);

        // D7: who was asked about a revolution, as far as this seat knows
        let known_holder = if view.revolution_offer {
            Some(me as u8)
        } else {
            pv.revolution_by.map(|s| s.index() as u8)
        };
        g.jester_holder = known_holder;
        // the opponents who would be asked if they held both Jesters
        let gp = g.at(n - 1) as usize;
        let candidate = |s: usize| s != me && (!pv.options.auto_revolution || s == gp);
        let settling = pv.options.settling_hand && pv.hand_number == 1;
        let dealt = !matches!(pv.phase, Phase::SeatNew | Phase::Over);
        let pending = pv.phase == Phase::Revolution && known_holder.is_none();
        let declined = dealt
            && pv.revolution_offered
            && known_holder.is_none()
            && pv.phase != Phase::Revolution;
        let not_offered = dealt
            && !settling
            && !pv.revolution_offered
            && (!pv.options.auto_revolution || gp != me);
        // a pending decision: the holder holds both Jesters now (no card
        // has moved yet), drawn by how many ways each hand can hold them
        if pending {
            let h = g.draw_pending_holder(&pv.cards_left[..n], &candidate);
            g.jester_holder = Some(h as u8);
            g.turn = h as u8;
        } else if pv.phase == Phase::Revolution {
            g.turn = me as u8;
        }

        let mut last_ok = false;
        for _ in 0..SAMPLE_TRIES {
            g.draw_hidden(view);
            let holder = (0..n).find(|&s| candidate(s) && g.dealt_jesters(s) == 2);
            last_ok = if declined {
                g.jester_holder = holder.map(|s| s as u8);
                holder.is_some()
            } else if not_offered {
                holder.is_none()
            } else {
                true
            };
            if last_ok {
                break;
            }
        }
        if declined && !last_ok {
            // give up: name a candidate, so the sample's views agree
            g.jester_holder = (0..n).find(|&s| candidate(s)).map(|s| s as u8);
        }
        if !dealt && pv.revolution_offered && g.jester_holder.is_none() {
            // between hands (a newcomer sits down, D13): the last hand's
            // declined offer still shows; who it was is unknown and no
            // longer matters, so name a candidate, so the views agree
            g.jester_holder = (0..n).find(|&s| candidate(s)).or(Some(me)).map(|s| s as u8);
        }
        // a pending tax choice of someone else is unknown: draw one
        if g.phase == Phase::LesserTax {
            g.draw_tax_choice(view);
        }
        g.log.clear();
        g
    }

    /// The state as far as the public view tells: the table, the phase,
    /// the trick, scores, card counts, what was played, who passed and
    /// who finished; the hidden parts are left to draw. Its RNG is seeded
    /// from `rng`.
    fn public_state(view: &View, rng: &mut (impl Rng + ?Sized)) -> Dalmuti {
        let pv = &view.public;
        let n = pv.players;
        let mut g = Dalmuti::seated(
            &pv.options,
            n,
            game::Seed::Legacy(0),
            false,
            &[],
            Some(&pv.order),
        )
        .expect("a view describes a valid table");
        g.rng = ChaCha8Rng::seed_from_u64(rng.random());
        g.hand_no = pv.hand_number;
        g.phase = pv.phase;
        g.turn = pv.to_move.map_or(0, |s| s.index() as u8);
        g.deck = pv.deck;
        g.trick = pv.trick.map(|t| (t.play, t.by.index() as u8));
        g.revolution = pv.revolution;
        g.taxes = pv.taxes;
        g.market_with = pv.market_with.map(|s| s.index() as u8);
        for s in 0..n {
            g.scores[s] = pv.scores[s];
            g.left[s] = pv.cards_left[s];
            g.played[s] = pv.played[s];
            if g.left[s] > 0 {
                g.active |= 1 << s;
            }
        }
        g.fix_active_pos();
        for s in &pv.passed {
            g.passed |= 1 << s.index();
        }
        for (i, s) in pv.finished.iter().enumerate() {
            g.finished[i] = s.index() as u8;
        }
        g.n_finished = pv.finished.len() as u8;
        g
    }

    /// D7, a pending decision: the opponent who holds both Jesters, drawn
    /// among the `candidate`s by how many ways their hand (of `cards_left`)
    /// can hold both.
    fn draw_pending_holder(
        &mut self,
        cards_left: &[u8],
        candidate: &dyn Fn(usize) -> bool,
    ) -> usize {
        let n = cards_left.len();
        let weight = |s: usize| {
            let l = cards_left[s] as u32;
            if candidate(s) {
                l * l.saturating_sub(1)
            } else {
                0
            }
        };
        let total: u32 = (0..n).map(weight).sum();
        if total == 0 {
            (0..n).find(|&s| candidate(s)).unwrap_or(0)
        } else {
            let mut u = self.rng.random_range(0..total);
            (0..n)
                .find(|&s| {
                    let w = weight(s);
                    if u < w {
                        true
                    } else {
                        u -= w;
                        false
                    }
                })
                .expect("u < total")
        }
    }

    /// The Jesters seat `s` held as dealt, in this sample: in hand, played,
    /// given away, less those received.
    fn dealt_jesters(&self, s: usize) -> i32 {
        let mut j = self.hands[s].0[JESTER] as i32 + self.played[s].0[JESTER] as i32;
        for t in &self.transfers[..self.n_transfers as usize] {
            let k = t.cards.cards().filter(|c| c.is_jester()).count() as i32;
            if t.from.index() == s {
                j += k;
            }
            if t.to.index() == s {
                j -= k;
            }
        }
        j
    }

    /// The Greater Dalmuti's tax choice (D8), which this seat does not
    /// know unless it is its own (`pending_gift`): drawn from the hand.
    fn draw_tax_choice(&mut self, view: &View) {
        if let Some(gift) = view.pending_gift {
            self.greater_gift = Some(gift);
        } else {
            let gd = self.at(0) as usize;
            let h = self.hands[gd];
            let k = self.tax_size(true);
            let a = h.nth(self.rng.random_range(0..h.len()));
            self.greater_gift = Some(if k == 1 {
                Gift::one(a)
            } else {
                let mut rest = h;
                rest.remove(a, 1);
                Gift::two(a, rest.nth(self.rng.random_range(0..rest.len())))
            });
        }
    }

    /// One draw of the hidden hands and of the transfers this seat did not
    /// see, for [`Dalmuti::sample_state`]; `jester_holder` must already be set
    /// for a pending or declared revolution.
    fn draw_hidden(&mut self, view: &View) {
        let pv = &view.public;
        let n = pv.players;
        let me = view.seat.index();
        let (unseen, mut known, floor) = self.evidence(view);
        let mut pool = unseen;
        for s in 0..n {
            if s == me {
                continue;
            }
            let k = &mut known[s];
            let mut room = pv.cards_left[s];
            for i in 1..=JESTER {
                let v = k.0[i]
                    .saturating_sub(pv.played[s].0[i])
                    .min(pool.0[i])
                    .min(room);
                k.0[i] = v;
                pool.0[i] -= v;
                room -= v;
            }
        }
        let mut cards = [0u8; 80];
        let mut len = 0;
        for i in 1..=JESTER {
            for _ in 0..pool.0[i] {
                cards[len] = i as u8;
                len += 1;
            }
        }
        cards[..len].shuffle(&mut self.rng);
        let need = |s: usize, known: &[Hand; MAX_PLAYERS]| {
            (pv.cards_left[s] as usize).saturating_sub(known[s].len())
        };
        // the floored Peon takes the first cards bad enough; the others
        // share the rest, shuffled again (a uniform draw given the floor)
        let mut next = 0;
        if let Some((p, worst)) = floor {
            let want = need(p, &known);
            let mut took = 0;
            for i in 0..len {
                if took == want {
                    break;
                }
                if cards[i] as usize >= worst {
                    cards.swap(next, i);
                    next += 1;
                    took += 1;
                }
            }
            cards[next..len].shuffle(&mut self.rng);
            let h = &mut known[p];
            for &c in &cards[..next] {
                h.0[c as usize] += 1;
            }
        }
        for s in 0..n {
            if s == me {
                self.hands[s] = view.hand;
                continue;
            }
            // (a floored Peon needs nothing more, unless too few cards
            // were bad enough: then it is topped up like the others)
            let mut h = known[s];
            let want = need(s, &known);
            for &c in &cards[next.min(len)..(next + want).min(len)] {
                h.0[c as usize] += 1;
            }
            next += want;
            self.hands[s] = h;
        }
        self.draw_transfers(view);
    }

    /// What this seat knows of the hidden cards: the unseen ones (the
    /// deck less its hand and every played card), the cards known to be
    /// in each opponent's hand (what it gave them; both Jesters with a
    /// revolution's holder), and the floor of a Peon who paid it taxes
    /// (D8: its seat and the worst card it paid).
    fn evidence(&self, view: &View) -> (Hand, [Hand; MAX_PLAYERS], Option<(usize, usize)>) {
        let pv = &view.public;
        let me = view.seat.index();
        // the unseen cards: the deck minus my hand minus every played card
        let mut unseen = pv.deck;
        let mut sub = view.hand;
        for p in &pv.played {
            sub.add_all(p);
        }
        for i in 1..=JESTER {
            unseen.0[i] = unseen.0[i].saturating_sub(sub.0[i]);
        }
        // cards known to be in an opponent's hand
        let mut known = [Hand::EMPTY; MAX_PLAYERS];
        // D8: a Peon who paid me its best cards had nothing better than the
        // worst of them (Jesters worst): its unknown cards are that bad too
        let mut floor: Option<(usize, usize)> = None;
        for t in &view.transfers {
            if t.from == view.seat {
                known[t.to.index()].add_all(&t.cards.hand());
            } else {
                let k = &mut known[t.from.index()];
                for c in t.cards.cards() {
                    k.0[c.index()] = k.0[c.index()].saturating_sub(1);
                }
                let from = t.from.index();
                // (only while the hand the taxes belong to is on: between
                // hands the places are already the next hand's)
                let this_hand = !matches!(pv.phase, Phase::SeatNew | Phase::Over);
                if this_hand && t.kind == TransferKind::Tax && self.pos[from] > self.pos[me] {
                    let worst = t.cards.cards().map(|c| c.index()).max().unwrap_or(1);
                    floor = Some((from, worst));
                }
            }
        }
        if let Some(h) = self.jester_holder.map(|h| h as usize) {
            if h != me && (pv.phase == Phase::Revolution || pv.revolution_by.is_some()) {
                let k = &mut known[h];
                k.0[JESTER] = 2;
                for t in &view.transfers {
                    if t.from.index() == h {
                        for c in t.cards.cards() {
                            if c.is_jester() {
                                k.0[JESTER] = k.0[JESTER].saturating_sub(1);
                            }
                        }
                    }
                }
            }
        }
        (unseen, known, floor)
    }

    /// The transfers of the hand: this seat's own exactly; others' cards
    /// made up from the receiver's sampled hand.
    fn draw_transfers(&mut self, view: &View) {
        let pv = &view.public;
        // transfers: mine exactly; others' cards made up from the receiver
        self.n_transfers = 0;
        let mut mine = view.transfers.iter();
        for e in &pv.exchanges {
            let t = if e.from == view.seat || e.to == view.seat {
                *mine.next().expect("own transfers match exchanges")
            } else {
                let h = self.hands[e.to.index()];
                let mut pick = || {
                    if !h.is_empty() {
                        h.nth(self.rng.random_range(0..h.len()))
                    } else {
                        Card::JESTER
                    }
                };
                let cards = if e.cards == 1 {
                    Gift::one(pick())
                } else {
                    Gift::two(pick(), pick())
                };
                Transfer {
                    from: e.from,
                    to: e.to,
                    cards,
                    kind: e.kind,
                }
            };
            self.transfers[self.n_transfers as usize] = t;
            self.n_transfers += 1;
        }
    }
}
