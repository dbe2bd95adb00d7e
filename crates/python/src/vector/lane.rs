//! One table of the vector environment ([`Lane`]): its game, legal list,
//! mask ids and bots, kept between steps so that a step allocates nothing;
//! how it deals, lets the bots play, ends an episode and writes its rows.

use super::{Opponents, Shared};
use crate::policy::PolicyBot;
use bots::{Bot, Roster};
use game::{Game, Seat, Seed, Tensor};

/// A table and what it keeps between steps.
pub(super) struct Lane<G: Game> {
    pub(super) game: G,
    pub(super) legal: Vec<G::Action>,
    /// The mask ids set at the previous step ([`Tensor::update_mask`]).
    pub(super) ids: Vec<u32>,
    /// Bots by seat (`None` at the learner's seat and in self-play).
    pub(super) bots: Vec<Option<Box<dyn Bot<G>>>>,
    /// The teacher's bots by seat, at the seats Python acts for (all of
    /// them in self-play); empty without a teacher.
    pub(super) teachers: Vec<Option<Box<dyn Bot<G>>>>,
    /// The learner's seat (bot mode).
    pub(super) seat: usize,
    /// The seed of the first episode, and how many were dealt since.
    pub(super) seed: u64,
    pub(super) episode: u64,
    pub(super) actions: u64,
}

/// What one step of one table reports.
#[derive(Clone, Copy, Default)]
pub(super) struct Ended {
    pub(super) terminated: bool,
    pub(super) truncated: bool,
}

/// Each seat's return from a finished game ([`game::Outcome::returns`]),
/// 0 for seats it does not name.
fn returns_into(outcome: Option<&game::Outcome>, out: &mut [f32]) {
    out.fill(0.0);
    if let Some(o) = outcome {
        for (r, v) in out.iter_mut().zip(o.returns()) {
            *r = v as f32;
        }
    }
}

impl<G: Tensor + Roster> Lane<G> {
    pub(super) fn new(shared: &Shared<G>, seed: u64, seat: usize) -> Result<Lane<G>, String> {
        let mut lane = Lane {
            game: G::new_seeded(&shared.options, shared.players, &Seed::Legacy(seed))
                .map_err(|e| e.to_string())?,
            legal: Vec::new(),
            ids: Vec::new(),
            bots: Vec::new(),
            teachers: Vec::new(),
            seat,
            seed,
            episode: 0,
            actions: 0,
        };
        lane.seat_bots(shared, seed)?;
        lane.settle(shared, true)?;
        Ok(lane)
    }

    /// Starts an episode from `seed`.
    pub(super) fn deal(&mut self, shared: &Shared<G>, seed: u64) -> Result<(), String> {
        self.game = G::new_seeded(&shared.options, shared.players, &Seed::Legacy(seed))
            .map_err(|e| e.to_string())?;
        self.actions = 0;
        self.seat_bots(shared, seed)
    }

    /// Reseeds the episode's bots (or makes them: the first time, and
    /// where the learner's seat moved).
    pub(super) fn seat_bots(&mut self, shared: &Shared<G>, seed: u64) -> Result<(), String> {
        if let Some(spec) = &shared.teacher {
            self.teachers.resize_with(shared.seats, || None);
            for (s, slot) in self.teachers.iter_mut().enumerate() {
                // Seeded apart from the opponents' bots of the same seat.
                let bot_seed = analysis::derive_seed(seed, (1 << 32) + s as u64);
                if shared.opponents.is_some() && s != self.seat {
                    *slot = None;
                } else if !slot.as_mut().is_some_and(|b| b.reseed(bot_seed)) {
                    *slot = Some(G::bot(spec, bot_seed).map_err(|e| e.to_string())?);
                }
            }
        }
        let Some(opponents) = &shared.opponents else {
            return Ok(());
        };
        self.bots.resize_with(shared.seats, || None);
        for (s, slot) in self.bots.iter_mut().enumerate() {
            let bot_seed = analysis::derive_seed(seed, s as u64);
            if s == self.seat {
                *slot = None;
            } else if !slot.as_mut().is_some_and(|b| b.reseed(bot_seed)) {
                *slot = Some(match opponents {
                    Opponents::Bots(spec) => G::bot(spec, bot_seed).map_err(|e| e.to_string())?,
                    Opponents::Policy(policy) => Box::new(PolicyBot::<G>::new(
                        policy.clone(),
                        shared.obs_len,
                        shared.num_actions,
                    )),
                });
            }
        }
        Ok(())
    }

    /// The seed of episode `episode` of this lane: the lane's seed itself
    /// first, then derived from it.
    pub(super) fn episode_seed(&self) -> u64 {
        if self.episode == 0 {
            self.seed
        } else {
            analysis::derive_seed(self.seed, self.episode)
        }
    }

    /// Lets the bots play until the learner's turn or the end.
    pub(super) fn bots_play(&mut self, shared: &Shared<G>) {
        while let Some(s) = self.game.to_move() {
            if self.actions >= shared.max_actions {
                return;
            }
            let Some(Some(bot)) = self.bots.get_mut(s.index()) else {
                return;
            };
            if let Some(rng) = bot.uniform_rng() {
                // A random bot: drawn without a view or a list.
                let action = self.game.pick_uniform(rng, &mut self.legal);
                self.game.apply_unchecked(action);
            } else {
                self.game.legal_actions(&mut self.legal);
                let view = self.game.view(s);
                let action = bot.choose(&view, &self.legal);
                if self.legal.contains(&action) {
                    self.game.apply_unchecked(action);
                } else {
                    // A bot bug: play the first legal action rather than stall.
                    self.game.apply_unchecked(self.legal[0]);
                }
            }
            self.actions += 1;
        }
    }

