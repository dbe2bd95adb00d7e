//! The batched vector environment: N tables stepped in Rust, their
//! observations, masks, rewards and episode ends written into numpy
//! arrays that Python allocated once.
//!
//! Shaped for throughput: each table (a [`Lane`]) keeps its legal list,
//! mask ids and bots between steps, so a step allocates nothing but the
//! views the opponents' bots read; the tables are split into parts that
//! a persistent pool of worker threads steps ([`crate::pool`]), in Rust
//! alone, while the calling thread copies each finished part into numpy;
//! and ladder bots in the other seats play inside Rust until the
//! learner's turn, never returning to Python.
//!
//! Two modes:
//! - self-play (`opponents = None`): every step is one action by whoever
//!   must act at each table; `to_move` says who, and the observation and
//!   mask are that seat's;
//! - against bots: the learner sits at `seats[i]`, the bots take every
//!   other turn, and each step is one learner action.
//!
//! A finished table reports its returns in `rewards` (per seat) with
//! `terminated` (or `truncated` at the length cap, B17, returns 0) and,
//! with `autoreset`, is dealt again at once: the arrays then show the new
//! episode's first observation (the "same-step" convention).

use crate::policy::{Policy, PolicyBot};
use crate::pool::{Pool, Work};
use bots::{Bot, Roster};
use game::{Game, Seat, Seed, Tensor};
use std::ops::Range;
use std::sync::Arc;

/// A table and what it keeps between steps.
struct Lane<G: Game> {
    game: G,
    legal: Vec<G::Action>,
    /// The mask ids set at the previous step ([`Tensor::update_mask`]).
    ids: Vec<u32>,
    /// Bots by seat (`None` at the learner's seat and in self-play).
    bots: Vec<Option<Box<dyn Bot<G>>>>,
    /// The teacher's bots by seat, at the seats Python acts for (all of
    /// them in self-play); empty without a teacher.
    teachers: Vec<Option<Box<dyn Bot<G>>>>,
    /// The learner's seat (bot mode).
    seat: usize,
    /// The seed of the first episode, and how many were dealt since.
    seed: u64,
    episode: u64,
    actions: u64,
}

/// What one step of one table reports.
#[derive(Clone, Copy, Default)]
struct Ended {
    terminated: bool,
    truncated: bool,
}

/// How to build a vector env (the Python constructor's arguments).
pub(crate) struct Config {
    pub(crate) num_envs: usize,
    pub(crate) players: Option<usize>,
    pub(crate) opponents: Option<Opponents>,
    pub(crate) seat: usize,
    pub(crate) seed: u64,
    pub(crate) threads: usize,
    pub(crate) autoreset: bool,
    pub(crate) max_actions: u64,
    /// A ladder bot whose choice at every decision Python takes is
    /// reported in `teacher_actions` (for imitation learning).
    pub(crate) teacher: Option<String>,
}

/// Who plays the seats the learner does not: ladder bots by name, or a
/// Python policy ([`Policy`]).
#[derive(Clone)]
pub(crate) enum Opponents {
    Bots(String),
    Policy(Policy),
}

/// The settings every table shares.
struct Shared<G: Game> {
    options: G::Options,
    players: usize,
    /// The most seats a table can reach (Dalmuti joins, D13): the
    /// rewards' width.
    seats: usize,
    obs_len: usize,
    num_actions: usize,
    opponents: Option<Opponents>,
    autoreset: bool,
    max_actions: u64,
    teacher: Option<String>,
}

/// The vector environment for game `G`: its tables in parts, which a
/// pool of threads steps ([`Pool`]).
pub(crate) struct Vector<G: Tensor + Roster> {
    shared: Arc<Shared<G>>,
    pool: Pool<Part<G>>,
    num_envs: usize,
    /// Tables per part (the last may have fewer).
    per: usize,
    /// Draws `sample_actions` makes (seeded from the env's seed).
    rng: rand::rngs::SmallRng,
}

