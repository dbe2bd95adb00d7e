//! Game records: `(game, rules version, players, options, seed, actions)`,
//! the one form that replays, persistence, bug reports and tests share.
//!
//! Actions are stored as text (`P2 bid 4`) so that a record is readable and
//! a bad one can be reported by the index of its first bad action.

use crate::{ActError, Game, GameOptions, Outcome, Seat, Seed};
use std::collections::BTreeMap;
use std::fmt;

/// A complete, replayable game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Which game: `bigcheese` or `dalmuti`.
    pub game: String,
    /// The rules version the game was played under.
    pub rules_version: String,
    /// Number of seats at the start.
    pub players: usize,
    /// Every option and its value.
    pub options: BTreeMap<String, String>,
    /// The seed of all chance: a legacy 64-bit seed as a decimal string
    /// (JSON numbers lose precision above 2^53; a number is read too), or
    /// a 256-bit seed as 64 hex digits.
    pub seed: Seed,
    /// Who played each seat, P1 first, as the maker of the record named
    /// them (a bot's spec in a tournament or a simulation); absent when
    /// not known. Not checked on replay.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// Every action in order, `SEAT ACTION`.
    pub actions: Vec<String>,
    /// The outcome, if the game ended (checked on replay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// Hex SHA-256 of the seed's text, as a server published it when the
    /// table was created (checked by `ratrace verify`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_hash: Option<String>,
    /// How the seed was made by the server's commit-contribute-reveal
    /// scheme (checked by `ratrace verify`); absent in older records and
    /// in games not played on a server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairness: Option<Fairness>,
}

/// How a server made a game's seed so that it could not choose the deal
/// alone (`docs/server.md`, "Fairness: commit, contribute, reveal"): it
/// committed to a secret before anyone joined, every human added a
/// random contribution, and the seed is derived from all of them. This
/// crate only carries the values; the server's `fair` module derives and
/// checks them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fairness {
    /// The scheme and its version (`ratrace-fair/2`, or `ratrace-fair/1`
    /// in older records): how the seed is derived from the secret and the
    /// contributions.
    pub scheme: String,
    /// The table the seed is bound to (version 2; absent in version 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// Hex SHA-256 of the server's secret, published when the table was
    /// created, before anyone contributed.
    pub commitment: String,
    /// The server's secret, 64 hex digits, revealed once the game is over
    /// (absent before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// Every human's contribution, in seat order.
    #[serde(default)]
    pub contributions: Vec<Contribution>,
    /// The server's public key (Ed25519, 64 hex digits) that signed the
    /// commitment (`ratrace-fair/3`; absent before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The server's signature of the table id and the commitment, made
    /// when the table was created (`ratrace-fair/3`: 128 hex digits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

/// One player's random contribution to the seed, made in their browser.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Contribution {
    /// Whose contribution.
    pub seat: Seat,
    /// 32 random bytes as 64 hex digits, as the player's browser made them.
    pub value: String,
}

