//! `bigcheese`: the rules engine for The Big Cheese (Cheapass Games, 1998),
//! a bidding game of project management for 3 to 6 players.
//!
//! The crate is pure: no IO, no clock, no global RNG. All chance comes from
//! a `ChaCha8Rng` seeded from the game seed and kept in the state, so a game
//! is `(options, players, seed, actions)`. Where the rulebooks disagree the
//! project's rulings B1..B20 (`docs/rules/bigcheese.md`) are the spec; each
//! is cited where it is implemented.
//!
//! ```
//! use bigcheese::{Action, BigCheese, Options};
//! use game::Game;
//!
//! let mut g = BigCheese::new(&Options::default(), 4, 7).unwrap();
//! let mut legal = Vec::new();
//! g.legal_actions(&mut legal);
//! assert_eq!(legal[0], Action::Pass);
//! g.apply(Action::Bid(3)).unwrap();
//! ```

#![warn(missing_docs)]

mod action;
mod card;
mod error;
mod event;
mod options;
mod payout;
mod scenario;
#[cfg(feature = "schema")]
mod schema;
mod state;
pub mod tensor;
mod view;

pub use action::{Action, Faces, RerollDice};
pub use card::{Card, NotACard};
pub use error::IllegalAction;
pub use event::{Event, Rolled};
pub use options::{DiceMode, FinalTie, NotADiceMode, Options, VetoTiming};
pub use payout::HalfOfNMean;
pub use scenario::Setup;
pub use state::BigCheese;
pub use view::{AuctionView, PlayerView, PublicView, RollView, View};

use game::{ActError, Game, LogEntry, Outcome, Seat, SetupError};
use rand::Rng;

/// Read-only accessors on the full state, for search code that holds a
/// sampled state (everything here is public in a view too, B3, except that
/// these are cheap: no allocation).
impl BigCheese {
    /// The target score in force (B12, B13).
    #[inline]
    pub fn target(&self) -> u16 {
        self.target
    }

    /// A seat's points.
    #[inline]
    pub fn score(&self, seat: Seat) -> u16 {
        self.scores[seat.index()]
    }

    /// A seat's free chips (its bidding pool).
    #[inline]
    pub fn free_chips(&self, seat: Seat) -> u8 {
        self.free[seat.index()]
    }

    /// Whether `seat` may play a Veto now: it holds a matured one, and (with
    /// `veto=before-bid`, B18) has not bid in this auction.
    pub fn can_veto(&self, seat: Seat) -> bool {
        self.vetos[seat.index()] > 0 && self.may_veto(seat.index())
    }

    /// A seat's matured Vetos in hand.
    #[inline]
    pub fn vetos(&self, seat: Seat) -> u8 {
        self.vetos[seat.index()]
    }

    /// A seat's matured Big Cheeses in hand.
    #[inline]
    pub fn cheeses(&self, seat: Seat) -> u8 {
        self.cheeses[seat.index()]
    }

    /// The face-up top card (B3), `None` while the deck is empty.
    #[inline]
    pub fn top_card(&self) -> Option<Card> {
        self.top()
    }

    /// The auction's high bid (0 when nobody has bid) and its bidder.
    #[inline]
    pub fn high_bid(&self) -> (u8, Option<Seat>) {
        (
            self.high,
            (self.bidder != state::NONE).then(|| state::seat(self.bidder)),
        )
    }

    /// Whether `seat` has passed in the current auction (B5).
    #[inline]
    pub fn has_passed(&self, seat: Seat) -> bool {
        u32::from(self.passed) & (1 << seat.index()) != 0
    }

    /// The roll waiting for its owner's decision (B10): the card and what
    /// the dice shown would pay if kept.
    pub fn pending_roll(&self) -> Option<(Card, u16)> {
        (self.phase == state::Phase::Roll).then(|| (self.roll.card, self.payout(&self.roll)))
    }

    /// The projects on the table, oldest first: owner, card, chips on it.
    pub fn projects(&self) -> impl Iterator<Item = (Seat, Card, u8)> + '_ {
        self.projects[..self.n_projects as usize]
            .iter()
            .map(|p| (state::seat(p.owner), p.card, p.chips))
    }
}

