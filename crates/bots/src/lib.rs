//! `bots`: players that decide from their own seat's view only.
//!
//! A bot is handed exactly what its seat may know (the view) and the legal
//! actions (which depend only on what the seat to move knows), never the
//! full state, so a bot cannot peek even by accident. Each bot owns its
//! seeded RNG, so a simulation is reproducible from its seed.

use game::{Game, Outcome, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub mod big_cheese;
pub mod great_dalmuti;
pub mod learned;
pub mod net;
pub mod search;

/// One legal action with a bot's estimate of it, for hints and analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored<A> {
    /// The action.
    pub action: A,
    /// The bot's value for it: for search bots the mean reward of the seat
    /// to move (a win probability-like number in 0..=1), for heuristics
    /// their own score.
    pub value: f64,
    /// How many search iterations went through it (0 for heuristics).
    pub visits: u64,
}

/// A choice and, when the bot has them, the values behind it
/// ([`Bot::choose_scored`]).
pub type ScoredChoice<A> = (A, Option<Vec<Scored<A>>>);

/// A player program.
pub trait Bot<G: Game>: Send {
    /// The bot's name, as given on the command line.
    fn name(&self) -> &'static str;

    /// Picks one of `legal` (never empty) from what `view` shows.
    fn choose(&mut self, view: &G::View, legal: &[G::Action]) -> G::Action;

    /// The bot's values for the legal actions, best first, or `None` when
    /// the bot has no values to show (random play). Used by hints.
    fn evaluate(&mut self, view: &G::View, legal: &[G::Action]) -> Option<Vec<Scored<G::Action>>> {
        let _ = (view, legal);
        None
    }

    /// Picks as [`Bot::choose`] does, and gives the values behind the
    /// choice when the bot has them (a search's visits, most visited
    /// first): a teacher's whole judgement, for imitation learning. The
    /// default is the choice alone.
    fn choose_scored(&mut self, view: &G::View, legal: &[G::Action]) -> ScoredChoice<G::Action> {
        (self.choose(view, legal), None)
    }

    /// `Some(rng)` for a bot that only ever plays a uniformly random legal
    /// action, drawn as `legal[rng.random_range(0..legal.len())]` with its
    /// own `rng` (its [`Bot::choose`] does exactly that and looks at
    /// nothing else). A game loop may then draw for it with
    /// [`Game::pick_uniform`], which takes the same action from the same
    /// draws, without building the view or the list; the bot still sees
    /// nothing of the game. `None` (the default) for every other bot.
    fn uniform_rng(&mut self) -> Option<&mut BotRng> {
        None
    }

    /// Makes the bot play from now on exactly as a new bot of its kind
    /// made with `seed` would, and returns true; or returns false (the
    /// default) when it cannot, and then a new bot must be made. Lets a
    /// worker reuse its bots from game to game.
    fn reseed(&mut self, seed: u64) -> bool {
        let _ = seed;
        false
    }

    /// True for a bot that wants to hear about the game as it goes
    /// ([`Bot::start`], [`Bot::observe`], [`Bot::finish`]): a bot that
    /// runs as its own process (the bot protocol) does. A game loop may
    /// skip those calls, and the event log, when no bot at the table
    /// listens. False (the default) for the ladder, which decides from
    /// the view alone.
    fn listens(&self) -> bool {
        false
    }

    /// The id of the game about to begin (`dalmuti-d3-l0-r1`), told
    /// before [`Bot::start`] by loops that keep per-game logs, for a bot
    /// that keeps one (a bot program's stderr). Ignored by default.
    fn game_id(&mut self, id: &str) {
        let _ = id;
    }

    /// A game begins and this bot sits at `seat` of `players` seats with
    /// these rules options. Called before the bot's first decision of each
    /// game, by loops whose bots listen ([`Bot::listens`]).
    fn start(&mut self, seat: Seat, players: usize, options: &G::Options) {
        let _ = (seat, players, options);
    }

    /// Something happened that this bot's seat may see
    /// ([`game::LogEntry::visible_to`]): the loop filters, so a bot only
    /// ever gets its own seat's events.
    fn observe(&mut self, event: &G::Event) {
        let _ = event;
    }

    /// The game is over.
    fn finish(&mut self, outcome: &Outcome) {
        let _ = outcome;
    }

    /// Takes the strikes this bot earned since the last call: each a
    /// reason in words (`no answer in 1000 ms`), for a bot whose decisions
    /// can fail (a bot process) and were then played by a stand-in. Empty
    /// (the default) for the ladder.
    fn take_strikes(&mut self) -> Vec<String> {
        Vec::new()
    }

