//! One game of either kind behind one object-safe trait ([`DynGame`]), so
//! the Python class `Game` holds a `Box<dyn DynGame>` and every method is
//! written once, generically, in [`Table`].
//!
//! A table is (rules version, options, seed, actions) like everywhere in
//! ratrace: it keeps the engine and the record it is building side by
//! side, so `record()` is always the game so far and `load` replays one.
//! Views, events and bots only ever get what a seat may see.

use crate::infostate::{replay_marked, Mark};
use bots::{Bot, Roster};
use game::{Game, GameEvent, GameOptions, Outcome, Record, Seat, Seed, Tensor};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::any::Any;

/// A bot's value of one action: (action text, value, search visits).
pub(crate) type Valued = (String, f64, u64);

/// What the Python class needs of a game, without naming which.
pub(crate) trait DynGame: Send + Sync {
    fn name(&self) -> &'static str;
    fn rules_version(&self) -> &'static str;
    fn players(&self) -> usize;
    fn options(&self) -> Vec<(String, String)>;
    fn seed(&self) -> String;
    /// Whose turn as the table may know it (D7: `None` while a secret
    /// decision is pending).
    fn to_move(&self) -> Option<usize>;
    /// Who must act, secret decisions included: for referees and
    /// environments, never to be shown to the other players.
    fn actor(&self) -> Option<usize>;
    fn legal(&self) -> Vec<String>;
    /// Applies `action` for `seat` (`None`: the actor); the error names
    /// the rule it breaks and nothing changes.
    fn apply_text(&mut self, seat: Option<usize>, action: &str) -> Result<(), String>;
    fn view_json(&self, seat: usize) -> String;
    fn public_view_json(&self) -> String;
    fn view_text(&self, seat: Option<usize>) -> String;
    /// The events `seat` may see (`None`: public ones), from index `start`
    /// of the whole log, as a JSON list of `{"index", "text", "event"}`.
    fn events_json(&self, seat: Option<usize>, start: usize) -> String;
    fn outcome(&self) -> Option<Outcome>;
    fn record(&self) -> &Record;
    fn actions_played(&self) -> usize;
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// A state consistent with what `seat` sees, the rest drawn from
    /// `seed` (the engines' determinization). Its record is empty: a
    /// sampled state has no history anyone played.
    fn resample(&self, seat: usize, seed: u64) -> Box<dyn DynGame>;
    /// The action the bot in `slot` (made from `spec` and `seed` when the
    /// slot holds none for this game) chooses for `seat`, from that seat's
    /// view only.
    fn bot_choose(
        &self,
        slot: &mut Option<Box<dyn Any + Send>>,
        spec: &str,
        seed: u64,
        seat: usize,
    ) -> Result<String, String>;
    /// The bot's value of each legal action, when it has such values.
    fn bot_evaluate(
        &self,
        slot: &mut Option<Box<dyn Any + Send>>,
        spec: &str,
        seed: u64,
        seat: usize,
    ) -> Result<Option<Vec<Valued>>, String>;
    /// The size of the fixed action space ([`Tensor::num_actions`]).
    fn num_actions(&self) -> usize;
    /// The observation's length ([`Tensor::obs_len`]).
    fn obs_len(&self) -> usize;
    /// The most seats this game can reach ([`Tensor::max_players`]).
    fn max_players(&self) -> usize;
    /// The actor's legal actions as ids.
    fn legal_ids(&self) -> Vec<usize>;
    /// The text of the action with this id, if it names one.
    fn action_text(&self, id: usize) -> Option<String>;
    /// The id of an action given as text.
    fn action_id(&self, text: &str) -> Result<usize, String>;
    /// [`DynGame::apply_text`] for an action id.
    fn apply_id(&mut self, seat: Option<usize>, id: usize) -> Result<(), String>;
    /// Writes `seat`'s observation (`out.len() == obs_len`).
    fn write_obs(&self, seat: usize, out: &mut [f32]);
    /// Writes the actor's legal-action mask (`out.len() == num_actions`).
    fn write_mask(&self, out: &mut [u8]);
    /// `seat`'s information state as text (perfect recall).
    fn info_text(&self, seat: usize) -> Result<String, String>;
    /// The information-state vector's length for `steps` actions.
    fn info_len(&self, steps: usize) -> Result<usize, String>;
    /// Writes `seat`'s information-state vector for `steps` actions.
    fn info_vector(&self, seat: usize, steps: usize, out: &mut [f32]) -> Result<(), String>;
}

/// A game and its record.
#[derive(Clone)]
pub(crate) struct Table<G: Game> {
    pub(crate) game: G,
    pub(crate) record: Record,
    /// Whether the record is the real history (false for a resampled state).
    pub(crate) recorded: bool,
    /// Where each recorded action fell in the event log (information
    /// states place the seat's own actions by it).
    pub(crate) marks: Vec<Mark>,
}

