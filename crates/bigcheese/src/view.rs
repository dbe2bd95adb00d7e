//! What players and spectators see: in The Big Cheese everything is public
//! except the deck order below the face-up top card and the dice to come
//! (B3), so a seat's [`View`] is the [`PublicView`] plus who is looking.
//!
//! Views are plain owned data (serde-serializable) built on demand; they are
//! not on the rollout hot path. [`BigCheese::from_view`] turns one back into
//! a full state by shuffling the unseen cards under the known top card.

use crate::state::{seat, BigCheese, Matured, Phase, Project, Roll, MAX_DICE, NONE};
use crate::{Card, Options};
use game::{Outcome, Seat};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// One player's public position.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlayerView {
    /// The seat.
    pub seat: Seat,
    /// Chips in the bidding pool.
    pub free: u8,
    /// Projects on the table, oldest first: card and chips on it.
    pub projects: Vec<(Card, u8)>,
    /// Matured Vetos in hand (face up).
    pub vetos: u8,
    /// Matured Big Cheeses in hand (face up).
    pub cheeses: u8,
    /// Points scored.
    pub score: u16,
    /// Number projects that paid points (B14 tie-break).
    pub scored: u8,
    /// Chips hired with Big Cheeses (`no-dice`, B15).
    pub hired: u8,
}

/// The auction in progress.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AuctionView {
    /// The card up for bid (the top card).
    pub card: Card,
    /// Who led this auction (B4).
    pub leader: Seat,
    /// The high bid, 0 when nobody has bid.
    pub high: u8,
    /// Who holds the high bid.
    pub bidder: Option<Seat>,
    /// Who has passed (final for this auction, B5).
    pub passed: Vec<Seat>,
    /// Who has bid in this auction (with `veto=before-bid` they may no
    /// longer play a Veto in it, B18).
    pub bid: Vec<Seat>,
    /// Whose turn it is to bid.
    pub turn: Seat,
}

/// A roll on a matured project waiting for its owner's keep or re-roll (B10).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RollView {
    /// The owner, who decides.
    pub owner: Seat,
    /// The matured project.
    pub card: Card,
    /// The dice shown, ascending.
    pub dice: Vec<u8>,
    /// What the roll would pay if kept.
    pub payout: u16,
}

/// Everything a spectator knows.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PublicView {
    /// The rules options.
    pub options: Options,
    /// The target score in force (B12, B13).
    pub target: u16,
    /// The face-up top card (B3); `None` while the deck is empty (it is
    /// refilled from the discards before the next auction, B16).
    pub top: Option<Card>,
    /// Cards in the deck, the top card included.
    pub deck_size: u8,
    /// Discarded cards per kind (kinds with none left out).
    pub discards: Vec<(Card, u8)>,
    /// Every seat's position.
    pub seats: Vec<PlayerView>,
    /// Chips hired in the whole game (B15 cap: 2 x players).
    pub hired_total: u8,
    /// Who leads the current or next auction (B4).
    pub leader: Seat,
    /// The auction in progress, if any.
    pub auction: Option<AuctionView>,
    /// The roll waiting for a decision, if any.
    pub roll: Option<RollView>,
    /// Number projects matured in this advance and not yet paid, in order (B9).
    pub to_resolve: Vec<(Seat, Card)>,
    /// Whose decision it is.
    pub to_move: Option<Seat>,
    /// The result, once over.
    pub outcome: Option<Outcome>,
}

/// What one seat knows: all of the public view (nothing in this game is
/// private to a seat), plus who is looking.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct View {
    /// The seat this view belongs to.
    pub me: Seat,
    /// Everything public.
    pub public: PublicView,
}

impl PublicView {
    /// Number of seats.
    pub fn players(&self) -> usize {
        self.seats.len()
    }

