//! The Dalmuti half of scenario files: hand-made positions (`order`,
//! `hand`, `phase`, `scores`, `hand-number`, `draw`) and game-specific
//! expectations (`hand`, `count`, `role`, `order`, `trick`, `score`, ...).
//!
//! Setup lines only gather a [`Setup`]; [`game::Scenario::from_setup`]
//! turns it into a state through the same code paths as a real session (the
//! seating draw, the deal, the revolution offer, taxes), so a scenario tests
//! the engine rather than a parallel copy of it.

use crate::card::{Card, Hand, JESTER};
use crate::options::Options;
use crate::role::{Phase, Role};
use crate::state::Dalmuti;
use crate::Play;
use game::{Scenario, ScenarioError, Seat, SetupError};

/// Where a hand-made position starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Start {
    /// As after a real deal: a revolution offer if it matters (D7), then
    /// taxes or play.
    #[default]
    Deal,
    /// Straight to taxes (D8), skipping the revolution offer.
    Taxes,
    /// Straight to play (D9): no revolution, no taxes.
    Play,
}

/// A hand-made position gathered from scenario setup lines.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    /// `order P3 P1 P2 P4`: the table order, Greater Dalmuti first (skips
    /// the seating draw).
    pub order: Option<Vec<Seat>>,
    /// `hand P1 1 2 2 J`: fixed hands. If every seat's hand is given, no
    /// deal takes place and the deck is exactly these cards.
    pub hands: Vec<(Seat, Hand)>,
    /// `phase deal|revolution|taxes|play` (or `no-taxes` = `phase play`).
    pub start: Start,
    /// `scores 3 0 1 2`: session scores per seat, P1 first.
    pub scores: Option<Vec<i64>>,
    /// `hand-number N`: the hand this position starts (joins before it
    /// have already happened).
    pub hand_number: Option<u32>,
    /// `draw 5 3 J 3 7 2`: the seating-draw cards, first round in seat
    /// order, then each tie round in seat order; the rest is seeded.
    pub draws: Vec<Card>,
}

fn bad(e: impl std::fmt::Display) -> ScenarioError {
    ScenarioError::BadArgs(e.to_string())
}

fn parse_seat(t: &str) -> Result<Seat, ScenarioError> {
    t.parse::<Seat>().map_err(bad)
}

fn parse_seats(args: &str) -> Result<Vec<Seat>, ScenarioError> {
    if args.trim() == "none" {
        return Ok(Vec::new());
    }
    args.split_whitespace().map(parse_seat).collect()
}

fn seat_and_rest(args: &str) -> Result<(Seat, &str), ScenarioError> {
    let args = args.trim();
    let (s, rest) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
    Ok((parse_seat(s)?, rest.trim()))
}

fn seats_text(v: impl IntoIterator<Item = Seat>) -> String {
    let v: Vec<String> = v.into_iter().map(|s| s.to_string()).collect();
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(" ")
    }
}

fn failed(
    what: &str,
    expected: impl std::fmt::Display,
    found: impl std::fmt::Display,
) -> ScenarioError {
    ScenarioError::Failed(format!("expected {what} {expected}, found {found}"))
}

impl Dalmuti {
    fn start(mut g: Dalmuti, start: Start) -> Dalmuti {
        match start {
            Start::Deal => g.after_deal(),
            Start::Taxes => g.begin_taxes_or_play(true),
            Start::Play => g.begin_taxes_or_play(false),
        }
        g.fresh = false;
        g.logging = false;
        g
    }
}

impl Scenario for Dalmuti {
    type Setup = Setup;

