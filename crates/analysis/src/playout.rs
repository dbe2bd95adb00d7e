//! The one bot game loop: bots play a game from where it stands to its
//! end, or to the length cap (B17), each decision taken from the seat's
//! own view.
//!
//! The simulator and duplicate play (so the tournament and the lab) run
//! every game through [`play_out`]. A seat's bot is made when that seat
//! first has to move, so a seat that joins mid-session (Dalmuti's joins)
//! gets one too; each bot owns its seeded RNG, so a game is a function of
//! the game's seed and the bots' seeds. Who sits where, and how a bot is
//! seeded, is the caller's: that is where the simulator and duplicate play
//! differ.
//!
//! The loop is made to cost little more than the engine's own random
//! rollouts when bots are cheap: a bot that plays uniformly at random
//! ([`Bot::uniform_rng`]) gets no view and no list, the engine draws for it
//! with [`Game::pick_uniform`] (the same action from the same draws); an
//! action taken from the legal list is applied without the engine's check;
//! and a [`Table`] kept by a worker reuses its bots ([`Bot::reseed`]) and
//! its list from game to game.

use crate::Error;
use bots::Bot;
use game::{Game, Outcome};
use rand::Rng;
use serde::{Deserialize, Serialize};

/// How long one seat's bot thought over a game, counting only the
/// decisions with a choice (a forced move costs a search bot nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Think {
    /// Decisions with more than one legal action.
    pub decisions: u32,
    /// Their total thinking time, microseconds.
    pub total_us: u64,
    /// The longest one, microseconds.
    pub max_us: u64,
}

impl Think {
    /// Counts one decision with a choice, begun at `clock`.
    fn add(&mut self, clock: std::time::Instant) {
        let us = clock.elapsed().as_micros() as u64;
        self.decisions += 1;
        self.total_us += us;
        self.max_us = self.max_us.max(us);
    }
}

/// A game played out by bots.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedOut {
    /// How it ended (capped, with no winner, at the length cap).
    pub outcome: Outcome,
    /// Actions played.
    pub actions: u64,
    /// Per seat that got a bot, in seat order, how long it thought (all
    /// zero unless the play was timed).
    pub think: Vec<Think>,
    /// The strikes bot programs earned (seat index, reason): each a
    /// decision their stand-in played (see the `extbot` crate). Empty for
    /// the ladder's bots.
    pub strikes: Vec<(usize, String)>,
    /// Per seat of a bot program, the decisions it was asked for and how
    /// many its stand-in played. Empty for the ladder's bots.
    pub stand_in: Vec<crate::strikes::StandIn>,
}

/// What the game loop keeps from one game to the next on one worker: the
/// bots of the last game by seat (each with the name it was made from),
/// the list of legal actions and, when the next game is to be saved, its
/// actions as a record writes them.
pub struct Table<G: Game> {
    slots: Vec<(String, Box<dyn Bot<G>>)>,
    legal: Vec<G::Action>,
    /// `Some` while recording: the actions of the game being played, as
    /// `SEAT ACTION`. `None` (the default) costs nothing per game.
    actions: Option<Vec<String>>,
    /// The id listening bots are told the next game has
    /// ([`Bot::game_id`]), for their per-game logs; `None` tells none.
    game_id: Option<String>,
}

impl<G: Game> Table<G> {
    /// An empty table: its first game makes every bot.
    pub fn new() -> Table<G> {
        Table {
            slots: Vec::new(),
            legal: Vec::new(),
            actions: None,
            game_id: None,
        }
    }

    /// Tells the listening bots of the next game (bot programs) its id,
    /// for their per-game stderr logs; `None` (the default) tells none.
    pub fn name_game(&mut self, id: Option<String>) {
        self.game_id = id;
    }

    /// Whether the next games' actions are kept, for a record
    /// ([`Table::take_actions`]). Off by default.
    pub fn record(&mut self, on: bool) {
        if on != self.actions.is_some() {
            self.actions = on.then(Vec::new);
        }
    }

