//! Information states: everything one seat has seen and done since the
//! game began, in order (perfect recall), as text and as a fixed-size
//! vector, for tabular and regret-matching methods (CFR and its kin).
//!
//! The text is exact by construction: the seat's own events (public ones
//! and those told to it alone, but for the seating draw's cards) with its
//! own actions placed where it took them. The vector replays the record
//! and keeps, after each action, the action when it was the seat's own
//! and the seat's whole observation then; its length is fixed by a
//! number of steps chosen by the caller, which is why it suits small
//! games (docs/python.md).

use crate::table::{DynGame, Table};
use bots::Roster;
use game::{Game, GameEvent, Record, Tensor};

/// A resampled table (`Game.resample`) was never played: it has no
/// history to recall.
const NO_HISTORY: &str = "this state was resampled from a view: it has no history, so no \
                          information state (ask the game it was drawn from)";

/// The most floats an information-state vector may have (64 MiB): a
/// caller's `steps` beyond it is refused rather than allocated.
pub(crate) const MAX_INFO_FLOATS: usize = 1 << 24;

/// Where each recorded action fell in the event log: the log's length
/// just before it, and who took it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mark {
    pub(crate) log: u32,
    pub(crate) seat: u8,
}

/// Replays `record` with the log on (every action legal, the recorded
/// outcome matched), keeping each action's mark as it goes.
pub(crate) fn replay_marked<G: Game>(record: &Record) -> Result<(G, Vec<Mark>), String> {
    // The log's length before the first action: the start's events.
    let mut start: G = record.start().map_err(|e| e.to_string())?;
    start.set_logging(true);
    let mut log = start.events().len() as u32;
    let mut marks = Vec::with_capacity(record.actions.len());
    let game = record
        .replay::<G>(true, |game, seat, _| {
            marks.push(Mark {
                log,
                seat: seat.index() as u8,
            });
            log = game.events().len() as u32;
        })
        .map_err(|e| e.to_string())?;
    Ok((game, marks))
}

impl<G: Roster + Tensor> Table<G> {
    /// `seat`'s information state as text: a first line naming the seat,
    /// then one line per event it saw and per action it took (`you:
    /// play 3x7`), in the order they happened.
    pub(crate) fn info_text(&self, seat: usize) -> Result<String, String> {
        if !self.recorded {
            return Err(NO_HISTORY.into());
        }
        let me = self.seat(seat)?;
        let mut out = format!("seat {me}");
        let mut next = 0;
        let own = |upto: usize, next: &mut usize, out: &mut String| {
            while *next < self.marks.len() && self.marks[*next].log as usize <= upto {
                if self.marks[*next].seat as usize == me.index() {
                    let text = &self.record.actions[*next];
                    let action = text.split_once(' ').map_or(text.as_str(), |(_, a)| a);
                    out.push_str("\nyou: ");
                    out.push_str(action);
                }
                *next += 1;
            }
        };
        for (i, entry) in self.game.events().iter().enumerate() {
            own(i, &mut next, &mut out);
            if entry.visible_to(Some(me)) && entry.event.recalled() {
                out.push('\n');
                out.push_str(&entry.event.to_string());
            }
        }
        own(usize::MAX, &mut next, &mut out);
        Ok(out)
    }

    /// The length of the information-state vector for `steps` actions,
    /// refused above [`MAX_INFO_FLOATS`].
    pub(crate) fn info_len(&self, steps: usize) -> Result<usize, String> {
        let obs = self.obs_len();
        steps
            .checked_mul(self.num_actions() + obs)
            .and_then(|n| n.checked_add(obs))
            .filter(|&n| n <= MAX_INFO_FLOATS)
            .ok_or_else(|| {
                format!(
                    "{steps} steps make an information state of more than {MAX_INFO_FLOATS} \
                     floats: this vector suits small games (at most {} steps here)",
                    (MAX_INFO_FLOATS - obs) / (self.num_actions() + obs)
                )
            })
    }

    /// Writes `seat`'s information-state vector for `steps` actions into
    /// `out` (`info_len(steps)` long): the seat's observation at the
    /// start, then for each action taken so far a block of the action
    /// (one-hot over the ids, only when the actor is this seat) and the
    /// seat's observation after it; blocks of steps not yet played are 0.
    /// Like the observation, it names the other seats by where they sit
    /// from this one, not by number: histories that differ only in which
    /// other seat sits where share it.
    pub(crate) fn info_vector(
        &self,
        seat: usize,
        steps: usize,
        out: &mut [f32],
    ) -> Result<(), String> {
        if !self.recorded {
            return Err(NO_HISTORY.into());
        }
        let me = self.seat(seat)?;
        let played = self.record.actions.len();
        if played > steps {
            return Err(format!(
                "the game has taken {played} actions, more than the {steps} steps asked for: \
                 ask for more steps (every game this long needs them)"
            ));
        }
        let (obs, ids) = (self.obs_len(), self.num_actions());
        out.fill(0.0);
        let mut game: G = self.record.start().map_err(|e| e.to_string())?;
        game.write_obs(me, &mut out[..obs]);
        let mut at = obs;
        for index in 0..played {
            let (seat, action) = self
                .record
                .parse_action::<G>(index)
                .map_err(|e| e.to_string())?;
            if seat == me {
                if let Some(id) = game.action_id(action) {
                    out[at + id] = 1.0;
                }
            }
            game.act(seat, action).map_err(|e| e.to_string())?;
            game.write_obs(me, &mut out[at + ids..at + ids + obs]);
            at += ids + obs;
        }
        Ok(())
    }
}