    /// Takes how many of this bot's decisions since the last call a
    /// stand-in played for it (a bot program's failures, see
    /// [`Bot::take_strikes`]): the loops set it against the decisions
    /// they asked for, so that a program that never worked is not rated
    /// as its stand-in played. Zero (the default) for the ladder.
    fn take_stand_in(&mut self) -> u64 {
        0
    }

    /// Why this bot cannot play at all, once that is known: a bot program
    /// whose first process never said `ready`. A loop that runs many games
    /// stops at once with these words rather than let a stand-in play every
    /// game in its place. `None` (the default) for the ladder.
    fn unusable(&self) -> Option<String> {
        None
    }
}

/// The RNG a bot owns: ChaCha8 seeded from a 64-bit seed.
pub type BotRng = ChaCha8Rng;

/// How much thinking a search bot may do per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations: deterministic for a given seed.
    Iterations(u32),
    /// A wall-clock limit per decision: stronger on a fast machine, but no
    /// longer reproducible.
    Time(std::time::Duration),
}

/// A bot named on the command line: `name`, `name:N` (N iterations) or
/// `name:Nms` (N milliseconds per decision).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// The bot's name.
    pub name: String,
    /// Its budget, when one was given.
    pub budget: Option<Budget>,
}

/// Why a bot cannot be made: a spec that does not read, or a bot the game
/// does not have (or that takes no budget). The words are what every
/// shell shows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// A budget that is not N (iterations) or Nms (milliseconds) in range.
    #[error(
        "bad budget `{budget}` in bot `{spec}`: write N (iterations, 1..=10000000) \
         or Nms (milliseconds, 1..=600000)"
    )]
    BadBudget {
        /// The budget as written.
        budget: String,
        /// The whole spec.
        spec: String,
    },
    /// A spec with no name (the spec).
    #[error("empty bot name in `{0}`")]
    EmptyName(String),
    /// A name the game has no bot for.
    #[error(
        "unknown bot `{name}` for {game} (choose from: {}; the sparring panel: {})",
        bots.join(", "),
        panel.join(", ")
    )]
    Unknown {
        /// The name.
        name: String,
        /// The game's name.
        game: &'static str,
        /// The game's bots ([`Roster::BOTS`]).
        bots: &'static [&'static str],
        /// The game's sparring panel ([`Roster::PANEL`]).
        panel: &'static [&'static str],
    },
    /// A budget given to a bot that takes none.
    #[error("bot `{}` takes no budget (`{spec}`)", spec.name)]
    NoBudget {
        /// The spec, budget included.
        spec: BotSpec,
    },
}

impl std::str::FromStr for BotSpec {
    type Err = BotError;

    fn from_str(text: &str) -> Result<BotSpec, BotError> {
        let text = text.trim();
        let (name, budget) = match text.split_once(':') {
            None => (text, None),
            Some((name, b)) => {
                let bad = || BotError::BadBudget {
                    budget: b.to_string(),
                    spec: text.to_string(),
                };
                let budget = if let Some(ms) = b.strip_suffix("ms") {
                    let ms: u64 = ms.parse().map_err(|_| bad())?;
                    if !(1..=600_000).contains(&ms) {
                        return Err(bad());
                    }
                    Budget::Time(std::time::Duration::from_millis(ms))
                } else {
                    let n: u32 = b.parse().map_err(|_| bad())?;
                    if !(1..=10_000_000).contains(&n) {
                        return Err(bad());
                    }
                    Budget::Iterations(n)
                };
                (name, Some(budget))
            }
        };
        if name.is_empty() {
            return Err(BotError::EmptyName(text.to_string()));
        }
        Ok(BotSpec {
            name: name.to_string(),
            budget,
        })
    }
}

impl std::fmt::Display for BotSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)?;
        match self.budget {
            None => Ok(()),
            Some(Budget::Iterations(n)) => write!(f, ":{n}"),
            Some(Budget::Time(d)) => write!(f, ":{}ms", d.as_millis()),
        }
    }
}

/// Plays a uniformly random legal action.
#[derive(Debug)]
pub struct RandomBot {
    rng: BotRng,
}

impl RandomBot {
    /// A random bot with its own seed.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, _view: &G::View, legal: &[G::Action]) -> G::Action {
        legal[self.rng.random_range(0..legal.len())]
    }

    fn uniform_rng(&mut self) -> Option<&mut BotRng> {
        Some(&mut self.rng)
    }

    fn reseed(&mut self, seed: u64) -> bool {
        *self = RandomBot::new(seed);
        true
    }
}