    /// Empties the actions recorded for a new game; whether recording.
    fn begin_recording(&mut self) -> bool {
        self.actions.as_mut().map(Vec::clear).is_some()
    }

    /// The actions of the last game played while recording, as a record
    /// stores them (`P2 bid 4`); empty when not recording. Recording stays
    /// on.
    pub fn take_actions(&mut self) -> Vec<String> {
        match &mut self.actions {
            Some(a) => std::mem::take(a),
            None => Vec::new(),
        }
    }
}

impl<G: Game> Default for Table<G> {
    fn default() -> Table<G> {
        Table::new()
    }
}

/// Plays `game` to its end with bots, stopping it with
/// [`Game::capped_outcome`] once `max_actions` actions are played.
/// `bot(s)` makes the bot of seat index `s` when that seat first moves;
/// `illegal(s, action, error)` words the error ([`Error::Engine`]) when
/// seat `s`'s bot chooses an illegal action (a bot bug). With `timed`, each decision with
/// a choice is timed by the wall clock.
pub fn play_out<G: Game>(
    game: &mut G,
    max_actions: u64,
    timed: bool,
    mut bot: impl FnMut(usize) -> Result<Box<dyn Bot<G>>, Error>,
    illegal: impl Fn(usize, String, String) -> String,
) -> Result<PlayedOut, Error> {
    play_out_at(
        &mut Table::new(),
        game,
        max_actions,
        timed,
        |_| ("", 0),
        |seat, _| bot(seat),
        illegal,
    )
}

/// [`play_out`] at a worker's [`Table`], reusing its bots: when seat index
/// `s` first moves, `seat_bot(s)` says which bot sits there, by its name
/// (`heuristic`, `search:2000`) and its seed. The bot that sat in seat `s`
/// in the table's last game is reseeded ([`Bot::reseed`]) if it has that
/// name; otherwise `make(s, seed)` makes a new one. A game plays exactly
/// as with new bots.
pub fn play_out_at<'n, G: Game>(
    table: &mut Table<G>,
    game: &mut G,
    max_actions: u64,
    timed: bool,
    seat_bot: impl Fn(usize) -> (&'n str, u64),
    mut make: impl FnMut(usize, u64) -> Result<Box<dyn Bot<G>>, Error>,
    illegal: impl Fn(usize, String, String) -> String,
) -> Result<PlayedOut, Error> {
    // Read once: the loop tests a local flag, not the table, per action.
    let recording = table.begin_recording();
    let Table {
        slots,
        legal,
        actions: recorded,
        game_id,
    } = table;
    // Seats with a bot in this game: 0..seated.
    let mut seated = 0usize;
    let mut think: Vec<Think> = Vec::with_capacity(game.players());
    let mut actions = 0u64;
    // Bot programs hear the game as it goes (start, events, end): the log
    // is kept only when one plays, from before the first action. Seats
    // that join later (Dalmuti's joins, up to the largest table) count:
    // a bot program seated only there must hear the game too.
    let seats = game.players().max(*G::PLAYERS.end());
    let listening = (0..seats).any(|s| extbot::command(seat_bot(s).0).is_some());
    if listening {
        game.set_logging(true);
    }
    // Events already delivered to the seated bots.
    let mut heard = 0usize;
    // Decisions asked of each seat, for the programs' stand-in shares.
    let mut asked = vec![0u64; if listening { seats } else { 0 }];
    let outcome = loop {
        if listening {
            deliver(&mut slots[..seated], 0, game.events(), heard);
            heard = game.events().len();
        }
        let Some(seat) = game.to_move() else {
            break game.outcome().ok_or_else(|| {
                Error::Engine("the game has no one to move but no outcome".into())
            })?;
        };
        if actions >= max_actions {
            break game.capped_outcome();
        }
        let s = seat.index();
        while seated <= s {
            let (name, seed) = seat_bot(seated);
            sit(slots, seated, name, seed, &mut make)?;
            think.push(Think::default());
            if listening {
                start_listener(&mut slots[seated..=seated], seated, game, heard, game_id)?;
            }
            seated += 1;
        }
        let bot = &mut slots[s].1;
        if let Some(rng) = bot.uniform_rng() {
            let action = uniform_pick(game, rng, legal, timed, &mut think[s]);
            if recording {
                note(recorded, seat, action);
            }
            game.apply_unchecked(action);
            actions += 1;
            continue;
        }
        game.legal_actions(legal);
        let view = game.view(seat);
        let clock = timed.then(std::time::Instant::now);
        if let Some(n) = asked.get_mut(s) {
            *n += 1;
        }
        let action = bot.choose(&view, legal);
        if let Some(clock) = clock.filter(|_| legal.len() > 1) {
            think[s].add(clock);
        }
        if recording {
            note(recorded, seat, action);
        }
        apply_chosen(game, legal, action, |e| illegal(s, action.to_string(), e))?;
        actions += 1;
    };
    let (strikes, stand_in) = if listening {
        finish_listeners(&mut slots[..seated], game, heard, &outcome, &asked)
    } else {
        (Vec::new(), Vec::new())
    };
    Ok(PlayedOut {
        outcome,
        actions,
        think,
        strikes,
        stand_in,
    })
}