    fn setup_line(setup: &mut Setup, key: &str, args: &str) -> Result<(), ScenarioError> {
        match key {
            "order" => setup.order = Some(parse_seats(args)?),
            "hand" => {
                let (s, rest) = seat_and_rest(args)?;
                let h: Hand = rest.parse().map_err(bad)?;
                setup.hands.retain(|(x, _)| *x != s);
                setup.hands.push((s, h));
            }
            "phase" => {
                setup.start = match args.trim() {
                    "deal" | "revolution" => Start::Deal,
                    "taxes" => Start::Taxes,
                    "play" => Start::Play,
                    other => {
                        return Err(bad(format!("`{other}`: phase deal|revolution|taxes|play")))
                    }
                }
            }
            "no-taxes" => setup.start = Start::Play,
            "scores" => {
                setup.scores = Some(
                    args.split_whitespace()
                        .map(|t| t.parse::<i64>().map_err(bad))
                        .collect::<Result<_, _>>()?,
                )
            }
            "hand-number" => setup.hand_number = Some(args.trim().parse().map_err(bad)?),
            "draw" => {
                setup.draws = args
                    .split_whitespace()
                    .map(|t| t.parse::<Card>().map_err(bad))
                    .collect::<Result<_, _>>()?
            }
            other => return Err(ScenarioError::UnknownKey(other.to_string())),
        }
        Ok(())
    }

    fn from_setup(
        options: &Options,
        players: usize,
        seed: u64,
        setup: Setup,
    ) -> Result<Dalmuti, SetupError> {
        Dalmuti::validate(options, players)?;
        let g = Dalmuti::seated(
            options,
            players,
            game::Seed::Legacy(seed),
            true,
            &setup.draws,
            setup.order.as_deref(),
        )?;
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
    /// Hand 0.
    #[error("hands are numbered from 1")]
    HandZero,
    /// Scores for another number of seats.
    #[error("scores: give one score per seat ({players})")]
    Scores { players: usize },
    /// A seat past the table's players.
    #[error("{0} is not at this table")]
    NoSuchSeat(Seat),
    /// More cards of a rank than this table's deck has (D2).
    #[error(
        "the hands hold {held} cards of {card}, but a {players}-player deck has only {deck} (D2)"
    )]
    TooMany {
        held: u8,
        card: Card,
        players: usize,
        deck: u8,
    },
    /// A seat with no cards (D11).
    #[error(
        "{0} holds no cards: in a hand-made position every player holds at least one card (D11)"
    )]
    NoCards(Seat),
}

/// Overrides a seated session with a scenario's hand-made position.
fn hand_made(
    mut g: Dalmuti,
    options: &Options,
    players: usize,
    setup: Setup,
) -> Result<Dalmuti, PositionError> {
    if let Some(h) = setup.hand_number {
        if h == 0 {
            return Err(PositionError::HandZero);
        }
        g.hand_no = h;
    }
    if let Some(sc) = &setup.scores {
        if sc.len() != players {
            return Err(PositionError::Scores { players });
        }
        g.scores[..players].copy_from_slice(sc);
    }
    if setup.hands.is_empty() {
        // a seeded deal, with no join: joins before this hand are done
        g.deal();
        return Ok(Dalmuti::start(g, setup.start));
    }
    // hand-made hands: check them against this table's deck (D2)
    let full = options.deck(players);
    let mut given = Hand::EMPTY;
    let mut has = [false; crate::MAX_PLAYERS];
    for (s, h) in &setup.hands {
        if s.index() >= players {
            return Err(PositionError::NoSuchSeat(*s));
        }
        given.add_all(h);
        has[s.index()] = true;
    }
    for c in Card::all() {
        if given.count(c) > full.count(c) {
            return Err(PositionError::TooMany {
                held: given.count(c),
                card: c,
                players,
                deck: full.count(c),
            });
        }
    }
    g.reset_hand();
    for (s, h) in &setup.hands {
        g.hands[s.index()] = *h;
    }
    if has[..players].iter().all(|&x| x) {
        g.deck = given;
    } else {
        // deal the rest of the deck to the others, one at a time (D5)
        g.deck = full;
        let rest = full.minus(&given).expect("checked above");
        let mut cards: Vec<u8> = rest.cards().map(|c| c.index() as u8).collect();
        use rand::seq::SliceRandom;
        cards.shuffle(&mut g.rng);
        let takers: Vec<u8> = (0..players)
            .map(|p| g.at(p))
            .filter(|&s| !has[s as usize])
            .collect();
        for (i, c) in cards.into_iter().enumerate() {
            let s = takers[i % takers.len()] as usize;
            g.hands[s].0[c as usize] += 1;
        }
    }
    // D11: a player with no cards has left the hand; a hand-made
    // position where someone starts with none has no valid turn order
    // (the lead, the taxes, the market and the finishing order all
    // assume every seat holds cards after the deal)
    if let Some(s) = (0..players).find(|&s| g.hands[s].is_empty()) {
        return Err(PositionError::NoCards(Seat::new(s)));
    }
    g.after_hands_set();
    Ok(Dalmuti::start(g, setup.start))
}