    fn render(&self, f: &mut fmt::Formatter<'_>, me: Option<Seat>) -> fmt::Result {
        let o = &self.options;
        writeln!(
            f,
            "The Big Cheese: {} dice, target {}{}, specials {}",
            o.dice,
            if o.exact { "exactly " } else { "" },
            self.target,
            if o.specials { "on" } else { "off" }
        )?;
        let top = self
            .top
            .map_or_else(|| "none".to_string(), |c| c.to_string());
        let discards: usize = self.discards.iter().map(|&(_, k)| k as usize).sum();
        write!(
            f,
            "Top card: {top} | deck {} | discards {discards}",
            self.deck_size
        )?;
        if discards > 0 {
            f.write_str(" (")?;
            for (i, (c, k)) in self.discards.iter().enumerate() {
                let sep = if i > 0 { " " } else { "" };
                write!(f, "{sep}{c}x{k}")?;
            }
            f.write_str(")")?;
        }
        writeln!(f)?;
        if let Some(a) = &self.auction {
            write!(f, "Auction for {}: leader {}, ", a.card, a.leader)?;
            match a.bidder {
                Some(b) => write!(f, "high bid {} by {b}", a.high)?,
                None => f.write_str("no bid yet")?,
            }
            if !a.passed.is_empty() {
                let p: Vec<String> = a.passed.iter().map(|s| s.to_string()).collect();
                write!(f, ", passed {}", p.join(" "))?;
            }
            writeln!(f, "; {} to bid", a.turn)?;
        }
        if let Some(r) = &self.roll {
            let d: Vec<String> = r.dice.iter().map(|v| v.to_string()).collect();
            writeln!(
                f,
                "Roll: {} of {} shows {} (pays {}); {} to keep or re-roll with a Big Cheese",
                r.card,
                r.owner,
                d.join(","),
                r.payout,
                r.owner
            )?;
        }
        if !self.to_resolve.is_empty() {
            let q: Vec<String> = self
                .to_resolve
                .iter()
                .map(|(s, c)| format!("{c} of {s}"))
                .collect();
            writeln!(f, "Still to pay this advance: {}", q.join(", "))?;
        }
        for p in &self.seats {
            let you = if Some(p.seat) == me { " (you)" } else { "" };
            write!(f, "{}{you} free {} | projects:", p.seat, p.free)?;
            if p.projects.is_empty() {
                f.write_str(" none")?;
            }
            for (c, k) in &p.projects {
                write!(f, " {c}[{k}]")?;
            }
            f.write_str(" | hand:")?;
            if p.vetos + p.cheeses == 0 {
                f.write_str(" none")?;
            }
            for _ in 0..p.vetos {
                f.write_str(" V")?;
            }
            for _ in 0..p.cheeses {
                f.write_str(" BC")?;
            }
            write!(
                f,
                " | score {}/{} ({} scored",
                p.score, self.target, p.scored
            )?;
            if p.hired > 0 {
                write!(f, ", {} hired", p.hired)?;
            }
            writeln!(f, ")")?;
        }
        match &self.outcome {
            Some(o) if o.winners.is_empty() => writeln!(f, "Game over: no winner")?,
            Some(o) => {
                let w: Vec<String> = o.winners.iter().map(|s| s.to_string()).collect();
                writeln!(f, "Game over: {} won", w.join(" and "))?
            }
            None => {}
        }
        Ok(())
    }
}

impl fmt::Display for PublicView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.render(f, None)
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.public.render(f, Some(self.me))
    }
}

impl BigCheese {
    /// The public view (see [`game::Game::public_view`]).
    pub(crate) fn make_public_view(&self) -> PublicView {
        let n = self.n as usize;
        let seats = (0..n)
            .map(|p| PlayerView {
                seat: Seat::new(p),
                free: self.free[p],
                projects: self.projects[..self.n_projects as usize]
                    .iter()
                    .filter(|pr| pr.owner as usize == p)
                    .map(|pr| (pr.card, pr.chips))
                    .collect(),
                vetos: self.vetos[p],
                cheeses: self.cheeses[p],
                score: self.scores[p],
                scored: self.scored[p],
                hired: self.hired[p],
            })
            .collect();
        let auction = (self.phase == Phase::Auction).then(|| AuctionView {
            card: self.top().expect("an auction has a top card"),
            leader: seat(self.leader),
            high: self.high,
            bidder: (self.bidder != NONE).then(|| seat(self.bidder)),
            passed: (0..self.n)
                .filter(|p| self.passed & (1 << p) != 0)
                .map(seat)
                .collect(),
            bid: (0..self.n)
                .filter(|p| self.bid_in & (1 << p) != 0)
                .map(seat)
                .collect(),
            turn: seat(self.turn),
        });
        let roll = (self.phase == Phase::Roll).then(|| RollView {
            owner: seat(self.roll.owner),
            card: self.roll.card,
            dice: self.roll.dice().to_vec(),
            payout: self.payout(&self.roll),
        });
        let to_resolve = if self.phase == Phase::Roll {
            self.queue[self.q_head as usize..self.q_len as usize]
                .iter()
                .map(|m| (seat(m.owner), m.card))
                .collect()
        } else {
            Vec::new()
        };
        PublicView {
            options: self.opts,
            target: self.target,
            top: self.top(),
            deck_size: self.deck_len,
            discards: Card::ALL
                .into_iter()
                .filter(|c| self.discards[c.index()] > 0)
                .map(|c| (c, self.discards[c.index()]))
                .collect(),
            seats,
            hired_total: self.hired_total,
            leader: seat(self.leader),
            auction,
            roll,
            to_resolve,
            to_move: (self.phase != Phase::Over).then(|| seat(self.to_move_seat())),
            outcome: self.outcome_now(),
        }
    }

