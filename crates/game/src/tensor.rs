//! Fixed action spaces and observation tensors, for reinforcement-learning
//! frameworks (PettingZoo, Gymnasium, OpenSpiel) and batched vector
//! environments.
//!
//! Those frameworks want a policy to output one logit per action id from a
//! space whose size never changes during a game, and to read a flat `f32`
//! vector of a fixed length. [`Tensor`] gives both, fixed per
//! `(options, players)`: a game maps each of its actions to an id and back,
//! writes a seat's observation into a caller's buffer, and writes the
//! legal-action mask from the caller's reusable list. Nothing here
//! allocates once the caller's buffers have grown, so a vector environment
//! can encode millions of steps per second.
//!
//! Each rules crate documents its own layout (ids and observation slices)
//! in its `tensor` module and in `docs/python.md`.

use crate::{Game, Seat};

/// Fixed action space and observation tensor of a game (for RL frameworks).
///
/// Ids and the observation layout depend only on the options and the
/// number of players the game was started with, never on the state, so
/// one network serves a whole game. An observation holds only what the
/// seat's [`Game::view`] shows; values are finite and in `[0, 1]`.
pub trait Tensor: Game {
    /// Number of distinct action ids for these options and starting player
    /// count: every id is `< num_actions`.
    fn num_actions(options: &Self::Options, players: usize) -> usize;

    /// Length of the observation vector for these options and starting
    /// player count.
    fn obs_len(options: &Self::Options, players: usize) -> usize;

    /// The most seats a game started with these options and `players`
    /// can reach (Dalmuti sessions grow by their joins, D13): how many
    /// agents an environment must provide for.
    fn max_players(options: &Self::Options, players: usize) -> usize {
        let _ = options;
        players
    }

    /// The id of `action` in this game's action space: `Some` (and below
    /// [`Tensor::num_actions`]) for every action that is legal in some
    /// state of this game; `None` for an action no state of it allows
    /// (a re-roll of three dice with `best-of-two` dice, say). Distinct
    /// legal actions of one state have distinct ids. Actions that name a
    /// seat are numbered relative to the seat to move, so that one policy
    /// serves every seat.
    fn action_id(&self, action: Self::Action) -> Option<usize>;

    /// The action with this id, if the id names one (not necessarily legal
    /// now); `action_id` of it gives `id` back.
    fn action_of(&self, id: usize) -> Option<Self::Action>;

    /// Writes `seat`'s observation into `out`, whose length must be
    /// [`Tensor::obs_len`], using only what [`Game::view`] of `seat`
    /// shows. No allocation.
    ///
    /// # Panics
    /// If `out` is shorter than the observation.
    fn write_obs(&self, seat: Seat, out: &mut [f32]);

    /// Fills `legal` with the legal actions of the seat to move (as
    /// [`Game::legal_actions`]) and writes their mask into `mask` (length
    /// [`Tensor::num_actions`]): 1 at each legal action's id, 0 elsewhere.
    /// Returns the number of legal actions. Clears the whole mask: see
    /// [`Tensor::update_mask`] for large action spaces.
    ///
    /// # Panics
    /// If `mask` is shorter than the action space.
    fn write_mask(&self, legal: &mut Vec<Self::Action>, mask: &mut [u8]) -> usize {
        mask.fill(0);
        self.legal_actions(legal);
        for &a in legal.iter() {
            if let Some(id) = self.action_id(a) {
                mask[id] = 1;
            }
        }
        legal.len()
    }

    /// [`Tensor::write_mask`] in time proportional to the legal lists, not
    /// to the action space (for `half-of-n` dice, whose space has 230,489
    /// ids): clears the ids listed in `ids` (the ones this call set at the
    /// previous step), then fills `legal`, sets the new ids in `mask` and
    /// lists them in `ids`. Start with an empty `ids` and an all-zero mask.
    /// Returns the number of legal actions.
    fn update_mask(
        &self,
        legal: &mut Vec<Self::Action>,
        ids: &mut Vec<u32>,
        mask: &mut [u8],
    ) -> usize {
        for &id in ids.iter() {
            mask[id as usize] = 0;
        }
        ids.clear();
        self.legal_actions(legal);
        for &a in legal.iter() {
            if let Some(id) = self.action_id(a) {
                mask[id] = 1;
                ids.push(id as u32);
            }
        }
        legal.len()
    }
}

