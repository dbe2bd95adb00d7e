//! What a seat knows ([`View`]) and what a spectator knows
//! ([`PublicView`]) and their text boards; the sampler that rebuilds a
//! full state from a view is `sample_state`.
//!
//! Views are built from the state by copying only public fields plus the
//! seat's own hand, its own tax/market transfers and its own pending tax
//! choice, so hidden information cannot leak by construction. Who holds
//! both Jesters is not public (D7): the public view shows a pending
//! revolution decision with no seat to move, and names only a declarer;
//! the holder's own view carries `revolution_offer`. Views are plain
//! data (`Vec`s, serde) because they leave the engine; the hot path never
//! builds one.

use crate::action::Gift;
use crate::card::Hand;
use crate::options::Options;
use crate::role::{Phase, Role};
use crate::state::{Dalmuti, Revolution, Transfer, TransferKind, MAX_PLAYERS};
use crate::Play;
use game::{Outcome, Seat};
use std::fmt;

/// Every seat by index, built at compile time.
const SEATS: [Seat; MAX_PLAYERS] = {
    let mut t = [Seat::new(0); MAX_PLAYERS];
    let mut i = 0;
    while i < MAX_PLAYERS {
        t[i] = Seat::new(i);
        i += 1;
    }
    t
};

/// The last play of the current trick and who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TrickView {
    /// The set to beat.
    pub play: Play,
    /// Who played it.
    pub by: Seat,
}

/// A transfer as everyone sees it: who gave how many cards to whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Exchange {
    /// Who gave.
    pub from: Seat,
    /// Who received.
    pub to: Seat,
    /// How many cards.
    pub cards: u8,
    /// Taxes or market.
    pub kind: TransferKind,
}

/// Everything public: what a spectator sees.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PublicView {
    /// The session's options.
    pub options: Options,
    /// Number of seats.
    pub players: usize,
    /// The hand being played (1-based).
    pub hand_number: u32,
    /// What the game waits for.
    pub phase: Phase,
    /// Whose decision it is. `None` while a revolution decision is pending
    /// ([`Phase::Revolution`]): the table knows that somebody holds both
    /// Jesters, not who (D7). [`game::Game::to_move`] still names the
    /// holder, because the engine must know whom to ask: shells must not
    /// broadcast it during [`Phase::Revolution`]; only the holder's own
    /// [`View`] says it is their decision ([`View::revolution_offer`]).
    pub to_move: Option<Seat>,
    /// The table order, Greater Dalmuti first (D4).
    pub order: Vec<Seat>,
    /// Each seat's role this hand.
    pub roles: Vec<Role>,
    /// Cards left per seat.
    pub cards_left: Vec<u8>,
    /// Cards each seat has played this hand.
    pub played: Vec<Hand>,
    /// The cards in play this hand (D2).
    pub deck: Hand,
    /// Session scores per seat (D12).
    pub scores: Vec<i64>,
    /// The last play of the current trick, if any.
    pub trick: Option<TrickView>,
    /// Seats that passed since the last play.
    pub passed: Vec<Seat>,
    /// Finishing order so far this hand.
    pub finished: Vec<Seat>,
    /// Whether a revolution decision was offered this hand (somebody held
    /// both Jesters after the deal and the decision mattered, D7). This is
    /// the one unavoidable public signal of the decision; it never says who.
    pub revolution_offered: bool,
    /// Who declared the revolution, if one was declared this hand (D7). A
    /// declined revolution names nobody.
    pub revolution_by: Option<Seat>,
    /// The revolution declared this hand.
    pub revolution: Revolution,
    /// Whether taxes are paid this hand (D8).
    pub taxes: bool,
    /// Cards that changed hands, without the cards.
    pub exchanges: Vec<Exchange>,
    /// The Merchant chosen for the market, if any (D14).
    pub market_with: Option<Seat>,
    /// The result, once the session is over.
    pub outcome: Option<Outcome>,
}

/// What one seat knows: the public view plus its own hand and secrets.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct View {
    /// Whose view this is.
    pub seat: Seat,
    /// The seat's own cards.
    pub hand: Hand,
    /// Cards this seat gave or received this hand (taxes, market): it
    /// knows those cards went to that opponent.
    pub transfers: Vec<Transfer>,
    /// This seat's tax choice, made but not yet carried out (D8).
    pub pending_gift: Option<Gift>,
    /// This seat held both Jesters after the deal and was offered the
    /// revolution decision this hand (D7). Only the holder sees it; while
    /// the phase is [`Phase::Revolution`] it means the decision is this
    /// seat's (the public `to_move` is `None` then).
    pub revolution_offer: bool,
    /// Everything public.
    pub public: PublicView,
}

