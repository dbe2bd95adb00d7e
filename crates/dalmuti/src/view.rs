//! What a seat knows ([`View`]) and what a spectator knows
//! ([`PublicView`]), their text boards, and the sampler that rebuilds a full
//! state from a view.
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

/// How many times [`Dalmuti::sample`] redraws a sample that contradicts
/// what the view implies (D7) before it accepts one anyway.
pub(crate) const SAMPLE_TRIES: usize = 64;

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

    /// A full state consistent with `view`, hidden parts drawn from `rng`.
    ///
    /// The unseen cards are dealt uniformly to the opponents, given their
    /// card counts, the cards this seat knows they hold (its own transfers)
    /// and these inferences:
    /// - D7, pending decision: both Jesters are in one opponent's hand, that
    ///   opponent picked with probability proportional to the ways its hand
    ///   can hold both (`left * (left - 1)`), among those who would be asked
    ///   (only the Greater Peon under `auto_revolution`); exact.
    /// - D7, declined by an opponent: some opponent who would have been
    ///   asked held both Jesters as dealt; reject-and-redraw, and that
    ///   opponent becomes the sample's holder.
    /// - D7, not offered although it would have mattered (no settling hand;
    ///   taxes on, or the Greater Peon under `auto_revolution`): no such
    ///   opponent held both Jesters as dealt; reject-and-redraw.
    /// - D8, forced taxes: a Dalmuti who received the Peon's best cards
    ///   knows the Peon had no better card than the worst one paid (Jesters
    ///   worst): the Peon's unknown cards are drawn only from cards at least
    ///   that bad (exact, by construction).
    ///
    /// "As dealt" is a hand now, plus its played cards, plus what it gave,
    /// minus what it received, using the sample's own transfers.
    /// Redraws are bounded ([`SAMPLE_TRIES`]); after that the last draw is
    /// accepted (and a declined holder is picked among the candidates).
    ///
    /// Remaining approximations: transfers between two opponents are made
    /// up from the receiver's sampled hand (not, for example, the Peon's
    /// best cards), so they need not agree with D8; a declared revolution
    /// keeps both Jesters with the declarer unless this seat saw them
    /// leave; a Dalmuti's choices and players' past plays are not used as
    /// evidence about their hands.
    pub(crate) fn sample(view: &View, rng: &mut (impl Rng + ?Sized)) -> Dalmuti {
        let pv = &view.public;
        let n = pv.players;
        let me = view.seat.index();
        let mut g = Dalmuti::seated(
            &pv.options,
            n,
            game::Seed::Legacy(0),
            false,
            &[],
            Some(&pv.order),
        )
        .expect("a view describes a valid table");
        g.rng = ChaCha8Rng::seed_from_u64(rng.random());
        g.hand_no = pv.hand_number;
        g.phase = pv.phase;
        g.turn = pv.to_move.map_or(0, |s| s.index() as u8);
        g.deck = pv.deck;
        g.trick = pv.trick.map(|t| (t.play, t.by.index() as u8));
        g.revolution = pv.revolution;
        g.taxes = pv.taxes;
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

        // D7: who was asked about a revolution, as far as this seat knows
        let known_holder = if view.revolution_offer {
            Some(me as u8)
        } else {
            pv.revolution_by.map(|s| s.index() as u8)
        };
        g.jester_holder = known_holder;
        // the opponents who would be asked if they held both Jesters
        let gp = g.at(n - 1) as usize;
        let candidate = |s: usize| s != me && (!pv.options.auto_revolution || s == gp);
        let settling = pv.options.settling_hand && pv.hand_number == 1;
        let dealt = !matches!(pv.phase, Phase::SeatNew | Phase::Over);
        let pending = pv.phase == Phase::Revolution && known_holder.is_none();
        let declined = dealt
            && pv.revolution_offered
            && known_holder.is_none()
            && pv.phase != Phase::Revolution;
        let not_offered = dealt
            && !settling
            && !pv.revolution_offered
            && (!pv.options.auto_revolution || gp != me);
        // a pending decision: the holder holds both Jesters now (no card
        // has moved yet), drawn by how many ways each hand can hold them
        if pending {
            let weight = |s: usize| {
                let l = pv.cards_left[s] as u32;
                if candidate(s) {
                    l * l.saturating_sub(1)
                } else {
                    0
                }
            };
            let total: u32 = (0..n).map(weight).sum();
            let h = if total == 0 {
                (0..n).find(|&s| candidate(s)).unwrap_or(0)
            } else {
                let mut u = g.rng.random_range(0..total);
                (0..n)
                    .find(|&s| {
                        let w = weight(s);
                        if u < w {
                            true
                        } else {
                            u -= w;
                            false
                        }
                    })
                    .expect("u < total")
            };
            g.jester_holder = Some(h as u8);
            g.turn = h as u8;
        } else if pv.phase == Phase::Revolution {
            g.turn = me as u8;
        }

        let mut last_ok = false;
        for _ in 0..SAMPLE_TRIES {
            g.draw_hidden(view);
            // Jesters each opponent held as dealt, in this sample
            let dealt_jesters = |g: &Dalmuti, s: usize| -> i32 {
                let mut j = g.hands[s].0[JESTER] as i32 + g.played[s].0[JESTER] as i32;
                for t in &g.transfers[..g.n_transfers as usize] {
                    let k = t.cards.cards().filter(|c| c.is_jester()).count() as i32;
                    if t.from.index() == s {
                        j += k;
                    }
                    if t.to.index() == s {
                        j -= k;
                    }
                }
                j
            };
            let holder = (0..n).find(|&s| candidate(s) && dealt_jesters(&g, s) == 2);
            last_ok = if declined {
                g.jester_holder = holder.map(|s| s as u8);
                holder.is_some()
            } else if not_offered {
                holder.is_none()
            } else {
                true
            };
            if last_ok {
                break;
            }
        }
        if declined && !last_ok {
            // give up: name a candidate, so the sample's views agree
            g.jester_holder = (0..n).find(|&s| candidate(s)).map(|s| s as u8);
        }
        if !dealt && pv.revolution_offered && g.jester_holder.is_none() {
            // between hands (a newcomer sits down, D13): the last hand's
            // declined offer still shows; who it was is unknown and no
            // longer matters, so name a candidate, so the views agree
            g.jester_holder = (0..n).find(|&s| candidate(s)).or(Some(me)).map(|s| s as u8);
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

    /// One draw of the hidden hands and of the transfers this seat did not
    /// see, for [`Dalmuti::sample`]; `jester_holder` must already be set
    /// for a pending or declared revolution.
    fn draw_hidden(&mut self, view: &View) {
        let pv = &view.public;
        let n = pv.players;
        let me = view.seat.index();
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
        // D8: a Peon who paid me its best cards had nothing better than the
        // worst of them (Jesters worst): its unknown cards are that bad too
        let mut floor: Option<(usize, usize)> = None;
        for t in &view.transfers {
            if t.from == view.seat {
                known[t.to.index()].add_all(&t.cards.hand());
            } else {
                let k = &mut known[t.from.index()];
                for c in t.cards.cards() {
                    k.0[c.index()] = k.0[c.index()].saturating_sub(1);
                }
                let from = t.from.index();
                // (only while the hand the taxes belong to is on: between
                // hands the places are already the next hand's)
                let this_hand = !matches!(pv.phase, Phase::SeatNew | Phase::Over);
                if this_hand && t.kind == TransferKind::Tax && self.pos[from] > self.pos[me] {
                    let worst = t.cards.cards().map(|c| c.index()).max().unwrap_or(1);
                    floor = Some((from, worst));
                }
            }
        }
        if let Some(h) = self.jester_holder.map(|h| h as usize) {
            if h != me && (pv.phase == Phase::Revolution || pv.revolution_by.is_some()) {
                let k = &mut known[h];
                k.0[JESTER] = 2;
                for t in &view.transfers {
                    if t.from.index() == h {
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
        cards[..len].shuffle(&mut self.rng);
        let need = |s: usize, known: &[Hand; MAX_PLAYERS]| {
            (pv.cards_left[s] as usize).saturating_sub(known[s].len())
        };
        // the floored Peon takes the first cards bad enough; the others
        // share the rest, shuffled again (a uniform draw given the floor)
        let mut next = 0;
        if let Some((p, worst)) = floor {
            let want = need(p, &known);
            let mut took = 0;
            for i in 0..len {
                if took == want {
                    break;
                }
                if cards[i] as usize >= worst {
                    cards.swap(next, i);
                    next += 1;
                    took += 1;
                }
            }
            cards[next..len].shuffle(&mut self.rng);
            let h = &mut known[p];
            for &c in &cards[..next] {
                h.0[c as usize] += 1;
            }
        }
        for s in 0..n {
            if s == me {
                self.hands[s] = view.hand;
                continue;
            }
            // (a floored Peon needs nothing more, unless too few cards
            // were bad enough: then it is topped up like the others)
            let mut h = known[s];
            let want = need(s, &known);
            for &c in &cards[next.min(len)..(next + want).min(len)] {
                h.0[c as usize] += 1;
            }
            next += want;
            self.hands[s] = h;
        }
        // transfers: mine exactly; others' cards made up from the receiver
        self.n_transfers = 0;
        let mut mine = view.transfers.iter();
        for e in &pv.exchanges {
            let t = if e.from == view.seat || e.to == view.seat {
                *mine.next().expect("own transfers match exchanges")
            } else {
                let h = self.hands[e.to.index()];
                let mut pick = || {
                    if !h.is_empty() {
                        h.nth(self.rng.random_range(0..h.len()))
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
            self.transfers[self.n_transfers as usize] = t;
            self.n_transfers += 1;
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
