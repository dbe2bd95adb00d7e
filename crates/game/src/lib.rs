//! `game`: the shared vocabulary of ratrace (seats, outcomes, options, the
//! [`Game`] trait) that every rules crate implements and every shell is
//! generic over.
//!
//! It is deliberately tiny and dependency-light (only `rand`'s traits,
//! `serde` derives, `serde_json` for [`check_event_kinds`], and
//! `thiserror` for the check helpers' error types) so that
//! rules crates, bots, the CLI and later the server and the Python
//! bindings can all sit on it without pulling each other in.
//! A game is fully described by `(rules version, options, seed, actions)`:
//! see [`Record`].

#![warn(missing_docs)]

mod event;
mod options;
mod record;
pub mod scenario;
#[cfg(feature = "schema")]
pub mod schema;
mod seat;
mod seed;
mod tensor;

pub use event::{check_event_kinds, EventKindsError, GameEvent, LogEntry};
pub use options::{
    bool_text, choice_text, parse_bool, parse_choice, parse_in, values_in_words, GameOptions,
    OptionError, OptionInfo, OptionValue,
};
pub use record::{Contribution, Fairness, Record, RecordError};
pub use scenario::{Scenario, ScenarioError};
pub use seat::{Seat, SeatParseError};
pub use seed::{Seed, SeedParseError};
pub use tensor::{check_encoding, check_obs, scaled, Tensor, TensorError};

#[doc(hidden)]
pub use serde as __serde;

use rand::Rng;
use std::fmt::{Debug, Display};
use std::str::FromStr;

/// The result of a finished game, per seat.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Outcome {
    /// The seats that won (more than one when the win is shared). Empty when
    /// the game was capped (ruling B17) and nobody won.
    pub winners: Vec<Seat>,
    /// Finishing place per seat, 1 = first; tied seats share a place.
    pub places: Vec<u8>,
    /// Final score per seat (points in The Big Cheese, session points in
    /// Dalmuti).
    pub scores: Vec<i64>,
    /// True when the game was cut short by a length cap (ruling B17).
    pub capped: bool,
}

impl Outcome {
    /// Each seat's return, for learning and search: 1 for first place down
    /// to -1 for last, linear in the place (tied seats share a place); all
    /// 0 for a game a length cap stopped (B17), which nobody won.
    pub fn returns(&self) -> impl Iterator<Item = f64> + '_ {
        let n = self.places.len();
        self.places.iter().map(move |&p| {
            if self.capped || n < 2 {
                0.0
            } else {
                1.0 - 2.0 * (f64::from(p) - 1.0) / (n as f64 - 1.0)
            }
        })
    }

    /// Builds an outcome from scores where higher is better: places are
    /// dense ranks by score, and `winners` are the given seats.
    pub fn from_scores(scores: Vec<i64>, winners: Vec<Seat>) -> Outcome {
        let places = scores
            .iter()
            .map(|s| 1 + scores.iter().filter(|o| *o > s).count() as u8)
            .collect();
        Outcome {
            winners,
            places,
            scores,
            capped: false,
        }
    }

    /// An outcome for a game stopped by a length cap: no winner (B17).
    pub fn capped(scores: Vec<i64>) -> Outcome {
        let mut o = Outcome::from_scores(scores, Vec::new());
        o.capped = true;
        o
    }

    /// Every difference between this outcome, as a record states it, and
    /// `replay`, as replaying the record computes it: one line per field
    /// (winners, each seat's place, each seat's score, capped), in words,
    /// for example `score of P1: record says 99, replay gives 12` or
    /// `winners: record says P1, replay gives P3 and P4`. Empty exactly
    /// when the two are equal.
    pub fn diff(&self, replay: &Outcome) -> Vec<String> {
        let mut out = Vec::new();
        if self.winners != replay.winners {
            out.push(format!(
                "winners: record says {}, replay gives {}",
                seat_list(&self.winners),
                seat_list(&replay.winners)
            ));
        }
        per_seat(&mut out, "place", &self.places, &replay.places);
        per_seat(&mut out, "score", &self.scores, &replay.scores);
        if self.capped != replay.capped {
            out.push(format!(
                "capped: record says {}, replay gives {}",
                yes_no(self.capped),
                yes_no(replay.capped)
            ));
        }
        out
    }
}