/// Parses options given as `key=value` pairs for game `G`.
pub(crate) fn options_of<G: Game>(pairs: &[(String, String)]) -> Result<G::Options, String> {
    G::Options::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| e.to_string())
}

impl<G: Roster + Tensor> Table<G> {
    /// A new game, with its event log on.
    pub(crate) fn start(
        pairs: &[(String, String)],
        players: Option<usize>,
        seed: Seed,
    ) -> Result<Table<G>, String> {
        let options = options_of::<G>(pairs)?;
        let players = players.unwrap_or(G::DEFAULT_PLAYERS);
        let mut game = G::new_seeded(&options, players, &seed).map_err(|e| e.to_string())?;
        game.set_logging(true);
        Ok(Table {
            game,
            record: Record::new::<G>(&options, players, seed),
            recorded: true,
            marks: Vec::new(),
        })
    }

    /// Replays a record (every action must be legal; an outcome, if
    /// recorded, must match).
    pub(crate) fn load(record: Record) -> Result<Table<G>, String> {
        let (game, marks) = replay_marked::<G>(&record)?;
        Ok(Table {
            game,
            record,
            recorded: true,
            marks,
        })
    }

    pub(crate) fn seat(&self, seat: usize) -> Result<Seat, String> {
        if seat < self.game.players() {
            Ok(Seat::new(seat))
        } else {
            Err(format!(
                "seat {seat} does not exist: this game has seats 0..{}",
                self.game.players()
            ))
        }
    }

    /// Plays `action` for `seat` (`None`: the actor) and records it.
    fn act(&mut self, seat: Option<usize>, action: G::Action) -> Result<(), String> {
        let seat = match seat {
            Some(s) => self.seat(s)?,
            None => self.game.to_move().ok_or("the game is over")?,
        };
        let log = self.game.events().len() as u32;
        self.game.act(seat, action).map_err(|e| e.to_string())?;
        if self.recorded {
            self.marks.push(Mark {
                log,
                seat: seat.index() as u8,
            });
            self.record.push::<G>(seat, action);
            self.record.outcome = self.game.outcome();
        }
        Ok(())
    }

    fn bot<'a>(
        slot: &'a mut Option<Box<dyn Any + Send>>,
        spec: &str,
        seed: u64,
    ) -> Result<&'a mut Box<dyn Bot<G>>, String> {
        let fits = slot
            .as_ref()
            .is_some_and(|b| b.downcast_ref::<Box<dyn Bot<G>>>().is_some());
        if !fits {
            *slot = Some(Box::new(G::bot(spec, seed).map_err(|e| e.to_string())?));
        }
        slot.as_mut()
            .and_then(|b| b.downcast_mut::<Box<dyn Bot<G>>>())
            .ok_or_else(|| "internal: bot slot".to_string())
    }

    fn turn_of(&self, seat: usize) -> Result<(G::View, Vec<G::Action>), String> {
        let s = self.seat(seat)?;
        if self.game.to_move() != Some(s) {
            return Err(format!("it is not {s}'s turn"));
        }
        let mut legal = Vec::new();
        self.game.legal_actions(&mut legal);
        Ok((self.game.view(s), legal))
    }
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