    /// Lets the bots play (bot mode). With `redeal`, an episode that ends
    /// before the learner's first turn (which no learner played) is dealt
    /// again from the next seed, so Python always has a decision to take.
    pub(super) fn settle(&mut self, shared: &Shared<G>, redeal: bool) -> Result<(), String> {
        if shared.opponents.is_none() {
            return Ok(());
        }
        for _ in 0..100 {
            self.bots_play(shared);
            if !redeal || self.game.to_move().is_some() || self.actions >= shared.max_actions {
                return Ok(());
            }
            self.episode += 1;
            let seed = self.episode_seed();
            self.deal(shared, seed)?;
        }
        Err("100 deals in a row ended before the learner's turn".into())
    }

    /// Which seat Python acts for now, if any.
    pub(super) fn acting(&self, shared: &Shared<G>) -> Option<usize> {
        let s = self.game.to_move()?.index();
        if shared.opponents.is_some() && s != self.seat {
            return None;
        }
        Some(s)
    }

    pub(super) fn ended(&self, shared: &Shared<G>) -> Option<Ended> {
        if self.game.to_move().is_none() {
            Some(Ended {
                terminated: true,
                truncated: false,
            })
        } else if self.actions >= shared.max_actions {
            Some(Ended {
                terminated: false,
                truncated: true,
            })
        } else {
            None
        }
    }

    /// Writes this lane's observation, mask, seat to act and the
    /// teacher's action id (-1 for none) and policy into its slices. The
    /// policy row (empty without a teacher) is the share of the search's
    /// root visits each action id got, or the choice alone (1 at its id)
    /// when no search made it; all 0 when there is no decision.
    pub(super) fn write(
        &mut self,
        shared: &Shared<G>,
        obs: &mut [f32],
        mask: &mut [u8],
        to_move: &mut i64,
        (teach, policy): (&mut i64, &mut [f32]),
    ) {
        let seat = match shared.opponents {
            Some(_) => self.seat,
            None => self.game.to_move().map_or(0, Seat::index),
        };
        *to_move = self.acting(shared).map_or(-1, |s| s as i64);
        self.game.write_obs(Seat::new(seat), obs);
        *teach = -1;
        policy.fill(0.0);
        if *to_move >= 0 {
            self.game.update_mask(&mut self.legal, &mut self.ids, mask);
            self.teach(Seat::new(*to_move as usize), teach, policy);
        } else {
            for &id in &self.ids {
                mask[id as usize] = 0;
            }
            self.ids.clear();
        }
    }

    /// Asks `seat`'s teacher, if it has one, for the decision at hand: its
    /// action id into `teach`, its policy row into `policy` (see
    /// [`Lane::write`]; both already cleared).
    fn teach(&mut self, seat: Seat, teach: &mut i64, policy: &mut [f32]) {
        let Some(Some(teacher)) = self.teachers.get_mut(seat.index()) else {
            return;
        };
        let (action, scored) = teacher.choose_scored(&self.game.view(seat), &self.legal);
        let id_of = |a: G::Action| {
            self.legal
                .contains(&a)
                .then(|| self.game.action_id(a))
                .flatten()
        };
        *teach = id_of(action).map_or(-1, |id| id as i64);
        let visits: u64 = scored.iter().flatten().map(|s| s.visits).sum();
        match scored {
            Some(scored) if visits > 0 => {
                for (id, s) in scored.iter().filter_map(|s| Some((id_of(s.action)?, s))) {
                    if let Some(p) = policy.get_mut(id) {
                        *p += s.visits as f32 / visits as f32;
                    }
                }
            }
            _ => {
                if let Some(p) = id_of(action).and_then(|id| policy.get_mut(id)) {
                    *p = 1.0;
                }
            }
        }
    }

    /// One step of this lane: `action` for the seat Python acts for, then
    /// the bots; the episode's end (and the next deal) if it comes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn step(
        &mut self,
        shared: &Shared<G>,
        action: G::Action,
        obs: &mut [f32],
        mask: &mut [u8],
        rewards: &mut [f32],
        ended: &mut Ended,
        to_move: &mut i64,
        teach: (&mut i64, &mut [f32]),
    ) -> Result<(), String> {
        self.game.apply_unchecked(action);
        self.actions += 1;
        self.settle(shared, false)?;
        *ended = self.ended(shared).unwrap_or_default();
        // Returns only for a finished game: a truncated one has none (B17).
        if ended.terminated {
            returns_into(self.game.outcome().as_ref(), rewards);
        } else {
            rewards.fill(0.0);
        }
        if (ended.terminated || ended.truncated) && shared.autoreset {
            self.episode += 1;
            let seed = self.episode_seed();
            self.deal(shared, seed)?;
            self.settle(shared, true)?;
        }
        self.write(shared, obs, mask, to_move, teach);
        Ok(())
    }
}