/// Seats in words: `nobody`, `P1`, `P1 and P3`, `P1, P2 and P3`.
pub fn seat_list(seats: &[Seat]) -> String {
    let names: Vec<String> = seats.iter().map(ToString::to_string).collect();
    match names.split_last() {
        None => "nobody".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The per-seat lines of [`Outcome::diff`] for one field (`place`,
/// `score`).
fn per_seat<T: PartialEq + Display>(
    out: &mut Vec<String>,
    field: &str,
    record: &[T],
    replay: &[T],
) {
    if record.len() != replay.len() {
        out.push(format!(
            "{field}s: record lists {} seats, replay gives {}",
            record.len(),
            replay.len()
        ));
    }
    for (i, (a, b)) in record.iter().zip(replay).enumerate() {
        if a != b {
            let seat =
                Seat::try_new(i).map_or_else(|| format!("seat {}", i + 1), |s| s.to_string());
            out.push(format!(
                "{field} of {seat}: record says {a}, replay gives {b}"
            ));
        }
    }
}

/// An error from [`Game::act`]: the wrong seat, a finished game, or an
/// action the rules forbid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActError<E> {
    /// The game is over; no action is legal.
    GameOver,
    /// It is another seat's turn.
    NotYourTurn {
        /// Whose turn it is.
        expected: Seat,
        /// Who tried to act.
        got: Seat,
    },
    /// The rules forbid this action; the inner error says which rule.
    Illegal(E),
}

impl<E: Display> Display for ActError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ActError::GameOver => f.write_str("the game is over"),
            ActError::NotYourTurn { expected, got } => {
                write!(f, "it is {expected}'s turn, not {got}'s")
            }
            ActError::Illegal(e) => Display::fmt(e, f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for ActError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ActError::Illegal(e) => Some(e),
            ActError::GameOver | ActError::NotYourTurn { .. } => None,
        }
    }
}

/// Why a text is not an action of the game (its [`Game::Action`]
/// notation): what was read, and what the notation expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing was written.
    Empty,
    /// No action is written with this word; `expected` lists the actions.
    Unknown {
        /// The word read.
        word: String,
        /// The actions of the game, in words.
        expected: &'static str,
    },
    /// An action that takes no argument was given one.
    NoArgument {
        /// The action's word.
        action: String,
        /// What followed it.
        got: String,
    },
    /// The action's argument cannot be read; `reason` says why.
    BadArgument {
        /// The action's word.
        action: String,
        /// Why, in words (`there are only 2 Jesters`).
        reason: String,
    },
}

impl ParseError {
    /// The argument of `action` cannot be read, for `reason`.
    pub fn bad_argument(action: &str, reason: impl Display) -> ParseError {
        ParseError::BadArgument {
            action: action.to_string(),
            reason: reason.to_string(),
        }
    }
}

impl Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty action"),
            ParseError::Unknown { word, expected } => {
                write!(f, "unknown action `{word}` (write {expected})")
            }
            ParseError::NoArgument { action, got } => {
                write!(f, "`{action}` takes no argument, got `{got}`")
            }
            ParseError::BadArgument { action, reason } => write!(f, "`{action}`: {reason}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Why a game could not be set up. Each says the ruling it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The game is not played by this many players.
    Players {
        /// The game, in words: `The Big Cheese`.
        game: &'static str,
        /// The player count asked for.
        players: usize,
        /// The counts the game allows.
        allowed: std::ops::RangeInclusive<usize>,
        /// The ruling: `B1`.
        ruling: &'static str,
    },
    /// The options contradict each other or the player count; says which
    /// and the ruling.
    Options(String),
    /// A hand-made position (a scenario's setup) the rules could not
    /// reach, or that names what the table does not have.
    Position(String),
}

