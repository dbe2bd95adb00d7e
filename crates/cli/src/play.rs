//! Terminal play: a person against bots, reading actions from a line
//! reader and drawing the board after every change; or, with no person
//! seated, bots watched at a pace, every turn and action told as it comes.
//!
//! When the person has exactly one legal action (a forced pass), it is
//! played for them with a note, since there is nothing to decide.
//! Input and output are passed in (not stdin/stdout directly) so tests can
//! play whole games through the same loop. The person only ever sees their
//! own seat's view and the log lines meant for them. Bad input is answered
//! with the rule it breaks and a new prompt; end of input or `quit` saves
//! the record of the game so far. The lines come from an
//! [`Input`]: a plain reader, or a line editor with
//! history when a person is at a terminal (`crate::prompt`). A watcher
//! is no seat: they see what any spectator sees (the public view and the
//! public log lines), never a hand.

use crate::prompt::{Input, Line, Lines};
use crate::Error;
use bots::Roster;
use game::{Game, Record, Seat};
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// How to start a terminal game.
#[derive(Clone, Debug)]
pub struct Config<G: Game> {
    /// Seats.
    pub players: usize,
    /// Rules options.
    pub options: G::Options,
    /// Seed of all chance.
    pub seed: u64,
    /// Bots for the other seats, repeated when shorter.
    pub bots: Vec<String>,
    /// The person's seat; `None` to watch bots play every seat.
    pub human: Option<Seat>,
    /// When watching, the pause after every action (zero: none).
    pub pace: std::time::Duration,
    /// Where to save the record.
    pub record_path: PathBuf,
    /// The limits bot programs (`cmd:` bots) play under.
    pub limits: extbot::Limits,
}

/// How a terminal game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Played to the end.
    Finished,
    /// The person quit (or input ended) first.
    Quit,
}

struct Table<'a, G: Roster, W: Write> {
    cfg: &'a Config<G>,
    game: G,
    record: Record,
    bots: Vec<Option<Box<dyn bots::Bot<G>>>>,
    /// The bot names by seat (empty for the person's).
    names: Vec<String>,
    shown: usize,
    /// Log entries already handed to the listening bots (bot programs).
    heard: usize,
    /// The strongest bot of the ladder, made on the first `hint`.
    adviser: Option<Box<dyn bots::Bot<G>>>,
    out: W,
}

