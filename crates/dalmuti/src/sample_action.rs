//! The list-free uniform sampler behind [`game::Game::random_action`]: a
//! legal action drawn with exactly the distribution of a uniform pick from
//! `legal_actions`, without building the list when leading or following a
//! trick (D9, D6), which is nearly every decision of a hand.
//!
//! Gifts (taxes D8, the market's card back D14) are drawn list-free too.
//! The rarest decisions (revolution D7, market D14, seating a newcomer D13)
//! and following with Jesters in hand on a set of 2 or more fall back to the
//! list, which is exact by construction.

use crate::action::{Action, Gift, Play};
use crate::card::{Card, Hand, JESTER};
use crate::role::Phase;
use crate::state::Dalmuti;
use crate::swar::{self, first_at_least, prefix_sums, HIGH};
use rand::Rng;

/// Every byte but the Jester's (byte 13).
const NATURALS: u128 = !(0xff << (8 * JESTER));

/// The card kinds of a hand, for drawing gifts (D8, D14).
struct Kinds {
    /// The kinds held, best first.
    held: [u8; JESTER],
    /// How many kinds are held.
    n_held: u32,
    /// The kinds held twice or more, best first.
    pairs: [u8; JESTER],
    /// How many kinds are held twice or more.
    n_pairs: u32,
}

impl Kinds {
    fn of(hand: &Hand) -> Kinds {
        let mut k = Kinds {
            held: [0; JESTER],
            n_held: 0,
            pairs: [0; JESTER],
            n_pairs: 0,
        };
        for i in 1..=JESTER {
            let c = hand.0[i];
            if c > 0 {
                k.held[k.n_held as usize] = i as u8;
                k.n_held += 1;
            }
            if c > 1 {
                k.pairs[k.n_pairs as usize] = i as u8;
                k.n_pairs += 1;
            }
        }
        k
    }

    /// The number of distinct gifts of `k` cards (1 or 2): one per kind,
    /// or a pair of one kind plus two distinct kinds.
    fn gifts(&self, k: usize) -> u32 {
        let d = self.n_held;
        if k == 1 {
            d
        } else {
            self.n_pairs + d * (d - 1) / 2
        }
    }

    /// The `u`-th gift of two cards of `hand` (whose kinds these are) in
    /// the list's order: by the first card, best first, its pair before
    /// it with each worse kind held.
    fn pair_listed(&self, hand: &Hand, u: u32) -> Gift {
        let card = |i: u8| Card::from_index(i as usize);
        let mut v = u;
        for x in 0..self.n_held {
            let i = self.held[x as usize];
            let pair = u32::from(hand.0[i as usize] >= 2);
            if v < pair {
                return Gift::two(card(i), card(i));
            }
            v -= pair;
            let rest = self.n_held - 1 - x;
            if v < rest {
                return Gift::two(card(i), card(self.held[(x + 1 + v) as usize]));
            }
            v -= rest;
        }
        unreachable!("a gift number below the number of gifts")
    }

    /// The `u`-th gift of `k` cards, a bijection from `0..self.gifts(k)`:
    /// first the pairs of one kind, then the two distinct kinds (i, j),
    /// i < j, row by row.
    fn gift(&self, k: usize, u: u32) -> Gift {
        let card = |i: u8| Card::from_index(i as usize);
        if k == 1 {
            return Gift::one(card(self.held[u as usize]));
        }
        if u < self.n_pairs {
            let c = card(self.pairs[u as usize]);
            return Gift::two(c, c);
        }
        // row i holds the n_held - 1 - i pairs (i, j > i)
        let mut v = u - self.n_pairs;
        let mut i = 0;
        while v >= self.n_held - 1 - i {
            v -= self.n_held - 1 - i;
            i += 1;
        }
        let j = i + 1 + v;
        Gift::two(card(self.held[i as usize]), card(self.held[j as usize]))
    }
}