/// Why a record could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The record is for another game.
    WrongGame {
        /// The game the record names.
        found: String,
        /// The game that was asked for.
        expected: &'static str,
    },
    /// The record was made under other rules.
    WrongRulesVersion {
        /// The version the record names.
        found: String,
        /// The version this build implements.
        expected: &'static str,
    },
    /// The options or player count are not valid.
    Setup(String),
    /// Action number `index` (1-based) could not be read or applied.
    BadAction {
        /// 1-based position in `actions`.
        index: usize,
        /// The action text.
        text: String,
        /// Why.
        reason: String,
    },
    /// The replayed game ends differently from the recorded outcome.
    OutcomeMismatch(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::WrongGame { found, expected } => {
                write!(f, "record is for game `{found}`, expected `{expected}`")
            }
            RecordError::WrongRulesVersion { found, expected } => write!(
                f,
                "record was made under rules `{found}`, this build plays `{expected}`"
            ),
            RecordError::Setup(e) => write!(f, "record cannot be set up: {e}"),
            RecordError::BadAction {
                index,
                text,
                reason,
            } => write!(f, "action {index} `{text}`: {reason}"),
            RecordError::OutcomeMismatch(e) => write!(f, "outcome does not match: {e}"),
        }
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// Starts a record for a new game (a `u64` is a legacy seed).
    pub fn new<G: Game>(options: &G::Options, players: usize, seed: impl Into<Seed>) -> Record {
        Record {
            game: G::NAME.to_string(),
            rules_version: G::RULES_VERSION.to_string(),
            players,
            options: options.pairs().into_iter().collect(),
            seed: seed.into(),
            names: Vec::new(),
            actions: Vec::new(),
            outcome: None,
            seed_hash: None,
            fairness: None,
        }
    }

    /// Appends an action taken by `seat`.
    pub fn push<G: Game>(&mut self, seat: Seat, action: G::Action) {
        self.actions.push(format!("{seat} {action}"));
    }

    /// The options, parsed for game `G`: under the record's own rules
    /// version, upgraded to the current rules when it is an older one
    /// ([`Game::upgrade_options`]); an unknown version is refused.
    pub fn options<G: Game>(&self) -> Result<G::Options, RecordError> {
        let mut pairs = self.options.clone();
        if self.rules_version != G::RULES_VERSION
            && !G::upgrade_options(&self.rules_version, &mut pairs)
        {
            return Err(RecordError::WrongRulesVersion {
                found: self.rules_version.clone(),
                expected: G::RULES_VERSION,
            });
        }
        G::Options::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .map_err(|e| RecordError::Setup(e.to_string()))
    }

    /// Checks the header and builds the starting position.
    pub fn start<G: Game>(&self) -> Result<G, RecordError> {
        if self.game != G::NAME {
            return Err(RecordError::WrongGame {
                found: self.game.clone(),
                expected: G::NAME,
            });
        }
        let options = self.options::<G>()?;
        G::new_seeded(&options, self.players, &self.seed)
            .map_err(|e| RecordError::Setup(e.to_string()))
    }

    /// Parses action `index` (0-based) of the record as `SEAT ACTION`.
    pub fn parse_action<G: Game>(&self, index: usize) -> Result<(Seat, G::Action), RecordError> {
        let text = &self.actions[index];
        let bad = |reason: String| RecordError::BadAction {
            index: index + 1,
            text: text.clone(),
            reason,
        };
        let (seat, action) = text
            .trim()
            .split_once(' ')
            .ok_or_else(|| bad("expected `SEAT ACTION`".to_string()))?;
        let seat: Seat = seat
            .parse()
            .map_err(|e: crate::SeatParseError| bad(e.to_string()))?;
        let action: G::Action = action
            .trim()
            .parse()
            .map_err(|e: crate::ParseError| bad(e.to_string()))?;
        Ok((seat, action))
    }

    /// Replays the whole record, calling `each` after every action with the
    /// game, the actor and the action. Returns the final position, after
    /// checking the recorded outcome if there is one
    /// ([`Record::check_outcome`]).
    pub fn replay<G: Game>(
        &self,
        logging: bool,
        each: impl FnMut(&G, Seat, G::Action),
    ) -> Result<G, RecordError> {
        let game = self.replay_actions(logging, each)?;
        self.check_outcome(&game)?;
        Ok(game)
    }

    /// [`Record::replay`] without the outcome check: every action must
    /// be legal, nothing more (the game may be unfinished).
    pub fn replay_actions<G: Game>(
        &self,
        logging: bool,
        mut each: impl FnMut(&G, Seat, G::Action),
    ) -> Result<G, RecordError> {
        let mut game: G = self.start()?;
        game.set_logging(logging);
        for index in 0..self.actions.len() {
            let (seat, action) = self.parse_action::<G>(index)?;
            game.act(seat, action)
                .map_err(|e: ActError<G::Error>| RecordError::BadAction {
                    index: index + 1,
                    text: self.actions[index].clone(),
                    reason: e.to_string(),
                })?;
            each(&game, seat, action);
        }
        Ok(game)
    }

    /// Checks the recorded outcome, if any, against `game` (the record
    /// replayed), field by field ([`Outcome::diff`]). A finished game must
    /// end as recorded. An unfinished one matches only a `capped` outcome
    /// (a runner stopped the game at a length cap, B17), and then exactly
    /// the one [`Game::capped_outcome`] gives at that point. A record
    /// without an outcome matches any game.
    pub fn check_outcome<G: Game>(&self, game: &G) -> Result<(), RecordError> {
        let Some(expected) = &self.outcome else {
            return Ok(());
        };
        let actual = match game.outcome() {
            Some(o) => o,
            None if expected.capped => game.capped_outcome(),
            None => {
                return Err(RecordError::OutcomeMismatch(format!(
                    "the record says the game ended, the replay is still going after {} actions",
                    self.actions.len()
                )))
            }
        };
        let diff = expected.diff(&actual);
        if diff.is_empty() {
            Ok(())
        } else {
            Err(RecordError::OutcomeMismatch(diff.join("; ")))
        }
    }
}
