//! What a seat knows ([`View`]) and what a spectator knows
//! ([`PublicView`]), their text boards, and the sampler that rebuilds a full
//! state from a view.
//!
//! Views are built from the state by copying only public fields plus the
//! seat's own hand, its own tax/market transfers and its own pending tax
//! choice, so hidden information cannot leak by construction. They are plain
//! data (`Vec`s, serde) because they leave the engine; the hot path never
//! builds one.

use crate::action::Gift;
use crate::card::{Card, Hand, JESTER};
use crate::options::Options;
use crate::role::{Phase, Role};
use crate::state::{Dalmuti, Revolution, Transfer, TransferKind, MAX_PLAYERS};
use crate::Play;
use game::{Outcome, Seat};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TrickView {
    /// The set to beat.
    pub play: Play,
    /// Who played it.
    pub by: Seat,
}

/// A transfer as everyone sees it: who gave how many cards to whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PublicView {
    /// The session's options.
    pub options: Options,
    /// Number of seats.
    pub players: usize,
    /// The hand being played (1-based).
    pub hand_number: u32,
    /// What the game waits for.
    pub phase: Phase,
    /// Whose decision it is.
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
    /// The seat that was offered a revolution this hand (holds both
    /// Jesters after the deal, D7).
    pub jester_holder: Option<Seat>,
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
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
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
            to_move: self.to_move_seat(),
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
            jester_holder: self.jester_holder.map(|s| Seat::new(s as usize)),
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
            public: self.public(),
        }
    }

    /// A full state consistent with `view`, hidden parts drawn from `rng`.
    pub(crate) fn sample(view: &View, rng: &mut (impl Rng + ?Sized)) -> Dalmuti {
        let pv = &view.public;
        let n = pv.players;
        let me = view.seat.index();
        let mut g = Dalmuti::seated(&pv.options, n, 0, false, &[], Some(&pv.order))
            .expect("a view describes a valid table");
        g.rng = ChaCha8Rng::seed_from_u64(rng.random());
        g.hand_no = pv.hand_number;
        g.phase = pv.phase;
        g.turn = pv.to_move.map_or(0, |s| s.index() as u8);
        g.deck = pv.deck;
        g.trick = pv.trick.map(|t| (t.play, t.by.index() as u8));
        g.revolution = pv.revolution;
        g.taxes = pv.taxes;
        g.jester_holder = pv.jester_holder.map(|s| s.index() as u8);
        g.market_with = pv.market_with.map(|s| s.index() as u8);
        for s in 0..n {
            g.scores[s] = pv.scores[s];
            g.left[s] = pv.cards_left[s];
            g.played[s] = pv.played[s];
            if g.left[s] > 0 {
                g.active |= 1 << s;
            }
        }
        g.fix_active_pos();
        for s in &pv.passed {
            g.passed |= 1 << s.index();
        }
        for (i, s) in pv.finished.iter().enumerate() {
            g.finished[i] = s.index() as u8;
        }
        g.n_finished = pv.finished.len() as u8;

        // the unseen cards: the deck minus my hand minus every played card
        let mut unseen = pv.deck;
        let mut sub = view.hand;
        for p in &pv.played {
            sub.add_all(p);
        }
        for i in 1..=JESTER {
            unseen.0[i] = unseen.0[i].saturating_sub(sub.0[i]);
        }
        // cards known to be in an opponent's hand
        let mut known = [Hand::EMPTY; MAX_PLAYERS];
        for t in &view.transfers {
            if t.from == view.seat {
                known[t.to.index()].add_all(&t.cards.hand());
            } else {
                let k = &mut known[t.from.index()];
                for c in t.cards.cards() {
                    k.0[c.index()] = k.0[c.index()].saturating_sub(1);
                }
            }
        }
        if let Some(h) = pv.jester_holder {
            if h.index() != me {
                let k = &mut known[h.index()];
                k.0[JESTER] = 2;
                for t in &view.transfers {
                    if t.from == h {
                        for c in t.cards.cards() {
                            if c.is_jester() {
                                k.0[JESTER] = k.0[JESTER].saturating_sub(1);
                            }
                        }
                    }
                }
            }
        }
        let mut pool = unseen;
        for s in 0..n {
            if s == me {
                continue;
            }
            let k = &mut known[s];
            let mut room = pv.cards_left[s];
            for i in 1..=JESTER {
                let v = k.0[i]
                    .saturating_sub(pv.played[s].0[i])
                    .min(pool.0[i])
                    .min(room);
                k.0[i] = v;
                pool.0[i] -= v;
                room -= v;
            }
        }
        let mut cards = [0u8; 80];
        let mut len = 0;
        for i in 1..=JESTER {
            for _ in 0..pool.0[i] {
                cards[len] = i as u8;
                len += 1;
            }
        }
        cards[..len].shuffle(&mut g.rng);
        let mut next = 0;
        for s in 0..n {
            if s == me {
                g.hands[s] = view.hand;
                continue;
            }
            let mut h = known[s];
            let need = (pv.cards_left[s] as usize).saturating_sub(h.len());
            for &c in &cards[next..(next + need).min(len)] {
                h.0[c as usize] += 1;
            }
            next += need;
            g.hands[s] = h;
        }
        // transfers: mine exactly; others' cards made up from the receiver
        let mut mine = view.transfers.iter();
        for e in &pv.exchanges {
            let t = if e.from == view.seat || e.to == view.seat {
                *mine.next().expect("own transfers match exchanges")
            } else {
                let h = g.hands[e.to.index()];
                let mut pick = || {
                    if !h.is_empty() {
                        h.nth(g.rng.random_range(0..h.len()))
                    } else {
                        Card::JESTER
                    }
                };
                let cards = if e.cards == 1 {
                    Gift::one(pick())
                } else {
                    Gift::two(pick(), pick())
                };
                Transfer {
                    from: e.from,
                    to: e.to,
                    cards,
                    kind: e.kind,
                }
            };
            g.transfers[g.n_transfers as usize] = t;
            g.n_transfers += 1;
        }
        // a pending tax choice of someone else is unknown: draw one
        if g.phase == Phase::LesserTax {
            if let Some(gift) = view.pending_gift {
                g.greater_gift = Some(gift);
            } else {
                let gd = g.at(0) as usize;
                let h = g.hands[gd];
                let k = g.tax_size(true);
                let a = h.nth(g.rng.random_range(0..h.len()));
                g.greater_gift = Some(if k == 1 {
                    Gift::one(a)
                } else {
                    let mut rest = h;
                    rest.remove(a, 1);
                    Gift::two(a, rest.nth(g.rng.random_range(0..rest.len())))
                });
            }
        }
        g.log.clear();
        g
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
        let best = scores.iter().copied().max().unwrap_or(0);
        let winners = (0..n)
            .filter(|&s| scores[s] == best)
            .map(Seat::new)
            .collect();
        Some(Outcome::from_scores(scores, winners))
    }
}

