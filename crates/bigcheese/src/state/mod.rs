//! The full state of a game of The Big Cheese and its rules: auctions,
//! advancing, maturing, payouts, Big Cheese decisions and the end.
//!
//! The state is made for fast rollouts: fixed arrays of `u8` counters, no
//! heap allocation per action, and no event built unless logging is on. Decks are stacks (top card last); discards are counts per kind,
//! because their order never matters (they are shuffled before reuse, B16).

use crate::event::{Event, Rolled};
use crate::{
    Action, Card, DiceMode, Faces, FinalTie, IllegalAction, Options, RerollDice, VetoTiming,
};
use game::{ActError, LogEntry, Outcome, Seat, SetupError};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// "No seat" in `u8` seat fields.
pub(crate) const NONE: u8 = u8::MAX;
/// Most seats at a table (B1).
pub(crate) const MAX_PLAYERS: usize = 6;
/// Most cards in a deck (B2).
pub(crate) const MAX_CARDS: usize = 36;
/// Most dice in one roll (`half-of-n` on a 20).
pub(crate) const MAX_DICE: usize = 20;
/// Most scenario-forced dice results.
pub(crate) const MAX_FORCED: usize = 64;
/// Most chips one player may hire in `no-dice` (B15).
pub(crate) const MAX_HIRED: u8 = 4;
/// Chips hired by one matured Big Cheese in `no-dice` (B15).
pub(crate) const HIRE: u8 = 2;

/// `BIDS[i] == Action::Bid(i)`, for copying bid lists in one go.
const BIDS: [Action; 256] = {
    let mut t = [Action::Pass; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = Action::Bid(i as u8);
        i += 1;
    }
    t
};

/// Appends a public event, building it only when logging is on.
macro_rules! log {
    ($s:expr, $event:expr) => {
        if $s.logging {
            let event = $event;
            $s.log.push(LogEntry::public(event));
        }
    };
}

mod auction;
mod moves;
mod payout;

/// How a payout came about: the project matured with no decision to make,
/// or its owner kept the roll (`new`: the roll after their last Big
/// Cheese).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Via {
    Matured,
    Keep { new: bool },
}

/// A card on the table with chips on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Project {
    pub(crate) owner: u8,
    pub(crate) card: Card,
    pub(crate) chips: u8,
}

/// A matured number project waiting to be paid in the current advance (B9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Matured {
    pub(crate) owner: u8,
    pub(crate) card: Card,
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// A bid, pass or veto from `turn`.
    Auction,
    /// Keep or re-roll from the owner of `roll` (B10).
    Roll,
    /// The game is over.
    Over,
}

/// Dice shown for a matured number project, sorted ascending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Roll {
    pub(crate) owner: u8,
    pub(crate) card: Card,
    pub(crate) n: u8,
    pub(crate) dice: [u8; MAX_DICE],
}

impl Roll {
    pub(crate) const EMPTY: Roll = Roll {
        owner: NONE,
        card: Card::Two,
        n: 0,
        dice: [0; MAX_DICE],
    };

    pub(crate) fn dice(&self) -> &[u8] {
        &self.dice[..self.n as usize]
    }
}

/// A game of The Big Cheese: the whole state, known to nobody (it holds the
/// deck order and the dice to come). Players see [`crate::View`]s.
#[derive(Clone, Debug, PartialEq)]
pub struct BigCheese {
    pub(crate) opts: Options,
    pub(crate) target: u16,
    pub(crate) n: u8,
    pub(crate) phase: Phase,
    /// Deck, top card last.
    pub(crate) deck: [Card; MAX_CARDS],
    pub(crate) deck_len: u8,
    pub(crate) discards: [u8; 9],
    pub(crate) free: [u8; MAX_PLAYERS],
    pub(crate) vetos: [u8; MAX_PLAYERS],
    pub(crate) cheeses: [u8; MAX_PLAYERS],
    pub(crate) scores: [u16; MAX_PLAYERS],
    pub(crate) scored: [u8; MAX_PLAYERS],
    pub(crate) hired: [u8; MAX_PLAYERS],
    pub(crate) hired_total: u8,
    /// Projects on the table, oldest first.
    pub(crate) projects: [Project; MAX_CARDS],
    pub(crate) n_projects: u8,
    /// Number projects matured in this advance, in resolution order (B9).
    pub(crate) queue: [Matured; MAX_CARDS],
    pub(crate) q_head: u8,
    pub(crate) q_len: u8,
    pub(crate) roll: Roll,
    pub(crate) leader: u8,
    pub(crate) turn: u8,
    pub(crate) high: u8,
    pub(crate) bidder: u8,
    /// Bitmask of seats that passed this auction.
    pub(crate) passed: u8,
    /// Bitmask of seats that bid in this auction (B18).
    pub(crate) bid_in: u8,
    /// Bitmask of winners once over (0 when the game could not go on).
    pub(crate) winners: u8,
    pub(crate) forced: [u8; MAX_FORCED],
    pub(crate) forced_len: u8,
    pub(crate) forced_pos: u8,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) logging: bool,
    pub(crate) log: Vec<LogEntry<Event>>,
}