    /// A full state consistent with `view` (see [`game::Game::sample_from_view`]).
    pub(crate) fn from_view<R: Rng + ?Sized>(view: &View, rng: &mut R) -> BigCheese {
        let pv = &view.public;
        let n = pv.players();
        let mut g = BigCheese::blank(&pv.options, n, ChaCha8Rng::seed_from_u64(rng.random()));
        g.target = pv.target;
        let mut seen = [0u8; 9];
        for (p, s) in pv.seats.iter().enumerate() {
            g.free[p] = s.free;
            g.vetos[p] = s.vetos;
            g.cheeses[p] = s.cheeses;
            g.scores[p] = s.score;
            g.scored[p] = s.scored;
            g.hired[p] = s.hired;
            seen[Card::Veto.index()] += s.vetos;
            seen[Card::BigCheese.index()] += s.cheeses;
            for &(card, chips) in &s.projects {
                g.projects[g.n_projects as usize] = Project {
                    owner: p as u8,
                    card,
                    chips,
                };
                g.n_projects += 1;
                seen[card.index()] += 1;
            }
        }
        g.hired_total = pv.hired_total;
        for &(card, k) in &pv.discards {
            g.discards[card.index()] = k;
            seen[card.index()] += k;
        }
        for &(s, card) in &pv.to_resolve {
            g.queue[g.q_len as usize] = Matured {
                owner: s.index() as u8,
                card,
            };
            g.q_len += 1;
            seen[card.index()] += 1;
        }
        if let Some(r) = &pv.roll {
            let mut roll = Roll {
                owner: r.owner.index() as u8,
                card: r.card,
                n: r.dice.len().min(MAX_DICE) as u8,
                dice: [0; MAX_DICE],
            };
            roll.dice[..roll.n as usize].copy_from_slice(&r.dice[..roll.n as usize]);
            g.roll = roll;
            seen[r.card.index()] += 1;
        }
        if let Some(top) = pv.top {
            seen[top.index()] += 1;
        }
        for (kind, &k) in seen
            .iter()
            .enumerate()
            .take(Card::kinds(pv.options.specials))
        {
            for _ in 0..Card::COPIES.saturating_sub(k) {
                g.deck[g.deck_len as usize] = Card::from_index(kind);
                g.deck_len += 1;
            }
        }
        let len = g.deck_len as usize;
        g.deck[..len].shuffle(&mut g.rng);
        if let Some(top) = pv.top {
            g.deck[len] = top;
            g.deck_len += 1;
        }
        g.leader = pv.leader.index() as u8;
        g.phase = if pv.outcome.is_some() {
            Phase::Over
        } else if pv.roll.is_some() {
            Phase::Roll
        } else {
            Phase::Auction
        };
        if let Some(a) = &pv.auction {
            g.turn = a.turn.index() as u8;
            g.high = a.high;
            g.bidder = a.bidder.map_or(NONE, |s| s.index() as u8);
            g.passed = a.passed.iter().fold(0, |m, s| m | 1 << s.index());
            g.bid_in = a.bid.iter().fold(0, |m, s| m | 1 << s.index());
        }
        if let Some(o) = &pv.outcome {
            g.winners = o.winners.iter().fold(0, |m, s| m | 1 << s.index());
        }
        g
    }
}