/// Games that have a roster of bots by name. Every game with [`Levels`]
/// has one ([`Roster`] is implemented once, below, for all of them).
pub trait Roster: Game {
    /// The bot names this game offers, first the default opponent.
    const BOTS: &'static [&'static str];

    /// The bot ladder's names, weakest first: the strength levels the
    /// server offers and the last one gives hints.
    const LADDER: &'static [&'static str];

    /// The ladder's levels, described ([`Level`]), in [`Roster::LADDER`]'s
    /// order.
    const LEVELS: &'static [Level];

    /// The sparring panel: bots unlike each other and unlike the ladder,
    /// each with its own style, for measuring the ladder against strangers
    /// (`ratrace tournament --panel`). They are not the server's levels
    /// and are not in [`Roster::BOTS`], but [`Roster::bot`] makes them.
    const PANEL: &'static [&'static str];

    /// Makes the bot named by `spec` (see [`BotSpec`]), seeded with `seed`.
    fn bot(spec: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, BotError>;
}

/// The bots of one game's module, by level, and its sparring panel: what
/// the one [`Roster`] implementation needs from each game. Every game
/// has the same five bots (`random`, `heuristic`, `strong`, `learned`,
/// `search`), in the order measured for that game: each level beats the
/// one below it alone against the rest of the table (docs/lab/claims).
pub trait Levels: Game {
    /// The ladder, weakest first ([`Roster::LEVELS`]; made with
    /// [`ladder`]).
    const LEVELS: &'static [Level];

    /// The ladder's names ([`Roster::LADDER`]; made with [`level_names`]).
    const LADDER: &'static [&'static str];

    /// The sparring panel's names ([`Roster::PANEL`]).
    const PANEL: &'static [&'static str];

    /// The `heuristic` bot.
    fn heuristic(seed: u64) -> Box<dyn Bot<Self>>;

    /// The `strong` bot.
    fn strong(seed: u64) -> Box<dyn Bot<Self>>;

    /// The search bot without the learned network's guidance, with its
    /// budget when one was given (`unguided`; the baseline).
    fn search(budget: Option<Budget>, seed: u64) -> Box<dyn Bot<Self>>;

    /// The panel bot called `name`, if there is one.
    fn panel(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>>;

    /// The `search` level, with its budget when one was given: the search
    /// guided by the `learned` level's network where the network fits the
    /// table (crate::learned::Guided), or the unguided search in a game
    /// whose network does not help it.
    fn guided(budget: Option<Budget>, seed: u64) -> Box<dyn Bot<Self>>;

    /// The `learned` level's network, read once per process (`None` if its
    /// compiled-in file failed its checks).
    fn network() -> Option<std::sync::Arc<net::Mlp>>;
}

/// One level of the ladder, described for those who offer, rate or pick
/// bots (the lobby, the ratings, the lab), so that none of them names a
/// bot to know what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Level {
    /// The bot's name ([`Roster::bot`] makes it).
    pub name: &'static str,
    /// Its level: 1 for the weakest, one more each step up the ladder.
    pub level: u8,
    /// Whether it plays every table size as itself (the `learned` level's
    /// network fits one size; at any other it plays as `strong`).
    pub every_size: bool,
    /// Whether it decides at once (a rule or a network), rather than
    /// searching for a while each decision.
    pub instant: bool,
}

/// The `random` level (its place on a ladder is set by [`ladder`]).
pub const RANDOM: Level = Level {
    name: "random",
    level: 0,
    every_size: true,
    instant: true,
};

/// The `heuristic` level.
pub const HEURISTIC: Level = Level {
    name: "heuristic",
    level: 0,
    every_size: true,
    instant: true,
};

/// The `strong` level.
pub const STRONG: Level = Level {
    name: "strong",
    level: 0,
    every_size: true,
    instant: true,
};

/// The `learned` level: its network fits one table size.
pub const LEARNED: Level = Level {
    name: "learned",
    level: 0,
    every_size: false,
    instant: true,
};

/// The `search` level.
pub const SEARCH: Level = Level {
    name: "search",
    level: 0,
    every_size: true,
    instant: false,
};

/// `levels`, weakest first, numbered from 1.
pub const fn ladder<const N: usize>(mut levels: [Level; N]) -> [Level; N] {
    let mut i = 0;
    while i < N {
        levels[i].level = i as u8 + 1;
        i += 1;
    }
    levels
}

/// The names of `levels`, in order (for [`Levels::LADDER`]).
pub const fn level_names<const N: usize>(levels: &[Level; N]) -> [&'static str; N] {
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = levels[i].name;
        i += 1;
    }
    names
}

