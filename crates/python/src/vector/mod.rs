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
//! episode's first observation (the "same-step" convention). Without
//! autoreset it waits for `reset` (of chosen tables, or all), and each
//! step until then is a no-op for it: its action is ignored, its rewards
//! are 0, its end flags stay set, its mask is empty and `to_move` -1, so
//! a batch whose tables end at different steps is evaluated to the end.

mod lane;

use crate::policy::Policy;
use crate::pool::{Pool, Work};
use bots::Roster;
use game::{Game, Seat, Seed, Tensor};
use lane::{Ended, Lane};
use std::ops::Range;
use std::sync::Arc;

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
    /// The actions of the next step, checked by [`Part::choose`]: `None`
    /// for a finished table without autoreset, which steps as a no-op.
    acts: Vec<Option<G::Action>>,
    obs: Vec<f32>,
    mask: Vec<u8>,
    rewards: Vec<f32>,
    terminated: Vec<u8>,
    truncated: Vec<u8>,
    to_move: Vec<i64>,
    seats: Vec<i64>,
    teach: Vec<i64>,
    /// The teacher's policy, a row of `num_actions` per lane (empty
    /// without a teacher).
    policy: Vec<f32>,
}

/// What the Python class needs of a vector env, without naming the game.
pub(crate) trait DynVector: Send {
    fn num_envs(&self) -> usize;
    fn players(&self) -> usize;
    fn max_players(&self) -> usize;
    fn obs_len(&self) -> usize;
    fn num_actions(&self) -> usize;
    /// Deals table `indices[k]` (every table, in order, without indices)
    /// again from `seeds[k]`.
    fn reset(&mut self, seeds: &[u64], indices: Option<&[usize]>) -> Result<(), String>;
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
    pub(crate) policy: &'a [f32],
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
            policy: vec![
                0.0;
                if shared.teacher.is_some() {
                    n * shared.num_actions
                } else {
                    0
                }
            ],
            seats,
            lanes,
        };
        part.rewrite();
        part
    }

    /// Writes every lane's observation and mask (when the part is made).
    fn rewrite(&mut self) {
        for j in 0..self.lanes.len() {
            self.rewrite_lane(j);
        }
    }

    /// Writes lane `j`'s observation and mask.
    fn rewrite_lane(&mut self, j: usize) {
        let shared = &*self.shared;
        let (o, a) = (shared.obs_len, shared.num_actions);
        let policy = self.policy.get_mut(j * a..(j + 1) * a).unwrap_or_default();
        self.lanes[j].write(
            shared,
            &mut self.obs[j * o..(j + 1) * o],
            &mut self.mask[j * a..(j + 1) * a],
            &mut self.to_move[j],
            (&mut self.teach[j], policy),
        );
    }

    /// Deals lane `j` again from `seed`, for each `(j, seed)`: a new first
    /// episode, its rewards and ends cleared. The other lanes keep theirs.
    fn reset(&mut self, seeds: &[(usize, u64)]) -> Result<(), String> {
        let p = self.shared.seats;
        for &(j, seed) in seeds {
            let (shared, lane) = (&*self.shared, &mut self.lanes[j]);
            lane.seed = seed;
            lane.episode = 0;
            lane.deal(shared, seed)?;
            lane.settle(shared, true)?;
            self.rewards[j * p..(j + 1) * p].fill(0.0);
            self.terminated[j] = 0;
            self.truncated[j] = 0;
            self.rewrite_lane(j);
        }
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
                if !self.shared.autoreset {
                    // finished, and waiting for its reset: any id will do
                    self.acts.push(None);
                    continue;
                }
                return Err(format!("table {i} has no decision to take"));
            }
            let legal = usize::try_from(id)
                .ok()
                .filter(|&id| id < a && self.mask[j * a + id] == 1)
                .and_then(|id| lane.game.action_of(id));
            match legal {
                Some(action) => self.acts.push(Some(action)),
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
            let Some(action) = self.acts[j] else {
                // a finished table: no reward again, its end kept
                self.rewards[j * p..(j + 1) * p].fill(0.0);
                continue;
            };
            let mut ended = Ended::default();
            lane.step(
                shared,
                action,
                &mut self.obs[j * o..(j + 1) * o],
                &mut self.mask[j * a..(j + 1) * a],
                &mut self.rewards[j * p..(j + 1) * p],
                &mut ended,
                &mut self.to_move[j],
                (
                    &mut self.teach[j],
                    self.policy.get_mut(j * a..(j + 1) * a).unwrap_or_default(),
                ),
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
            policy: &self.policy,
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

    fn reset(&mut self, seeds: &[u64], indices: Option<&[usize]>) -> Result<(), String> {
        let all: Vec<usize>;
        let tables = match indices {
            Some(t) => t,
            None => {
                all = (0..self.num_envs).collect();
                &all
            }
        };
        if seeds.len() != tables.len() {
            return Err(format!(
                "reset needs one seed per table reset: {} seeds for {} tables",
                seeds.len(),
                tables.len()
            ));
        }
        // every index checked before any table is dealt
        let mut by_part = vec![Vec::new(); self.num_envs.div_ceil(self.per)];
        let mut seen = vec![false; self.num_envs];
        for (&t, &seed) in tables.iter().zip(seeds) {
            let (p, j) = self.locate(t)?;
            if std::mem::replace(&mut seen[t], true) {
                return Err(format!("table {t} is listed twice"));
            }
            by_part[p].push((j, seed));
        }
        for (mut part, seeds) in self.pool.each().zip(&by_part) {
            part.reset(seeds)?;
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
