//! Scenario support: hand-made positions (`deck`, `dice`, `project`, ...)
//! and game-specific expectations (`free P1 7`, `projects P1 12[3]`, ...).
//!
//! Setups are unvalidated text gathered into [`Setup`] and become a game
//! only through the fallible [`game::Scenario::from_setup`]. Cards are
//! always conserved: every card not placed by the setup goes under the
//! listed deck in seeded-shuffled order (or to the discards with
//! `unlisted discards`), and placing more copies than exist is an error.

use crate::state::{Project, MAX_FORCED, MAX_HIRED};
use crate::{BigCheese, Card, Options};
use game::{Game, Scenario, ScenarioError, Seat, SetupError};
use rand::seq::SliceRandom;
use std::str::FromStr;

/// A hand-made position, one field per setup key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// `deck CARDS...`: the deck from the top down; the first is face up.
    pub deck: Option<Vec<Card>>,
    /// `unlisted deck|discards`: where cards placed nowhere else go
    /// (default: shuffled under the listed deck).
    pub unlisted_to_discards: bool,
    /// `dice N N ...`: the next die results, in order.
    pub dice: Vec<u8>,
    /// `leader P2`: the first leader (else seeded random, B4).
    pub leader: Option<Seat>,
    /// `chips P1 N`: free chips (else starting + hired - chips on projects).
    pub chips: Vec<(Seat, u8)>,
    /// `score P1 N`.
    pub scores: Vec<(Seat, u16)>,
    /// `scored P1 N`: scored-project count (B14).
    pub scored: Vec<(Seat, u8)>,
    /// `hired P1 N`: chips already hired (B15).
    pub hired: Vec<(Seat, u8)>,
    /// `project P1 CARD CHIPS` or `projects P1 12[3] 4[1]`, oldest first.
    pub projects: Vec<(Seat, Card, u8)>,
    /// `hand P1 V BC`: specials in hand.
    pub hands: Vec<(Seat, Card)>,
    /// `discards CARDS...`.
    pub discards: Vec<Card>,
}

fn bad(e: impl std::fmt::Display) -> ScenarioError {
    ScenarioError::BadArgs(e.to_string())
}

fn num<T: FromStr>(s: &str) -> Result<T, ScenarioError> {
    s.parse().map_err(|_| bad(format!("`{s}` is not a number")))
}

fn seat_arg(s: Option<&str>) -> Result<Seat, ScenarioError> {
    let s = s.ok_or_else(|| bad("missing seat"))?;
    s.parse()
        .map_err(|e: game::SeatParseError| bad(e.to_string()))
}

fn cards(args: &str) -> Result<Vec<Card>, ScenarioError> {
    args.split_whitespace()
        .filter(|w| *w != "none")
        .map(|w| w.parse().map_err(bad))
        .collect()
}

/// Reads `12[3]` as a project.
fn project_token(w: &str) -> Result<(Card, u8), ScenarioError> {
    let (c, rest) = w
        .split_once('[')
        .ok_or_else(|| bad(format!("`{w}` is not a project (write 12[3])")))?;
    let k = rest
        .strip_suffix(']')
        .ok_or_else(|| bad(format!("`{w}` is not a project (write 12[3])")))?;
    Ok((c.parse().map_err(bad)?, num(k)?))
}

fn seat_and_num<T: FromStr>(args: &str) -> Result<(Seat, T), ScenarioError> {
    let mut w = args.split_whitespace();
    let s = seat_arg(w.next())?;
    let n = num(w.next().ok_or_else(|| bad("missing number"))?)?;
    Ok((s, n))
}

/// Largest free chips or chips on a project a setup may give (the most a
/// player can hold is 10 + 4 hired; anything up to 100 cannot overflow).
const MAX_SETUP_CHIPS: u8 = 100;
/// Largest score a setup may give (the target is at most 10,000).
const MAX_SETUP_SCORE: u16 = 10_000;
/// Largest count of scored projects a setup may give.
const MAX_SETUP_SCORED: u8 = 200;

/// `SEAT N` with `N <= max`.
fn bounded<T: FromStr + PartialOrd + std::fmt::Display + Copy>(
    args: &str,
    max: T,
    what: &str,
) -> Result<(Seat, T), ScenarioError> {
    let (s, n) = seat_and_num::<T>(args)?;
    if n > max {
        return Err(bad(format!("{what} of {s} must be at most {max}, not {n}")));
    }
    Ok((s, n))
}

fn failed<T: std::fmt::Display>(what: &str, want: T, found: T) -> Result<(), ScenarioError> {
    Err(ScenarioError::Failed(format!(
        "expected {what} {want}, found {found}"
    )))
}