impl Dalmuti {
    /// The game-specific expectations of [`Scenario::expect`].
    fn expect_key(&self, key: &str, args: &str) -> Result<(), ScenarioError> {
        let args = args.trim();
        match key {
            "hand" | "count" | "role" | "score" | "jesters" => self.expect_of_seat(key, args),
            "order" | "dealt" | "trick" | "finished" | "passed" => self.expect_turns(key, args),
            "transfer" => self.expect_transfer(args),
            _ => self.expect_of_session(key, args),
        }
    }

    /// `seat` when it is at this table.
    fn seat_here(&self, s: Seat) -> Result<Seat, ScenarioError> {
        if s.index() < self.players as usize {
            Ok(s)
        } else {
            Err(bad(format!("{s} is not at this table")))
        }
    }

    /// What one seat holds or is: `hand`, `count`, `role`, `score`, `jesters`.
    fn expect_of_seat(&self, key: &str, args: &str) -> Result<(), ScenarioError> {
        match key {
            "hand" => {
                let (s, rest) = seat_and_rest(args)?;
                let s = self.seat_here(s)?;
                let want: Hand = rest.parse().map_err(bad)?;
                let have = self.hands[s.index()];
                if want != have {
                    return Err(failed(&format!("{s}'s hand"), want, have));
                }
            }
            "count" => {
                let (s, rest) = seat_and_rest(args)?;
                let s = self.seat_here(s)?;
                let want: u8 = rest.parse().map_err(bad)?;
                let have = self.left[s.index()];
                if want != have {
                    return Err(failed(
                        &format!("{s} to hold"),
                        format!("{want} cards"),
                        have,
                    ));
                }
            }
            "role" => {
                let (s, rest) = seat_and_rest(args)?;
                let s = self.seat_here(s)?;
                let want: Role = rest.parse().map_err(bad)?;
                let have = self.role(s);
                if want != have {
                    return Err(failed(&format!("{s} to be"), want, have));
                }
            }
            "score" => {
                let (s, rest) = seat_and_rest(args)?;
                let s = self.seat_here(s)?;
                let want: i64 = rest.parse().map_err(bad)?;
                let have = self.scores[s.index()];
                if want != have {
                    return Err(failed(&format!("{s}'s score"), want, have));
                }
            }
            "jesters" => {
                // jesters P2 2
                let (s, rest) = seat_and_rest(args)?;
                let want: u8 = rest.parse().map_err(bad)?;
                let have = self.hands[self.seat_here(s)?.index()].0[JESTER];
                if want != have {
                    return Err(failed(&format!("{s}'s Jesters"), want, have));
                }
            }
            _ => unreachable!("a seat key"),
        }
        Ok(())
    }