/// Plays `action`, a bot's choice from `legal`. Taken from the list, it is
/// applied unchecked (the engine's check would only agree); otherwise it
/// is a bot bug, and the checked path words the error with `illegal` (and
/// applies the action only if the engine finds it legal after all).
fn apply_chosen<G: Game>(
    game: &mut G,
    legal: &[G::Action],
    action: G::Action,
    illegal: impl FnOnce(String) -> String,
) -> Result<(), Error> {
    if legal.contains(&action) {
        game.apply_unchecked(action);
        Ok(())
    } else {
        game.apply(action)
            .map_err(|e| Error::Engine(illegal(e.to_string())))
    }
}

/// The pick of a bot that picks uniformly from the list, drawn as its
/// `choose` would (legal by construction); timed into `think` when
/// `timed` and there was a choice.
fn uniform_pick<G: Game>(
    game: &G,
    rng: &mut bots::BotRng,
    legal: &mut Vec<G::Action>,
    timed: bool,
    think: &mut Think,
) -> G::Action {
    if timed {
        game.legal_actions(legal);
        let clock = std::time::Instant::now();
        let action = legal[rng.random_range(0..legal.len())];
        if legal.len() > 1 {
            think.add(clock);
        }
        action
    } else {
        game.pick_uniform(rng, legal)
    }
}

/// Puts bot `name` (seeded with `seed`) in slot `seated`: a bot of that
/// name at a seat not yet seated in this game moves here (seat rotations
/// keep their bots, and a bot program its process) and is reseeded; if
/// there is none, or it cannot be reseeded, `make` makes one.
fn sit<G: Game>(
    slots: &mut Vec<(String, Box<dyn Bot<G>>)>,
    seated: usize,
    name: &str,
    seed: u64,
    make: &mut impl FnMut(usize, u64) -> Result<Box<dyn Bot<G>>, Error>,
) -> Result<(), Error> {
    if slots.get(seated).is_some_and(|(n, _)| n != name) {
        if let Some(k) = (seated + 1..slots.len()).find(|&k| slots[k].0 == name) {
            slots.swap(seated, k);
        }
    }
    let reused = match slots.get_mut(seated) {
        Some((n, b)) if n == name => b.reseed(seed),
        _ => false,
    };
    if !reused {
        let b = make(seated, seed)?;
        if seated < slots.len() {
            slots[seated] = (name.to_string(), b);
        } else {
            slots.push((name.to_string(), b));
        }
    }
    Ok(())
}