impl Dalmuti {
    pub(crate) fn public(&self) -> PublicView {
        let n = self.players as usize;
        let seats = |mask: u16| -> Vec<Seat> {
            (0..n)
                .filter(|&s| mask & (1 << s) != 0)
                .map(Seat::new)
                .collect()
        };
        PublicView {
            options: self.options,
            players: n,
            hand_number: self.hand_no,
            phase: self.phase,
            // D7: the public does not learn who decides a revolution
            to_move: game::Game::public_to_move(self),
            order: self.order[..n]
                .iter()
                .map(|&s| Seat::new(s as usize))
                .collect(),
            roles: (0..n).map(|s| Role::of(self.pos[s] as usize, n)).collect(),
            cards_left: self.left[..n].to_vec(),
            played: self.played[..n].to_vec(),
            deck: self.deck,
            scores: self.scores[..n].to_vec(),
            trick: self.trick.map(|(play, by)| TrickView {
                play,
                by: Seat::new(by as usize),
            }),
            passed: seats(self.passed),
            finished: self.finished[..self.n_finished as usize]
                .iter()
                .map(|&s| Seat::new(s as usize))
                .collect(),
            revolution_offered: self.jester_holder.is_some(),
            revolution_by: match self.revolution {
                Revolution::None => None,
                Revolution::Declared | Revolution::Great => {
                    self.jester_holder.map(|s| Seat::new(s as usize))
                }
            },
            revolution: self.revolution,
            taxes: self.taxes,
            exchanges: self.transfers[..self.n_transfers as usize]
                .iter()
                .map(|t| Exchange {
                    from: t.from,
                    to: t.to,
                    cards: t.cards.len() as u8,
                    kind: t.kind,
                })
                .collect(),
            market_with: self.market_with.map(|s| Seat::new(s as usize)),
            outcome: self.session_outcome(),
        }
    }

    pub(crate) fn seat_view(&self, seat: Seat) -> View {
        let s = seat.index();
        let seated = s < self.players as usize;
        let pending_gift = if seated && self.phase == Phase::LesserTax && self.pos[s] == 0 {
            self.greater_gift
        } else {
            None
        };
        View {
            seat,
            hand: if seated { self.hands[s] } else { Hand::EMPTY },
            transfers: self.transfers[..self.n_transfers as usize]
                .iter()
                .filter(|t| t.from == seat || t.to == seat)
                .copied()
                .collect(),
            pending_gift,
            revolution_offer: seated && self.jester_holder == Some(s as u8),
            public: self.public(),
        }
    }

    #[inline]
    pub(crate) fn to_move_seat(&self) -> Option<Seat> {
        if self.phase == Phase::Over {
            None
        } else {
            // a table lookup: `Seat::new` is not inlined across crates
            Some(SEATS[self.turn as usize])
        }
    }

    pub(crate) fn session_outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let n = self.players as usize;
        let scores = self.scores[..n].to_vec();
        if self.first_out_wins() {
            // D16: a single hand is won by whoever went out first; places
            // are the finishing order, whatever the bonuses did to scores.
            let mut places = vec![0u8; n];
            for (i, &s) in self.finished[..n].iter().enumerate() {
                places[s as usize] = i as u8 + 1;
            }
            let winners = vec![Seat::new(self.finished[0] as usize)];
            return Some(Outcome {
                winners,
                places,
                scores,
                capped: false,
            });
        }
        let winners = self.best_scores();
        Some(Outcome::from_scores(scores, winners))
    }

    /// D16: whether this session is a single hand won by going out first.
    pub(crate) fn first_out_wins(&self) -> bool {
        self.options.hands == 1 && self.options.single_hand == crate::SingleHand::FirstOut
    }

    /// The seats with the best session score (D12; ties share).
    pub(crate) fn best_scores(&self) -> Vec<Seat> {
        let n = self.players as usize;
        let best = self.scores[..n].iter().copied().max().unwrap_or(0);
        (0..n)
            .filter(|&s| self.scores[s] == best)
            .map(Seat::new)
            .collect()
    }
}