impl Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Players {
                game,
                players,
                allowed,
                ruling,
            } => write!(
                f,
                "{game} is for {} to {} players, not {players} ({ruling})",
                allowed.start(),
                allowed.end()
            ),
            SetupError::Options(e) | SetupError::Position(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for SetupError {}

/// A rules engine. Both games implement it; bots, the CLI, the simulator
/// (and later the server and the Python bindings) are generic over it.
///
/// The full state (`Self`) is known to nobody: it holds the deck order and
/// the chance source. Only [`Game::view`], [`Game::public_view`] and the
/// events a seat may see ([`LogEntry::visible_to`]) leave the engine towards
/// a player or a bot.
pub trait Game: Clone + Debug + Send + Sync + Sized + 'static {
    /// Short machine name, as used on the command line: `bigcheese`.
    const NAME: &'static str;
    /// Rules version recorded in every game record; bump it whenever the
    /// same (options, seed, actions) could play out differently.
    const RULES_VERSION: &'static str;
    /// Allowed player counts at the start of a game (inclusive).
    const PLAYERS: std::ops::RangeInclusive<usize>;
    /// Default number of players for `play` and `simulate`.
    const DEFAULT_PLAYERS: usize;
    /// A short help text: the action notation and what each action means.
    const ACTION_HELP: &'static str;

    /// The rules options (variants) of this game.
    type Options: GameOptions;
    /// One player decision. `Display`/`FromStr` are its text notation.
    type Action: Copy
        + Eq
        + std::hash::Hash
        + Debug
        + Display
        + FromStr<Err = ParseError>
        + Send
        + Sync
        + 'static;
    /// Why an action is illegal: names the rule that forbids it.
    type Error: std::error::Error + Clone + PartialEq + Send + Sync + 'static;
    /// What one seat knows. `Display` draws it as a text board.
    type View: Clone + Debug + Display + serde::Serialize + Send + Sync + 'static;
    /// What a spectator knows. `Display` draws it as a text board.
    type PublicView: Clone + Debug + Display + serde::Serialize + Send + Sync + 'static;
    /// What happened: one serde-tagged enum of typed events (seats, cards,
    /// amounts, dice); `Display` is its English text.
    type Event: GameEvent;

    /// Reads a record made under an older rules version of this game:
    /// rewrites its options (`key` → `value` text, as records keep them)
    /// so that the current rules play exactly as `version` did, and
    /// returns true; false for a version this engine cannot replay.
    /// Records and stored tables from before a rules change keep
    /// replaying and verifying. The default knows no older version.
    fn upgrade_options(
        version: &str,
        options: &mut std::collections::BTreeMap<String, String>,
    ) -> bool {
        let _ = (version, options);
        false
    }

    /// Starts a game. All chance (shuffles, dice, first leader, seating)
    /// comes from `seed`, so `(options, players, seed, actions)` reproduces
    /// the game exactly. An engine seeds its RNG with [`Seed::rng`], so a
    /// [`Seed::Legacy`] seed plays exactly as [`Game::new`] always has.
    fn new_seeded(options: &Self::Options, players: usize, seed: &Seed)
        -> Result<Self, SetupError>;

    /// Starts a game from a legacy 64-bit seed: [`Game::new_seeded`] with
    /// [`Seed::Legacy`], the seed every simulation, scenario and record
    /// before 256-bit seeds used.
    fn new(options: &Self::Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        Self::new_seeded(options, players, &Seed::Legacy(seed))
    }

    /// The options this game was started with.
    fn options(&self) -> &Self::Options;

    /// Current number of seats (Dalmuti sessions can grow between hands).
    fn players(&self) -> usize;

    /// Whose decision it is, or `None` when the game is over.
    fn to_move(&self) -> Option<Seat>;

    /// Whose decision it is as the whole table may know it: the same as
    /// [`Game::to_move`] except during a secret decision, whose maker no
    /// one else may learn (Dalmuti's revolution decision, D7): `None`
    /// then. Views, spectators, a server's messages and its logs use this.
    fn public_to_move(&self) -> Option<Seat> {
        self.to_move()
    }

    /// What a secret decision comes to when its maker says nothing (D7:
    /// a quiet holder of both Jesters declines), so a table can move on at
    /// a fixed time that gives nobody away; `None` when no secret decision
    /// is pending.
    fn silent_choice(&self) -> Option<Self::Action> {
        None
    }

    /// Clears `out` and fills it with every legal action of the seat to
    /// move (empty when the game is over). Never allocates once `out` has
    /// grown to the largest list.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// Whether the seat to move may take `action`, and if not, why.
    /// Agrees with [`Game::legal_actions`].
    fn check(&self, action: Self::Action) -> Result<(), Self::Error>;

    /// Applies `action` for the seat to move after checking it. An illegal
    /// action returns the reason and leaves the state unchanged.
    fn apply(&mut self, action: Self::Action) -> Result<(), Self::Error> {
        self.check(action)?;
        self.apply_unchecked(action);
        Ok(())
    }

    /// A uniformly random legal action of the seat to move, for rollouts:
    /// the same distribution as picking uniformly from
    /// [`Game::legal_actions`]. The default does exactly that, using
    /// `scratch` for the list; engines override it with a sampler that
    /// does not build the list.
    ///
    /// # Panics
    /// If the game is over (there is no legal action).
    fn random_action<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<Self::Action>,
    ) -> Self::Action {
        self.legal_actions(scratch);
        scratch[rng.random_range(0..scratch.len())]
    }

    /// A uniform pick from [`Game::legal_actions`] drawn exactly as
    /// `list[rng.random_range(0..list.len())]` on the list: the same action
    /// from the same draws of `rng`, so a random player plays the same game
    /// whether or not the list is built (the simulator's random bots). The
    /// default builds the list in `scratch`; engines override it with a
    /// path that indexes their list without building it where they can.
    /// Unlike [`Game::random_action`], which only promises the distribution,
    /// this promises the draws.
    ///
    /// # Panics
    /// If the game is over (there is no legal action).
    fn pick_uniform<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<Self::Action>,
    ) -> Self::Action {
        self.legal_actions(scratch);
        scratch[rng.random_range(0..scratch.len())]
    }

    /// Applies an action known to be legal (rollouts).
    ///
    /// # Panics
    /// May panic, or leave the state inconsistent, if `action` is illegal.
    fn apply_unchecked(&mut self, action: Self::Action);

    /// Whether `seat` may take `action` now, and if not, why: the turn,
    /// then the rules. Engines may override it to give a seat that is not
    /// to move a more telling reason (a bidder who already passed, a roll
    /// that belongs to someone else).
    fn check_as(&self, seat: Seat, action: Self::Action) -> Result<(), ActError<Self::Error>> {
        match self.to_move() {
            None => Err(ActError::GameOver),
            Some(expected) if expected != seat => Err(ActError::NotYourTurn {
                expected,
                got: seat,
            }),
            Some(_) => self.check(action).map_err(ActError::Illegal),
        }
    }

    /// Applies `action` on behalf of `seat` after [`Game::check_as`]. A
    /// refused action leaves the state unchanged.
    fn act(&mut self, seat: Seat, action: Self::Action) -> Result<(), ActError<Self::Error>> {
        self.check_as(seat, action)?;
        self.apply_unchecked(action);
        Ok(())
    }

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The result a game would have if stopped now by a length cap (B17).
    fn capped_outcome(&self) -> Outcome;

    /// What `seat` knows: its own hidden cards, everything public, nothing
    /// else. Never lets anyone derive the deck order, other hands or dice to
    /// come.
    fn view(&self, seat: Seat) -> Self::View;

    /// What a spectator knows: only the public part.
    fn public_view(&self) -> Self::PublicView;

    /// A full state consistent with `view`: everything the view shows is
    /// kept; everything it hides (deck order, other hands, the chance
    /// source) is drawn at random from `rng`. For search bots: they sample,
    /// never peek.
    fn sample_from_view<R: Rng + ?Sized>(view: &Self::View, rng: &mut R) -> Self;

    /// Turns the event log on or off (off after [`Game::new`], so
    /// rollouts never build an event). Turn it on before the first action
    /// to get the whole story.
    fn set_logging(&mut self, on: bool);

    /// The event log: what happened (shuffles, deals, rolls, bids, plays),
    /// each entry tagged with who may see it. Empty unless logging is on.
    fn events(&self) -> &[LogEntry<Self::Event>];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_are_linear_in_the_place_and_zero_when_capped() {
        let o = Outcome::from_scores(vec![5, 9, 5, 1], vec![Seat::new(1)]);
        // places 2, 1, 2, 4 of 4 seats
        let r: Vec<f64> = o.returns().collect();
        let want = [1.0 / 3.0, 1.0, 1.0 / 3.0, -1.0];
        assert!(
            r.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12),
            "{r:?}"
        );
        let capped = Outcome::capped(vec![5, 9, 5, 1]);
        assert!(capped.returns().all(|r| r == 0.0));
        assert_eq!(capped.returns().count(), 4);
    }

    #[test]
    fn places_are_dense_ranks_by_score() {
        let o = Outcome::from_scores(vec![10, 30, 30, 5], vec![Seat::new(1), Seat::new(2)]);
        assert_eq!(o.places, vec![3, 1, 1, 4]);
        assert!(!o.capped);
        let c = Outcome::capped(vec![1, 2]);
        assert!(c.capped && c.winners.is_empty());
        assert_eq!(c.places, vec![2, 1]);
    }

    #[test]
    fn log_visibility() {
        let p = LogEntry::public("x");
        let q = LogEntry::private(Seat::new(2), "y");
        assert_eq!(q.event, "y");
        assert!(p.visible_to(None) && p.visible_to(Some(Seat::new(0))));
        assert!(!q.visible_to(None) && !q.visible_to(Some(Seat::new(0))));
        assert!(q.visible_to(Some(Seat::new(2))));
    }

    #[test]
    fn record_seed_is_text_and_reads_numbers_too() {
        let r = Record {
            game: "g".into(),
            rules_version: "g/1".into(),
            players: 3,
            options: Default::default(),
            seed: Seed::Legacy(u64::MAX),
            names: Vec::new(),
            actions: vec!["P1 pass".into()],
            outcome: None,
            seed_hash: None,
            fairness: None,
        };
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains("\"18446744073709551615\""), "{json}");
        assert_eq!(serde_json::from_str::<Record>(&json).unwrap(), r);
        let numeric = json.replace("\"18446744073709551615\"", "7");
        assert_eq!(
            serde_json::from_str::<Record>(&numeric).unwrap().seed,
            Seed::Legacy(7)
        );
        let bad = json.replace("\"18446744073709551615\"", "\"x\"");
        assert!(serde_json::from_str::<Record>(&bad).is_err());
        let extra = json.replace("\"players\"", "\"bogus\":1,\"players\"");
        assert!(
            serde_json::from_str::<Record>(&extra).is_err(),
            "unknown fields are refused"
        );
    }

    #[test]
    fn outcome_diff_names_each_field_in_words() {
        let o = Outcome::from_scores(vec![12, 30, 30, 5], vec![Seat::new(2), Seat::new(3)]);
        assert!(o.diff(&o).is_empty());
        let mut forged = o.clone();
        forged.winners = vec![Seat::new(0)];
        forged.scores[0] = 99;
        forged.places[3] = 1;
        forged.capped = true;
        assert_eq!(
            forged.diff(&o),
            vec![
                "winners: record says P1, replay gives P3 and P4",
                "place of P4: record says 1, replay gives 4",
                "score of P1: record says 99, replay gives 12",
                "capped: record says yes, replay gives no",
            ]
        );
        let mut short = o.clone();
        short.scores.pop();
        assert_eq!(
            short.diff(&o),
            vec!["scores: record lists 3 seats, replay gives 4"]
        );
        assert_eq!(seat_list(&[]), "nobody");
        assert_eq!(
            seat_list(&[Seat::new(0), Seat::new(1), Seat::new(4)]),
            "P1, P2 and P5"
        );
    }

    /// A record written before 256-bit seeds, as `ratrace play` and the
    /// server wrote it: it reads as a legacy seed and writes back byte for
    /// byte.
    #[test]
    fn a_legacy_record_round_trips_byte_identically() {
        let text = r#"{
  "game": "bigcheese",
  "rules_version": "bigcheese/1",
  "players": 3,
  "options": {
    "dice": "d6",
    "target": "50"
  },
  "seed": "18446744073709551615",
  "actions": [
    "P2 bid 1",
    "P3 pass"
  ],
  "outcome": {
    "winners": [
      "P2"
    ],
    "places": [
      2,
      1,
      3
    ],
    "scores": [
      10,
      50,
      -3
    ],
    "capped": false
  },
  "seed_hash": "2cdb26265b4dc65e3b44d694f121fd6de99b9e4b8ae7f08d84bfa9537635ae43"
}"#;
        let r: Record = serde_json::from_str(text).unwrap();
        assert_eq!(r.seed, Seed::Legacy(u64::MAX));
        assert_eq!(r.fairness, None);
        assert_eq!(serde_json::to_string_pretty(&r).unwrap(), text);
        let compact = serde_json::to_string(&r).unwrap();
        let back: Record = serde_json::from_str(&compact).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), compact);
    }

    #[test]
    fn a_full_seed_and_a_fairness_section_round_trip() {
        let mut r = Record {
            game: "g".into(),
            rules_version: "g/1".into(),
            players: 3,
            options: Default::default(),
            seed: Seed::Full([0xab; 32]),
            names: Vec::new(),
            actions: Vec::new(),
            outcome: None,
            seed_hash: None,
            fairness: Some(Fairness {
                scheme: "ratrace-fair/2".into(),
                table: Some("abc".into()),
                commitment: "c".repeat(64),
                secret: Some("5".repeat(64)),
                contributions: vec![Contribution {
                    seat: Seat::new(1),
                    value: "e".repeat(64),
                }],
                key: Some("d".repeat(64)),
                signature: Some("f".repeat(128)),
            }),
        };
        let json = serde_json::to_string(&r).unwrap();
        assert!(
            json.contains(&format!("\"seed\":\"{}\"", "ab".repeat(32))),
            "{json}"
        );
        assert!(json.contains("\"seat\":\"P2\""), "{json}");
        assert_eq!(serde_json::from_str::<Record>(&json).unwrap(), r);
        // Before the reveal there is no secret; no fairness, no key at all.
        r.fairness.as_mut().unwrap().secret = None;
        let json = serde_json::to_string(&r).unwrap();
        assert!(!json.contains("secret"), "{json}");
        assert_eq!(serde_json::from_str::<Record>(&json).unwrap(), r);
        r.fairness = None;
        assert!(!serde_json::to_string(&r).unwrap().contains("fairness"));
        let bad = json.replace("\"scheme\"", "\"bogus\":1,\"scheme\"");
        assert!(serde_json::from_str::<Record>(&bad).is_err());
    }
}