impl<G: Roster, W: Write> Table<'_, G, W> {
    fn say(&mut self, text: impl std::fmt::Display) -> Result<(), Error> {
        writeln!(self.out, "{text}").map_err(Error::Terminal)
    }

    /// Prints the log lines the person may read that they have not seen.
    fn narrate(&mut self) -> Result<(), Error> {
        let human = self.cfg.human;
        let lines: Vec<String> = self.game.events()[self.shown..]
            .iter()
            .filter(|e| e.visible_to(human))
            .map(|e| format!("  · {}", e.event))
            .collect();
        self.shown = self.game.events().len();
        for l in lines {
            self.say(l)?;
        }
        Ok(())
    }

    fn bot_for(&mut self, seat: Seat) -> Result<&mut Box<dyn bots::Bot<G>>, Error> {
        while self.bots.len() <= seat.index() {
            let s = self.bots.len();
            let bot = if Some(Seat::new(s)) == self.cfg.human {
                None
            } else {
                let others = match self.cfg.human {
                    Some(h) if s > h.index() => s - 1,
                    _ => s,
                };
                let name = self.cfg.bots[others % self.cfg.bots.len()].clone();
                let seed = crate::derive_seed(self.cfg.seed, 1000 + s as u64);
                let mut bot =
                    extbot::bot_with::<G>(&name, seed, &self.cfg.limits).map_err(Error::Bot)?;
                if bot.listens() {
                    if self.cfg.limits.stderr_log.is_some() {
                        // Its stderr log is named after the record's file.
                        let stem = self.cfg.record_path.file_stem();
                        let id = stem.map_or_else(|| G::NAME.into(), |s| s.to_string_lossy());
                        bot.game_id(&id);
                    }
                    // A bot program hears the game from its start: what
                    // happened before it sat down (a seat that joins),
                    // then every event as it comes.
                    bot.start(Seat::new(s), self.game.players(), self.game.options());
                    let seat = Some(Seat::new(s));
                    for e in &self.game.events()[..self.heard] {
                        if e.visible_to(seat) {
                            bot.observe(&e.event);
                        }
                    }
                }
                self.names.push(name);
                Some(bot)
            };
            if bot.is_none() {
                self.names.push(String::new());
            }
            self.bots.push(bot);
            self.report_strikes(false)?;
        }
        Ok(self.bots[seat.index()]
            .as_mut()
            .expect("not the person's seat"))
    }

    /// Hands every listening bot the new log entries its seat may see.
    fn deliver(&mut self) {
        let log = self.game.events();
        if self.heard >= log.len() {
            return;
        }
        for (s, bot) in self.bots.iter_mut().enumerate() {
            let Some(bot) = bot.as_mut().filter(|b| b.listens()) else {
                continue;
            };
            let seat = Some(Seat::new(s));
            for e in log[self.heard..].iter().filter(|e| e.visible_to(seat)) {
                bot.observe(&e.event);
            }
        }
        self.heard = log.len();
    }

    /// Prints the bot programs' new strikes; `decision` when they come
    /// from a decision (which the heuristic bot then played).
    fn report_strikes(&mut self, decision: bool) -> Result<(), Error> {
        let mut lines = Vec::new();
        for (s, bot) in self.bots.iter_mut().enumerate() {
            let Some(bot) = bot.as_mut().filter(|b| b.listens()) else {
                continue;
            };
            for reason in bot.take_strikes() {
                let then = if decision {
                    "; the heuristic bot played this decision"
                } else {
                    ""
                };
                lines.push(format!(
                    "{} ({}): strike: {reason}{then}",
                    Seat::new(s),
                    self.names[s]
                ));
            }
        }
        for l in lines {
            self.say(l)?;
        }
        Ok(())
    }

    /// `hint`: what the strongest bot of the ladder would play from the
    /// person's own view, with its values for the best few actions. The
    /// adviser sees exactly what the person sees.
    fn hint(&mut self, me: Seat, legal: &[G::Action]) -> Result<(), Error> {
        let name = *G::LADDER.last().ok_or(Error::NoBots)?;
        if self.adviser.is_none() {
            self.adviser = Some(
                G::bot(name, crate::derive_seed(self.cfg.seed, 999))
                    .map_err(|e| Error::Bot(e.into()))?,
            );
        }
        let view = self.game.view(me);
        let adviser = self.adviser.as_mut().expect("made above");
        let scored = adviser.evaluate(&view, legal);
        let best = match &scored {
            Some(list) if !list.is_empty() => list[0].action,
            _ => adviser.choose(&view, legal),
        };
        self.say(format!("Hint ({name} bot): {best}"))?;
        if let Some(list) = scored {
            for s in list.iter().take(5) {
                let visits = if s.visits > 0 {
                    format!("  ({} visits)", s.visits)
                } else {
                    String::new()
                };
                self.say(format!(
                    "  {:<16} value {:.3}{visits}",
                    s.action.to_string(),
                    s.value
                ))?;
            }
        }
        Ok(())
    }

    fn save(&mut self) -> Result<(), Error> {
        self.record.outcome = self.game.outcome();
        crate::records::write(&self.cfg.record_path, &self.record)
    }

    fn legal_text(legal: &[G::Action]) -> String {
        legal
            .iter()
            .enumerate()
            .map(|(i, a)| format!("[{}] {a}", i + 1))
            .collect::<Vec<_>>()
            .join("  ")
    }

    /// One prompt: returns `None` when the person quits.
    fn human_turn(
        &mut self,
        me: Seat,
        input: &mut impl Input,
        legal: &[G::Action],
    ) -> Result<Option<G::Action>, Error> {
        let board = self.game.view(me);
        self.say(format!("\n{board}"))?;
        self.say(format!(
            "Your turn ({me}). Legal: {}",
            Self::legal_text(legal)
        ))?;
        loop {
            let line = match input.read(&format!("{me}> "), &mut self.out)? {
                Line::Text(line) => line,
                Line::Leave(why) => {
                    self.say(why)?;
                    return Ok(None);
                }
            };
            let line = line.trim();
            match line {
                "" => continue,
                "quit" | "exit" | "q" => return Ok(None),
                "help" | "?" => {
                    self.say(G::ACTION_HELP)?;
                    self.say("Type an action as listed, or its number. `board` redraws the table, `hint` asks the strongest bot, `quit` saves and leaves.")?;
                    continue;
                }
                "board" => {
                    let board = self.game.view(me);
                    self.say(format!("{board}"))?;
                    continue;
                }
                "hint" => {
                    self.hint(me, legal)?;
                    continue;
                }
                "legal" => {
                    self.say(Self::legal_text(legal))?;
                    continue;
                }
                _ => {}
            }
            if let Ok(n) = line.parse::<usize>() {
                match legal.get(n.wrapping_sub(1)) {
                    Some(a) => return Ok(Some(*a)),
                    None => {
                        self.say(format!(
                            "There is no choice {n}: pick 1 to {}.",
                            legal.len()
                        ))?;
                        continue;
                    }
                }
            }
            match line.parse::<G::Action>() {
                Err(e) => self.say(format!(
                    "Cannot read `{line}`: {e}. Type `help` for the notation."
                ))?,
                Ok(a) => match self.game.check(a) {
                    Ok(()) => return Ok(Some(a)),
                    Err(e) => self.say(format!("Not allowed: {e}."))?,
                },
            }
        }
    }
}

