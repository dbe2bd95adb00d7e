//! The full game state of a Dalmuti session and the rules that move it:
//! seating (D3), deal (D2, D5), revolution (D7), taxes (D8), market (D14),
//! tricks (D9..D11), scoring and session end (D12), joins (D13).
//!
//! Shaped for rollouts: every per-seat datum is a fixed array indexed by
//! seat, hands are count arrays, sets of seats are `u16` bitmasks, the
//! chance source is a seeded `ChaCha8Rng` inside the state, and no string is
//! formatted unless logging is on. Nothing here allocates per action.

use crate::action::{Action, Gift, Play, Side};
use crate::card::{Card, Hand, JESTER};
use crate::error::IllegalAction;
use crate::event::{Draw, Event};
use crate::options::Options;
use crate::role::{Phase, Role};
use crate::swar::{self, HIGH};
use game::{LogEntry, Seat, SetupError};
use rand::RngCore;
use rand_chacha::ChaCha8Rng;

/// The most seats a session can have (D1).
pub const MAX_PLAYERS: usize = 13;

/// Pushes a public event, building it only when logging is on.
macro_rules! say {
    ($s:expr, $event:expr) => {
        if $s.logging {
            let event = $event;
            $s.log.push(LogEntry::public(event));
        }
    };
}

/// Pushes an event only `seat` may see, building it only when logging is
/// on.
macro_rules! tell {
    ($s:expr, $seat:expr, $event:expr) => {
        if $s.logging {
            let event = $event;
            $s.log
                .push(LogEntry::private(Seat::new($seat as usize), event));
        }
    };
}

mod deal;
mod moves;
mod taxes;
mod tricks;

/// The seat with index `s`.
fn seat(s: impl Into<usize>) -> Seat {
    Seat::new(s.into())
}

/// How cards changed hands before play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum TransferKind {
    /// Taxes (D8).
    Tax,
    /// The market or the black market (D14).
    Market,
}

/// Cards that went from one player to another this hand. Only the two
/// players involved see the cards; everyone sees that it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Transfer {
    /// Who gave.
    pub from: Seat,
    /// Who received.
    pub to: Seat,
    /// The cards.
    pub cards: Gift,
    /// Taxes or market.
    pub kind: TransferKind,
}

/// Whether a revolution was declared this hand (D7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Revolution {
    /// None declared.
    None,
    /// Declared by someone other than the Greater Peon: no taxes.
    Declared,
    /// Declared by the Greater Peon: roles reverse, taxes are paid.
    Great,
}

const NO_TRANSFER: Transfer = Transfer {
    from: Seat::new(0),
    to: Seat::new(0),
    cards: Gift::one(Card::JESTER),
    kind: TransferKind::Tax,
};

/// A Dalmuti session: the full state, known to nobody. Players see
/// [`crate::View`]s.
#[derive(Clone, Debug)]
pub struct Dalmuti {
    pub(crate) options: Options,
    pub(crate) seed: game::Seed,
    /// Built by `new` and untouched since: `set_logging(true)` may rebuild
    /// it with logging on to capture the seating and the deal.
    pub(crate) fresh: bool,
    pub(crate) players: u8,
    /// 1-based hand number within the session.
    pub(crate) hand_no: u32,
    pub(crate) phase: Phase,
    pub(crate) turn: u8,
    /// Seat index by table position (role order, D4).
    pub(crate) order: [u8; MAX_PLAYERS],
    /// Table position by seat index.
    pub(crate) pos: [u8; MAX_PLAYERS],
    pub(crate) hands: [Hand; MAX_PLAYERS],
    pub(crate) left: [u8; MAX_PLAYERS],
    /// Cards each seat has played this hand (public).
    pub(crate) played: [Hand; MAX_PLAYERS],
    /// The cards in play this hand.
    pub(crate) deck: Hand,
    pub(crate) scores: [i64; MAX_PLAYERS],
    /// Seats still holding cards.
    pub(crate) active: u16,
    /// Table positions still holding cards (mirrors `active`).
    pub(crate) active_pos: u16,
    /// Seats that passed since the last play.
    pub(crate) passed: u16,
    /// The last play of the current trick and who made it.
    pub(crate) trick: Option<(Play, u8)>,
    pub(crate) finished: [u8; MAX_PLAYERS],
    pub(crate) n_finished: u8,
    /// The seat offered a revolution this hand (D7); public only once it
    /// declares one.
    pub(crate) jester_holder: Option<u8>,
    pub(crate) revolution: Revolution,
    pub(crate) taxes: bool,
    pub(crate) greater_gift: Option<Gift>,
    pub(crate) lesser_gift: Option<Gift>,
    pub(crate) market_with: Option<u8>,
    pub(crate) transfers: [Transfer; 6],
    pub(crate) n_transfers: u8,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) logging: bool,
    pub(crate) log: Vec<LogEntry<Event>>,
}

/// The deck `deck` as a card list, Jesters first and then the ranks from 1
/// up: D2's 57-, 68- and 80-card decks are prefixes of one list, as D17's
/// small decks with Jesters are, so a seed deals the same cards whatever
/// the cut.
fn deck_list(deck: &Hand) -> [u8; 80] {
    let mut list = [0u8; 80];
    let mut i = 0;
    for kind in std::iter::once(JESTER).chain(1..=12) {
        for _ in 0..deck.0[kind] {
            list[i] = kind as u8;
            i += 1;
        }
    }
    list
}

