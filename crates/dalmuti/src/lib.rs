//! `dalmuti`: a fast, exact rules engine for The Great Dalmuti (Il Grande
//! Dalmuti), implementing [`game::Game`] and [`game::Scenario`].
//!
//! A game is a *session* of hands (D12). The Italian rulebook and the
//! project's rulings D1..D16 are the spec; `docs/rules/dalmuti.md` lists the
//! rules as implemented, ruling by ruling, with each ruling's source. The
//! crate is pure: no IO, no clock, no global RNG; all chance comes from a
//! `ChaCha8Rng` seeded from the game seed and kept in the state, so
//! `(options, players, seed, actions)` replays a session exactly. Hands are
//! count arrays and move lists reuse the caller's `Vec`, so random playouts
//! run at millions of actions per second.
//!
//! ```
//! use dalmuti::{Dalmuti, Options};
//! use game::Game;
//! let mut g = Dalmuti::new(&Options { hands: 1, ..Options::default() }, 5, 7).unwrap();
//! let mut legal = Vec::new();
//! while g.to_move().is_some() {
//!     g.legal_actions(&mut legal);
//!     g.apply(legal[0]).unwrap();
//! }
//! assert_eq!(g.outcome().unwrap().winners.len(), 1);
//! ```

// Per-seat and per-rank arrays are indexed by seat and rank number on
// purpose: the index *is* the seat or the rank.
#![allow(clippy::needless_range_loop)]

mod action;
mod card;
mod error;
mod event;
mod options;
mod role;
mod sample_action;
mod sample_state;
mod scenario;
#[cfg(feature = "schema")]
mod schema;
mod state;
mod swar;
pub mod tensor;
mod view;

pub use action::{Action, BadGift, BadPlay, Gift, NotASide, Play, Side};
pub use card::{Card, Hand, NotACard, NotAHand, JESTER};
pub use error::IllegalAction;
pub use event::{Draw, Event};
pub use options::{BadJoins, Joins, Options, SingleHand, MAX_JOINS};
pub use role::{NotARole, Phase, Role};
pub use scenario::Setup;
pub use state::{Dalmuti, Revolution, Transfer, TransferKind, MAX_PLAYERS};
pub use view::{Exchange, PublicView, TrickView, View};

use game::{ActError, Game, LogEntry, Outcome, Seat, SetupError};
use rand::Rng;

impl Dalmuti {
    /// The seat's role this hand (D4).
    pub fn role(&self, seat: Seat) -> Role {
        Role::of(self.pos[seat.index()] as usize, self.players as usize)
    }

    /// The table order this hand, Greater Dalmuti first.
    pub fn order(&self) -> impl Iterator<Item = Seat> + '_ {
        self.order[..self.players as usize]
            .iter()
            .map(|&s| Seat::new(s as usize))
    }

    /// The phase of the current hand.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The hand number (1-based) within the session.
    #[inline]
    pub fn hand_number(&self) -> u32 {
        self.hand_no
    }

    /// A seat's session score.
    pub fn score(&self, seat: Seat) -> i64 {
        self.scores[seat.index()]
    }

    /// A seat's cards (hidden information: for search code that holds a
    /// sampled full state, never for shells).
    #[inline]
    pub fn hand(&self, seat: Seat) -> Hand {
        self.hands[seat.index()]
    }

    /// How many cards a seat still holds this hand.
    #[inline]
    pub fn cards_left(&self, seat: Seat) -> u8 {
        self.left[seat.index()]
    }

    /// The last play of the current trick and who made it.
    #[inline]
    pub fn trick(&self) -> Option<(Play, Seat)> {
        self.trick.map(|(p, s)| (p, Seat::new(s as usize)))
    }

    /// The seats that went out this hand so far, first out first. Once a
    /// hand ends and the next one starts, its finishing order is the new
    /// table order ([`Dalmuti::order`]); at the end of the session it is
    /// kept here.
    pub fn finishing_order(&self) -> impl Iterator<Item = Seat> + '_ {
        self.finished[..self.n_finished as usize]
            .iter()
            .map(|&s| Seat::new(s as usize))
    }
}

