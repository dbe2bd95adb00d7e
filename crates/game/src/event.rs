//! Game events: what happened in a game, as data. Each rules crate has one
//! serde-tagged event enum; [`LogEntry`] pairs an event with who may see it.
//!
//! Events carry seats, cards, amounts and dice, never sentences: English is
//! the event's `Display`, and every other reader (the web client's
//! templates per language, `verify`'s list of chance events, the scenario
//! runner) works from the kind and the fields. Engines record them only
//! while logging is on, so rollouts never build one.

use crate::Seat;
use std::fmt::{Debug, Display};

/// What every game's event type provides beyond its data: a stable kind
/// name per variant (the serde `kind` tag), the list of all kinds, and
/// whether chance made the event.
///
/// `KINDS` and `kind` are written by [`event_kinds!`](crate::event_kinds)
/// from one list; [`check_event_kinds`] tests them against the serde tags.
pub trait GameEvent:
    Clone
    + Debug
    + Display
    + PartialEq
    + serde::Serialize
    + serde::de::DeserializeOwned
    + Send
    + Sync
    + 'static
{
    /// Every kind, one per variant, as [`GameEvent::kind`] names them.
    const KINDS: &'static [&'static str];

    /// The kind of this event: its variant, in kebab-case, equal to the
    /// `kind` tag of its serde form.
    fn kind(&self) -> &'static str;

    /// Whether chance made this event (a shuffle, a deal, a draw, a roll,
    /// a seating draw, a random tie-break): what `verify` lists as
    /// reproduced from the seed.
    fn is_chance(&self) -> bool;

    /// Whether a seat's information state (its perfect recall of the
    /// game) keeps this event, when the seat may see it. True but for
    /// events whose result is kept by other events and whose own details
    /// tell nothing about the play: kept, they would split every
    /// information state by things that never matter.
    fn recalled(&self) -> bool {
        true
    }

    /// One example of every variant, in the order of
    /// [`GameEvent::KINDS`]: for tests that must cover every kind (the
    /// web client's templates, the serde tags).
    fn examples() -> Vec<Self>;
}

/// One entry of a game's event log: an event and who may see it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LogEntry<E> {
    /// `None`: public; `Some(seat)`: only that seat may see it (its deal,
    /// the cards it received in taxes).
    pub to: Option<Seat>,
    /// What happened.
    pub event: E,
}

impl<E> LogEntry<E> {
    /// A public entry.
    pub fn public(event: E) -> LogEntry<E> {
        LogEntry { to: None, event }
    }

    /// An entry only `seat` may see.
    pub fn private(seat: Seat, event: E) -> LogEntry<E> {
        LogEntry {
            to: Some(seat),
            event,
        }
    }

    /// Whether `seat` (or a spectator, for `None`) may see this entry.
    pub fn visible_to(&self, seat: Option<Seat>) -> bool {
        self.to.is_none() || self.to == seat
    }
}

/// Writes [`GameEvent::KINDS`] and [`GameEvent::kind`] inside an
/// `impl GameEvent` from one list of `Variant => "kind"` pairs, so the two
/// cannot drift apart: `kind` is an exhaustive match (a variant missing
/// from the list breaks the build) and `KINDS` is the same list, in order.
#[macro_export]
macro_rules! event_kinds {
    ($($variant:ident => $kind:literal),+ $(,)?) => {
        const KINDS: &'static [&'static str] = &[$($kind),+];

        fn kind(&self) -> &'static str {
            match self {
                $(Self::$variant { .. } => $kind,)+
            }
        }
    };
}

/// Implements `serde::Deserialize` through `FromStr` for types whose serde
/// form is their text notation (cards, hands, plays), so that events
/// holding them read back what they wrote.
#[macro_export]
macro_rules! deserialize_from_str {
    ($($t:ty),+ $(,)?) => {$(
        impl<'de> $crate::__serde::Deserialize<'de> for $t {
            fn deserialize<D: $crate::__serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <String as $crate::__serde::Deserialize>::deserialize(d)?;
                text.parse().map_err(<D::Error as $crate::__serde::de::Error>::custom)
            }
        }
    )+};
}

/// A broken promise of an event type, found by [`check_event_kinds`]:
/// each variant is one promise, with what was found instead.
#[derive(Debug, thiserror::Error)]
pub enum EventKindsError {
    /// The examples' kinds are not [`GameEvent::KINDS`], in order.
    #[error("the examples' kinds {found:?} are not KINDS {expected:?}")]
    Kinds {
        /// The examples' kinds.
        found: Vec<&'static str>,
        /// [`GameEvent::KINDS`].
        expected: &'static [&'static str],
    },
    /// An example that serde cannot write.
    #[error("{0}")]
    Serialize(serde_json::Error),
    /// An example whose serde `kind` tag is not its [`GameEvent::kind`].
    #[error("{event} serializes as {json}, kind {kind}")]
    Tag {
        /// The example, as `{:?}` shows it.
        event: String,
        /// Its JSON.
        json: serde_json::Value,
        /// Its [`GameEvent::kind`].
        kind: &'static str,
    },
    /// An example's JSON that does not read back.
    #[error("{json}: {source}")]
    Deserialize {
        /// The example's JSON.
        json: serde_json::Value,
        /// Why it does not read.
        source: serde_json::Error,
    },
    /// An example that reads back as another event.
    #[error("{json} reads back as {back}, not {event}")]
    Changed {
        /// The example's JSON.
        json: serde_json::Value,
        /// What it reads back as, as `{:?}` shows it.
        back: String,
        /// The example, as `{:?}` shows it.
        event: String,
    },
}

/// Checks an event type's own promises, for its crate's unit test: every
/// example's serde `kind` tag equals [`GameEvent::kind`], the examples'
/// kinds are exactly [`GameEvent::KINDS`] in order, and every example reads
/// back from its JSON unchanged. Returns the first broken promise.
pub fn check_event_kinds<E: GameEvent>() -> Result<(), EventKindsError> {
    let examples = E::examples();
    let kinds: Vec<&'static str> = examples.iter().map(GameEvent::kind).collect();
    if kinds != E::KINDS {
        return Err(EventKindsError::Kinds {
            found: kinds,
            expected: E::KINDS,
        });
    }
    for e in &examples {
        let json = serde_json::to_value(e).map_err(EventKindsError::Serialize)?;
        if json.get("kind").and_then(|k| k.as_str()) != Some(e.kind()) {
            return Err(EventKindsError::Tag {
                event: format!("{e:?}"),
                json,
                kind: e.kind(),
            });
        }
        let back: E = match serde_json::from_value(json.clone()) {
            Ok(back) => back,
            Err(source) => return Err(EventKindsError::Deserialize { json, source }),
        };
        if &back != e {
            return Err(EventKindsError::Changed {
                json,
                back: format!("{back:?}"),
                event: format!("{e:?}"),
            });
        }
    }
    Ok(())
}