impl PublicView {
    fn board(&self, f: &mut fmt::Formatter<'_>, me: Option<Seat>) -> fmt::Result {
        writeln!(
            f,
            "The Great Dalmuti: hand {} of {}{}",
            self.hand_number,
            self.options.hands,
            self.options
                .target
                .map_or(String::new(), |t| format!(" (or first to {t} points)"))
        )?;
        match self.revolution {
            Revolution::None => {}
            Revolution::Declared => writeln!(f, "a revolution was declared: no taxes")?,
            Revolution::Great => writeln!(f, "a Great Revolution reversed the roles")?,
        }
        for (p, &s) in self.order.iter().enumerate() {
            let i = s.index();
            let mut notes = Vec::new();
            if let Some(k) = self.finished.iter().position(|&x| x == s) {
                notes.push(format!("out {}", crate::state::ordinal(k + 1)));
            }
            if self.passed.contains(&s) {
                notes.push("passed".to_string());
            }
            if self.to_move == Some(s) {
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
        for e in &self.exchanges {
            writeln!(
                f,
                "{} gave {} card{} to {} ({})",
                e.from,
                e.cards,
                if e.cards == 1 { "" } else { "s" },
                e.to,
                match e.kind {
                    TransferKind::Tax => "tax",
                    TransferKind::Market => "market",
                }
            )?;
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
        match (&self.outcome, self.to_move) {
            (Some(o), _) => {
                let w: Vec<String> = o.winners.iter().map(|s| s.to_string()).collect();
                writeln!(f, "session over: {} won", w.join(" and "))?;
            }
            (None, Some(s)) => writeln!(f, "{} to move: {}", s, self.phase.describe())?,
            (None, None) => {}
        }
        Ok(())
    }
}

impl fmt::Display for PublicView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.board(f, None)
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.public.board(f, Some(self.seat))?;
        for t in &self.transfers {
            if t.from == self.seat {
                writeln!(f, "you gave {} to {}", t.cards, t.to)?;
            } else {
                writeln!(f, "{} gave you {}", t.from, t.cards)?;
            }
        }
        if let Some(g) = self.pending_gift {
            writeln!(f, "you will give: {g}")?;
        }
        writeln!(f, "your hand: {}", self.hand)
    }
}
