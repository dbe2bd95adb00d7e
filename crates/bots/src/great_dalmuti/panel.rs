//! The sparring panel for Dalmuti: bots unlike each other and unlike the
//! ladder, for measuring the ladder against strangers (`ratrace tournament
//! --panel`). Not server levels.
//!
//! The ladder (`heuristic`, `strong`, `search`) plays one way: shed bad
//! cards, keep good ones and Jesters, count what is left. A ladder tuned
//! only against itself may lean on that, so the panel plays other ways,
//! each a sensible player with one marked habit:
//!
//! | name | style |
//! |---|---|
//! | `hoarder` | hoards the Jesters: never spends one except to go out; never gives one away; no black market (it could lose one) |
//! | `leadhigh` | leads its *best* sets (ranks 1..=6, lowest first) to take control early, keeping only its very best rank to get back in, then the rest worst first; follows cheaply; declares a revolution unless it is a Dalmuti |
//! | `nopass` | never passes while it can play: always the cheapest play that beats; always declares a revolution; trades at any market |
//! | `shedder` | leads its *biggest* set first (Jesters to make it bigger late), follows with anything but strong cards; taxes away loose singles |
//! | `saver` | keeps ranks 1..=3 and the Jesters for the end: plays them only once at most two weaker sets are left; declines every market |
//! | `breaker` | thinks card by card: leads its worst rank a card or a pair at a time, follows with the worst cards that beat, splitting sets freely |
//!
//! None of them counts the cards played (that is the ladder's skill): each
//! decides from its own hand, the trick, its role and the card counts in
//! its [`View`]. They share one frame (`Panel`): a play that empties the
//! hand is always taken (every player goes out when it can, D11), ties are
//! broken by the bot's seeded RNG, and each phase (revolution D7, taxes D8,
//! market D14, seating a newcomer D13, play D9) is put to the style's own
//! rule. A style is a few scoring functions in its own module.

mod breaker;
mod hoarder;
mod leadhigh;
mod nopass;
mod saver;
mod shedder;

use super::heuristic::best;
use crate::{Bot, BotRng};
use dalmuti::{Action, Card, Dalmuti, Gift, Hand, Phase, Play, Role, Side, View, JESTER};
use rand::SeedableRng;

/// The panel's bot names.
pub const NAMES: &[&str] = &[
    "hoarder", "leadhigh", "nopass", "shedder", "saver", "breaker",
];

/// The panel bot named `name`, seeded with `seed`; `None` for a name not
/// in [`NAMES`].
pub fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<Dalmuti>>> {
    Some(match name {
        "hoarder" => Box::new(Panel::new(hoarder::Hoarder, seed)),
        "leadhigh" => Box::new(Panel::new(leadhigh::LeadHigh, seed)),
        "nopass" => Box::new(Panel::new(nopass::NoPass, seed)),
        "shedder" => Box::new(Panel::new(shedder::Shedder, seed)),
        "saver" => Box::new(Panel::new(saver::Saver, seed)),
        "breaker" => Box::new(Panel::new(breaker::Breaker, seed)),
        _ => return None,
    })
}

/// What a panel bot sees when it decides: its view, cut into the few
/// things the styles look at.
pub(crate) struct Ctx<'a> {
    /// The whole view, for anything else.
    pub(crate) view: &'a View,
    /// Our cards.
    pub(crate) hand: Hand,
    /// How many.
    pub(crate) left: usize,
    /// Our role this hand (D4).
    pub(crate) role: Role,
}