impl Game for Dalmuti {
    const NAME: &'static str = "dalmuti";
    /// `dalmuti/2`: a single hand is won by going out first (D16).
    const RULES_VERSION: &'static str = "dalmuti/2";
    const PLAYERS: std::ops::RangeInclusive<usize> = 3..=13;
    const DEFAULT_PLAYERS: usize = 5;
    const ACTION_HELP: &'static str = "\
pass                 play nothing now; you may still play later in the trick (D9)
play 7               play one 7;  play 3x7: three 7s
play 2x7+J           two 7s and a Jester (= three 7s); play 1x7+2J; also `play 7 7 J`
play J / play 2xJ    a Jester alone is rank 13; two Jesters alone are a pair of 13s (D6)
give 3 12 / give 5   the cards a Dalmuti gives back in taxes (D8), or a Merchant at the market (D14)
revolution           holder of both Jesters: no taxes; by the Greater Peon: roles reverse (D7)
no-revolution        holder of both Jesters: keep quiet
market P3 7          first Merchant gives a 7 to Merchant P3, who gives one back (market, D14)
market P3            first Merchant and P3 draw a random card from each other (black_market, D14)
no-market            first Merchant declines to trade
seat-new above|below Greater Dalmuti seats a newcomer above or below the middle player (D13)";

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
    ) -> Result<Dalmuti, SetupError> {
        Dalmuti::validate(options, players)?;
        let mut g = Dalmuti::seated(options, players, *seed, false, &[], None)?;
        g.start_hand();
        g.fresh = true;
        Ok(g)
    }

    /// `dalmuti/1` gave a single hand to the highest score, bonuses
    /// included: `single_hand=points` plays it so.
    fn upgrade_options(
        version: &str,
        options: &mut std::collections::BTreeMap<String, String>,
    ) -> bool {
        if version != "dalmuti/1" {
            return false;
        }
        options
            .entry("single_hand".to_string())
            .or_insert_with(|| "points".to_string());
        true
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        self.players as usize
    }

    /// During [`Phase::Revolution`] this is the holder of both Jesters: the
    /// engine must know whom to ask, but the table must not (D7). Shells must
    /// not broadcast it then; the public view shows no seat to move.
    #[inline]
    fn to_move(&self) -> Option<Seat> {
        self.to_move_seat()
    }

    /// D7: nobody but the holder learns who decides on a revolution.
    fn public_to_move(&self) -> Option<Seat> {
        if self.phase() == Phase::Revolution {
            None
        } else {
            self.to_move()
        }
    }

    /// D7: a holder who says nothing declines the revolution.
    fn silent_choice(&self) -> Option<Action> {
        (self.phase() == Phase::Revolution).then_some(Action::NoRevolution)
    }

    #[inline]
    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal_into(out)
    }

    fn check(&self, action: Action) -> Result<(), IllegalAction> {
        self.check_action(action)
    }

    /// As the default, except while a revolution decision is pending (D7):
    /// a seat other than the holder is refused without naming the holder
    /// (`NotYourTurn` would say whose turn it is).
    fn check_as(&self, seat: Seat, action: Action) -> Result<(), ActError<IllegalAction>> {
        if self.phase == Phase::Revolution && seat.index() != self.turn as usize {
            return Err(ActError::Illegal(match action {
                Action::Revolution | Action::NoRevolution => IllegalAction::NoRevolution,
                _ => IllegalAction::WrongPhase {
                    action,
                    phase: Phase::Revolution,
                },
            }));
        }
        match self.to_move() {
            None => Err(ActError::GameOver),
            Some(expected) if expected != seat => Err(ActError::NotYourTurn {
                expected,
                got: seat,
            }),
            Some(_) => self.check(action).map_err(ActError::Illegal),
        }
    }

    /// # Panics
    /// May panic, or corrupt the state, if `action` is illegal.
    #[inline]
    fn apply_unchecked(&mut self, action: Action) {
        self.apply_action(action)
    }

    /// List-free when leading or following a trick: the same distribution
    /// as a uniform pick from [`Game::legal_actions`].
    #[inline]
    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R, scratch: &mut Vec<Action>) -> Action {
        self.sample_action(rng, scratch)
    }

    #[inline]
    fn pick_uniform<R: Rng + ?Sized>(&self, rng: &mut R, scratch: &mut Vec<Action>) -> Action {
        self.pick_listed(rng, scratch)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.session_outcome()
    }

    fn capped_outcome(&self) -> Outcome {
        Outcome::capped(self.scores[..self.players as usize].to_vec())
    }

    fn view(&self, seat: Seat) -> View {
        self.seat_view(seat)
    }

    fn public_view(&self) -> PublicView {
        self.public()
    }

    fn sample_from_view<R: Rng + ?Sized>(view: &View, rng: &mut R) -> Dalmuti {
        Dalmuti::sample_state(view, rng)
    }

    fn set_logging(&mut self, on: bool) {
        if on && self.fresh && !self.logging {
            // replay the seating and the deal with logging on (same seed)
            let mut g = Dalmuti::seated(
                &self.options,
                self.players as usize,
                self.seed,
                true,
                &[],
                None,
            )
            .expect("the same setup succeeded before");
            g.start_hand();
            g.fresh = true;
            *self = g;
            return;
        }
        self.logging = on;
    }

    fn events(&self) -> &[LogEntry<Event>] {
        if self.logging {
            &self.log
        } else {
            &[]
        }
    }
}
