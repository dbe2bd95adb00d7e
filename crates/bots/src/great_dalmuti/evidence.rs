//! Pass evidence: what the seat learned from its rivals' passes, read by
//! `strong`'s odds and by the `search` bot's sampler (a determinization
//! weighed by it).
//!
//! Why it is shaped so: the game's own sampler
//! ([`game::Game::sample_from_view`]) keeps only what is certain, so every
//! iteration deals a rival who has just passed on a pair of 5s the pair of
//! 3s it plainly does not hold. A rival who passed on `n` cards of rank `r`
//! (D9) probably held no `n` cards better than `r` (naturals, or naturals
//! topped up with Jesters, D6), and since a hand only shrinks while it is
//! played this stays true until the hand ends. Passes are not proof (a
//! player may save its best ranks, or refuse to break a set), so the
//! evidence is soft: like `strong`'s memory it leaves out what a rule-based
//! player saves anyway (ranks 1..=3 while it holds more than 10 cards,
//! Jesters while it holds more than 12), and a sample that contradicts it
//! is only *likelier to be redrawn*.
//!
//! The sampler is rejection on top of the game's sampler: every candidate
//! is one of its samples, so a determinization never contradicts the view
//! (it may use only what the view shows); a candidate with `v` broken
//! bounds is kept with chance `(1 - trust)^v`, and after `tries` draws the
//! candidate with the fewest broken bounds is used. The game's sampler
//! itself is unchanged (other code relies on its uniform draw).
//!
//! Off by default: measured against four `strong` it did not help (see
//! [`super::search`]'s module docs).
//!
//! Like `strong`, the bot sees only its views, so it learns the passes on
//! the trick it is shown (a pass on a play that was later beaten before
//! its turn is not seen).

use dalmuti::{Card, Dalmuti, Hand, Phase, View, JESTER};
use game::{Game, Seat};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Seats the bounds can hold (the rules allow 13).
const SEATS: usize = 16;
/// Rule-based players follow with ranks this good only late in the hand ...
pub(crate) const STRONG: usize = 3;
/// ... with at most this many cards,
pub(crate) const LONG: u8 = 10;
/// ... and spend Jesters with at most this many.
pub(crate) const JESTER_LATE: u8 = 12;

/// What the seat learned from passes in the hand being played: upper
/// bounds on each rival's holding of each rank.
#[derive(Clone, Debug)]
pub struct Evidence {
    /// The hand these bounds belong to.
    hand_number: u32,
    /// Cards played this hand when last updated (a drop means a new hand).
    played: usize,
    /// The seat whose views these are.
    me: usize,
    /// Most naturals of each rank each seat may hold.
    naturals: [[u8; JESTER + 1]; SEATS],
    /// Most naturals plus Jesters of each rank (when it holds one at
    /// least) each seat may hold.
    with_jesters: [[u8; JESTER + 1]; SEATS],
    /// Whether any bound is set.
    any: bool,
}

impl Default for Evidence {
    fn default() -> Evidence {
        Evidence {
            hand_number: 0,
            played: 0,
            me: usize::MAX,
            naturals: [[u8::MAX; JESTER + 1]; SEATS],
            with_jesters: [[u8::MAX; JESTER + 1]; SEATS],
            any: false,
        }
    }
}

impl Evidence {
    /// Brings the bounds up to `view`: forgets a finished hand (or another
    /// seat's), then records the passes on the trick shown.
    pub fn update(&mut self, view: &View) {
        let pv = &view.public;
        let played: usize = pv.played.iter().map(Hand::len).sum();
        let me = view.seat.index();
        if pv.hand_number != self.hand_number
            || played < self.played
            || pv.phase != Phase::Play
            || me != self.me
        {
            *self = Evidence::default();
            self.hand_number = pv.hand_number;
            self.me = me;
        }
        self.played = played;
        let Some(trick) = pv.trick else { return };
        let (r, n) = (trick.play.rank() as usize, trick.play.size());
        for s in &pv.passed {
            let o = s.index();
            if o == me || o >= SEATS {
                continue;
            }
            let m = pv.cards_left.get(o).copied().unwrap_or(0);
            let lo = if m > LONG { STRONG + 1 } else { 1 };
            for q in lo..r.min(JESTER) {
                self.naturals[o][q] = self.naturals[o][q].min(n - 1);
                if m <= JESTER_LATE {
                    self.with_jesters[o][q] = self.with_jesters[o][q].min(n - 1);
                }
                self.any = true;
            }
        }
    }