/// At the end of a game: hands the listening bots of `slots` (seats 0
/// on) what they have not heard, then the outcome, and returns their
/// strikes (seat index, reason).
fn finish_listeners<G: Game>(
    slots: &mut [(String, Box<dyn Bot<G>>)],
    game: &G,
    heard: usize,
    outcome: &Outcome,
    asked: &[u64],
) -> (Vec<(usize, String)>, Vec<crate::strikes::StandIn>) {
    deliver(slots, 0, game.events(), heard);
    let mut strikes = Vec::new();
    let mut stand_in = Vec::new();
    for (s, (_, bot)) in slots.iter_mut().enumerate() {
        if bot.listens() {
            bot.finish(outcome);
            strikes.extend(bot.take_strikes().into_iter().map(|r| (s, r)));
            stand_in.push(crate::strikes::StandIn {
                seat: s,
                decisions: asked.get(s).copied().unwrap_or(0),
                stand_in: bot.take_stand_in(),
            });
        }
    }
    (strikes, stand_in)
}

/// Adds `SEAT ACTION` to the game's actions when they are recorded.
fn note(recorded: &mut Option<Vec<String>>, seat: game::Seat, action: impl std::fmt::Display) {
    if let Some(r) = recorded.as_mut() {
        r.push(format!("{seat} {action}"));
    }
}

/// Starts the bot just seated at seat `seat` (`slot`) if it listens: tells
/// it the game's id when there is one, then `start`, then the first
/// `heard` log entries it may see (what it missed before it sat down).
/// A bot program that never said `ready` stops the run ([`Error::Unusable`]).
fn start_listener<G: Game>(
    slot: &mut [(String, Box<dyn Bot<G>>)],
    seat: usize,
    game: &G,
    heard: usize,
    game_id: &Option<String>,
) -> Result<(), Error> {
    let bot = &mut slot[0].1;
    if !bot.listens() {
        return Ok(());
    }
    if let Some(id) = game_id.as_deref() {
        bot.game_id(id);
    }
    bot.start(game::Seat::new(seat), game.players(), game.options());
    if let Some(why) = bot.unusable() {
        return Err(Error::Unusable(why));
    }
    deliver(slot, seat, &game.events()[..heard], 0);
    Ok(())
}