fn check<T: PartialEq + std::fmt::Display>(
    what: &str,
    want: T,
    found: T,
) -> Result<(), ScenarioError> {
    if want == found {
        Ok(())
    } else {
        failed(what, want, found)
    }
}

impl BigCheese {
    fn seat_ok(&self, s: Seat) -> Result<usize, ScenarioError> {
        if s.index() < self.n as usize {
            Ok(s.index())
        } else {
            Err(bad(format!("{s} is not at this {}-player table", self.n)))
        }
    }

    fn projects_text(&self, p: usize) -> String {
        let v: Vec<String> = self.projects[..self.n_projects as usize]
            .iter()
            .filter(|pr| pr.owner as usize == p)
            .map(|pr| format!("{}[{}]", pr.card, pr.chips))
            .collect();
        if v.is_empty() {
            "none".into()
        } else {
            v.join(" ")
        }
    }

    fn hand_text(&self, p: usize) -> String {
        let mut v = vec!["V"; self.vetos[p] as usize];
        v.extend(std::iter::repeat_n("BC", self.cheeses[p] as usize));
        if v.is_empty() {
            "none".into()
        } else {
            v.join(" ")
        }
    }
}

impl Scenario for BigCheese {
    type Setup = Setup;

    fn setup_line(setup: &mut Setup, key: &str, args: &str) -> Result<(), ScenarioError> {
        let mut w = args.split_whitespace();
        match key {
            "deck" => setup.deck = Some(cards(args)?),
            "unlisted" => {
                setup.unlisted_to_discards = match args.trim() {
                    "deck" => false,
                    "discards" => true,
                    other => {
                        return Err(bad(format!(
                            "`unlisted deck` or `unlisted discards`, not `{other}`"
                        )))
                    }
                }
            }
            "dice" => {
                for d in w {
                    let v: u8 = num(d)?;
                    if !(1..=20).contains(&v) {
                        return Err(bad(format!("die result {v} is not 1..=20")));
                    }
                    setup.dice.push(v);
                }
                if setup.dice.len() > MAX_FORCED {
                    return Err(bad(format!("at most {MAX_FORCED} dice")));
                }
            }
            "leader" => setup.leader = Some(seat_arg(w.next())?),
            // Hand-made values stay in ranges a real game can reach, so
            // no counter can overflow later.
            "chips" => setup
                .chips
                .push(bounded(args, MAX_SETUP_CHIPS, "free chips")?),
            "score" => setup
                .scores
                .push(bounded(args, MAX_SETUP_SCORE, "a score")?),
            "scored" => setup
                .scored
                .push(bounded(args, MAX_SETUP_SCORED, "scored projects")?),
            "hired" => setup
                .hired
                .push(bounded(args, MAX_HIRED, "hired chips (B15)")?),
            "project" => {
                let s = seat_arg(w.next())?;
                let c: Card = w
                    .next()
                    .ok_or_else(|| bad("missing card"))?
                    .parse()
                    .map_err(bad)?;
                let k: u8 = num(w.next().ok_or_else(|| bad("missing chips"))?)?;
                if !(1..=MAX_SETUP_CHIPS).contains(&k) {
                    return Err(bad(format!(
                        "a project holds 1 to {MAX_SETUP_CHIPS} chips, not {k}"
                    )));
                }
                setup.projects.push((s, c, k));
            }
            "projects" => {
                let s = seat_arg(w.next())?;
                for t in w.filter(|t| *t != "none") {
                    let (c, k) = project_token(t)?;
                    if !(1..=MAX_SETUP_CHIPS).contains(&k) {
                        return Err(bad(format!(
                            "a project holds 1 to {MAX_SETUP_CHIPS} chips, not {k}"
                        )));
                    }
                    setup.projects.push((s, c, k));
                }
            }
            "hand" => {
                let s = seat_arg(w.next())?;
                let rest: Vec<&str> = w.collect();
                for c in cards(&rest.join(" "))? {
                    setup.hands.push((s, c));
                }
            }
            "discards" => setup.discards.extend(cards(args)?),
            _ => return Err(ScenarioError::UnknownKey(key.to_string())),
        }
        Ok(())
    }

    fn from_setup(
        options: &Options,
        players: usize,
        seed: u64,
        setup: Setup,
    ) -> Result<BigCheese, SetupError> {
        let g = BigCheese::new(options, players, seed)?;
        hand_made(g, options, players, setup).map_err(|e| SetupError::Position(e.to_string()))
    }