/// `x / max`, clamped to `[0, 1]` (0 when `max` is 0): how observations
/// scale counts.
#[inline]
pub fn scaled(x: f32, max: f32) -> f32 {
    if max > 0.0 {
        (x / max).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// A broken promise of a [`Tensor`] encoding, found by
/// [`check_encoding`] or [`check_obs`]; actions are in their notation.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TensorError {
    /// A legal action with no id.
    #[error("legal action {0} has no id")]
    NoId(String),
    /// A legal action whose id is outside the action space.
    #[error("{action} has id {id} >= {num}")]
    IdTooBig {
        /// The action.
        action: String,
        /// Its id.
        id: usize,
        /// The size of the action space.
        num: usize,
    },
    /// Two legal actions with one id.
    #[error("{action} shares id {id} with another legal action")]
    SharedId {
        /// The second action.
        action: String,
        /// The id.
        id: usize,
    },
    /// A legal action's id that `action_of` does not read back.
    #[error("action_of({id}) = {read}, not {action}")]
    ReadBack {
        /// The id.
        id: usize,
        /// What `action_of` gave, as `{:?}` shows it.
        read: String,
        /// The action.
        action: String,
    },
    /// [`Tensor::update_mask`]'s list differs from the legal actions.
    #[error("update_mask's list is not legal_actions'")]
    UpdateList,
    /// [`Tensor::update_mask`] set other ids than the legal ones.
    #[error("update_mask did not set exactly the legal ids")]
    UpdateIds,
    /// [`Tensor::update_mask`] left an id of the last step set.
    #[error("update_mask left the old id {0} set")]
    OldIdSet(usize),
    /// [`Tensor::write_mask`]'s list differs from the legal actions.
    #[error("write_mask's list is not legal_actions'")]
    WriteList,
    /// [`Tensor::write_mask`]'s mask differs from `update_mask`'s.
    #[error("write_mask differs from update_mask")]
    MasksDiffer,
    /// An id whose action has another id.
    #[error("action_of({id}) = {action}, whose id is {its_id:?}")]
    IdOfAction {
        /// The id.
        id: usize,
        /// `action_of(id)`.
        action: String,
        /// That action's id.
        its_id: Option<usize>,
    },
    /// `write_obs` wrote past the observation's length.
    #[error("write_obs wrote past obs_len")]
    PastObs,
    /// An observation value that is not finite or not in `[0, 1]`.
    #[error("{seat}'s observation at {index} is {value}")]
    ObsOutOfRange {
        /// The seat observing.
        seat: Seat,
        /// The value's index.
        index: usize,
        /// The value.
        value: f32,
    },
}

/// Checks `game`'s [`Tensor`] encoding in its current state, for the
/// rules crates' tests: every legal action has an id below
/// `mask.len()` (the action space), distinct from the others', that
/// `action_of` reads back; [`Tensor::update_mask`] marks exactly the legal
/// ids and clears the old ones, and [`Tensor::write_mask`] gives the same
/// mask (checked when the space has at most 4096 ids, or with `all_ids`);
/// and, with `all_ids`, `action_of` of every id is `None` or an
/// action whose id is that id. `mask`, `ids` and `prev` are the caller's
/// [`Tensor::update_mask`] state, carried from step to step. Allocates:
/// for tests only.
pub fn check_encoding<G: Tensor>(
    game: &G,
    all_ids: bool,
    mask: &mut [u8],
    ids: &mut Vec<u32>,
    prev: &mut Vec<G::Action>,
) -> Result<(), TensorError> {
    // A session that grows (Dalmuti joins) keeps the sizes it started with.
    let num = mask.len();
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let mut seen = std::collections::HashSet::new();
    for &a in &legal {
        let id = game
            .action_id(a)
            .ok_or_else(|| TensorError::NoId(a.to_string()))?;
        if id >= num {
            return Err(TensorError::IdTooBig {
                action: a.to_string(),
                id,
                num,
            });
        }
        if !seen.insert(id) {
            return Err(TensorError::SharedId {
                action: a.to_string(),
                id,
            });
        }
        if game.action_of(id) != Some(a) {
            return Err(TensorError::ReadBack {
                id,
                read: format!("{:?}", game.action_of(id)),
                action: a.to_string(),
            });
        }
    }
    let before: Vec<u32> = ids.clone();
    let count = game.update_mask(prev, ids, mask);
    if count != legal.len() || *prev != legal {
        return Err(TensorError::UpdateList);
    }
    let listed: std::collections::HashSet<usize> = ids.iter().map(|&i| i as usize).collect();
    if listed != seen || seen.iter().any(|&id| mask[id] != 1) {
        return Err(TensorError::UpdateIds);
    }
    if let Some(id) = before
        .iter()
        .map(|&i| i as usize)
        .find(|i| !seen.contains(i) && mask[*i] != 0)
    {
        return Err(TensorError::OldIdSet(id));
    }
    // The whole mask, when it is small or asked for.
    if num <= 4096 || all_ids {
        let mut full = vec![7u8; num];
        let mut list = Vec::new();
        let count = game.write_mask(&mut list, &mut full);
        if count != legal.len() || list != legal {
            return Err(TensorError::WriteList);
        }
        if full != mask {
            return Err(TensorError::MasksDiffer);
        }
    }
    if all_ids {
        for id in 0..num {
            if let Some(a) = game.action_of(id) {
                if game.action_id(a) != Some(id) {
                    return Err(TensorError::IdOfAction {
                        id,
                        action: a.to_string(),
                        its_id: game.action_id(a),
                    });
                }
            }
        }
    }
    Ok(())
}

/// Checks `seat`'s observation: `len` values, all finite and in `[0, 1]`,
/// and nothing written past them (the buffer is one longer and that value
/// must stay untouched). Returns the observation.
pub fn check_obs<G: Tensor>(game: &G, seat: Seat, len: usize) -> Result<Vec<f32>, TensorError> {
    let mut out = vec![-1.0f32; len + 1];
    game.write_obs(seat, &mut out);
    if out[len] != -1.0 {
        return Err(TensorError::PastObs);
    }
    out.truncate(len);
    if let Some((i, v)) = out
        .iter()
        .enumerate()
        .find(|(_, v)| !v.is_finite() || **v < 0.0 || **v > 1.0)
    {
        return Err(TensorError::ObsOutOfRange {
            seat,
            index: i,
            value: *v,
        });
    }
    Ok(out)
}
