//! The heuristic bot for The Great Dalmuti: a handful of card-player's rules
//! of thumb, decided from the seat's own view only.
//!
//! Strategy:
//! - **Play:** go out whenever one play empties the hand. The bot counts
//!   the cards no one else can still hold (the deck minus its hand minus
//!   every card played this hand): a *sure winner* is a set no opponent can
//!   beat (no better rank is left in numbers, Jesters included, nor does
//!   any opponent hold that many cards). When a play is a sure winner and
//!   every set left after it but one is a sure winner too, it plays it:
//!   it then keeps the lead and leads its sure winners, the last (worst)
//!   set with any Jesters going out. Otherwise it leads its worst
//!   (highest-rank) complete set, keeping sure winners and Jesters back
//!   (leading a good set early wastes it), and follows with the worst set
//!   that beats the trick: a whole set rather than a broken one (breaking
//!   a set weighs as much as five ranks), a Jester only late in the hand
//!   (a dozen cards left) and strong cards (ranks 1..=3) not while the
//!   hand is still long, so that they win a trick and regain the lead
//!   later.
//! - **Taxes and market:** give away the worst cards, preferring loose
//!   singles over cards that belong to a set; never a Jester. The market is
//!   declined (a trade with a stronger partner is a wash at best).
//! - **Revolution:** declare it as a Peon (a Great Revolution as Greater
//!   Peon turns the table over, a plain one spares a Lesser Peon the tax);
//!   keep quiet as a Dalmuti or Merchant, who gain from taxes or do not care.
//! - **Seating a newcomer:** above the middle (no real effect on us).
//!
//! The bot is deterministic given its seed and view; the seed only breaks
//! ties between equally good actions.

use crate::Bot;
use dalmuti::{Action, Card, Dalmuti, Gift, Hand, Phase, Play, Role, Side, View, JESTER};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Heuristic player for The Great Dalmuti (see the module docs).
#[derive(Clone, Debug)]
pub struct Heuristic {
    rng: ChaCha8Rng,
}