    fn expect(&self, key: &str, args: &str) -> Result<(), ScenarioError> {
        self.expect_key(key, args)
    }
}

/// Why a scenario's hand-made position cannot be set up: what it names
/// that the table does not have, or breaks a ruling.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum PositionError {
    /// A seat past the table's players.
    #[error("{seat} is not at this {players}-player table")]
    NoSuchSeat { seat: Seat, players: usize },
    /// A special card when specials are off (B2).
    #[error("{0} is not in the deck with specials=off (B2)")]
    NotInDeck(Card),
    /// More copies of a card than the deck has.
    #[error("more than {} copies of {card} placed", Card::COPIES)]
    TooMany { card: Card },
    /// A number card in a hand (B6, B10).
    #[error("{0} cannot be in a hand: only V and BC are (B6, B10)")]
    NotAHandCard(Card),
    /// A project with no chips.
    #[error("project {card} of {seat} needs at least 1 chip")]
    EmptyProject { card: Card, seat: Seat },
    /// More hired chips than a player may have (B15).
    #[error("at most {MAX_HIRED} chips hired per player (B15)")]
    TooManyHired,
}

/// How many of each card kind the setup places (the deck listed, the
/// projects, the hands, the discards), refused when a card is not in the
/// deck of `kinds` kinds (B2), more copies than the deck has are placed,
/// or a hand holds a number card (B6, B10).
fn placed_cards(setup: &Setup, kinds: usize) -> Result<[u8; 9], PositionError> {
    let mut used = [0u8; 9];
    let mut place = |c: Card| -> Result<(), PositionError> {
        if c.index() >= kinds {
            return Err(PositionError::NotInDeck(c));
        }
        used[c.index()] += 1;
        if used[c.index()] > Card::COPIES {
            return Err(PositionError::TooMany { card: c });
        }
        Ok(())
    };
    for &c in setup.deck.iter().flatten() {
        place(c)?;
    }
    for &(_, c, _) in &setup.projects {
        place(c)?;
    }
    for &(_, c) in &setup.hands {
        if c.is_number() {
            return Err(PositionError::NotAHandCard(c));
        }
        place(c)?;
    }
    for &c in &setup.discards {
        place(c)?;
    }
    Ok(used)
}

/// Rebuilds the deck and the discards: the listed deck on top, the cards
/// placed nowhere (`used` counts those placed) shuffled under it or, with
/// `unlisted discards`, into the discards.
fn rebuild_cards(g: &mut BigCheese, setup: &Setup, used: &[u8; 9], kinds: usize) {
    let listed = setup.deck.clone().unwrap_or_default();
    // Rebuild the cards.
    g.discards = [0; 9];
    for &c in &setup.discards {
        g.discards[c.index()] += 1;
    }
    g.deck_len = 0;
    let mut rest = Vec::new();
    for (kind, &k) in used.iter().enumerate().take(kinds) {
        for _ in k..Card::COPIES {
            rest.push(Card::from_index(kind));
        }
    }
    if setup.deck.is_some()
        || !setup.projects.is_empty()
        || !setup.hands.is_empty()
        || !setup.discards.is_empty()
    {
        rest.shuffle(&mut g.rng);
    }
    if setup.unlisted_to_discards {
        for c in rest.drain(..) {
            g.discards[c.index()] += 1;
        }
    }
    for c in rest.into_iter().chain(listed.into_iter().rev()) {
        g.deck[g.deck_len as usize] = c;
        g.deck_len += 1;
    }
}