impl Dalmuti {
    /// A uniformly random legal action of the seat to move (see the module
    /// doc). `scratch` holds the list on the rare decisions.
    ///
    /// # Panics
    /// If the session is over.
    #[inline]
    pub(crate) fn sample_action<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<Action>,
    ) -> Action {
        let k = match self.phase {
            Phase::Play => match self.trick {
                None => return self.sample_lead(rng),
                Some((last, _)) => {
                    if self.hands[self.turn as usize].jesters() == 0 || last.size() == 1 {
                        return self.sample_follow(last, rng);
                    }
                    0
                }
            },
            Phase::GreaterTax => self.tax_size(true),
            Phase::LesserTax => self.tax_size(false),
            Phase::MarketReturn => 1,
            Phase::SeatNew | Phase::Revolution | Phase::Market | Phase::Over => 0,
        };
        if k > 0 {
            let kinds = Kinds::of(&self.hands[self.turn as usize]);
            let u = rng.random_range(0..kinds.gifts(k));
            return Action::Give(kinds.gift(k, u));
        }
        self.legal_into(scratch);
        scratch[rng.random_range(0..scratch.len())]
    }

    /// A uniform pick from the list with the same draws and the same action
    /// as indexing `legal_actions` (see [`game::Game::pick_uniform`]),
    /// without the list where a number maps to the list's action: leads,
    /// follows with no Jester to add (the sampler's own numbering is the
    /// list's there), gifts of one or two cards; the list otherwise
    /// (following with Jesters on a set of 2 or more, the rare decisions).
    ///
    /// # Panics
    /// If the session is over.
    #[inline]
    pub(crate) fn pick_listed<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<Action>,
    ) -> Action {
        let hand = &self.hands[self.turn as usize];
        match self.phase {
            Phase::Play => match self.trick {
                None if hand.jesters() == 0 => return self.sample_lead(rng),
                None => {
                    let s = self.turn as usize;
                    let jc = hand.jesters() as u32;
                    let naturals = self.left[s] as u32 - jc;
                    let u = rng.random_range(0..naturals * (jc + 1) + jc);
                    return self.lead_listed(u);
                }
                Some((last, _)) if hand.jesters() == 0 || last.size() == 1 => {
                    return self.sample_follow(last, rng)
                }
                _ => {}
            },
            Phase::GreaterTax | Phase::LesserTax | Phase::MarketReturn => {
                let k = match self.phase {
                    Phase::GreaterTax => self.tax_size(true),
                    Phase::LesserTax => self.tax_size(false),
                    _ => 1,
                };
                if k == 1 || k == 2 {
                    let kinds = Kinds::of(hand);
                    let u = rng.random_range(0..kinds.gifts(k));
                    return Action::Give(if k == 1 {
                        kinds.gift(1, u)
                    } else {
                        kinds.pair_listed(hand, u)
                    });
                }
            }
            Phase::SeatNew | Phase::Revolution | Phase::Market | Phase::Over => {}
        }
        self.legal_into(scratch);
        scratch[rng.random_range(0..scratch.len())]
    }

    /// The `u`-th lead in the list's order (by rank, then size, then
    /// Jesters; Jesters alone last), for `u` in `0..naturals * (jc + 1) +
    /// jc`. Rank r's c natural cards give a run of c * (jc + 1) leads, so
    /// the q-th natural card, q = u / (jc + 1), names the rank.
    #[inline]
    fn lead_listed(&self, u: u32) -> Action {
        let s = self.turn as usize;
        let hand = &self.hands[s];
        let jc = hand.jesters() as u32;
        let with_naturals = (self.left[s] as u32 - jc) * (jc + 1);
        if u >= with_naturals {
            // Jesters alone rank 13 (D6)
            return Action::Play(Play::raw(JESTER as u8, 0, (u - with_naturals + 1) as u8));
        }
        let q = u / (jc + 1);
        let sums = prefix_sums(hand.lanes() & NATURALS);
        let r = first_at_least(sums, q + 1);
        let before = swar::byte(sums, r - 1);
        let c = hand.0[r as usize] as u32;
        // the offset in rank r's run: sizes 1.., each with Jesters from
        // max(0, size - c) to min(jc, size - 1)
        let mut o = u - before * (jc + 1);
        let mut size = 1u32;
        loop {
            let (jlo, jhi) = (size.saturating_sub(c), jc.min(size - 1));
            let n = jhi + 1 - jlo;
            if o < n {
                let j = jlo + o;
                return Action::Play(Play::raw(r as u8, (size - j) as u8, j as u8));
            }
            o -= n;
            size += 1;
        }
    }

    /// Leading a trick (D9, D6): each rank r held c times gives c * (jc + 1)
    /// sets (1..=c naturals, 0..=jc Jesters), plus jc sets of Jesters alone.
    #[inline(always)]
    fn sample_lead<R: Rng + ?Sized>(&self, rng: &mut R) -> Action {
        let s = self.turn as usize;
        let jc = self.hands[s].jesters() as u32;
        let naturals = self.left[s] as u32 - jc;
        let u = rng.random_range(0..naturals * (jc + 1) + jc);
        self.lead_nth(u)
    }

    /// The `u`-th lead, a bijection from `0..naturals * (jc + 1) + jc` onto
    /// the leads. A number below `naturals * (jc + 1)` is read as (the q-th
    /// natural card held, j Jesters): the q-th card is the n-th of its
    /// rank, which makes the set of n naturals plus j Jesters.
    #[inline(always)]
    fn lead_nth(&self, u: u32) -> Action {
        let s = self.turn as usize;
        let hand = &self.hands[s];
        let jc = hand.jesters() as u32;
        let with_naturals = (self.left[s] as u32 - jc) * (jc + 1);
        if u >= with_naturals {
            // Jesters alone rank 13 (D6)
            return Action::Play(Play::raw(JESTER as u8, 0, (u - with_naturals + 1) as u8));
        }
        let (q, j) = match jc {
            0 => (u, 0),
            1 => (u >> 1, u & 1),
            _ => (u / 3, u % 3),
        };
        // sums[r] = naturals held of ranks 1..=r; the q-th natural card
        // (0-based) is of the first rank r with sums[r] > q
        let sums = prefix_sums(hand.lanes() & NATURALS);
        let r = first_at_least(sums, q + 1);
        let before = swar::byte(sums, r - 1);
        Action::Play(Play::raw(r as u8, (q - before + 1) as u8, j as u8))
    }

    /// Following a trick with no Jester to add (D9): `pass`, or the set of
    /// the same size of any better rank held at least that many times.
    #[inline(always)]
    fn sample_follow<R: Rng + ?Sized>(&self, last: Play, rng: &mut R) -> Action {
        let ranks = self.follow_ranks(last) >> 7;
        let sums = prefix_sums(ranks);
        let u = rng.random_range(0..swar::last(sums) + 1);
        Self::follow_nth(last, sums, u)
    }

    /// The high bit of byte r is set iff rank r beats `last` and is held at
    /// least `last.size()` times.
    #[inline(always)]
    fn follow_ranks(&self, last: Play) -> u128 {
        let x = self.hands[self.turn as usize].lanes() | HIGH;
        let below = swar::better_than(last.rank() as u32);
        swar::sub_each(x, last.size() as u32) & below
    }

    /// The `u`-th follow (0 = `pass`), for `u` in `0..=` the number of
    /// ranks that beat `last`, given their running count `sums` (byte r:
    /// how many of ranks 1..=r qualify).
    #[inline(always)]
    fn follow_nth(last: Play, sums: u128, u: u32) -> Action {
        if u == 0 {
            return Action::Pass;
        }
        // the u-th qualifying rank: the first whose running count reaches u
        let r = first_at_least(sums, u);
        Action::Play(Play::raw(r as u8, last.size(), 0))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Action, Dalmuti, Options, Phase};
    use game::Game;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Every number of the sampler's range maps to a distinct legal action
    /// and every legal action is hit: the draw is exactly uniform.
    #[test]
    fn leads_follows_and_gifts_are_bijections() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut legal = Vec::new();
        let mut checked = 0;
        let mut gifts_checked = 0;
        let mut returns_checked = 0;
        for (players, seed) in (3..=13).flat_map(|p| (0..20u64).map(move |s| (p, s))) {
            let opts = Options {
                hands: 2,
                standard_deck: seed % 2 == 0,
                market: seed % 3 == 0,
                ..Options::default()
            };
            let mut g = Dalmuti::new(&opts, players, seed).unwrap();
            while g.to_move().is_some() {
                g.legal_actions(&mut legal);
                let gift = match g.phase {
                    Phase::GreaterTax => g.tax_size(true),
                    Phase::LesserTax => g.tax_size(false),
                    Phase::MarketReturn => 1,
                    _ => 0,
                };
                gifts_checked += (gift > 0) as usize;
                returns_checked += (g.phase == Phase::MarketReturn) as usize;
                let mut got: Vec<Action> = if gift > 0 {
                    let kinds = super::Kinds::of(&g.hands[g.turn as usize]);
                    (0..kinds.gifts(gift))
                        .map(|u| Action::Give(kinds.gift(gift, u)))
                        .collect()
                } else if g.phase != Phase::Play {
                    Vec::new()
                } else if let Some((last, _)) = g.trick {
                    if g.hands[g.turn as usize].jesters() == 0 || last.size() == 1 {
                        let m = g.follow_ranks(last);
                        let sums = crate::swar::prefix_sums(m >> 7);
                        assert_eq!((sums >> 120) as u32, m.count_ones());
                        (0..=m.count_ones())
                            .map(|u| Dalmuti::follow_nth(last, sums, u))
                            .collect()
                    } else {
                        Vec::new()
                    }
                } else {
                    let s = g.turn as usize;
                    let jc = g.hands[s].jesters() as u32;
                    let n = (g.left[s] as u32 - jc) * (jc + 1) + jc;
                    (0..n).map(|u| g.lead_nth(u)).collect()
                };
                if !got.is_empty() {
                    let n = got.len();
                    got.sort_by_key(|a| a.to_string());
                    got.dedup();
                    assert_eq!(got.len(), n, "two numbers give one action");
                    let mut want = legal.clone();
                    want.sort_by_key(|a| a.to_string());
                    assert_eq!(got, want);
                    checked += 1;
                }
                let a = legal[rng.random_range(0..legal.len())];
                g.apply_unchecked(a);
            }
        }
        assert!(checked > 10_000, "{checked}");
        assert!(gifts_checked > 500, "{gifts_checked}");
        assert!(returns_checked > 10, "{returns_checked}");
    }

    /// `pick_uniform` takes the same action with the same draws as a pick
    /// from the list, in every phase (the simulator's figures rest on it).
    #[test]
    fn pick_uniform_draws_as_the_list() {
        use rand_chacha::ChaCha8Rng;
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let (mut legal, mut scratch) = (Vec::new(), Vec::new());
        let (mut checked, mut jester_leads, mut two_card_gifts) = (0, 0, 0);
        for (players, seed) in (3..=13).flat_map(|p| (0..12u64).map(move |s| (p, s))) {
            let opts = Options {
                hands: 2,
                standard_deck: seed % 2 == 0,
                market: seed % 3 == 0,
                ..Options::default()
            };
            let mut g = Dalmuti::new(&opts, players, seed).unwrap();
            while g.to_move().is_some() {
                let hand = &g.hands[g.turn as usize];
                jester_leads +=
                    usize::from(g.phase == Phase::Play && g.trick.is_none() && hand.jesters() > 0);
                two_card_gifts += usize::from(
                    g.phase == Phase::GreaterTax && g.tax_size(true) == 2
                        || g.phase == Phase::LesserTax && g.tax_size(false) == 2,
                );
                let mut list_rng = rng.clone();
                let a = g.pick_uniform(&mut rng, &mut scratch);
                g.legal_actions(&mut legal);
                let b = legal[list_rng.random_range(0..legal.len())];
                assert_eq!(a, b, "{g:?}");
                assert_eq!(rng, list_rng, "not the same draws");
                g.apply_unchecked(a);
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
        assert!(jester_leads > 200, "{jester_leads}");
        assert!(two_card_gifts > 200, "{two_card_gifts}");
    }
}