impl Game for BigCheese {
    const NAME: &'static str = "bigcheese";
    /// `bigcheese/2`: with `exact=on`, only polyhedral dice make the auto
    /// target 30 (B19).
    const RULES_VERSION: &'static str = "bigcheese/2";
    const PLAYERS: std::ops::RangeInclusive<usize> = 3..=6;
    const DEFAULT_PLAYERS: usize = 4;
    const ACTION_HELP: &'static str = "\
bid N        bid N chips for the face-up top card (above the high bid, at most your free chips; B5)
pass         drop out of this auction (final until the next auction; B5)
veto         play a matured Veto instead of bidding: the card and the Veto are discarded (B6)
keep         accept the roll on your matured project (B10)
reroll       play a Big Cheese to re-roll your die (polyhedral, d6; B10)
reroll 3     best-of-two: play a Big Cheese to re-roll the die showing 3 (B11)
reroll 1,1,2 half-of-n: play a Big Cheese to re-roll the dice showing these values (B11)";

    type Options = Options;
    type Action = Action;
    type Error = IllegalAction;
    type View = View;
    type PublicView = PublicView;
    type Event = Event;

    fn new_seeded(
        options: &Options,
        players: usize,
        seed: &game::Seed,
    ) -> Result<BigCheese, SetupError> {
        BigCheese::start(options, players, seed)
    }

    #[inline]
    /// `bigcheese/1` made the auto target 30 with `exact=on` in every dice
    /// mode: an old record's `target=auto` is read as 30 there.
    fn upgrade_options(
        version: &str,
        options: &mut std::collections::BTreeMap<String, String>,
    ) -> bool {
        if version != "bigcheese/1" {
            return false;
        }
        let exact = options
            .get("exact")
            .is_some_and(|v| game::parse_bool("exact", v) == Ok(true));
        let auto = options.get("target").is_none_or(|v| v == "auto");
        if exact && auto {
            options.insert("target".to_string(), "30".to_string());
        }
        true
    }

    fn options(&self) -> &Options {
        &self.opts
    }

    #[inline]
    fn players(&self) -> usize {
        self.n as usize
    }

    #[inline]
    fn to_move(&self) -> Option<Seat> {
        match self.to_move_seat() {
            state::NONE => None,
            p => Some(state::seat(p)),
        }
    }

    #[inline]
    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal_into(out);
    }

    #[inline]
    fn check(&self, action: Action) -> Result<(), IllegalAction> {
        self.check_action(action)
    }

    /// # Panics
    /// On an action that is not legal in the current phase (for example a
    /// bid while a roll waits); an over-large bid underflows the chips.
    #[inline]
    fn apply_unchecked(&mut self, action: Action) {
        self.apply_action(action);
    }

    fn check_as(&self, seat: Seat, action: Action) -> Result<(), ActError<IllegalAction>> {
        // The inherent method: a passed bidder (B5) or another player's
        // roll (B10) gets its own reason.
        BigCheese::check_as(self, seat, action)
    }

    #[inline]
    fn random_action<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<Action>,
    ) -> Action {
        self.sample_action(rng, scratch)
    }

    /// The list-free sampler: in an auction it draws the index into the
    /// list (`pass`, the bids up, `veto`) and maps it to the action, with
    /// the same draws as a pick from the list; rolls use the list.
    #[inline]
    fn pick_uniform<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<Action>,
    ) -> Action {
        self.sample_action(rng, scratch)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_now()
    }

    fn capped_outcome(&self) -> Outcome {
        Outcome::capped(
            self.scores[..self.n as usize]
                .iter()
                .map(|&s| s as i64)
                .collect(),
        )
    }

    fn view(&self, seat: Seat) -> View {
        View {
            me: seat,
            public: self.make_public_view(),
        }
    }

    fn public_view(&self) -> PublicView {
        self.make_public_view()
    }

    fn sample_from_view<R: Rng + ?Sized>(view: &View, rng: &mut R) -> BigCheese {
        BigCheese::from_view(view, rng)
    }

    fn set_logging(&mut self, on: bool) {
        self.set_logging_on(on);
    }

    fn events(&self) -> &[LogEntry<Event>] {
        &self.log
    }
}