/// Overrides a fresh game with a scenario's hand-made position.
fn hand_made(
    mut g: BigCheese,
    options: &Options,
    players: usize,
    setup: Setup,
) -> Result<BigCheese, PositionError> {
    let seat_ok = |seat: Seat| {
        if seat.index() < players {
            Ok(seat.index())
        } else {
            Err(PositionError::NoSuchSeat { seat, players })
        }
    };
    let kinds = Card::kinds(options.specials);
    let used = placed_cards(&setup, kinds)?;
    rebuild_cards(&mut g, &setup, &used, kinds);
    g.n_projects = 0;
    for &(s, card, chips) in &setup.projects {
        let owner = seat_ok(s)?;
        if chips == 0 {
            return Err(PositionError::EmptyProject { card, seat: s });
        }
        g.projects[g.n_projects as usize] = Project {
            owner: owner as u8,
            card,
            chips,
        };
        g.n_projects += 1;
    }
    for &(s, c) in &setup.hands {
        let p = seat_ok(s)?;
        match c {
            Card::Veto => g.vetos[p] += 1,
            _ => g.cheeses[p] += 1,
        }
    }
    for &(s, h) in &setup.hired {
        let p = seat_ok(s)?;
        if h > MAX_HIRED {
            return Err(PositionError::TooManyHired);
        }
        g.hired_total = g.hired_total - g.hired[p] + h;
        g.hired[p] = h;
    }
    for p in 0..players {
        let on: u32 = g.projects[..g.n_projects as usize]
            .iter()
            .filter(|pr| pr.owner as usize == p)
            .map(|pr| pr.chips as u32)
            .sum();
        let stock = options.chips as u32 + g.hired[p] as u32;
        g.free[p] = stock.saturating_sub(on).min(u8::MAX as u32) as u8;
    }
    for &(s, k) in &setup.chips {
        g.free[seat_ok(s)?] = k;
    }
    for &(s, k) in &setup.scores {
        g.scores[seat_ok(s)?] = k;
    }
    for &(s, k) in &setup.scored {
        g.scored[seat_ok(s)?] = k;
    }
    if let Some(s) = setup.leader {
        g.leader = seat_ok(s)? as u8;
    }
    g.forced_len = setup.dice.len() as u8;
    g.forced[..setup.dice.len()].copy_from_slice(&setup.dice);
    g.forced_pos = 0;
    g.q_head = 0;
    g.q_len = 0;
    g.start_auction();
    Ok(g)
}

impl BigCheese {
    /// The game-specific expectations of [`Scenario::expect`]: of one
    /// seat, of the table, or of the turn.
    fn expect_key(&self, key: &str, args: &str) -> Result<(), ScenarioError> {
        match key {
            "free" | "score" | "scored" | "hired" | "projects" | "hand" => {
                self.expect_of_seat(key, args)
            }
            "hired-total" | "top" | "leader" | "high-bid" | "passed" | "deck-size" | "discards"
            | "in-deck" | "discarded" | "target" => self.expect_of_table(key, args),
            _ => self.expect_of_turn(key, args),
        }
    }

    /// What one seat has: `free`, `score`, `scored`, `hired` chips,
    /// `projects`, `hand`.
    fn expect_of_seat(&self, key: &str, args: &str) -> Result<(), ScenarioError> {
        let mut w = args.split_whitespace();
        let rest_after_seat = |args: &str| -> String {
            args.split_whitespace()
                .skip(1)
                .collect::<Vec<_>>()
                .join(" ")
        };
        match key {
            "free" | "score" | "scored" | "hired" => {
                let (s, n) = seat_and_num::<u32>(args)?;
                let p = self.seat_ok(s)?;
                let found = match key {
                    "free" => self.free[p] as u32,
                    "score" => self.scores[p] as u32,
                    "scored" => self.scored[p] as u32,
                    _ => self.hired[p] as u32,
                };
                check(&format!("{key} of {s}"), n, found)
            }
            "projects" => {
                let s = seat_arg(w.next())?;
                let p = self.seat_ok(s)?;
                let mut want: Vec<String> = Vec::new();
                for t in w.filter(|t| *t != "none") {
                    let (c, k) = project_token(t)?;
                    want.push(format!("{c}[{k}]"));
                }
                let want = if want.is_empty() {
                    "none".to_string()
                } else {
                    want.join(" ")
                };
                check(&format!("projects of {s}"), want, self.projects_text(p))
            }
            "hand" => {
                let s = seat_arg(w.next())?;
                let p = self.seat_ok(s)?;
                let mut want = cards(&rest_after_seat(args))?;
                want.sort();
                let want: Vec<&str> = want.iter().map(|c| c.as_str()).collect();
                let want = if want.is_empty() {
                    "none".to_string()
                } else {
                    want.join(" ")
                };
                check(&format!("hand of {s}"), want, self.hand_text(p))
            }
            _ => unreachable!("a seat key"),
        }
    }