impl<G: Roster + Tensor> DynGame for Table<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn rules_version(&self) -> &'static str {
        G::RULES_VERSION
    }

    fn players(&self) -> usize {
        self.game.players()
    }

    fn options(&self) -> Vec<(String, String)> {
        self.game.options().pairs()
    }

    fn seed(&self) -> String {
        self.record.seed.to_string()
    }

    fn to_move(&self) -> Option<usize> {
        self.game.public_to_move().map(Seat::index)
    }

    fn actor(&self) -> Option<usize> {
        self.game.to_move().map(Seat::index)
    }

    fn legal(&self) -> Vec<String> {
        let mut legal = Vec::new();
        self.game.legal_actions(&mut legal);
        legal.iter().map(ToString::to_string).collect()
    }

    fn apply_text(&mut self, seat: Option<usize>, action: &str) -> Result<(), String> {
        let action: G::Action = action
            .parse()
            .map_err(|e: game::ParseError| e.to_string())?;
        self.act(seat, action)
    }

    fn num_actions(&self) -> usize {
        G::num_actions(self.game.options(), self.record.players)
    }

    fn obs_len(&self) -> usize {
        G::obs_len(self.game.options(), self.record.players)
    }

    fn max_players(&self) -> usize {
        G::max_players(self.game.options(), self.record.players)
    }

    fn legal_ids(&self) -> Vec<usize> {
        let mut legal = Vec::new();
        self.game.legal_actions(&mut legal);
        legal
            .iter()
            .filter_map(|&a| self.game.action_id(a))
            .collect()
    }

    fn action_text(&self, id: usize) -> Option<String> {
        self.game.action_of(id).map(|a| a.to_string())
    }

    fn action_id(&self, text: &str) -> Result<usize, String> {
        let action: G::Action = text.parse().map_err(|e: game::ParseError| e.to_string())?;
        self.game
            .action_id(action)
            .ok_or_else(|| format!("`{action}` is in no state of this game"))
    }

    fn apply_id(&mut self, seat: Option<usize>, id: usize) -> Result<(), String> {
        let action = self.game.action_of(id).ok_or_else(|| {
            format!(
                "action id {id} names no action (ids are 0..{})",
                self.num_actions()
            )
        })?;
        self.act(seat, action)
    }

    fn write_obs(&self, seat: usize, out: &mut [f32]) {
        self.game.write_obs(Seat::new(seat), out);
    }

    fn write_mask(&self, out: &mut [u8]) {
        let mut legal = Vec::new();
        self.game.write_mask(&mut legal, out);
    }

    fn info_text(&self, seat: usize) -> Result<String, String> {
        Table::info_text(self, seat)
    }

    fn info_len(&self, steps: usize) -> Result<usize, String> {
        Table::info_len(self, steps)
    }

    fn info_vector(&self, seat: usize, steps: usize, out: &mut [f32]) -> Result<(), String> {
        Table::info_vector(self, seat, steps, out)
    }

    fn view_json(&self, seat: usize) -> String {
        match self.seat(seat) {
            Ok(s) => json(&self.game.view(s)),
            Err(e) => json(&serde_json::json!({ "error": e })),
        }
    }

    fn public_view_json(&self) -> String {
        json(&self.game.public_view())
    }

    fn view_text(&self, seat: Option<usize>) -> String {
        match seat.map(|s| self.seat(s)) {
            None => self.game.public_view().to_string(),
            Some(Ok(s)) => self.game.view(s).to_string(),
            Some(Err(e)) => e,
        }
    }

    fn events_json(&self, seat: Option<usize>, start: usize) -> String {
        let who = seat.map(Seat::new);
        let list: Vec<serde_json::Value> = self
            .game
            .events()
            .iter()
            .enumerate()
            .skip(start)
            .filter(|(_, e)| e.visible_to(who))
            .map(|(i, e)| {
                serde_json::json!({
                    "index": i,
                    "kind": e.event.kind(),
                    "text": e.event.to_string(),
                    "private": e.to.is_some(),
                    "event": e.event,
                })
            })
            .collect();
        json(&list)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn record(&self) -> &Record {
        &self.record
    }

    fn actions_played(&self) -> usize {
        self.record.actions.len()
    }

    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn resample(&self, seat: usize, seed: u64) -> Box<dyn DynGame> {
        let s = Seat::new(seat.min(self.game.players().saturating_sub(1)));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = G::sample_from_view(&self.game.view(s), &mut rng);
        game.set_logging(false);
        let record = Record::new::<G>(game.options(), game.players(), Seed::Legacy(seed));
        Box::new(Table {
            game,
            record,
            recorded: false,
            marks: Vec::new(),
        })
    }

    fn bot_choose(
        &self,
        slot: &mut Option<Box<dyn Any + Send>>,
        spec: &str,
        seed: u64,
        seat: usize,
    ) -> Result<String, String> {
        let (view, legal) = self.turn_of(seat)?;
        let bot = Self::bot(slot, spec, seed)?;
        Ok(bot.choose(&view, &legal).to_string())
    }

    fn bot_evaluate(
        &self,
        slot: &mut Option<Box<dyn Any + Send>>,
        spec: &str,
        seed: u64,
        seat: usize,
    ) -> Result<Option<Vec<Valued>>, String> {
        let (view, legal) = self.turn_of(seat)?;
        let bot = Self::bot(slot, spec, seed)?;
        Ok(bot.evaluate(&view, &legal).map(|list| {
            list.into_iter()
                .map(|s| (s.action.to_string(), s.value, s.visits))
                .collect()
        }))
    }
}

/// Starts a game by name.
pub(crate) fn start(
    name: &str,
    pairs: &[(String, String)],
    players: Option<usize>,
    seed: Seed,
) -> Result<Box<dyn DynGame>, String> {
    registry::dispatch!(name,
        G => Table::<G>::start(pairs, players, seed).map(|t| Box::new(t) as Box<dyn DynGame>),
        _ => Err(registry::unknown_game(name)))
}

/// Replays a record of either game.
pub(crate) fn load(record: Record) -> Result<Box<dyn DynGame>, String> {
    let name = record.game.clone();
    registry::dispatch!(name.as_str(),
        G => Table::<G>::load(record).map(|t| Box::new(t) as Box<dyn DynGame>),
        _ => Err(registry::unknown_game(&name)))
}

/// The record check, trusting the server keys `trusted`, as JSON.
pub(crate) fn verify(record: &Record, trusted: &[[u8; 32]]) -> String {
    json(&registry::verify::verify_with(record, trusted))
}