/// For each rank r, the leads of 1..=12 natural cards of rank r: a lead
/// copies a whole run and keeps as many as the leader holds.
const LEAD_RUNS: [[Action; 12]; 13] = {
    let mut t = [[Action::Pass; 12]; 13];
    let mut r = 1;
    while r < 13 {
        let mut n = 0;
        while n < 12 {
            t[r][n] = Action::Play(Play::raw(r as u8, n as u8 + 1, 0));
            n += 1;
        }
        r += 1;
    }
    t
};

/// A uniform number in `0..bound` (Lemire's nearly divisionless method:
/// one 32-bit draw, a multiply, and a division only on the rare draws that
/// could be biased). Exact and cheaper than a generic range sampler in the
/// deal, which is the hot part of starting a hand.
#[inline]
pub(crate) fn below(rng: &mut ChaCha8Rng, bound: u32) -> u32 {
    let mut m = rng.next_u32() as u64 * bound as u64;
    if (m as u32) < bound {
        let threshold = bound.wrapping_neg() % bound;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * bound as u64;
        }
    }
    (m >> 32) as u32
}

#[inline]
const fn bit(seat: u8) -> u16 {
    1 << seat
}

/// A scenario's fixed seating draw names a card the draw deck has no
/// more of.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the seating draw has no {0} left")]
pub(crate) struct DrawnOut(Card);

impl Dalmuti {
    /// Checks a new session's player count against its options (D1, D13).
    pub(crate) fn validate(options: &Options, players: usize) -> Result<(), SetupError> {
        Dalmuti::check_players(players)?;
        if players + options.joins.len() > MAX_PLAYERS {
            return Err(SetupError::Options(format!(
                "{players} players and {} joins would make more than 13 players (D1, D13)",
                options.joins.len()
            )));
        }
        // D17: every player is dealt 2 cards at least (the Greater Peon
        // pays 2 in taxes, D8)
        for n in players..=players + options.joins.len() {
            let cards = options.deck(n).len();
            if cards < 2 * n {
                return Err(SetupError::Options(format!(
                    "a deck of {cards} cards (ranks={}, jesters={}) is too small for {n} players: \
                     each needs 2 cards at least (D17)",
                    options.ranks,
                    if options.jesters { "on" } else { "off" }
                )));
            }
        }
        if options.market && options.black_market {
            return Err(SetupError::Options(
                "market and black_market cannot both be on (D14)".to_string(),
            ));
        }
        Ok(())
    }

    /// D1: 3 to 13 players.
    fn check_players(players: usize) -> Result<(), SetupError> {
        if (3..=MAX_PLAYERS).contains(&players) {
            Ok(())
        } else {
            Err(SetupError::Players {
                game: "The Great Dalmuti",
                players,
                allowed: 3..=MAX_PLAYERS,
                ruling: "D1",
            })
        }
    }

    /// A session with seats seated but no hand started: the seating draw
    /// (D3) has been done from `draws` first, then from the seeded RNG,
    /// unless `order` fixes the table order.
    pub(crate) fn seated(
        options: &Options,
        players: usize,
        seed: game::Seed,
        logging: bool,
        draws: &[Card],
        order: Option<&[Seat]>,
    ) -> Result<Dalmuti, SetupError> {
        Dalmuti::check_players(players)?;
        let mut g = Dalmuti {
            options: *options,
            seed,
            fresh: false,
            players: players as u8,
            hand_no: 1,
            phase: Phase::Play,
            turn: 0,
            order: [0; MAX_PLAYERS],
            pos: [0; MAX_PLAYERS],
            hands: [Hand::EMPTY; MAX_PLAYERS],
            left: [0; MAX_PLAYERS],
            played: [Hand::EMPTY; MAX_PLAYERS],
            deck: Hand::EMPTY,
            scores: [0; MAX_PLAYERS],
            active: 0,
            active_pos: 0,
            passed: 0,
            trick: None,
            finished: [0; MAX_PLAYERS],
            n_finished: 0,
            jester_holder: None,
            revolution: Revolution::None,
            taxes: false,
            greater_gift: None,
            lesser_gift: None,
            market_with: None,
            transfers: [NO_TRANSFER; 6],
            n_transfers: 0,
            rng: seed.rng::<ChaCha8Rng>(),
            logging,
            log: Vec::new(),
        };
        match order {
            Some(o) => {
                let mut seen = 0u16;
                if o.len() != players {
                    return Err(SetupError::Position(format!(
                        "the order must list all {players} seats"
                    )));
                }
                for (p, s) in o.iter().enumerate() {
                    if s.index() >= players || seen & bit(s.index() as u8) != 0 {
                        return Err(SetupError::Position(format!(
                            "bad order: {s} is not a seat or is listed twice"
                        )));
                    }
                    seen |= bit(s.index() as u8);
                    g.order[p] = s.index() as u8;
                }
            }
            None => g
                .seating_draw(draws)
                .map_err(|e| SetupError::Position(e.to_string()))?,
        }
        g.fix_pos();
        g.say_roles();
        Ok(g)
    }

    pub(crate) fn fix_pos(&mut self) {
        for p in 0..self.players as usize {
            self.pos[self.order[p] as usize] = p as u8;
        }
        self.fix_active_pos();
    }

    /// Recomputes the position mask from the seat mask.
    pub(crate) fn fix_active_pos(&mut self) {
        self.active_pos = 0;
        for p in 0..self.players as usize {
            if self.active & bit(self.order[p]) != 0 {
                self.active_pos |= 1 << p;
            }
        }
    }

    /// The seat at table position `p`.
    #[inline]
    pub(crate) fn at(&self, p: usize) -> u8 {
        self.order[p]
    }

    // ----- the rules API -------------------------------------------------
}