    /// The table: the deck and discards, the top card, the leader, the
    /// auction (`high-bid`, `passed`), chips hired, the target.
    fn expect_of_table(&self, key: &str, args: &str) -> Result<(), ScenarioError> {
        let mut w = args.split_whitespace();
        match key {
            "hired-total" => check(
                "hired in the game",
                num::<u8>(args.trim())?,
                self.hired_total,
            ),
            "top" => {
                let want = match args.trim() {
                    "none" => None,
                    t => Some(t.parse::<Card>().map_err(bad)?),
                };
                let show =
                    |c: Option<Card>| c.map_or_else(|| "none".to_string(), |c| c.to_string());
                check("top card", show(want), show(self.top()))
            }
            "leader" => check(
                "leader",
                seat_arg(w.next())?,
                Seat::new(self.leader as usize),
            ),
            "high-bid" => {
                let found = if self.phase == crate::state::Phase::Auction
                    && self.bidder != crate::state::NONE
                {
                    format!("{} {}", self.high, Seat::new(self.bidder as usize))
                } else {
                    "none".to_string()
                };
                let want = match args.trim() {
                    "none" => "none".to_string(),
                    _ => {
                        let n: u8 = num(w.next().ok_or_else(|| bad("missing bid"))?)?;
                        format!("{n} {}", seat_arg(w.next())?)
                    }
                };
                check("high bid", want, found)
            }
            "passed" => {
                let found: Vec<String> = (0..self.n)
                    .filter(|p| self.passed & (1 << p) != 0)
                    .map(|p| Seat::new(p as usize).to_string())
                    .collect();
                let mut want: Vec<String> = Vec::new();
                for t in w.filter(|t| *t != "none") {
                    want.push(seat_arg(Some(t))?.to_string());
                }
                want.sort();
                check("passed", want.join(" "), found.join(" "))
            }
            "deck-size" => check("deck size", num::<u8>(args.trim())?, self.deck_len),
            "discards" => check("discards", num::<u8>(args.trim())?, self.discard_count()),
            // in-deck V 2: the deck holds exactly two Vetos; discarded 8 1:
            // the discards hold exactly one 8
            "in-deck" | "discarded" => {
                let c: Card = w
                    .next()
                    .ok_or_else(|| bad("missing card"))?
                    .parse()
                    .map_err(bad)?;
                let n: u8 = num(w.next().ok_or_else(|| bad("missing count"))?)?;
                if key == "in-deck" {
                    let have = self.deck[..self.deck_len as usize]
                        .iter()
                        .filter(|&&d| d == c)
                        .count() as u8;
                    check(&format!("{c}s in the deck"), n, have)
                } else {
                    check(&format!("discarded {c}s"), n, self.discards[c.index()])
                }
            }
            "target" => check("target", num::<u16>(args.trim())?, self.target),
            _ => unreachable!("a table key"),
        }
    }

    /// The turn: the `roll` waiting and its `payout`, the `phase`, the
    /// `legal-count`, who is `to-move`; any other key is unknown.
    fn expect_of_turn(&self, key: &str, args: &str) -> Result<(), ScenarioError> {
        match key {
            "roll" => {
                let found = if self.phase == crate::state::Phase::Roll {
                    let d: Vec<String> = self.roll.dice().iter().map(|v| v.to_string()).collect();
                    format!(
                        "{} {} {}",
                        Seat::new(self.roll.owner as usize),
                        self.roll.card,
                        d.join(",")
                    )
                } else {
                    "none".to_string()
                };
                check(
                    "roll",
                    args.split_whitespace().collect::<Vec<_>>().join(" "),
                    found,
                )
            }
            "payout" => {
                if self.phase != crate::state::Phase::Roll {
                    return Err(ScenarioError::Failed(
                        "expected a roll waiting, found none".into(),
                    ));
                }
                check("payout", num::<u16>(args.trim())?, self.payout(&self.roll))
            }
            "phase" => {
                let found = match self.phase {
                    crate::state::Phase::Auction => "auction",
                    crate::state::Phase::Roll => "roll",
                    crate::state::Phase::Over => "over",
                };
                check("phase", args.trim(), found)
            }
            "legal-count" => {
                let mut legal = Vec::new();
                self.legal_actions(&mut legal);
                check(
                    "number of legal actions",
                    num::<usize>(args.trim())?,
                    legal.len(),
                )
            }
            "to-move" => {
                let found = self
                    .to_move()
                    .map_or_else(|| "none".to_string(), |s| s.to_string());
                check("to move", args.trim().to_string(), found)
            }
            _ => Err(ScenarioError::UnknownKey(key.to_string())),
        }
    }
}

#[cfg(test)]
mod setup_bounds {
    use super::*;

    #[test]
    fn out_of_range_setup_values_are_refused() {
        for (key, args) in [
            ("chips", "P1 255"),
            ("score", "P1 65535"),
            ("hired", "P2 5"),
            ("project", "P1 12 0"),
            ("project", "P1 12 200"),
            ("projects", "P1 12[0]"),
        ] {
            let mut setup = Setup::default();
            let e = BigCheese::setup_line(&mut setup, key, args);
            assert!(e.is_err(), "{key} {args} was accepted");
        }
        let mut setup = Setup::default();
        assert!(BigCheese::setup_line(&mut setup, "chips", "P1 100").is_ok());
    }
}