impl Heuristic {
    /// A heuristic bot; `seed` only breaks ties.
    pub fn new(seed: u64) -> Heuristic {
        Heuristic {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Picks the action with the highest score, ties broken at random.
    fn best(&mut self, legal: &[Action], score: impl FnMut(Action) -> i32) -> Action {
        best(&mut self.rng, legal, score)
    }
}

/// How much we want to get rid of `card`: its rank, Jesters never.
pub(crate) fn badness(card: Card) -> i32 {
    if card.is_jester() {
        -100
    } else {
        card.index() as i32
    }
}

/// A gift's value to give away: bad cards first, loose singles first.
fn gift_score(hand: &Hand, g: Gift) -> i32 {
    g.cards()
        .map(|c| badness(c) * 4 + if hand.count(c) == 1 { 3 } else { 0 })
        .sum()
}

/// What the seat can tell about the cards it cannot see.
pub(crate) struct Table {
    /// Cards neither in our hand nor played this hand: the opponents' hands.
    pub(crate) unseen: Hand,
    /// The most cards an opponent still in the hand holds.
    max_opp: u8,
}

impl Table {
    pub(crate) fn new(view: &View) -> Table {
        let pv = &view.public;
        let mut seen = view.hand;
        for p in &pv.played {
            seen.add_all(p);
        }
        let mut unseen = Hand::EMPTY;
        for c in Card::all() {
            let n = pv.deck.count(c).saturating_sub(seen.count(c));
            unseen.add(c, n);
        }
        let me = view.seat.index();
        let max_opp = (0..pv.players)
            .filter(|&s| s != me)
            .map(|s| pv.cards_left[s])
            .max()
            .unwrap_or(0);
        Table { unseen, max_opp }
    }

    /// Whether some opponent might beat `size` cards of rank `rank`.
    pub(crate) fn beatable(&self, rank: u8, size: u8) -> bool {
        if size > self.max_opp {
            return false;
        }
        let j = self.unseen.jesters();
        (1..rank.min(JESTER as u8)).any(|q| {
            let c = self.unseen.count(Card::from_index(q as usize));
            c > 0 && c + j >= size
        })
    }

    /// How many leads `hand` still needs that may be beaten: the sets no
    /// opponent can beat are leads that keep the lead; the Jesters ride
    /// along with the last set.
    pub(crate) fn losers(&self, hand: &Hand) -> usize {
        let mut groups = 0;
        let mut losers = 0;
        for r in 1..JESTER {
            let c = hand.count(Card::from_index(r));
            if c > 0 {
                groups += 1;
                if self.beatable(r as u8, c) {
                    losers += 1;
                }
            }
        }
        if groups == 0 && hand.jesters() > 0 {
            1
        } else {
            losers
        }
    }
}

/// The hand left after playing `p`.
pub(crate) fn after(hand: &Hand, p: Play) -> Hand {
    let mut h = *hand;
    if p.naturals() > 0 {
        h.remove(p.card(), p.naturals());
    }
    h.remove(Card::JESTER, p.jesters());
    h
}

/// Hands of at most this many cards may spend Jesters on a trick.
const JESTER_LATE: usize = 12;
/// Ranks this good are not spent following a trick ...
const STRONG: u8 = 3;
/// ... while the hand holds more than this many cards.
const LONG: usize = 10;

/// Scores a play; `None` means "rather pass".
fn play_score(hand: &Hand, t: &Table, p: Play, leading: bool) -> Option<i32> {
    let left = hand.len();
    if p.size() as usize == left {
        return Some(100_000); // going out
    }
    let rest = after(hand, p);
    let sure = p.naturals() > 0 && !t.beatable(p.rank(), p.size());
    // a set nobody can beat, after which every lead but the last is one
    // nobody can beat either: we keep the lead until we are out
    if sure && t.losers(&rest) <= 1 {
        return Some(50_000 + p.rank() as i32 * 10 - p.jesters() as i32 * 100);
    }
    if p.naturals() == 0 {
        // Jesters alone: only as a last resort late in the hand
        return if left <= JESTER_LATE { Some(1) } else { None };
    }
    if p.jesters() > 0 && left > JESTER_LATE {
        return None;
    }
    if !leading && p.rank() <= STRONG && left > LONG {
        return None; // keep the strongest cards to regain the lead later
    }
    let breaks = p.naturals() < hand.count(p.card());
    // prefer shedding bad ranks and big sets; a broken set or a Jester
    // only when nothing else fits
    Some(p.rank() as i32 * 10 + p.size() as i32 * 3 - p.jesters() as i32 * 25 - breaks as i32 * 50)
}

impl Bot<Dalmuti> for Heuristic {
    fn name(&self) -> &'static str {
        "heuristic"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let hand = view.hand;
        let pv = &view.public;
        let me = view.seat;
        let role = pv.roles.get(me.index()).copied().unwrap_or(Role::Merchant);
        match pv.phase {
            Phase::Revolution => {
                let want = matches!(role, Role::GreaterPeon | Role::LesserPeon);
                let a = if want {
                    Action::Revolution
                } else {
                    Action::NoRevolution
                };
                if legal.contains(&a) {
                    a
                } else {
                    legal[0]
                }
            }
            Phase::SeatNew => {
                let a = Action::SeatNew(Side::Above);
                if legal.contains(&a) {
                    a
                } else {
                    legal[0]
                }
            }
            Phase::Market => {
                if legal.contains(&Action::NoMarket) {
                    Action::NoMarket
                } else {
                    legal[0]
                }
            }
            Phase::GreaterTax | Phase::LesserTax | Phase::MarketReturn => {
                self.best(legal, |a| match a {
                    Action::Give(g) => gift_score(&hand, g),
                    Action::Pass
                    | Action::Play(_)
                    | Action::Revolution
                    | Action::NoRevolution
                    | Action::Market(..)
                    | Action::BlackMarket(_)
                    | Action::NoMarket
                    | Action::SeatNew(_) => i32::MIN + 1,
                })
            }
            Phase::Play | Phase::Over => {
                let leading = pv.trick.is_none();
                let table = Table::new(view);
                self.best(legal, |a| match a {
                    Action::Play(p) => play_score(&hand, &table, p, leading).unwrap_or(-1_000),
                    Action::Pass => -500,
                    Action::Give(_)
                    | Action::Revolution
                    | Action::NoRevolution
                    | Action::Market(..)
                    | Action::BlackMarket(_)
                    | Action::NoMarket
                    | Action::SeatNew(_) => i32::MIN + 1,
                })
            }
        }
    }
}

/// The best-scored legal action, ties broken at random by `rng`.
pub(crate) fn best(
    rng: &mut ChaCha8Rng,
    legal: &[Action],
    mut score: impl FnMut(Action) -> i32,
) -> Action {
    let mut best = legal[0];
    let mut best_score = i32::MIN;
    let mut ties = 0;
    for &a in legal {
        let s = score(a);
        if s > best_score {
            best = a;
            best_score = s;
            ties = 1;
        } else if s == best_score {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                best = a;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::{Game, GameOptions, Seat};

    fn play_sessions(games: u64) -> (u64, u64) {
        let mut opts = dalmuti::Options::default();
        opts.set("hands", "10").unwrap();
        let mut firsts = 0;
        for g in 0..games {
            let hero = (g % 4) as usize;
            let mut game = Dalmuti::new(&opts, 4, g).unwrap();
            let mut bots: Vec<Box<dyn Bot<Dalmuti>>> = (0..4)
                .map(|s| -> Box<dyn Bot<Dalmuti>> {
                    if s == hero {
                        Box::new(Heuristic::new(g))
                    } else {
                        Box::new(crate::RandomBot::new(g * 7 + s as u64))
                    }
                })
                .collect();
            let mut legal = Vec::new();
            while let Some(seat) = game.to_move() {
                game.legal_actions(&mut legal);
                let a = bots[seat.index()].choose(&game.view(seat), &legal);
                game.apply(a).unwrap();
            }
            let out = game.outcome().unwrap();
            if out.winners.contains(&Seat::new(hero)) {
                firsts += 1;
            }
        }
        (firsts, games)
    }

    fn hand(cards: &[(usize, u8)]) -> Hand {
        let mut h = Hand::EMPTY;
        for &(r, n) in cards {
            h.add(Card::from_index(r), n);
        }
        h
    }

    fn table(unseen: Hand, max_opp: u8) -> Table {
        Table { unseen, max_opp }
    }

    #[test]
    fn sure_winners() {
        // opponents hold a 2, two 5s and a Jester
        let t = table(hand(&[(2, 1), (5, 2), (JESTER, 1)]), 10);
        assert!(!t.beatable(2, 1));
        assert!(t.beatable(3, 1));
        assert!(!t.beatable(3, 3), "no three cards better than 3 are left");
        assert!(t.beatable(6, 3), "two 5s and a Jester");
        assert!(!t.beatable(6, 4));
        // nobody holds enough cards
        assert!(!table(hand(&[(1, 1), (JESTER, 1)]), 1).beatable(9, 2));
        // losers: the 8 is beatable, the 1 and the three 4s are not
        let mine = hand(&[(1, 1), (4, 3), (8, 1), (JESTER, 1)]);
        assert_eq!(t.losers(&mine), 1);
        assert_eq!(t.losers(&hand(&[(JESTER, 2)])), 1);
    }

    #[test]
    fn keeps_the_lead_to_go_out() {
        let t = table(hand(&[(2, 1), (5, 2), (6, 4), (9, 3), (JESTER, 1)]), 10);
        let mine = hand(&[(1, 1), (4, 3), (8, 1)]);
        let score = |p: Play| play_score(&mine, &t, p, true).unwrap_or(-1_000);
        let one = Play::new(Card::from_index(1), 1, 0).unwrap();
        let fours = Play::new(Card::from_index(4), 3, 0).unwrap();
        let eight = Play::new(Card::from_index(8), 1, 0).unwrap();
        // both sure winners before the 8, which goes out last
        assert!(score(fours) > score(eight));
        assert!(score(one) > score(eight));
        // with two sets that can be beaten, lead the worst
        let mine = hand(&[(1, 1), (7, 2), (8, 1)]);
        let score = |p: Play| play_score(&mine, &t, p, true).unwrap_or(-1_000);
        let sevens = Play::new(Card::from_index(7), 2, 0).unwrap();
        assert!(score(eight) > score(sevens));
        assert!(score(eight) > score(one));
        // going out beats everything
        let last = hand(&[(9, 2)]);
        let out = Play::new(Card::from_index(9), 2, 0).unwrap();
        assert_eq!(play_score(&last, &t, out, false), Some(100_000));
    }

    #[test]
    fn beats_random_bots() {
        let (firsts, games) = play_sessions(40);
        eprintln!("heuristic first in {firsts}/{games} sessions");
        assert!(firsts * 100 >= games * 70, "{firsts}/{games} first places");
    }
}