/// Plays a game in the terminal, reading moves line by line from `input`
/// (a pipe, a file, a test's text). Returns how it ended; the record is
/// saved at `cfg.record_path` either way.
pub fn play<G: Roster>(
    cfg: &Config<G>,
    input: impl BufRead,
    out: impl Write,
) -> Result<Ending, Error> {
    play_with(cfg, Lines(input), out)
}

/// [`play`] with any source of lines, such as the line editor
/// ([`crate::prompt::Editor`]) when a person is at a terminal.
pub fn play_with<G: Roster>(
    cfg: &Config<G>,
    mut input: impl Input,
    out: impl Write,
) -> Result<Ending, Error> {
    let mut t = Table::open(cfg, out)?;
    // The seed stays secret until the game ends: knowing it would reveal
    // the deck and every hand.
    match cfg.human {
        Some(me) => t.say(format!(
            "{} with {} players. You are {me}. Type `help` for the notation, `quit` to leave.",
            G::NAME,
            cfg.players,
        ))?,
        None => {
            let seats: Vec<String> = (0..cfg.players)
                .map(|s| format!("{} {}", Seat::new(s), t.names[s]))
                .collect();
            let pace = if cfg.pace.is_zero() {
                "no pause between actions".to_string()
            } else {
                format!("{} ms between actions", cfg.pace.as_millis())
            };
            t.say(format!(
                "{} with {} players, watched: {}; {pace}.",
                G::NAME,
                cfg.players,
                seats.join(", "),
            ))?;
            let board = t.game.public_view();
            t.say(format!("\n{board}"))?;
        }
    }
    let ending = t.play_turns(&mut input)?;
    t.save()?;
    t.end(&ending)?;
    Ok(ending)
}