/// Hands each listening bot of `slots` (the bots of seats `first`,
/// `first + 1`, ...) the entries of `log` from `from` on that its seat may
/// see.
fn deliver<G: Game>(
    slots: &mut [(String, Box<dyn Bot<G>>)],
    first: usize,
    log: &[game::LogEntry<G::Event>],
    from: usize,
) {
    let Some(new) = log.get(from..).filter(|n| !n.is_empty()) else {
        return;
    };
    for (i, (_, bot)) in slots.iter_mut().enumerate() {
        if bot.listens() {
            let seat = Some(game::Seat::new(first + i));
            for e in new.iter().filter(|e| e.visible_to(seat)) {
                bot.observe(&e.event);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bots::Roster;

    /// Games at one reused table play exactly as with new bots, random
    /// (drawn by the engine, untimed and timed) or not.
    fn reuse_changes_nothing<G: Roster>(players: usize, lineups: &[&[&str]]) {
        let mut table = Table::<G>::new();
        for (i, lineup) in lineups.iter().cycle().take(24).enumerate() {
            let name = |s: usize| lineup[s % lineup.len()];
            let seed = |s: usize| 1000 * i as u64 + s as u64;
            for timed in [false, true] {
                let opts = G::Options::default();
                let mut fresh = G::new(&opts, players, i as u64).unwrap();
                let want = play_out(
                    &mut fresh,
                    100_000,
                    timed,
                    |s| G::bot(name(s), seed(s)).map_err(Error::from),
                    |_, a, e| format!("{a}: {e}"),
                )
                .unwrap();
                let mut reused = G::new(&opts, players, i as u64).unwrap();
                let got = play_out_at(
                    &mut table,
                    &mut reused,
                    100_000,
                    timed,
                    |s| (name(s), seed(s)),
                    |s, bot_seed| G::bot(name(s), bot_seed).map_err(Error::from),
                    |_, a, e| format!("{a}: {e}"),
                )
                .unwrap();
                assert_eq!(got.outcome, want.outcome, "game {i}");
                assert_eq!(got.actions, want.actions, "game {i}");
                let decisions =
                    |p: &PlayedOut| p.think.iter().map(|t| t.decisions).collect::<Vec<_>>();
                assert_eq!(decisions(&got), decisions(&want), "game {i}");
            }
        }
    }

    #[test]
    fn a_reused_table_plays_as_new_bots() {
        let lineups: &[&[&str]] = &[
            &["random"],
            &["random", "heuristic"],
            &["heuristic", "random", "strong"],
        ];
        reuse_changes_nothing::<bigcheese::BigCheese>(4, lineups);
        reuse_changes_nothing::<dalmuti::Dalmuti>(5, lineups);
    }

    /// A bot that answers with an action not in the list (a bot bug).
    struct Cheat;

    impl Bot<bigcheese::BigCheese> for Cheat {
        fn name(&self) -> &'static str {
            "cheat"
        }

        fn choose(
            &mut self,
            _view: &bigcheese::View,
            _legal: &[bigcheese::Action],
        ) -> bigcheese::Action {
            bigcheese::Action::Bid(99)
        }
    }

    #[test]
    fn an_illegal_choice_is_an_error_and_is_not_applied() {
        let mut g = bigcheese::BigCheese::new(&Default::default(), 4, 1).unwrap();
        let before = format!("{:?}", g.public_view());
        let err = play_out(
            &mut g,
            100_000,
            false,
            |_| Ok(Box::new(Cheat)),
            |s, a, e| format!("seat {s} chose `{a}`: {e}"),
        )
        .unwrap_err();
        assert!(err.to_string().contains("bid 99"), "{err}");
        assert_eq!(format!("{:?}", g.public_view()), before);
    }
    /// A bot program that only sits at a seat joining mid-session
    /// (Dalmuti's joins, D13) hears the game: its `start`, what it missed
    /// and its own decisions, none played by the stand-in.
    #[test]
    fn a_bot_program_at_a_joining_seat_hears_the_game() {
        use game::GameOptions;
        let dir = std::env::temp_dir().join(format!("ratrace-join-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let recorder = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../extbot/tests/bots/recorder.py");
        let cmd = format!("cmd:python3 {} {}", recorder.display(), dir.display());
        let mut opts = dalmuti::Options::default();
        opts.set("hands", "3").unwrap();
        opts.set("joins", "2").unwrap();
        let mut g = dalmuti::Dalmuti::new(&opts, 3, 5).unwrap();
        let name = |s: usize| if s >= 3 { cmd.as_str() } else { "heuristic" };
        let played = play_out_at(
            &mut Table::new(),
            &mut g,
            100_000,
            false,
            |s| (name(s), s as u64),
            |s, seed| extbot::bot::<dalmuti::Dalmuti>(name(s), seed).map_err(Error::Bot),
            |_, a, e| format!("{a}: {e}"),
        )
        .unwrap();
        assert!(played.strikes.is_empty(), "{:?}", played.strikes);
        assert_eq!(g.players(), 4);
        let files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1, "the joining bot heard {files:?}");
        let log = std::fs::read_to_string(&files[0]).unwrap();
        let lines: Vec<serde_json::Value> = log
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[0]["type"], "start", "{log}");
        assert_eq!(lines[0]["seat"], "P4", "{log}");
        let acts = lines.iter().filter(|l| l["type"] == "act").count();
        assert!(acts > 0, "the joining bot was never asked: {log}");
        assert!(lines.iter().any(|l| l["type"] == "end"), "{log}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