impl<G: Levels + game::Tensor> Roster for G {
    const BOTS: &'static [&'static str] = &["heuristic", "strong", "search", "random", "learned"];
    const LADDER: &'static [&'static str] = <G as Levels>::LADDER;
    const LEVELS: &'static [Level] = <G as Levels>::LEVELS;
    const PANEL: &'static [&'static str] = <G as Levels>::PANEL;

    fn bot(spec: &str, seed: u64) -> Result<Box<dyn Bot<G>>, BotError> {
        let spec: BotSpec = spec.parse()?;
        let panel = <G as Levels>::PANEL;
        match (spec.name.as_str(), spec.budget) {
            ("random", None) => Ok(Box::new(RandomBot::new(seed))),
            ("heuristic", None) => Ok(G::heuristic(seed)),
            ("strong", None) => Ok(G::strong(seed)),
            ("search", budget) => Ok(G::guided(budget, seed)),
            // The search without the network: the baseline of the guided
            // one's claims; not a level.
            ("unguided", budget) => Ok(G::search(budget, seed)),
            ("learned", None) => Ok(Box::new(learned::LearnedBot::new(
                G::network(),
                G::strong(seed),
            ))),
            ("random" | "heuristic" | "strong" | "learned", Some(_)) => Err(no_budget(&spec)),
            (name, None) if panel.contains(&name) => {
                G::panel(name, seed).ok_or_else(|| unknown::<G>(name))
            }
            (name, Some(_)) if panel.contains(&name) => Err(no_budget(&spec)),
            (name, _) => Err(unknown::<G>(name)),
        }
    }
}

/// The error for a bot name the game does not have.
pub(crate) fn unknown<G: Roster>(name: &str) -> BotError {
    BotError::Unknown {
        name: name.to_string(),
        game: G::NAME,
        bots: G::BOTS,
        panel: G::PANEL,
    }
}

/// The error for a budget given to a bot that takes none.
pub(crate) fn no_budget(spec: &BotSpec) -> BotError {
    BotError::NoBudget { spec: spec.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn each_ladder_is_its_levels_numbered_from_one_and_every_bot_once() {
        fn check<G: Roster>() {
            assert_eq!(G::LADDER.len(), G::LEVELS.len());
            for (i, l) in G::LEVELS.iter().enumerate() {
                assert_eq!(G::LADDER[i], l.name);
                assert_eq!(usize::from(l.level), i + 1, "{}", l.name);
                assert!(G::bot(l.name, 1).is_ok(), "{}", l.name);
            }
            let mut names = G::LADDER.to_vec();
            names.sort_unstable();
            assert_eq!(
                names,
                ["heuristic", "learned", "random", "search", "strong"]
            );
            // the weakest is random, the strongest (the hint bot) searches
            assert_eq!(G::LADDER.first(), Some(&"random"));
            assert_eq!(G::LADDER.last(), Some(&"search"));
        }
        check::<bigcheese::BigCheese>();
        check::<dalmuti::Dalmuti>();
    }

    #[test]
    fn bot_specs_read_and_print_back() {
        for text in ["heuristic", "search:2000", "search:50ms"] {
            let spec: BotSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        let spec: BotSpec = "search:50ms".parse().unwrap();
        assert_eq!(spec.budget, Some(Budget::Time(Duration::from_millis(50))));
        let spec: BotSpec = " search:7 ".parse().unwrap();
        assert_eq!(spec.budget, Some(Budget::Iterations(7)));
        for bad in [
            "",
            ":5",
            "search:",
            "search:0",
            "search:-3",
            "search:xms",
            "search:0ms",
        ] {
            assert!(bad.parse::<BotSpec>().is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn every_ladder_bot_exists_and_budgets_are_refused_where_meaningless() {
        fn check<G: Roster>() {
            for name in G::LADDER.iter().chain(G::BOTS).chain(G::PANEL) {
                assert!(G::bot(name, 1).is_ok(), "{name}");
            }
            for name in G::PANEL {
                assert!(
                    !G::BOTS.contains(name) && !G::LADDER.contains(name),
                    "{name}"
                );
                assert!(G::bot(&format!("{name}:10"), 1).is_err(), "{name}");
            }
            assert!(G::LADDER.contains(&G::BOTS[0]));
            assert!(G::bot("random:10", 1).is_err());
            assert!(G::bot("heuristic:10ms", 1).is_err());
            assert!(G::bot("nosuch", 1)
                .err()
                .unwrap()
                .to_string()
                .contains("nosuch"));
        }
        check::<bigcheese::BigCheese>();
        check::<dalmuti::Dalmuti>();
    }
}