impl<'a, G: Roster, W: Write> Table<'a, G, W> {
    /// The table of `cfg` with its bots seated, after the deal (which
    /// bot programs have heard); refuses a seat that is not at the table
    /// and an empty list of bots.
    fn open(cfg: &'a Config<G>, out: W) -> Result<Self, Error> {
        if let Some(h) = cfg.human.filter(|h| h.index() >= cfg.players) {
            return Err(Error::Usage(format!(
                "seat {h} is not at a table of {} players",
                cfg.players
            )));
        }
        if cfg.bots.is_empty() {
            return Err(Error::Usage("no bots given".into()));
        }
        let mut game = G::new(&cfg.options, cfg.players, cfg.seed)?;
        game.set_logging(true);
        let mut t = Table {
            cfg,
            game,
            record: Record::new::<G>(&cfg.options, cfg.players, cfg.seed),
            bots: Vec::new(),
            names: Vec::new(),
            shown: 0,
            heard: 0,
            adviser: None,
            out,
        };
        for s in Seat::all(cfg.players) {
            if Some(s) != cfg.human {
                t.bot_for(s)?;
            }
        }
        // What happened before the first action (the deal) for bot programs.
        t.deliver();
        t.report_strikes(false)?;
        Ok(t)
    }

    /// Plays until the game is over or the person leaves, saving the
    /// record after every action.
    fn play_turns(&mut self, input: &mut impl Input) -> Result<Ending, Error> {
        let human = self.cfg.human;
        let mut legal = Vec::new();
        loop {
            self.narrate()?;
            let Some(seat) = self.game.to_move() else {
                return Ok(Ending::Finished);
            };
            self.game.legal_actions(&mut legal);
            let action = if Some(seat) == human && legal.len() == 1 {
                // Not a choice: play it for the person and say so.
                self.say(format!(
                    "Your only legal action is `{}`: played for you.",
                    legal[0]
                ))?;
                legal[0]
            } else if Some(seat) == human {
                match self.human_turn(seat, input, &legal)? {
                    Some(a) => a,
                    None => return Ok(Ending::Quit),
                }
            } else {
                if human.is_none() {
                    self.bot_for(seat)?;
                    let name = self.names[seat.index()].clone();
                    self.say(format!("{seat} ({name}) to move:"))?;
                }
                let view = self.game.view(seat);
                let action = self.bot_for(seat)?.choose(&view, &legal);
                self.report_strikes(true)?;
                action
            };
            self.game
                .act(seat, action)
                .map_err(|e| Error::Engine(format!("{seat} {action} refused: {e}")))?;
            self.deliver();
            self.report_strikes(false)?;
            self.record.push::<G>(seat, action);
            // Save after every action, so nothing is lost if the terminal dies.
            self.save()?;
            if human.is_none() {
                // The watcher reads the action before the next one comes.
                self.narrate()?;
                self.out.flush().map_err(Error::Terminal)?;
                std::thread::sleep(self.cfg.pace);
            }
        }
    }

    /// After the game (the record saved): the bot programs hear the end
    /// of a finished game, then the person reads the result, the seed
    /// and where the record is.
    fn end(&mut self, ending: &Ending) -> Result<(), Error> {
        let cfg = self.cfg;
        if *ending == Ending::Finished {
            // The bot programs hear the end (and, when dropped, `quit`).
            self.deliver();
            let outcome = self.game.outcome().expect("finished");
            for bot in self.bots.iter_mut().flatten() {
                if bot.listens() {
                    bot.finish(&outcome);
                }
            }
            self.report_strikes(false)?;
        }
        match ending {
            Ending::Finished => {
                // The final board's last line says who won (both games'
                // views end with the result), so it is not said again.
                let board = match cfg.human {
                    Some(me) => self.game.view(me).to_string(),
                    None => self.game.public_view().to_string(),
                };
                self.say(format!("\n{}", board.trim_end()))?;
                let o = self.game.outcome().expect("finished");
                if let Some(me) = cfg.human {
                    if o.winners.contains(&me) {
                        self.say("You win!")?;
                    }
                }
            }
            Ending::Quit => self.say("Left the game.")?,
        }
        self.say(format!(
            "Seed: {} (secret until now: every shuffle, deal and roll came from it)",
            cfg.seed
        ))?;
        self.say(format!(
            "Game record saved to {}",
            cfg.record_path.display()
        ))
    }
}