impl PublicView {
    /// The text board; `decides`: `me` is the holder asked about a
    /// revolution (only its own view knows).
    fn board(&self, f: &mut fmt::Formatter<'_>, me: Option<Seat>, decides: bool) -> fmt::Result {
        let to_move = match (self.phase, me) {
            (Phase::Revolution, Some(s)) if decides => Some(s),
            _ => self.to_move,
        };
        writeln!(
            f,
            "The Great Dalmuti: hand {} of {}{}",
            self.hand_number,
            self.options.hands,
            self.options
                .target
                .map_or(String::new(), |t| format!(" (or first to {t} points)"))
        )?;
        self.revolution_line(f)?;
        self.seat_lines(f, me, to_move)?;
        // The exchanges are drawn while they happen; once cards are being
        // played (and after the session's last hand) they were told in the
        // log, and a terminal that redraws the board before every turn
        // would repeat them.
        if !matches!(self.phase, Phase::Play | Phase::Over) && !self.exchanges.is_empty() {
            let lines: Vec<String> = self
                .exchanges
                .iter()
                .map(|e| {
                    format!(
                        "{} gave {} card{} to {} ({})",
                        e.from,
                        e.cards,
                        if e.cards == 1 { "" } else { "s" },
                        e.to,
                        match e.kind {
                            TransferKind::Tax => "tax",
                            TransferKind::Market => "market",
                        }
                    )
                })
                .collect();
            writeln!(f, "exchanges: {}", lines.join("; "))?;
        }
        match self.trick {
            Some(t) => {
                write!(f, "trick: {} played {}", t.by, t.play)?;
                if !self.passed.is_empty() {
                    let p: Vec<String> = self.passed.iter().map(|s| s.to_string()).collect();
                    write!(f, "; passed since: {}", p.join(" "))?;
                }
                writeln!(f)?;
            }
            None if self.phase == Phase::Play => {
                writeln!(f, "trick: none (the leader plays any set)")?
            }
            None => {}
        }
        match (&self.outcome, to_move) {
            (Some(o), _) => {
                let w: Vec<String> = o.winners.iter().map(|s| s.to_string()).collect();
                writeln!(f, "session over: {} won", w.join(" and "))?;
            }
            (None, Some(s)) => writeln!(f, "{} to move: {}", s, self.phase.describe())?,
            (None, None) if self.phase == Phase::Revolution => writeln!(
                f,
                "a revolution decision is pending: somebody holds both Jesters (D7)"
            )?,
            (None, None) => {}
        }
        Ok(())
    }

    /// The board's line on the revolution (D7), if there is one to tell.
    fn revolution_line(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let by = self
            .revolution_by
            .map_or("somebody declared ".to_string(), |s| {
                format!("{s} declared ")
            });
        match self.revolution {
            Revolution::None if self.revolution_offered && self.phase != Phase::Revolution => {
                writeln!(f, "no revolution was declared")?
            }
            // D7, D8: the table knows a decision is open (not whose) and
            // that taxes are still to come unless it brings a revolution.
            Revolution::None if self.phase == Phase::Revolution && self.options.auto_revolution => {
                writeln!(
                    f,
                    "a revolution decision is pending: taxes only after a Great Revolution"
                )?
            }
            Revolution::None if self.phase == Phase::Revolution => writeln!(
                f,
                "a revolution decision is pending: taxes follow unless one is declared"
            )?,
            Revolution::None => {}
            Revolution::Declared => writeln!(f, "{by}a revolution: no taxes")?,
            Revolution::Great => writeln!(f, "{by}a Great Revolution: the roles reversed")?,
        }
        Ok(())
    }

    /// One line per seat in table order: place, role, cards, points and
    /// notes (out, passed, to move, you).
    fn seat_lines(
        &self,
        f: &mut fmt::Formatter<'_>,
        me: Option<Seat>,
        to_move: Option<Seat>,
    ) -> fmt::Result {
        for (p, &s) in self.order.iter().enumerate() {
            let i = s.index();
            let mut notes = Vec::new();
            if let Some(k) = self.finished.iter().position(|&x| x == s) {
                notes.push(format!("out {}", crate::event::ordinal(k + 1)));
            }
            if self.passed.contains(&s) {
                notes.push("passed".to_string());
            }
            if to_move == Some(s) {
                notes.push("to move".to_string());
            }
            if me == Some(s) {
                notes.push("you".to_string());
            }
            writeln!(
                f,
                "{:>3}. {:<4}{:<16}{:>3} cards {:>4} pts{}",
                p + 1,
                s.to_string(),
                self.roles[i].name(),
                self.cards_left[i],
                self.scores[i],
                if notes.is_empty() {
                    String::new()
                } else {
                    format!("  ({})", notes.join(", "))
                }
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for PublicView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.board(f, None, false)
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.public
            .board(f, Some(self.seat), self.revolution_offer)?;
        // What this seat gave and got (only it knows the cards), on one
        // line, while the exchanges happen. Once cards are played the log
        // has told it, and a terminal redrawing the board before every
        // turn would repeat it.
        if !matches!(self.public.phase, Phase::Play | Phase::Over) && !self.transfers.is_empty() {
            let lines: Vec<String> = self
                .transfers
                .iter()
                .map(|t| {
                    if t.from == self.seat {
                        format!("you gave {} to {}", t.cards, t.to)
                    } else {
                        format!("{} gave you {}", t.from, t.cards)
                    }
                })
                .collect();
            writeln!(f, "{}", lines.join("; "))?;
        }
        if let Some(g) = self.pending_gift {
            writeln!(f, "you will give: {g}")?;
        }
        writeln!(f, "your hand: {}", self.hand)
    }
}