    /// Who plays when: `order`, `dealt` (D5), `trick`, `finished`, `passed`.
    fn expect_turns(&self, key: &str, args: &str) -> Result<(), ScenarioError> {
        let n = self.players as usize;
        match key {
            "order" => {
                let want = seats_text(parse_seats(args)?);
                let have = seats_text(self.order());
                if want != have {
                    return Err(failed("order", want, have));
                }
            }
            "dealt" => {
                // dealt P2 P3 P1 P4: the deal went one card at a time from
                // P2 round that order (D5): it is the table order the hand
                // was dealt in, and earlier places hold the extra cards.
                let want = parse_seats(args)?;
                let mut dealt: Vec<Seat> = self.order().collect();
                if self.revolution == crate::Revolution::Great {
                    dealt.reverse(); // the roles reversed after the deal
                }
                if seats_text(want.clone()) != seats_text(dealt.clone()) {
                    return Err(failed(
                        "the deal order",
                        seats_text(want),
                        seats_text(dealt),
                    ));
                }
                let total: usize = (0..n).map(|s| self.left[s] as usize).sum();
                if total != self.deck.len() || self.trick.is_some() || self.n_finished > 0 {
                    return Err(ScenarioError::Failed(
                        "the deal can only be checked before the first card is played".into(),
                    ));
                }
                for (i, s) in dealt.iter().enumerate() {
                    let size = total / n + usize::from(i < total % n);
                    let have = self.left[s.index()] as usize;
                    if have != size {
                        return Err(failed(
                            &format!("{s}, dealt to {}, to hold", crate::event::ordinal(i + 1)),
                            format!("{size} cards"),
                            have,
                        ));
                    }
                }
            }
            "trick" => {
                let have = match self.trick {
                    None => "none".to_string(),
                    Some((p, by)) => format!("{p} {}", Seat::new(by as usize)),
                };
                let want = if args == "none" {
                    "none".to_string()
                } else {
                    let (play, by) = args
                        .rsplit_once(char::is_whitespace)
                        .ok_or_else(|| bad("trick PLAY SEAT or none"))?;
                    let p: Play = play.parse().map_err(bad)?;
                    format!("{p} {}", parse_seat(by)?)
                };
                if want != have {
                    return Err(failed("trick", want, have));
                }
            }
            "finished" => {
                let want = seats_text(parse_seats(args)?);
                let have = seats_text(
                    self.finished[..self.n_finished as usize]
                        .iter()
                        .map(|&s| Seat::new(s as usize)),
                );
                if want != have {
                    return Err(failed("finishing order", want, have));
                }
            }
            "passed" => {
                let want = seats_text(parse_seats(args)?);
                let have = seats_text(
                    (0..n)
                        .filter(|&s| self.passed & (1 << s) != 0)
                        .map(Seat::new),
                );
                if want != have {
                    return Err(failed("passed", want, have));
                }
            }
            _ => unreachable!("a turn key"),
        }
        Ok(())
    }

    /// The hand and the session: `scores`, `hand-number`, `phase`, `players`,
    /// `deck`, `taxes` (D7, D8), `revolution`; any other key is unknown.
    fn expect_of_session(&self, key: &str, args: &str) -> Result<(), ScenarioError> {
        let n = self.players as usize;
        match key {
            "scores" => {
                let want: Vec<i64> = args
                    .split_whitespace()
                    .map(|t| t.parse::<i64>().map_err(bad))
                    .collect::<Result<_, _>>()?;
                let have = self.scores[..n].to_vec();
                if want != have {
                    return Err(failed("scores", format!("{want:?}"), format!("{have:?}")));
                }
            }
            "hand-number" => {
                let want: u32 = args.parse().map_err(bad)?;
                if want != self.hand_no {
                    return Err(failed("hand number", want, self.hand_no));
                }
            }
            "phase" => {
                let ok = match args {
                    "taxes" => matches!(self.phase, Phase::GreaterTax | Phase::LesserTax),
                    other => self.phase.key() == other,
                };
                if !ok {
                    return Err(failed("phase", args, self.phase));
                }
            }
            "players" => {
                let want: usize = args.parse().map_err(bad)?;
                if want != n {
                    return Err(failed("players", want, n));
                }
            }
            "deck" => {
                let want: usize = args.parse().map_err(bad)?;
                if want != self.deck.len() {
                    return Err(failed("a deck of", want, self.deck.len()));
                }
            }
            "taxes" if args == "pending" => {
                // taxes pending: a revolution decision is open and taxes
                // follow unless the holder declares one (D7, D8)
                if self.phase != Phase::Revolution || !self.taxes_unless_revolution() {
                    return Err(failed(
                        "taxes",
                        "pending a revolution decision",
                        game::bool_text(self.taxes),
                    ));
                }
            }
            "taxes" => {
                let want = game::parse_bool("taxes", args).map_err(bad)?;
                if want != self.taxes {
                    return Err(failed(
                        "taxes",
                        game::bool_text(want),
                        game::bool_text(self.taxes),
                    ));
                }
            }
            "revolution" => {
                let have = match self.revolution {
                    crate::Revolution::None => "none",
                    crate::Revolution::Declared => "declared",
                    crate::Revolution::Great => "great",
                };
                if args != have {
                    return Err(failed("revolution", args, have));
                }
            }
            other => return Err(ScenarioError::UnknownKey(other.to_string())),
        }
        Ok(())
    }