/// Every seat, built at compile time (so no bounds assert on the hot path).
const SEATS: [Seat; MAX_PLAYERS] = [
    Seat::new(0),
    Seat::new(1),
    Seat::new(2),
    Seat::new(3),
    Seat::new(4),
    Seat::new(5),
];

#[inline]
pub(crate) fn seat(p: u8) -> Seat {
    SEATS[p as usize]
}

impl BigCheese {
    /// A fresh game before the deck is shuffled or a leader is drawn.
    pub(crate) fn blank(opts: &Options, players: usize, rng: ChaCha8Rng) -> BigCheese {
        let empty = Project {
            owner: NONE,
            card: Card::Two,
            chips: 0,
        };
        let mut free = [0; MAX_PLAYERS];
        free[..players].fill(opts.chips);
        BigCheese {
            opts: *opts,
            target: opts.target(),
            n: players as u8,
            phase: Phase::Auction,
            deck: [Card::Two; MAX_CARDS],
            deck_len: 0,
            discards: [0; 9],
            free,
            vetos: [0; MAX_PLAYERS],
            cheeses: [0; MAX_PLAYERS],
            scores: [0; MAX_PLAYERS],
            scored: [0; MAX_PLAYERS],
            hired: [0; MAX_PLAYERS],
            hired_total: 0,
            projects: [empty; MAX_CARDS],
            n_projects: 0,
            queue: [Matured {
                owner: NONE,
                card: Card::Two,
            }; MAX_CARDS],
            q_head: 0,
            q_len: 0,
            roll: Roll::EMPTY,
            leader: 0,
            turn: 0,
            high: 0,
            bidder: NONE,
            passed: 0,
            bid_in: 0,
            winners: 0,
            forced: [0; MAX_FORCED],
            forced_len: 0,
            forced_pos: 0,
            rng,
            logging: false,
            log: Vec::new(),
        }
    }

    /// Starts a game (see [`game::Game::new`]).
    pub(crate) fn start(
        opts: &Options,
        players: usize,
        seed: &game::Seed,
    ) -> Result<BigCheese, SetupError> {
        if !(3..=MAX_PLAYERS).contains(&players) {
            return Err(SetupError::Players {
                game: "The Big Cheese",
                players,
                allowed: 3..=MAX_PLAYERS,
                ruling: "B1",
            });
        }
        let mut g = BigCheese::blank(opts, players, seed.rng::<ChaCha8Rng>());
        for kind in 0..Card::kinds(opts.specials) {
            for _ in 0..Card::COPIES {
                g.deck[g.deck_len as usize] = Card::from_index(kind);
                g.deck_len += 1;
            }
        }
        let len = g.deck_len as usize;
        g.deck[..len].shuffle(&mut g.rng);
        // B4: the first leader is a seeded random player.
        g.leader = g.rng.random_range(0..players as u8);
        g.start_auction();
        Ok(g)
    }

    /// The top card, face up (B3).
    #[inline]
    pub(crate) fn top(&self) -> Option<Card> {
        self.deck_len.checked_sub(1).map(|i| self.deck[i as usize])
    }

    fn pop_top(&mut self) -> Card {
        self.deck_len -= 1;
        self.deck[self.deck_len as usize]
    }

    /// The number of cards in the discard pile.
    pub(crate) fn discard_count(&self) -> u8 {
        self.discards.iter().sum()
    }

    pub(crate) fn set_logging_on(&mut self, on: bool) {
        self.logging = on;
        if on && self.log.is_empty() {
            self.log.push(LogEntry::public(Event::Shuffled {
                cards: self.deck_len,
                top: self.top(),
                leader: seat(self.leader),
            }));
        }
    }
}

/// Counts of each d6 face in a roll, index = face.
pub(crate) fn roll_counts(roll: &Roll) -> [u8; 7] {
    let mut c = [0u8; 7];
    for &d in roll.dice() {
        c[(d as usize).min(6)] += 1;
    }
    c
}