impl<'a> Ctx<'a> {
    fn new(view: &'a View) -> Ctx<'a> {
        let role = view
            .public
            .roles
            .get(view.seat.index())
            .copied()
            .unwrap_or(Role::Merchant);
        Ctx {
            view,
            hand: view.hand,
            left: view.hand.len(),
            role,
        }
    }

    /// Whether `p` leaves some cards of its rank behind (splits a set).
    pub(crate) fn breaks(&self, p: Play) -> bool {
        p.naturals() > 0 && p.naturals() < self.hand.count(p.card())
    }

    /// How many cards of `card` we hold.
    pub(crate) fn count(&self, card: Card) -> u8 {
        self.hand.count(card)
    }

    /// The cards left of the market partner `seat`.
    pub(crate) fn cards_of(&self, seat: game::Seat) -> u8 {
        self.view
            .public
            .cards_left
            .get(seat.index())
            .copied()
            .unwrap_or(0)
    }
}

/// Distinct natural ranks in `h` (the leads it still needs, Jesters
/// riding along).
pub(crate) fn groups(h: &Hand) -> usize {
    (1..JESTER)
        .filter(|&r| h.count(Card::from_index(r)) > 0)
        .count()
}

/// The worth of a card to keep: its rank (lower is better), Jesters as
/// good as a 1 because they are wild (D6).
pub(crate) fn rank_of(card: Card) -> i32 {
    if card.is_jester() {
        1
    } else {
        card.index() as i32
    }
}

/// The sum of `f` over a gift's cards.
pub(crate) fn gift_sum(g: Gift, f: impl Fn(Card) -> i32) -> i32 {
    g.cards().map(f).sum()
}

/// One panel player's habits: a score for each kind of decision, higher
/// is more wanted. The frame ([`Panel`]) takes the best-scored legal
/// action.
pub(crate) trait Style: Send + std::fmt::Debug + 'static {
    /// The bot's name.
    const NAME: &'static str;
    /// A lead (D9: any set; the leader may not pass).
    fn lead(&self, c: &Ctx, p: Play) -> i32;
    /// A play on the trick, or `None` for "rather pass" (D9).
    fn follow(&self, c: &Ctx, p: Play) -> Option<i32>;
    /// Cards given back in taxes (D8) or at the market's return (D14).
    fn give(&self, c: &Ctx, g: Gift) -> i32;
    /// Whether to declare a revolution, holding both Jesters (D7).
    fn revolution(&self, c: &Ctx) -> bool;
    /// The first Merchant's market choice (D14): `market P3 7`,
    /// `market P3` (black market) or `no-market`.
    fn market(&self, c: &Ctx, a: Action) -> i32;
    /// Where to seat a newcomer (D13).
    fn seat_new(&self, c: &Ctx) -> Side;
}

/// A panel bot: a [`Style`] with a seeded RNG that only breaks ties.
#[derive(Debug)]
pub(crate) struct Panel<S: Style> {
    style: S,
    rng: BotRng,
}

impl<S: Style> Panel<S> {
    fn new(style: S, seed: u64) -> Panel<S> {
        Panel {
            style,
            rng: BotRng::seed_from_u64(seed),
        }
    }
}

/// `a` if it is legal, else the first legal action.
fn this_or_first(legal: &[Action], a: Action) -> Action {
    if legal.contains(&a) {
        a
    } else {
        legal[0]
    }
}

/// Scores that no real choice gets.
const NEVER: i32 = i32::MIN + 1;
/// Passing, and a play the style would rather not make (below it).
const PASS: i32 = i32::MIN / 2;

impl<S: Style> Bot<Dalmuti> for Panel<S> {
    fn name(&self) -> &'static str {
        S::NAME
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let c = Ctx::new(view);
        match view.public.phase {
            Phase::Revolution => {
                let a = if self.style.revolution(&c) {
                    Action::Revolution
                } else {
                    Action::NoRevolution
                };
                this_or_first(legal, a)
            }
            Phase::SeatNew => this_or_first(legal, Action::SeatNew(self.style.seat_new(&c))),
            Phase::Market => {
                let style = &self.style;
                best(&mut self.rng, legal, |a| style.market(&c, a))
            }
            Phase::GreaterTax | Phase::LesserTax | Phase::MarketReturn => {
                let style = &self.style;
                best(&mut self.rng, legal, |a| match a {
                    Action::Give(g) => style.give(&c, g),
                    _ => NEVER,
                })
            }
            Phase::Play | Phase::Over => {
                // going out is always right (D11)
                if let Some(&out) = legal
                    .iter()
                    .find(|a| matches!(a, Action::Play(p) if p.size() as usize == c.left))
                {
                    return out;
                }
                let leading = view.public.trick.is_none();
                let style = &self.style;
                best(&mut self.rng, legal, |a| match a {
                    Action::Play(p) if leading => style.lead(&c, p),
                    Action::Play(p) => style.follow(&c, p).unwrap_or(PASS - 1),
                    Action::Pass => PASS,
                    _ => NEVER,
                })
            }
        }
    }

    fn reseed(&mut self, seed: u64) -> bool {
        // the styles hold no state: a new RNG is a new bot
        self.rng = BotRng::seed_from_u64(seed);
        true
    }
}