    /// `transfer FROM TO CARDS`: FROM gave TO exactly those cards (D8, D14).
    fn expect_transfer(&self, args: &str) -> Result<(), ScenarioError> {
        // transfer P5 P1 1 2: P5 gave P1 exactly those cards
        let (from, rest) = seat_and_rest(args)?;
        let (to, rest) = seat_and_rest(rest)?;
        let cards: Hand = rest.parse().map_err(bad)?;
        let found = self.transfers[..self.n_transfers as usize]
            .iter()
            .any(|t| t.from == from && t.to == to && t.cards.hand() == cards);
        if !found {
            let all: Vec<String> = self.transfers[..self.n_transfers as usize]
                .iter()
                .map(|t| format!("{}->{}: {}", t.from, t.to, t.cards))
                .collect();
            return Err(failed(
                "transfer",
                format!("{from}->{to}: {cards}"),
                if all.is_empty() {
                    "none".to_string()
                } else {
                    all.join(", ")
                },
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Game;

    fn setup(lines: &[&str]) -> Setup {
        let mut s = Setup::default();
        for l in lines {
            let (k, a) = l.split_once(' ').unwrap_or((l, ""));
            Dalmuti::setup_line(&mut s, k, a).unwrap();
        }
        s
    }

    fn one_hand() -> Options {
        Options {
            hands: 1,
            ..Options::default()
        }
    }

    /// D11: a hand-made position where a seat starts with no cards is a
    /// setup error, whether the empty hand is given or left by the deal.
    #[test]
    fn from_setup_rejects_an_empty_hand() {
        let s = setup(&[
            "order P1 P2 P3 P4",
            "hand P1 3",
            "hand P2 empty",
            "hand P3 5",
            "hand P4 6",
            "no-taxes",
        ]);
        let e = Dalmuti::from_setup(&one_hand(), 4, 0, s).unwrap_err();
        assert_eq!(
            e,
            SetupError::Position(
                "P2 holds no cards: in a hand-made position every player holds at least one card (D11)"
                    .into()
            )
        );
        // the Greater Dalmuti with nothing to lead
        let s = setup(&["order P1 P2 P3 P4", "hand P1 empty", "phase play"]);
        let e = Dalmuti::from_setup(&one_hand(), 4, 0, s).unwrap_err();
        assert!(e.to_string().starts_with("P1 holds no cards"), "{e}");
        // the black market would draw from an empty hand
        let s = setup(&[
            "order P1 P2 P3 P4 P5 P6",
            "hand P1 5 6",
            "hand P2 7",
            "hand P3 empty",
            "hand P4 8 9",
            "hand P5 10",
            "hand P6 1 2",
            "phase taxes",
        ]);
        let opts = Options {
            black_market: true,
            ..one_hand()
        };
        let e = Dalmuti::from_setup(&opts, 6, 0, s).unwrap_err();
        assert!(e.to_string().starts_with("P3 holds no cards"), "{e}");
        // one card each is fine
        let s = setup(&[
            "order P1 P2 P3 P4",
            "hand P1 3",
            "hand P2 4",
            "hand P3 5",
            "hand P4 6",
            "no-taxes",
        ]);
        assert!(Dalmuti::from_setup(&one_hand(), 4, 0, s).is_ok());
    }

    /// `go_out` ends the hand when no other seat holds cards, even if
    /// several seats were out of cards to begin with.
    #[test]
    fn going_out_ends_a_hand_with_nobody_left() {
        let s = setup(&[
            "order P1 P2 P3 P4",
            "hand P1 3",
            "hand P2 4",
            "hand P3 5",
            "hand P4 6",
            "no-taxes",
        ]);
        let mut g = Dalmuti::from_setup(&one_hand(), 4, 0, s).unwrap();
        for s in 1..4 {
            g.hands[s] = Hand::EMPTY;
        }
        g.after_hands_set();
        g.apply("play 3".parse().unwrap()).unwrap();
        assert_eq!(g.phase(), Phase::Over);
        assert_eq!(g.n_finished, 4);
        assert_eq!(g.finished[..4], [0, 1, 2, 3]);
        assert_eq!(g.scores[..4], [0, 0, 0, 0]);
        assert!(g.outcome().is_some());
    }
}