    /// The most naturals of rank `rank` that seat `seat` may hold
    /// (`u8::MAX`: no bound).
    pub(crate) fn naturals(&self, seat: usize, rank: usize) -> u8 {
        self.naturals[seat][rank]
    }

    /// The most naturals plus Jesters of rank `rank` that seat `seat` may
    /// hold when it holds one at least (`u8::MAX`: no bound).
    pub(crate) fn with_jesters(&self, seat: usize, rank: usize) -> u8 {
        self.with_jesters[seat][rank]
    }

    /// Whether any bound is known.
    pub fn is_empty(&self) -> bool {
        !self.any
    }

    /// How many bounds the full state `g` breaks (0: it agrees with every
    /// pass seen).
    pub fn broken(&self, g: &Dalmuti) -> u32 {
        if !self.any {
            return 0;
        }
        let mut v = 0;
        for o in 0..g.players().min(SEATS) {
            if o == self.me {
                continue;
            }
            let h = g.hand(Seat::new(o));
            let j = h.jesters();
            for q in 1..JESTER {
                let c = h.count(Card::from_index(q));
                if c > self.naturals[o][q] || (c > 0 && c + j > self.with_jesters[o][q]) {
                    v += 1;
                }
            }
        }
        v
    }

    /// A determinization of `view` weighed by the evidence (see the module
    /// docs): at most `tries` draws of the game's sampler, each kept with
    /// chance `(1 - trust)^broken`; else the draw that broke the fewest.
    pub fn sample(&self, view: &View, trust: f64, tries: u32, rng: &mut ChaCha8Rng) -> Dalmuti {
        let mut best = Dalmuti::sample_from_view(view, rng);
        if self.is_empty() || trust <= 0.0 || view.seat.index() != self.me {
            return best;
        }
        let mut best_v = self.broken(&best);
        let keep = |v: u32, rng: &mut ChaCha8Rng| {
            v == 0 || rng.random::<f64>() < (1.0 - trust).powi(v as i32)
        };
        if keep(best_v, rng) {
            return best;
        }
        for _ in 1..tries {
            let g = Dalmuti::sample_from_view(view, rng);
            let v = self.broken(&g);
            if keep(v, rng) {
                return g;
            }
            if v < best_v {
                best = g;
                best_v = v;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bot, Roster};
    use rand::SeedableRng;

    /// Plays hands with rule-based players; at every view of one seat
    /// with some evidence, the weighed sampler's states agree with the
    /// view exactly (own hand, card counts, every hidden card accounted
    /// for) and, given enough tries, break no bound when the game's
    /// sampler can find such states.
    #[test]
    fn weighed_samples_agree_with_the_view_and_the_passes() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut legal = Vec::new();
        let mut checked = 0;
        let mut fewer = 0;
        for seed in 0..30 {
            let opts = dalmuti::Options {
                hands: 1,
                ..dalmuti::Options::default()
            };
            let players = 4 + (seed as usize % 3);
            let mut g = Dalmuti::new(&opts, players, seed).expect("a game");
            let mut bots: Vec<Box<dyn Bot<Dalmuti>>> = (0..players)
                .map(|s| Dalmuti::bot("heuristic", seed * 10 + s as u64).expect("bot"))
                .collect();
            let hero = Seat::new(seed as usize % players);
            let mut ev = Evidence::default();
            while let Some(s) = g.to_move() {
                let view = g.view(s);
                if s == hero {
                    ev.update(&view);
                    if !ev.is_empty() {
                        // the real state agrees with every hard bound it
                        // could break only through a strategic pass
                        let plain: u32 = (0..20)
                            .map(|_| ev.broken(&Dalmuti::sample_from_view(&view, &mut rng)))
                            .sum();
                        let mut weighed = 0;
                        for _ in 0..20 {
                            let x = ev.sample(&view, 1.0, 64, &mut rng);
                            weighed += ev.broken(&x);
                            assert_eq!(x.hand(hero), view.hand);
                            assert_eq!(x.phase(), view.public.phase);
                            for o in 0..players {
                                let o = Seat::new(o);
                                assert_eq!(x.cards_left(o) as usize, x.hand(o).len());
                                assert_eq!(x.cards_left(o), view.public.cards_left[o.index()]);
                            }
                            // the view the sample gives this seat is the view
                            assert_eq!(x.view(hero), view);
                        }
                        assert!(weighed <= plain, "{weighed} > {plain}");
                        if weighed < plain {
                            fewer += 1;
                        }
                        checked += 1;
                    }
                }
                g.legal_actions(&mut legal);
                let a = bots[s.index()].choose(&view, &legal);
                g.apply(a).expect("legal");
            }
        }
        assert!(checked > 100, "{checked}");
        assert!(fewer > 20, "{fewer}");
    }

    /// A pass on a trick bounds that rival's better sets (ranks 1..=3
    /// only once it is down to 10 cards); the bounds are forgotten when
    /// a new hand starts; `broken` counts exactly the bounds a state
    /// exceeds.
    #[test]
    fn a_pass_bounds_better_sets() {
        let opts = dalmuti::Options {
            hands: 2,
            ..dalmuti::Options::default()
        };
        let mut bounded = 0;
        let mut resets = 0;
        let mut broken = 0;
        for seed in 0..20 {
            let mut g = Dalmuti::new(&opts, 5, seed).expect("a game");
            let mut bots: Vec<Box<dyn Bot<Dalmuti>>> = (0..5)
                .map(|s| Dalmuti::bot("heuristic", seed + s).expect("bot"))
                .collect();
            let mut legal = Vec::new();
            let mut ev = Evidence::default();
            let hero = Seat::new(seed as usize % 5);
            while let Some(s) = g.to_move() {
                let view = g.view(s);
                if s == hero {
                    let before = ev.hand_number;
                    ev.update(&view);
                    if before != 0 && before != view.public.hand_number {
                        resets += 1;
                        // only this view's passes are known now
                        if view.public.passed.is_empty() {
                            assert!(ev.is_empty());
                        }
                    }
                    if let Some(t) = view.public.trick {
                        let (r, n) = (t.play.rank() as usize, t.play.size());
                        for p in &view.public.passed {
                            let o = p.index();
                            let lo = if view.public.cards_left[o] > LONG {
                                4
                            } else {
                                1
                            };
                            for q in lo..r.min(JESTER) {
                                assert!(ev.naturals[o][q] < n, "{o} {q}");
                                bounded += 1;
                            }
                        }
                    }
                    // broken counts the bounds the real state exceeds
                    let mut v = 0;
                    for o in (0..5).filter(|&o| o != hero.index()) {
                        let h = g.hand(Seat::new(o));
                        for q in 1..JESTER {
                            let c = h.count(Card::from_index(q));
                            if c > ev.naturals[o][q]
                                || (c > 0 && c + h.jesters() > ev.with_jesters[o][q])
                            {
                                v += 1;
                            }
                        }
                    }
                    assert_eq!(ev.broken(&g), v);
                    broken += v;
                }
                g.legal_actions(&mut legal);
                let a = bots[s.index()].choose(&view, &legal);
                g.apply(a).expect("legal");
            }
        }
        assert!(bounded > 100, "{bounded}");
        assert!(resets > 5, "{resets}");
        // rule-based players mostly pass when they cannot play
        let _ = broken;
    }
}
