//! The full state of a game of The Big Cheese and its rules: auctions,
//! advancing, maturing, payouts, Big Cheese decisions and the end.
//!
//! The state is made for fast rollouts: fixed arrays of `u8` counters, no
//! heap allocation per action, and no event built unless logging is on. Decks are stacks (top card last); discards are counts per kind,
//! because their order never matters (they are shuffled before reuse, B16).

use crate::event::{Event, Rolled};
use crate::{Action, Card, DiceMode, Faces, IllegalAction, Options, RerollDice};
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

    /// The seat after `p` that has not passed (B5), branch-free: the
    /// lowest open seat above `p`, else the lowest open seat. Some seat
    /// must be open.
    #[inline]
    fn next_bidder(&self, p: u8) -> u8 {
        let open = !self.passed as u32 & ((1u32 << self.n) - 1);
        let after = open & !((2u32 << p) - 1);
        let q = if after != 0 { after } else { open };
        debug_assert!(q != 0);
        q.trailing_zeros() as u8
    }

    /// Opens the next auction with the current leader on the top card. If
    /// the deck is empty, shuffles the discards into it; if there is nothing
    /// to reveal at all, advances every project a step until a card comes
    /// free (B16).
    pub(crate) fn start_auction(&mut self) {
        loop {
            if let Some(top) = self.top() {
                self.phase = Phase::Auction;
                self.turn = self.leader;
                self.high = 0;
                self.bidder = NONE;
                self.passed = 0;
                self.bid_in = 0;
                log!(
                    self,
                    Event::Auction {
                        card: top,
                        leader: seat(self.leader),
                    }
                );
                return;
            }
            let total = self.discard_count();
            if total > 0 {
                // B16: shuffle the discards into a new deck.
                for kind in 0..9 {
                    for _ in 0..self.discards[kind] {
                        self.deck[self.deck_len as usize] = Card::from_index(kind);
                        self.deck_len += 1;
                    }
                }
                self.discards = [0; 9];
                let len = self.deck_len as usize;
                self.deck[..len].shuffle(&mut self.rng);
                log!(self, Event::Reshuffled { cards: total });
                continue;
            }
            if self.n_projects == 0 {
                // Cannot happen with conserved cards (number cards never sit
                // in hands); stop rather than loop.
                self.phase = Phase::Over;
                self.winners = 0;
                log!(self, Event::Stuck);
                return;
            }
            // B16 (our ruling): every project advances one step; matured
            // projects resolve in seat order from the current leader.
            log!(self, Event::NothingToReveal);
            self.advance(self.leader);
            if !self.resolve_queue() {
                return;
            }
            if self.check_winners() {
                return;
            }
        }
    }

    /// B8: every project on the table loses one chip to its owner's pool;
    /// matured ones are handed out (specials) or queued (numbers) in seat
    /// order from `first`, oldest first per owner (B9).
    fn advance(&mut self, first: u8) {
        // Matured projects are collected in table order (oldest first) in
        // the queue, then ordered by seat from `first` (stable, so each
        // owner's stay oldest first).
        let mut m = 0;
        let mut k = 0;
        for i in 0..self.n_projects as usize {
            let mut p = self.projects[i];
            p.chips -= 1;
            self.free[p.owner as usize] += 1;
            if p.chips == 0 {
                self.queue[m] = Matured {
                    owner: p.owner,
                    card: p.card,
                };
                m += 1;
            } else {
                self.projects[k] = p;
                k += 1;
            }
        }
        self.n_projects = k as u8;
        self.q_head = 0;
        self.q_len = 0;
        if m == 0 {
            return;
        }
        if m > 1 {
            let n = self.n;
            let rank = |o: u8| if o >= first { o - first } else { o + n - first };
            // Insertion sort: stable and allocation-free on a few items.
            for i in 1..m {
                let x = self.queue[i];
                let mut j = i;
                while j > 0 && rank(self.queue[j - 1].owner) > rank(x.owner) {
                    self.queue[j] = self.queue[j - 1];
                    j -= 1;
                }
                self.queue[j] = x;
            }
        }
        // B9: specials go to hand (or hire, B15) first; numbers stay queued.
        let mut q = 0;
        for i in 0..m {
            let mat = self.queue[i];
            let owner = mat.owner;
            match mat.card {
                Card::Veto => {
                    self.vetos[owner as usize] += 1;
                    log!(
                        self,
                        Event::ToHand {
                            owner: seat(owner),
                            card: Card::Veto,
                        }
                    );
                }
                Card::BigCheese if self.opts.dice == DiceMode::NoDice => self.hire(owner),
                Card::BigCheese => {
                    self.cheeses[owner as usize] += 1;
                    log!(
                        self,
                        Event::ToHand {
                            owner: seat(owner),
                            card: Card::BigCheese,
                        }
                    );
                }
                Card::Two
                | Card::Four
                | Card::Six
                | Card::Eight
                | Card::Ten
                | Card::Twelve
                | Card::Twenty => {
                    self.queue[q] = mat;
                    q += 1;
                }
            }
        }
        self.q_len = q as u8;
    }

    /// B15: a matured Big Cheese in `no-dice` hires up to 2 chips, within
    /// the caps (4 per player, 2 x players in the game), and is discarded.
    fn hire(&mut self, owner: u8) {
        let o = owner as usize;
        let cap = 2 * self.n;
        let allowed = HIRE
            .min(MAX_HIRED - self.hired[o].min(MAX_HIRED))
            .min(cap - self.hired_total.min(cap));
        self.hired[o] += allowed;
        self.hired_total += allowed;
        self.free[o] += allowed;
        self.discards[Card::BigCheese.index()] += 1;
        log!(
            self,
            Event::Hire {
                owner: seat(owner),
                chips: allowed,
                hired: self.hired[o],
                total: self.hired_total,
            }
        );
    }

    fn die(&mut self, sides: u8) -> u8 {
        if self.forced_pos < self.forced_len {
            let v = self.forced[self.forced_pos as usize];
            self.forced_pos += 1;
            // A scripted result the die cannot show counts as its top face.
            return v.clamp(1, sides);
        }
        self.rng.random_range(1..=sides)
    }

    /// Rolls `k` d6 into the face counts `counts[1..=6]`.
    fn roll_d6_into(&mut self, counts: &mut [u8; 7], k: u8) {
        for _ in 0..k {
            let v = self.die(6).clamp(1, 6);
            counts[v as usize] += 1;
        }
    }

    fn fill_sorted(roll: &mut Roll, counts: &[u8; 7]) {
        let mut i = 0;
        for (f, &c) in counts.iter().enumerate().skip(1) {
            for _ in 0..c {
                roll.dice[i] = f as u8;
                i += 1;
            }
        }
        roll.n = i as u8;
    }

    /// A fresh roll for a matured number card (B11).
    fn roll_for(&mut self, owner: u8, card: Card) -> Roll {
        let mut roll = Roll {
            owner,
            card,
            n: 1,
            dice: [0; MAX_DICE],
        };
        match self.opts.dice {
            DiceMode::Polyhedral => roll.dice[0] = self.die(card.value()),
            DiceMode::D6 => roll.dice[0] = self.die(6),
            DiceMode::BestOfTwo | DiceMode::HalfOfN => {
                let k = if self.opts.dice == DiceMode::BestOfTwo {
                    2
                } else {
                    card.value()
                };
                let mut counts = [0u8; 7];
                self.roll_d6_into(&mut counts, k);
                Self::fill_sorted(&mut roll, &counts);
            }
            DiceMode::NoDice => roll.n = 0,
        }
        roll
    }

    /// The points a roll pays (B11).
    pub(crate) fn payout(&self, roll: &Roll) -> u16 {
        let value = roll.card.value() as u16;
        let dice = roll.dice();
        match self.opts.dice {
            DiceMode::Polyhedral => dice[0] as u16,
            DiceMode::D6 => dice[0] as u16 * value,
            DiceMode::BestOfTwo => dice[dice.len() - 1] as u16 * value,
            DiceMode::HalfOfN => {
                let half = dice.len() / 2;
                2 * dice[dice.len() - half..]
                    .iter()
                    .map(|&d| d as u16)
                    .sum::<u16>()
            }
            DiceMode::NoDice => value,
        }
    }

    /// The roll as an event shows it.
    fn rolled(&self, roll: &Roll) -> Rolled {
        Rolled {
            mode: self.opts.dice,
            dice: roll.dice().to_vec(),
            payout: self.payout(roll),
        }
    }

    /// Pays the current matured projects one at a time (B9). Returns false
    /// when it stops for an owner's Big Cheese decision (B10).
    fn resolve_queue(&mut self) -> bool {
        while self.q_head < self.q_len {
            let m = self.queue[self.q_head as usize];
            self.q_head += 1;
            let roll = self.roll_for(m.owner, m.card);
            if self.opts.dice != DiceMode::NoDice && self.cheeses[m.owner as usize] > 0 {
                self.roll = roll;
                self.phase = Phase::Roll;
                log!(
                    self,
                    Event::Roll {
                        owner: seat(m.owner),
                        card: m.card,
                        roll: self.rolled(&roll),
                    }
                );
                return false;
            }
            self.pay(&roll, Via::Matured);
        }
        true
    }

    /// Pays a roll to its owner and discards the card; with `exact`, a
    /// payout that would pass the target is ignored (B13).
    fn pay(&mut self, roll: &Roll, via: Via) {
        let o = roll.owner as usize;
        let (owner, card) = (seat(roll.owner), roll.card);
        let amount = self.payout(roll);
        self.discards[roll.card.index()] += 1;
        if self.opts.exact && self.scores[o] + amount > self.target {
            let target = self.target;
            log!(
                self,
                match via {
                    Via::Matured => Event::PayoutIgnored {
                        owner,
                        card,
                        roll: self.rolled(roll),
                        amount,
                        target,
                    },
                    Via::Keep { new } => Event::KeepIgnored {
                        owner,
                        card,
                        new_roll: new,
                        amount,
                        target,
                    },
                }
            );
            return;
        }
        self.scores[o] += amount;
        self.scored[o] += 1;
        let total = self.scores[o];
        log!(
            self,
            match via {
                Via::Matured => Event::Payout {
                    owner,
                    card,
                    roll: self.rolled(roll),
                    amount,
                    total,
                },
                Via::Keep { new } => Event::Keep {
                    owner,
                    card,
                    new_roll: new,
                    amount,
                    total,
                },
            }
        );
    }

    /// After a whole advance: did anyone reach the target (B12-B14)?
    fn check_winners(&mut self) -> bool {
        // Derived from the scores, not remembered: a state rebuilt from a
        // view (or set up by hand) mid-advance must end the same way.
        let mut best = (0u16, 0u8);
        let mut winners = 0u8;
        for p in 0..self.n as usize {
            let s = self.scores[p];
            let reached = if self.opts.exact {
                s == self.target
            } else {
                s >= self.target
            };
            if !reached {
                continue;
            }
            // B14: highest score, then most scored projects, then shared.
            let key = (s, self.scored[p]);
            if winners == 0 || key > best {
                best = key;
                winners = 1 << p;
            } else if key == best {
                winners |= 1 << p;
            }
        }
        if winners == 0 {
            return false;
        }
        self.phase = Phase::Over;
        if self.opts.tie_by_chance && winners.count_ones() > 1 {
            // B20: a die with as many faces as tied players picks the
            // winner, in seat order; it is the game's own RNG (or a
            // scenario's scripted die), so a replay draws the same.
            let tied: Vec<u8> = (0..self.n).filter(|p| winners & (1 << p) != 0).collect();
            let face = self.die(tied.len() as u8);
            let w = tied[face as usize - 1];
            log!(
                self,
                Event::TieBroken {
                    tied: tied.iter().map(|&p| seat(p)).collect(),
                    score: best.0,
                    face,
                    winner: seat(w),
                }
            );
            winners = 1 << w;
        }
        self.winners = winners;
        log!(
            self,
            Event::Win {
                winners: (0..self.n)
                    .filter(|p| winners & (1 << p) != 0)
                    .map(seat)
                    .collect(),
                score: best.0,
            }
        );
        true
    }

    /// After the last decision of an advance: finish it and go on.
    fn continue_advance(&mut self) {
        if self.resolve_queue() && !self.check_winners() {
            self.start_auction();
        }
    }

    /// The auction is won: B8.
    fn take(&mut self) {
        let w = self.bidder;
        let bid = self.high;
        let card = self.pop_top();
        self.free[w as usize] -= bid;
        log!(
            self,
            Event::Take {
                seat: seat(w),
                card,
                chips: bid,
            }
        );
        // B4: the taker leads next.
        self.leader = w;
        self.advance(w);
        let i = self.n_projects as usize;
        self.projects[i] = Project {
            owner: w,
            card,
            chips: bid,
        };
        self.n_projects += 1;
        self.continue_advance();
    }

    pub(crate) fn check_reroll(&self, dice: RerollDice) -> Result<(), IllegalAction> {
        let roll = &self.roll;
        if self.cheeses[roll.owner as usize] == 0 {
            return Err(IllegalAction::NoBigCheese);
        }
        match (self.opts.dice, dice) {
            (DiceMode::Polyhedral | DiceMode::D6, RerollDice::Die) => Ok(()),
            (DiceMode::Polyhedral | DiceMode::D6, RerollDice::Faces(_)) => Err(
                IllegalAction::RerollForm("with one die, write just `reroll`"),
            ),
            (DiceMode::BestOfTwo | DiceMode::HalfOfN, RerollDice::Die) => {
                Err(IllegalAction::RerollForm(
                    "name the dice to re-roll by their values, e.g. `reroll 3`",
                ))
            }
            (DiceMode::BestOfTwo, RerollDice::Faces(f)) if f.len() != 1 => {
                Err(IllegalAction::RerollForm(
                    "in best-of-two a Big Cheese re-rolls exactly one of the two dice",
                ))
            }
            (DiceMode::BestOfTwo | DiceMode::HalfOfN, RerollDice::Faces(f)) => {
                let have = roll_counts(roll);
                if f.is_empty() || (1..=6u8).any(|v| f.count(v) > have[v as usize]) {
                    Err(IllegalAction::RerollNotRolled)
                } else {
                    Ok(())
                }
            }
            (DiceMode::NoDice, RerollDice::Die | RerollDice::Faces(_)) => {
                Err(IllegalAction::NoRoll)
            }
        }
    }

    fn reroll(&mut self, dice: RerollDice) {
        let o = self.roll.owner;
        self.cheeses[o as usize] -= 1;
        self.discards[Card::BigCheese.index()] += 1;
        let mut roll = self.roll;
        match dice {
            RerollDice::Die => {
                let sides = if self.opts.dice == DiceMode::Polyhedral {
                    roll.card.value()
                } else {
                    6
                };
                roll.dice[0] = self.die(sides);
            }
            RerollDice::Faces(f) => {
                let mut counts = roll_counts(&roll);
                for v in 1..=6u8 {
                    counts[v as usize] -= f.count(v);
                }
                self.roll_d6_into(&mut counts, f.len() as u8);
                Self::fill_sorted(&mut roll, &counts);
            }
        }
        self.roll = roll;
        log!(
            self,
            Event::Reroll {
                owner: seat(o),
                card: roll.card,
                rerolled: match dice {
                    RerollDice::Die => Vec::new(),
                    RerollDice::Faces(f) => f.values().collect(),
                },
                roll: self.rolled(&roll),
            }
        );
        if self.cheeses[o as usize] == 0 {
            self.pay(&roll, Via::Keep { new: true });
            self.continue_advance();
        }
    }

    /// Checks `action` as if `seat` tried it, with the reasons a seat that
    /// is not to move gets (a passed bidder, B5; another player's roll, B10).
    pub fn check_as(&self, who: Seat, action: Action) -> Result<(), ActError<IllegalAction>> {
        let idx = who.index() as u8;
        match self.phase {
            Phase::Over => return Err(ActError::GameOver),
            // a u32 bit: `who` may be any seat, also one past this table's
            // 6 (a record or scenario can name P16)
            Phase::Auction if idx != self.turn && u32::from(self.passed) & (1 << idx) != 0 => {
                return Err(ActError::Illegal(IllegalAction::AlreadyPassed))
            }
            Phase::Roll if idx != self.roll.owner && matches!(action, Action::Reroll(_)) => {
                return Err(ActError::Illegal(IllegalAction::NotYourRoll))
            }
            Phase::Auction | Phase::Roll => {}
        }
        let to_move = self.to_move_seat();
        if idx != to_move {
            return Err(ActError::NotYourTurn {
                expected: seat(to_move),
                got: who,
            });
        }
        self.check_action(action).map_err(ActError::Illegal)
    }

    #[inline]
    pub(crate) fn to_move_seat(&self) -> u8 {
        match self.phase {
            Phase::Auction => self.turn,
            Phase::Roll => self.roll.owner,
            Phase::Over => NONE,
        }
    }

    pub(crate) fn check_action(&self, action: Action) -> Result<(), IllegalAction> {
        match self.phase {
            Phase::Over => Err(IllegalAction::GameOver),
            Phase::Auction => {
                let p = self.turn as usize;
                match action {
                    Action::Bid(0) => Err(IllegalAction::BidZero),
                    Action::Bid(b) if b <= self.high => Err(IllegalAction::BidNotAbove {
                        bid: b,
                        high: self.high,
                    }),
                    Action::Bid(b) if b > self.free[p] => Err(IllegalAction::BidExceedsChips {
                        bid: b,
                        free: self.free[p],
                    }),
                    Action::Bid(_) | Action::Pass => Ok(()),
                    Action::Veto if self.vetos[p] > 0 && self.may_veto(p) => Ok(()),
                    Action::Veto if self.vetos[p] > 0 => Err(IllegalAction::VetoAfterBid),
                    Action::Veto => Err(IllegalAction::NoVeto),
                    Action::Keep | Action::Reroll(_) => Err(IllegalAction::NoRoll),
                }
            }
            Phase::Roll => match action {
                Action::Bid(_) | Action::Pass | Action::Veto => Err(IllegalAction::RollPending {
                    owner: seat(self.roll.owner),
                    card: self.roll.card,
                }),
                Action::Keep => Ok(()),
                Action::Reroll(d) => self.check_reroll(d),
            },
        }
    }

    pub(crate) fn legal_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Over => {}
            Phase::Auction => {
                let p = self.turn as usize;
                out.push(Action::Pass);
                let (lo, hi) = (self.high as usize + 1, self.free[p] as usize);
                if lo <= hi {
                    // A memcpy from a table instead of a push per bid.
                    out.extend_from_slice(&BIDS[lo..=hi]);
                }
                if self.vetos[p] > 0 && self.may_veto(p) {
                    out.push(Action::Veto);
                }
            }
            Phase::Roll => {
                out.push(Action::Keep);
                if self.cheeses[self.roll.owner as usize] == 0 {
                    return;
                }
                match self.opts.dice {
                    DiceMode::Polyhedral | DiceMode::D6 => {
                        out.push(Action::Reroll(RerollDice::Die))
                    }
                    DiceMode::BestOfTwo => {
                        let d = self.roll.dice();
                        out.push(Action::Reroll(RerollDice::Faces(Faces::of(&[d[0]]))));
                        if d[1] != d[0] {
                            out.push(Action::Reroll(RerollDice::Faces(Faces::of(&[d[1]]))));
                        }
                    }
                    DiceMode::HalfOfN => {
                        // Every non-empty sub-multiset of the dice shown.
                        let have = roll_counts(&self.roll);
                        let mut k = [0u8; 6];
                        loop {
                            let mut i = 0;
                            while i < 6 && k[i] == have[i + 1] {
                                k[i] = 0;
                                i += 1;
                            }
                            if i == 6 {
                                break;
                            }
                            k[i] += 1;
                            out.push(Action::Reroll(RerollDice::Faces(Faces::from_counts(k))));
                        }
                    }
                    DiceMode::NoDice => {}
                }
            }
        }
    }

    /// Whether seat `p` may play a Veto now, if it holds one: always (B6),
    /// or with `veto=before-bid` only before its first bid in this auction
    /// (B18).
    pub(crate) fn may_veto(&self, p: usize) -> bool {
        !self.opts.veto_before_bid || self.bid_in & (1 << p) == 0
    }

    /// A uniformly random legal action without building the list in an
    /// auction: the list is `pass, bid high+1..=free, [veto]`, so an index
    /// into it maps straight to an action. Rolls use the list.
    #[inline]
    pub(crate) fn sample_action<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<Action>,
    ) -> Action {
        if self.phase != Phase::Auction {
            self.legal_into(scratch);
            return scratch[rng.random_range(0..scratch.len())];
        }
        let p = self.turn as usize;
        let bids = self.free[p].saturating_sub(self.high) as u32;
        let veto = u32::from(self.vetos[p] > 0 && self.may_veto(p));
        let k = rng.random_range(0..1 + bids + veto);
        if k == 0 {
            Action::Pass
        } else if k <= bids {
            Action::Bid(self.high + k as u8)
        } else {
            Action::Veto
        }
    }

    /// Applies a legal action. Bids and passes in an auction (nearly every
    /// action of a game) take a small inlined path, so that after a
    /// sampled action the compiler can skip the dispatch on its type; the
    /// rest, and every auction end, goes through [`BigCheese::apply_slow`].
    #[inline]
    pub(crate) fn apply_action(&mut self, action: Action) {
        if self.phase == Phase::Auction {
            match action {
                Action::Bid(b) => {
                    // B5
                    self.bid_in |= 1 << self.turn;
                    let others = ((1u8 << self.n) - 1) & !(1 << self.turn);
                    if self.passed != others && !self.logging {
                        self.high = b;
                        self.bidder = self.turn;
                        self.turn = self.next_bidder(self.turn);
                        return;
                    }
                }
                Action::Pass => {
                    // B5: the auction goes on while two may still bid
                    let all = (1u8 << self.n) - 1;
                    let passed = self.passed | 1 << self.turn;
                    let ends = if self.bidder == NONE {
                        passed == all
                    } else {
                        passed == all & !(1 << self.bidder)
                    };
                    if !ends && !self.logging {
                        self.passed = passed;
                        self.turn = self.next_bidder(self.turn);
                        return;
                    }
                }
                Action::Veto | Action::Keep | Action::Reroll(_) => {}
            }
        }
        self.apply_slow(action);
    }

    /// [`BigCheese::apply_action`] in full: every action, with logging.
    #[inline(never)]
    fn apply_slow(&mut self, action: Action) {
        match self.phase {
            Phase::Over => panic!("apply_unchecked on a finished game"),
            Phase::Auction => match action {
                Action::Bid(b) => {
                    self.high = b;
                    self.bidder = self.turn;
                    self.bid_in |= 1 << self.turn;
                    log!(
                        self,
                        Event::Bid {
                            seat: seat(self.turn),
                            amount: b,
                        }
                    );
                    let others = ((1u8 << self.n) - 1) & !(1 << self.turn);
                    if self.passed == others {
                        self.take();
                    } else {
                        self.turn = self.next_bidder(self.turn);
                    }
                }
                Action::Pass => {
                    self.passed |= 1 << self.turn;
                    log!(
                        self,
                        Event::Pass {
                            seat: seat(self.turn),
                        }
                    );
                    let all = (1u8 << self.n) - 1;
                    if self.bidder == NONE {
                        if self.passed == all {
                            // B7: nobody bid.
                            let card = self.pop_top();
                            self.discards[card.index()] += 1;
                            log!(self, Event::AllPass { card });
                            self.start_auction();
                        } else {
                            self.turn = self.next_bidder(self.turn);
                        }
                    } else if self.passed == all & !(1 << self.bidder) {
                        self.take();
                    } else {
                        self.turn = self.next_bidder(self.turn);
                    }
                }
                Action::Veto => {
                    // B6
                    let p = self.turn as usize;
                    self.vetos[p] -= 1;
                    self.discards[Card::Veto.index()] += 1;
                    let card = self.pop_top();
                    self.discards[card.index()] += 1;
                    log!(
                        self,
                        Event::Veto {
                            seat: seat(self.turn),
                            card,
                        }
                    );
                    self.start_auction();
                }
                Action::Keep | Action::Reroll(_) => panic!("{action} in an auction"),
            },
            Phase::Roll => match action {
                Action::Keep => {
                    let roll = self.roll;
                    self.pay(&roll, Via::Keep { new: false });
                    self.continue_advance();
                }
                Action::Reroll(d) => self.reroll(d),
                Action::Bid(_) | Action::Pass | Action::Veto => panic!("{action} during a roll"),
            },
        }
    }

    pub(crate) fn outcome_now(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let n = self.n as usize;
        let scores: Vec<i64> = self.scores[..n].iter().map(|&s| s as i64).collect();
        let winners: Vec<Seat> = (0..self.n)
            .filter(|p| self.winners & (1 << p) != 0)
            .map(seat)
            .collect();
        if winners.is_empty() {
            return Some(Outcome::capped(scores));
        }
        // Places: winners first, then by score (B14).
        let key = |p: usize| (self.winners & (1 << p) != 0, self.scores[p], self.scored[p]);
        let places = (0..n)
            .map(|p| 1 + (0..n).filter(|&q| key(q) > key(p)).count() as u8)
            .collect();
        Some(Outcome {
            winners,
            places,
            scores,
            capped: false,
        })
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