/// A range of tables with their rows of every array: what a thread
/// takes at a time.
struct Part<G: Game> {
    shared: Arc<Shared<G>>,
    lanes: Vec<Lane<G>>,
    /// The table index of the first lane.
    first: usize,
    /// The action ids Python gave for the next step, one per lane.
    given: Vec<i64>,
    /// The actions of the next step, checked by [`Part::choose`].
    acts: Vec<G::Action>,
    obs: Vec<f32>,
    mask: Vec<u8>,
    rewards: Vec<f32>,
    terminated: Vec<u8>,
    truncated: Vec<u8>,
    to_move: Vec<i64>,
    seats: Vec<i64>,
    teach: Vec<i64>,
}

/// What the Python class needs of a vector env, without naming the game.
pub(crate) trait DynVector: Send {
    fn num_envs(&self) -> usize;
    fn players(&self) -> usize;
    fn max_players(&self) -> usize;
    fn obs_len(&self) -> usize;
    fn num_actions(&self) -> usize;
    fn reset(&mut self, seeds: &[u64]) -> Result<(), String>;
    /// Checks one action id per table (an error, and no table moves, if
    /// any is not legal), then steps every table, calling `done` (on the
    /// calling thread) with each part's index and rows as soon as the
    /// part is stepped.
    fn step(
        &mut self,
        actions: &[i64],
        done: &mut dyn FnMut(usize, Arrays<'_>),
    ) -> Result<(), String>;
    /// Whether stepping calls Python (the opponents play a Python
    /// policy): the caller must then release the GIL around
    /// [`DynVector::step`].
    fn calls_python(&self) -> bool;
    fn set_seat(&mut self, lane: usize, seat: usize) -> Result<(), String>;
    /// A uniformly random legal action id per table (-1 where Python has
    /// no decision), from the legal lists the last step kept.
    fn sample_actions(&mut self, out: &mut [i64]);
    fn render(&self, lane: usize, seat: Option<usize>) -> Result<String, String>;
    /// The threads that step the tables, the caller's included.
    fn threads(&self) -> usize;
    /// The first error the opponents' Python policy met since the last
    /// call, if they play one.
    fn policy_error(&self) -> Option<pyo3::PyErr>;
    /// The tables of each part, in order: the rows of the arrays each
    /// part writes.
    fn parts(&self) -> Vec<Range<usize>>;
    /// Calls `f` with part `part`'s rows of the arrays.
    fn with_arrays(&self, part: usize, f: &mut dyn FnMut(Arrays<'_>));
}

/// One part's rows of the arrays a step writes, in the order the Python
/// class copies them.
pub(crate) struct Arrays<'a> {
    pub(crate) obs: &'a [f32],
    pub(crate) mask: &'a [u8],
    pub(crate) rewards: &'a [f32],
    pub(crate) terminated: &'a [u8],
    pub(crate) truncated: &'a [u8],
    pub(crate) to_move: &'a [i64],
    pub(crate) seats: &'a [i64],
    pub(crate) teach: &'a [i64],
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
    fn new(shared: &Shared<G>, seed: u64, seat: usize) -> Result<Lane<G>, String> {
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
    fn deal(&mut self, shared: &Shared<G>, seed: u64) -> Result<(), String> {
        self.game = G::new_seeded(&shared.options, shared.players, &Seed::Legacy(seed))
            .map_err(|e| e.to_string())?;
        self.actions = 0;
        self.seat_bots(shared, seed)
    }

    /// Reseeds the episode's bots (or makes them: the first time, and
    /// where the learner's seat moved).
    fn seat_bots(&mut self, shared: &Shared<G>, seed: u64) -> Result<(), String> {
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
    fn episode_seed(&self) -> u64 {
        if self.episode == 0 {
            self.seed
        } else {
            analysis::derive_seed(self.seed, self.episode)
        }
    }

    /// Lets the bots play until the learner's turn or the end.
    fn bots_play(&mut self, shared: &Shared<G>) {
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
    fn settle(&mut self, shared: &Shared<G>, redeal: bool) -> Result<(), String> {
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
    fn acting(&self, shared: &Shared<G>) -> Option<usize> {
        let s = self.game.to_move()?.index();
        if shared.opponents.is_some() && s != self.seat {
            return None;
        }
        Some(s)
    }

    fn ended(&self, shared: &Shared<G>) -> Option<Ended> {
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
    /// teacher's action id (-1 for none) into its slices.
    fn write(
        &mut self,
        shared: &Shared<G>,
        obs: &mut [f32],
        mask: &mut [u8],
        to_move: &mut i64,
        teach: &mut i64,
    ) {
        let seat = match shared.opponents {
            Some(_) => self.seat,
            None => self.game.to_move().map_or(0, Seat::index),
        };
        *to_move = self.acting(shared).map_or(-1, |s| s as i64);
        self.game.write_obs(Seat::new(seat), obs);
        *teach = -1;
        if *to_move >= 0 {
            self.game.update_mask(&mut self.legal, &mut self.ids, mask);
            if let Some(Some(teacher)) = self.teachers.get_mut(*to_move as usize) {
                let view = self.game.view(Seat::new(*to_move as usize));
                let action = teacher.choose(&view, &self.legal);
                *teach = self
                    .legal
                    .contains(&action)
                    .then(|| self.game.action_id(action))
                    .flatten()
                    .map_or(-1, |id| id as i64);
            }
        } else {
            for &id in &self.ids {
                mask[id as usize] = 0;
            }
            self.ids.clear();
        }
    }

    /// One step of this lane: `action` for the seat Python acts for, then
    /// the bots; the episode's end (and the next deal) if it comes.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        shared: &Shared<G>,
        action: G::Action,
        obs: &mut [f32],
        mask: &mut [u8],
        rewards: &mut [f32],
        ended: &mut Ended,
        to_move: &mut i64,
        teach: &mut i64,
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

impl<G: Tensor + Roster> Part<G> {
    fn new(shared: &Arc<Shared<G>>, lanes: Vec<Lane<G>>, first: usize) -> Part<G> {
        let n = lanes.len();
        let seats = lanes.iter().map(|l| l.seat as i64).collect();
        let mut part = Part {
            shared: Arc::clone(shared),
            first,
            given: Vec::with_capacity(n),
            acts: Vec::with_capacity(n),
            obs: vec![0.0; n * shared.obs_len],
            mask: vec![0; n * shared.num_actions],
            rewards: vec![0.0; n * shared.seats],
            terminated: vec![0; n],
            truncated: vec![0; n],
            to_move: vec![0; n],
            teach: vec![-1; n],
            seats,
            lanes,
        };
        part.rewrite();
        part
    }

    /// Writes every lane's observation and mask (after a reset).
    fn rewrite(&mut self) {
        let shared = &*self.shared;
        let (o, a) = (shared.obs_len, shared.num_actions);
        for (i, lane) in self.lanes.iter_mut().enumerate() {
            lane.write(
                shared,
                &mut self.obs[i * o..(i + 1) * o],
                &mut self.mask[i * a..(i + 1) * a],
                &mut self.to_move[i],
                &mut self.teach[i],
            );
        }
    }

    /// Deals every lane again, lane `j` from `seeds[j]`.
    fn reset(&mut self, seeds: &[u64]) -> Result<(), String> {
        let shared = &*self.shared;
        for (lane, &seed) in self.lanes.iter_mut().zip(seeds) {
            lane.seed = seed;
            lane.episode = 0;
            lane.deal(shared, seed)?;
            lane.settle(shared, true)?;
        }
        self.rewards.fill(0.0);
        self.terminated.fill(0);
        self.truncated.fill(0);
        self.rewrite();
        Ok(())
    }

    /// Checks the action id Python gave each lane and keeps the actions
    /// for the next step.
    fn choose(&mut self) -> Result<(), String> {
        let a = self.shared.num_actions;
        self.acts.clear();
        for (j, (lane, &id)) in self.lanes.iter().zip(&self.given).enumerate() {
            let i = self.first + j;
            if lane.acting(&self.shared).is_none() {
                return Err(format!(
                    "table {i} has no decision to take: its episode is over (reset it, or use autoreset)"
                ));
            }
            let legal = usize::try_from(id)
                .ok()
                .filter(|&id| id < a && self.mask[j * a + id] == 1)
                .and_then(|id| lane.game.action_of(id));
            match legal {
                Some(action) => self.acts.push(action),
                None => {
                    return Err(format!(
                        "table {i}: action id {id} is not legal now (see action_masks[{i}])"
                    ))
                }
            }
        }
        Ok(())
    }
}

/// What a round of the pool asks of every part: a step is two rounds,
/// so that no table moves unless every action is legal.
#[derive(Clone, Copy)]
enum Job {
    /// [`Part::choose`].
    Check,
    /// [`Part::step`].
    Step,
}

impl<G: Tensor + Roster> Work for Part<G> {
    type Job = Job;

    fn run(&mut self, job: Job) -> Result<(), String> {
        match job {
            Job::Check => self.choose(),
            Job::Step => self.step(),
        }
    }
}

impl<G: Tensor + Roster> Part<G> {
    /// One step of every lane of the part, with the actions [`Part::choose`]
    /// kept.
    fn step(&mut self) -> Result<(), String> {
        let shared = &*self.shared;
        let (o, a, p) = (shared.obs_len, shared.num_actions, shared.seats);
        for (j, lane) in self.lanes.iter_mut().enumerate() {
            let mut ended = Ended::default();
            lane.step(
                shared,
                self.acts[j],
                &mut self.obs[j * o..(j + 1) * o],
                &mut self.mask[j * a..(j + 1) * a],
                &mut self.rewards[j * p..(j + 1) * p],
                &mut ended,
                &mut self.to_move[j],
                &mut self.teach[j],
            )?;
            self.terminated[j] = u8::from(ended.terminated);
            self.truncated[j] = u8::from(ended.truncated);
        }
        Ok(())
    }
}

impl<G: Game> Part<G> {
    fn arrays(&self) -> Arrays<'_> {
        Arrays {
            obs: &self.obs,
            mask: &self.mask,
            rewards: &self.rewards,
            terminated: &self.terminated,
            truncated: &self.truncated,
            to_move: &self.to_move,
            seats: &self.seats,
            teach: &self.teach,
        }
    }
}

impl<G: Tensor + Roster> Vector<G> {
    pub(crate) fn new(pairs: &[(String, String)], config: Config) -> Result<Vector<G>, String> {
        let Config {
            num_envs,
            players,
            opponents,
            seat,
            seed,
            threads,
            autoreset,
            max_actions,
            teacher,
        } = config;
        let options = crate::table::options_of::<G>(pairs)?;
        let players = players.unwrap_or(G::DEFAULT_PLAYERS);
        if num_envs == 0 || num_envs > 1 << 16 {
            return Err(format!("num_envs is 1 to {}, not {num_envs}", 1 << 16));
        }
        if seat >= players {
            return Err(format!(
                "seat {seat} does not exist: seats are 0..{players}"
            ));
        }
        if let Some(Opponents::Bots(spec)) = &opponents {
            G::bot(spec, 0).map_err(|e| e.to_string())?;
        }
        if let Some(spec) = &teacher {
            G::bot(spec, 0).map_err(|e| format!("teacher: {e}"))?;
        }
        // Probe the setup once, with its own error.
        G::new_seeded(&options, players, &Seed::Legacy(seed)).map_err(|e| e.to_string())?;
        let shared = Arc::new(Shared {
            seats: G::max_players(&options, players),
            obs_len: G::obs_len(&options, players),
            num_actions: G::num_actions(&options, players),
            options,
            players,
            opponents,
            autoreset,
            max_actions: max_actions.max(1),
            teacher,
        });
        let mut lanes = (0..num_envs)
            .map(|i| Lane::new(&shared, analysis::derive_seed(seed, i as u64), seat))
            .collect::<Result<Vec<_>, _>>()?;
        // Below 64 tables a step is too short to share: one thread. Above,
        // parts of at least 32 tables, about 8 per thread, so that threads
        // share the work out however the system schedules them.
        let threads = if num_envs < 64 {
            1
        } else {
            threads.clamp(1, 64)
        };
        let parts = if threads == 1 {
            1
        } else {
            (num_envs / 32).clamp(threads, threads * 8)
        };
        let per = num_envs.div_ceil(parts);
        let mut split = Vec::new();
        while !lanes.is_empty() {
            let rest = lanes.split_off(per.min(lanes.len()));
            let first = split.len() * per;
            split.push(Part::new(
                &shared,
                std::mem::replace(&mut lanes, rest),
                first,
            ));
        }
        Ok(Vector {
            pool: Pool::new(split, threads)?,
            shared,
            num_envs,
            per,
            rng: rand::SeedableRng::seed_from_u64(analysis::derive_seed(seed, u64::MAX)),
        })
    }

    /// The part holding table `lane`, and the lane's index in it.
    fn locate(&self, lane: usize) -> Result<(usize, usize), String> {
        if lane >= self.num_envs {
            return Err(format!("table {lane} does not exist"));
        }
        Ok((lane / self.per, lane % self.per))
    }
}

impl<G: Tensor + Roster> DynVector for Vector<G> {
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    fn players(&self) -> usize {
        self.shared.players
    }

    fn max_players(&self) -> usize {
        self.shared.seats
    }

    fn obs_len(&self) -> usize {
        self.shared.obs_len
    }

    fn num_actions(&self) -> usize {
        self.shared.num_actions
    }

    fn reset(&mut self, seeds: &[u64]) -> Result<(), String> {
        if seeds.len() != self.num_envs {
            return Err(format!(
                "reset needs one seed per table: {} seeds for {} tables",
                seeds.len(),
                self.num_envs
            ));
        }
        let mut first = 0;
        for mut part in self.pool.each() {
            let n = part.lanes.len();
            part.reset(&seeds[first..first + n])?;
            first += n;
        }
        Ok(())
    }

    fn step(
        &mut self,
        actions: &[i64],
        done: &mut dyn FnMut(usize, Arrays<'_>),
    ) -> Result<(), String> {
        let n = self.num_envs;
        if actions.len() != n {
            return Err(format!(
                "step needs one action per table: {} actions for {n} tables",
                actions.len()
            ));
        }
        for mut part in self.pool.each() {
            let rows = part.first..part.first + part.lanes.len();
            part.given.clear();
            part.given.extend_from_slice(&actions[rows]);
        }
        // Check every table's action before changing any.
        self.pool.round(Job::Check, &mut |_, _| {})?;
        self.pool
            .round(Job::Step, &mut |i, part| done(i, part.arrays()))
    }

    fn calls_python(&self) -> bool {
        matches!(self.shared.opponents, Some(Opponents::Policy(_)))
    }

    fn sample_actions(&mut self, out: &mut [i64]) {
        use rand::Rng;
        let mut out = out.iter_mut();
        for part in self.pool.each() {
            for (lane, &moving) in part.lanes.iter().zip(&part.to_move) {
                let Some(o) = out.next() else { return };
                *o = if moving < 0 || lane.ids.is_empty() {
                    -1
                } else {
                    i64::from(lane.ids[self.rng.random_range(0..lane.ids.len())])
                };
            }
        }
    }

    fn set_seat(&mut self, lane: usize, seat: usize) -> Result<(), String> {
        if seat >= self.shared.players {
            return Err(format!(
                "seat {seat} does not exist: seats are 0..{}",
                self.shared.players
            ));
        }
        let (p, j) = self.locate(lane)?;
        let mut part = self.pool.part(p);
        part.lanes[j].seat = seat;
        part.seats[j] = seat as i64;
        Ok(())
    }

    fn render(&self, lane: usize, seat: Option<usize>) -> Result<String, String> {
        let (p, j) = self.locate(lane)?;
        let part = self.pool.part(p);
        let l = &part.lanes[j];
        Ok(match seat {
            Some(s) if s < l.game.players() => l.game.view(Seat::new(s)).to_string(),
            Some(s) => return Err(format!("seat {s} does not exist")),
            None => l.game.public_view().to_string(),
        })
    }

    fn threads(&self) -> usize {
        self.pool.threads()
    }

    fn policy_error(&self) -> Option<pyo3::PyErr> {
        match &self.shared.opponents {
            Some(Opponents::Policy(policy)) => policy.take_error(),
            _ => None,
        }
    }

    fn parts(&self) -> Vec<Range<usize>> {
        let mut first = 0;
        self.pool
            .each()
            .map(|part| {
                let r = first..first + part.lanes.len();
                first = r.end;
                r
            })
            .collect()
    }

    fn with_arrays(&self, part: usize, f: &mut dyn FnMut(Arrays<'_>)) {
        f(self.pool.part(part).arrays());
    }
}

/// Makes a vector env for the game called `name`.
pub(crate) fn make(
    name: &str,
    pairs: &[(String, String)],
    config: Config,
) -> Result<Box<dyn DynVector>, String> {
    registry::dispatch!(name,
        G => Vector::<G>::new(pairs, config)
            .map(|v| Box::new(v) as Box<dyn DynVector>),
        _ => Err(registry::unknown_game(name)))
}
