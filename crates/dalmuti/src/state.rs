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

/// The seat with index `s`.
fn seat(s: impl Into<usize>) -> Seat {
    Seat::new(s.into())
}

/// How cards changed hands before play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TransferKind {
    /// Taxes (D8).
    Tax,
    /// The market or the black market (D14).
    Market,
}

/// Cards that went from one player to another this hand. Only the two
/// players involved see the cards; everyone sees that it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
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

/// One in every byte (SWAR constant).
const LOW: u128 = u128::from_le_bytes([1; 16]);
/// The high bit of every byte (SWAR constant).
const HIGH: u128 = LOW << 7;

/// The deck as a card list, Jesters first and 12s last, so that the 57-,
/// 68- and 80-card decks (D2) are prefixes of it.
const DECK_LIST: [u8; 80] = {
    let mut list = [0u8; 80];
    list[0] = JESTER as u8;
    list[1] = JESTER as u8;
    let mut i = 2;
    let mut r = 1;
    while r <= 12 {
        let mut k = 0;
        while k < r {
            list[i] = r as u8;
            i += 1;
            k += 1;
        }
        r += 1;
    }
    list
};

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

    /// D3: each player draws a card from a shuffled 80-card deck; best rank
    /// first, Jesters worst; tied players draw again among themselves.
    fn seating_draw(&mut self, fixed: &[Card]) -> Result<(), DrawnOut> {
        let n = self.players as usize;
        let mut deck = Hand::FULL_DECK;
        let mut remaining = 80usize;
        let mut fixed = fixed.iter();
        let mut card = [0u8; MAX_PLAYERS];
        let mut draw = |g: &mut Dalmuti| -> Result<u8, DrawnOut> {
            if let Some(&c) = fixed.next() {
                if deck.count(c) == 0 {
                    return Err(DrawnOut(c));
                }
                deck.remove(c, 1);
                remaining -= 1;
                return Ok(c.index() as u8);
            }
            if remaining == 0 {
                // new ruling: an exhausted draw deck is reshuffled whole
                deck = Hand::FULL_DECK;
                remaining = 80;
            }
            let c = deck.nth(below(&mut g.rng, remaining as u32) as usize);
            deck.remove(c, 1);
            remaining -= 1;
            Ok(c.index() as u8)
        };
        for s in 0..n {
            self.order[s] = s as u8;
            card[s] = draw(self)?;
        }
        say!(
            self,
            Event::SeatingDraw {
                draws: (0..n)
                    .map(|s| Draw {
                        seat: seat(s),
                        card: Card::from_index(card[s] as usize),
                    })
                    .collect(),
            }
        );
        // sort a range of the order by the latest card, stably
        fn sort_range(order: &mut [u8], card: &[u8; MAX_PLAYERS]) {
            for i in 1..order.len() {
                let mut j = i;
                while j > 0 && card[order[j - 1] as usize] > card[order[j] as usize] {
                    order.swap(j - 1, j);
                    j -= 1;
                }
            }
        }
        sort_range(&mut self.order[..n], &card);
        // tied[i]: order[i] and order[i+1] are still tied
        let mut tied = [false; MAX_PLAYERS];
        for i in 0..n - 1 {
            tied[i] = card[self.order[i] as usize] == card[self.order[i + 1] as usize];
        }
        while let Some(a) = (0..n - 1).find(|&i| tied[i]) {
            let mut b = a + 1;
            while b < n - 1 && tied[b] {
                b += 1;
            }
            // positions a..=b are tied: they draw again, in seat order
            let mut group = [0u8; MAX_PLAYERS];
            let len = b - a + 1;
            group[..len].copy_from_slice(&self.order[a..=b]);
            group[..len].sort_unstable();
            for &s in &group[..len] {
                card[s as usize] = draw(self)?;
            }
            say!(
                self,
                Event::SeatingRedraw {
                    draws: group[..len]
                        .iter()
                        .map(|&s| Draw {
                            seat: seat(s),
                            card: Card::from_index(card[s as usize] as usize),
                        })
                        .collect(),
                }
            );
            self.order[a..=b].copy_from_slice(&group[..len]);
            sort_range(&mut self.order[a..=b], &card);
            for i in a..b {
                tied[i] = card[self.order[i] as usize] == card[self.order[i + 1] as usize];
            }
        }
        Ok(())
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

    /// Starts hand `hand_no`: a join if one is due (D13), then the deal.
    pub(crate) fn start_hand(&mut self) {
        if self.hand_no > 1 && self.options.joins.before(self.hand_no) {
            let n = self.players as usize;
            let newcomer = Seat::new(n);
            say!(self, Event::Joins { seat: newcomer });
            if n % 2 == 0 {
                self.seat_newcomer(n / 2);
            } else {
                self.phase = Phase::SeatNew;
                self.turn = self.at(0);
                return;
            }
        }
        self.deal();
        self.after_deal();
    }

    /// D13: the newcomer (next seat index) sits at table position `p`.
    fn seat_newcomer(&mut self, p: usize) {
        let n = self.players as usize;
        let s = n as u8;
        for i in (p..n).rev() {
            self.order[i + 1] = self.order[i];
        }
        self.order[p] = s;
        self.players += 1;
        self.scores[s as usize] = 0;
        self.fix_pos();
        say!(
            self,
            Event::Sits {
                seat: seat(s),
                place: p as u8 + 1,
                role: Role::of(p, n + 1),
            }
        );
    }

    /// Clears everything that belongs to one hand.
    pub(crate) fn reset_hand(&mut self) {
        self.hands = [Hand::EMPTY; MAX_PLAYERS];
        self.played = [Hand::EMPTY; MAX_PLAYERS];
        self.left = [0; MAX_PLAYERS];
        self.active = 0;
        self.active_pos = 0;
        self.passed = 0;
        self.trick = None;
        self.n_finished = 0;
        self.jester_holder = None;
        self.revolution = Revolution::None;
        self.taxes = false;
        self.greater_gift = None;
        self.lesser_gift = None;
        self.market_with = None;
        self.n_transfers = 0;
    }

    /// D2, D5: shuffle this hand's deck and deal it one card at a time from
    /// the Greater Dalmuti in table order. D15: a digital deal cannot expose
    /// a card, so the rulebook's misdeal rule never applies.
    pub(crate) fn deal(&mut self) {
        self.reset_hand();
        let n = self.players as usize;
        self.deck = Hand::deck_for(n, self.options.standard_deck);
        let len = self.deck.len();
        let mut cards = DECK_LIST;
        debug_assert!(len == 80 || self.deck.0[12] == 0);
        // Fisher-Yates, dealing as it goes: once swapped, position i is
        // final, and the card at position i goes to table position i mod n
        // (the same deal as shuffling first and dealing from the top)
        let mut p = (len - 1) % n;
        for i in (1..len).rev() {
            let j = below(&mut self.rng, i as u32 + 1) as usize;
            cards.swap(i, j);
            self.hands[self.order[p] as usize].0[cards[i] as usize] += 1;
            p = if p == 0 { n - 1 } else { p - 1 };
        }
        debug_assert_eq!(p, 0);
        self.hands[self.order[0] as usize].0[cards[0] as usize] += 1;
        self.after_hands_set();
        say!(
            self,
            Event::Deal {
                number: self.hand_no,
                cards: len as u8,
            }
        );
    }

    /// Recomputes card counts and the active set from the hands.
    pub(crate) fn after_hands_set(&mut self) {
        self.active = 0;
        for s in 0..self.players as usize {
            self.left[s] = self.hands[s].len() as u8;
            if self.left[s] > 0 {
                self.active |= bit(s as u8);
            }
        }
        self.fix_active_pos();
        if self.logging {
            for s in 0..self.players as usize {
                let hand = self.hands[s];
                tell!(
                    self,
                    s,
                    Event::Dealt {
                        seat: seat(s),
                        hand
                    }
                );
            }
        }
    }

    /// D7, D8: whether taxes follow if the pending revolution decision is
    /// declined (never under `auto_revolution`, where only a Great
    /// Revolution brings them). Public: it depends on the options only.
    pub(crate) fn taxes_unless_revolution(&self) -> bool {
        !self.options.auto_revolution
    }

    /// D7: offer a revolution when it would matter, else go to taxes or
    /// play.
    pub(crate) fn after_deal(&mut self) {
        let n = self.players as usize;
        let settling = self.options.settling_hand && self.hand_no == 1;
        if !settling {
            let holder = (0..n).find(|&s| self.hands[s].jesters() == 2);
            if let Some(h) = holder {
                let is_gp = self.pos[h] as usize == n - 1;
                if !self.options.auto_revolution || is_gp {
                    self.jester_holder = Some(h as u8);
                    self.phase = Phase::Revolution;
                    self.turn = h as u8;
                    // D7 (new ruling): the table learns only that a
                    // decision is pending, never whose it is
                    say!(self, Event::RevolutionPending);
                    tell!(self, h, Event::BothJesters { seat: seat(h) });
                    return;
                }
            }
        }
        let taxes = !settling && !self.options.auto_revolution;
        self.begin_taxes_or_play(taxes);
    }

    /// The number of cards in the greater (`true`) or lesser exchange: 2 or
    /// 1, fewer only in hand-made scenario positions with tiny hands.
    pub(crate) fn tax_size(&self, greater: bool) -> usize {
        let n = self.players as usize;
        let (top, bottom, k) = if greater {
            (0, n - 1, 2)
        } else {
            (1, n - 2, 1)
        };
        k.min(self.left[self.at(top) as usize] as usize)
            .min(self.left[self.at(bottom) as usize] as usize)
    }

    pub(crate) fn begin_taxes_or_play(&mut self, taxes: bool) {
        self.taxes = taxes;
        if !taxes {
            say!(self, Event::NoTaxes);
            self.begin_play();
            return;
        }
        if self.tax_size(true) > 0 {
            self.phase = Phase::GreaterTax;
            self.turn = self.at(0);
        } else {
            self.after_greater_choice();
        }
    }

    fn after_greater_choice(&mut self) {
        if self.players >= 4 && self.tax_size(false) > 0 {
            self.phase = Phase::LesserTax;
            self.turn = self.at(1);
        } else {
            self.resolve_taxes();
        }
    }

    fn record(&mut self, from: u8, to: u8, cards: Gift, kind: TransferKind) {
        self.transfers[self.n_transfers as usize] = Transfer {
            from: Seat::new(from as usize),
            to: Seat::new(to as usize),
            cards,
            kind,
        };
        self.n_transfers += 1;
    }

    /// The `k` best cards of a hand (lowest rank, Jesters worst: D8).
    fn best_cards(hand: Hand, k: usize) -> Option<Gift> {
        let mut h = hand;
        let a = h.best()?;
        if k == 1 {
            return Some(Gift::one(a));
        }
        h.remove(a, 1);
        Some(Gift::two(a, h.best()?))
    }

    fn move_cards(&mut self, from: u8, to: u8, g: Gift) {
        for c in g.cards() {
            self.hands[from as usize].remove(c, 1);
            self.hands[to as usize].add(c, 1);
        }
        let k = g.len() as u8;
        self.left[from as usize] -= k;
        self.left[to as usize] += k;
    }

    /// D8: all tax cards move at once, chosen from pre-exchange hands.
    fn resolve_taxes(&mut self) {
        let n = self.players as usize;
        let mut moves: [(u8, u8, Gift); 4] = [(0, 0, Gift::one(Card::JESTER)); 4];
        let mut k = 0;
        let exchanges = [(0, n - 1, true), (1, n - 2, false)];
        let m = if n >= 4 { 2 } else { 1 };
        for &(top, bottom, greater) in &exchanges[..m] {
            let size = self.tax_size(greater);
            if size == 0 {
                continue;
            }
            let (d, p) = (self.at(top), self.at(bottom));
            let pay = Self::best_cards(self.hands[p as usize], size).expect("tax size checked");
            let back = if greater {
                self.greater_gift.take()
            } else {
                self.lesser_gift.take()
            }
            .expect("tax choice made");
            moves[k] = (p, d, pay);
            moves[k + 1] = (d, p, back);
            k += 2;
        }
        for &(from, to, g) in &moves[..k] {
            self.move_cards(from, to, g);
            self.record(from, to, g, TransferKind::Tax);
        }
        if self.logging {
            for &(from, to, g) in &moves[..k] {
                let (f, t) = (seat(from), seat(to));
                let count = g.len() as u8;
                if self.pos[from as usize] > self.pos[to as usize] {
                    say!(
                        self,
                        Event::TaxPaid {
                            from: f,
                            to: t,
                            count,
                        }
                    );
                } else {
                    say!(
                        self,
                        Event::TaxReturned {
                            from: f,
                            to: t,
                            count,
                        }
                    );
                }
                self.tell_transfer(from, to, g);
            }
        }
        let n_merchants = n.saturating_sub(4);
        if (self.options.market || self.options.black_market) && n_merchants >= 2 {
            self.phase = Phase::Market;
            self.turn = self.at(2);
        } else {
            self.begin_play();
        }
    }

    pub(crate) fn begin_play(&mut self) {
        self.phase = Phase::Play;
        self.trick = None;
        self.passed = 0;
        self.turn = self.at(0);
        say!(
            self,
            Event::Leads {
                seat: seat(self.turn),
            }
        );
    }

    /// Says every seat's role for the hand, in table order (D4).
    fn say_roles(&mut self) {
        let n = self.players as usize;
        for p in 0..n {
            let s = self.order[p];
            say!(
                self,
                Event::Role {
                    seat: seat(s),
                    role: Role::of(p, n),
                }
            );
        }
    }

    /// A Dalmuti's tax choice (D8): the cards only to them, the fact to
    /// everyone.
    fn tell_choice(&mut self, s: u8, cards: Gift, role: Role) {
        tell!(
            self,
            s,
            Event::WillGive {
                seat: seat(s),
                cards,
                role,
            }
        );
        say!(self, Event::TaxChosen { seat: seat(s) });
    }

    /// Tells the giver and the receiver of cards what went across.
    fn tell_transfer(&mut self, from: u8, to: u8, cards: Gift) {
        let (f, t) = (seat(from), seat(to));
        tell!(
            self,
            from,
            Event::YouGive {
                from: f,
                to: t,
                cards,
            }
        );
        tell!(
            self,
            to,
            Event::YouGet {
                from: f,
                to: t,
                cards,
            }
        );
    }

    /// Whether `s` is a Merchant other than the first one (D14 market).
    pub(crate) fn is_market_partner(&self, s: Seat) -> bool {
        let n = self.players as usize;
        if s.index() >= n {
            return false;
        }
        let p = self.pos[s.index()] as usize;
        n >= 6 && p >= 3 && p + 3 <= n
    }

    /// The next seat clockwise (table order) after `s` that still holds
    /// cards.
    #[inline]
    pub(crate) fn next_active(&self, s: u8) -> u8 {
        let p = self.pos[s as usize] as u32;
        let m = self.active_pos as u32;
        let after = m & !((2u32 << p) - 1);
        let q = if after != 0 {
            after.trailing_zeros()
        } else {
            m.trailing_zeros()
        };
        self.order[q as usize]
    }

    #[inline(always)]
    fn play(&mut self, p: Play) {
        let s = self.turn;
        let h = &mut self.hands[s as usize];
        h.0[p.rank() as usize] -= p.naturals();
        h.0[JESTER] -= p.jesters();
        let pl = &mut self.played[s as usize];
        pl.0[p.rank() as usize] += p.naturals();
        pl.0[JESTER] += p.jesters();
        self.left[s as usize] -= p.size();
        self.trick = Some((p, s));
        self.passed = 0;
        say!(
            self,
            Event::Play {
                seat: seat(s),
                play: p,
            }
        );
        if self.left[s as usize] == 0 && self.go_out(s) {
            return;
        }
        self.turn = self.next_active(s);
    }

    #[inline(always)]
    fn pass(&mut self) {
        let s = self.turn;
        self.passed |= bit(s);
        say!(self, Event::Pass { seat: seat(s) });
        let by = self.trick.expect("a trick to pass on").1;
        // D10: everyone else still holding cards has passed
        if self.active & !bit(by) & !self.passed == 0 {
            self.trick = None;
            self.passed = 0;
            // D11: the lead goes clockwise if the last player went out
            self.turn = if self.active & bit(by) != 0 {
                by
            } else {
                self.next_active(by)
            };
            say!(
                self,
                Event::Leads {
                    seat: seat(self.turn),
                }
            );
        } else {
            self.turn = self.next_active(s);
        }
    }

    /// D11, D12: `s` has no cards left. Returns true if the hand ended.
    fn go_out(&mut self, s: u8) -> bool {
        self.active &= !bit(s);
        self.active_pos &= !(1 << self.pos[s as usize]);
        self.finished[self.n_finished as usize] = s;
        self.n_finished += 1;
        let pts = self.active.count_ones() as i64;
        self.scores[s as usize] += pts;
        say!(
            self,
            Event::Out {
                seat: seat(s),
                place: self.n_finished,
                points: pts as u8,
            }
        );
        // the hand ends when at most one seat still holds cards (none only
        // in a position where several seats were already out of cards)
        if self.active.count_ones() <= 1 {
            if self.active != 0 {
                let last = self.active.trailing_zeros() as u8;
                self.finished[self.n_finished as usize] = last;
                self.n_finished += 1;
                say!(self, Event::Last { seat: seat(last) });
            }
            self.end_hand();
            return true;
        }
        false
    }

    /// D12, D14: bonuses, session end, or the next hand in finishing order.
    fn end_hand(&mut self) {
        let n = self.players as usize;
        if (self.n_finished as usize) < n {
            // only a position where some seat never held cards: those seats
            // finish after everyone else, in table order
            for p in 0..n {
                let s = self.order[p];
                if !self.finished[..self.n_finished as usize].contains(&s) {
                    self.finished[self.n_finished as usize] = s;
                    self.n_finished += 1;
                }
            }
        }
        let fpos = |g: &Dalmuti, s: u8| {
            g.finished[..n]
                .iter()
                .position(|&x| x == s)
                .expect("everyone finished")
        };
        let (gd, gp) = (self.at(0), self.at(n - 1));
        if self.options.benevolent_rulers {
            if fpos(self, gp) < n - 1 {
                self.scores[gd as usize] += 1;
                say!(
                    self,
                    Event::GreaterPeonRises {
                        peon: seat(gp),
                        dalmuti: seat(gd),
                    }
                );
            }
            if n >= 4 {
                let (ld, lp) = (self.at(1), self.at(n - 2));
                if fpos(self, lp) < n - 2 {
                    self.scores[ld as usize] += 1;
                    say!(
                        self,
                        Event::LesserPeonRises {
                            peon: seat(lp),
                            dalmuti: seat(ld),
                        }
                    );
                }
            }
        }
        if self.options.the_elected && self.finished[0] == gp {
            self.scores[gp as usize] += 1;
            say!(self, Event::Elected { seat: seat(gp) });
        }
        say!(
            self,
            Event::HandOver {
                number: self.hand_no,
                order: self.finished[..n].iter().map(|&s| seat(s)).collect(),
                scores: self.scores[..n].to_vec(),
            }
        );
        let target_hit = self
            .options
            .target
            .is_some_and(|t| self.scores[..n].iter().any(|&x| x >= t as i64));
        if self.hand_no >= self.options.hands || target_hit {
            self.phase = Phase::Over;
            if self.first_out_wins() {
                say!(
                    self,
                    Event::FirstOut {
                        seat: seat(self.finished[0]),
                    }
                );
            } else {
                say!(
                    self,
                    Event::SessionOver {
                        hands: self.hand_no,
                        winners: self.best_scores(),
                        points: self.scores[..n].iter().copied().max().unwrap_or(0),
                    }
                );
            }
            return;
        }
        self.hand_no += 1;
        self.order[..n].copy_from_slice(&self.finished[..n]);
        self.fix_pos();
        self.say_roles();
        self.start_hand();
    }

    // ----- the rules API -------------------------------------------------

    /// Every legal action of the seat to move, in a fixed order: `pass`
    /// first; then plays by rank (Jesters alone last), then size, then
    /// number of Jesters; gifts by their cards, best first.
    #[inline(always)]
    pub(crate) fn legal_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match (self.phase, self.trick) {
            (Phase::Play, Some((last, _))) => self.follow_moves(last, out),
            _ => self.other_moves(out),
        }
    }

    /// [`Dalmuti::legal_into`] for everything but following a trick.
    #[inline(never)]
    fn other_moves(&self, out: &mut Vec<Action>) {
        let s = self.turn as usize;
        match self.phase {
            Phase::Over => {}
            Phase::SeatNew => {
                out.push(Action::SeatNew(Side::Above));
                out.push(Action::SeatNew(Side::Below));
            }
            Phase::Revolution => {
                out.push(Action::Revolution);
                out.push(Action::NoRevolution);
            }
            Phase::GreaterTax => Self::gifts(&self.hands[s], self.tax_size(true), out),
            Phase::LesserTax => Self::gifts(&self.hands[s], self.tax_size(false), out),
            Phase::MarketReturn => Self::gifts(&self.hands[s], 1, out),
            Phase::Market => {
                let n = self.players as usize;
                for p in 3..=n - 3 {
                    let partner = Seat::new(self.at(p) as usize);
                    if self.options.black_market {
                        out.push(Action::BlackMarket(partner));
                    } else {
                        for i in 1..=JESTER {
                            if self.hands[s].0[i] > 0 {
                                out.push(Action::Market(partner, Card::from_index(i)));
                            }
                        }
                    }
                }
                out.push(Action::NoMarket);
            }
            Phase::Play => {
                let h = &self.hands[s].0;
                let jc = h[JESTER];
                match self.trick {
                    None => {
                        // exactly naturals x (jc + 1) sets per rank, plus
                        // the Jesters alone: size the list once, fill it
                        let naturals = self.left[s] - jc;
                        let total = naturals as usize * (jc as usize + 1) + jc as usize;
                        if jc == 0 {
                            // branch-free: copy each rank's whole run of
                            // sizes 1..=12 and advance by the count held
                            out.resize(total + 12, Action::Pass);
                            let mut i = 0;
                            for r in 1..13usize {
                                out[i..i + 12].copy_from_slice(&LEAD_RUNS[r]);
                                i += h[r] as usize;
                            }
                            out.truncate(total);
                        } else {
                            out.resize(total, Action::Pass);
                            let buf = &mut out[..total];
                            let mut i = 0;
                            for r in 1..13usize {
                                let c = h[r];
                                for size in 1..c + jc + 1 {
                                    // Jesters: at most jc and size-1, at least size-c
                                    let jlo = size.saturating_sub(c);
                                    let jhi = jc.min(size - 1);
                                    for j in jlo..jhi + 1 {
                                        buf[i] = Action::Play(Play::raw(r as u8, size - j, j));
                                        i += 1;
                                    }
                                }
                            }
                            // Jesters alone rank 13 (D6): last
                            for j in 1..jc + 1 {
                                buf[i] = Action::Play(Play::raw(JESTER as u8, 0, j));
                                i += 1;
                            }
                            debug_assert_eq!(i, total);
                        }
                    }
                    Some((last, _)) => self.follow_moves(last, out),
                }
            }
        }
    }

    /// The moves on a trick (D9): `pass`, then every set of the same size
    /// and a better rank, by rank then number of Jesters.
    #[inline(always)]
    fn follow_moves(&self, last: Play, out: &mut Vec<Action>) {
        let s = self.turn as usize;
        let h = &self.hands[s].0;
        let jc = h[JESTER];
        out.push(Action::Pass);
        let k = last.size();
        let top = last.rank() as u32;
        // SWAR: the high bit of byte r is set iff h[r] >= need
        let x = self.hands[s].lanes() | HIGH;
        // ranks 1..top only
        let below = HIGH & ((1u128 << (8 * top)) - 1) & !0xff;
        if jc == 0 || k == 1 {
            // fixed trip count, no data-dependent branch: write every rank's
            // play and advance only over the held ones
            let m = x.wrapping_sub(k as u128 * LOW) & below;
            out.resize(13, Action::Pass);
            let buf = &mut out[..13];
            let mut len = 1;
            for r in 1..13u32 {
                buf[len] = Action::Play(Play::raw(r as u8, k, 0));
                len += ((m >> (8 * r + 7)) & 1) as usize;
            }
            out.truncate(len);
        } else {
            let jmax = jc.min(k - 1);
            // a rank qualifies with up to jmax Jesters
            let mut m = x.wrapping_sub((k - jmax) as u128 * LOW) & below;
            while m != 0 {
                let r = (m.trailing_zeros() / 8) as u8;
                let c = h[r as usize];
                for j in k.saturating_sub(c)..jmax + 1 {
                    out.push(Action::Play(Play::raw(r, k - j, j)));
                }
                m &= m - 1;
            }
        }
    }

    /// Every gift of `k` cards (1 or 2) from `hand`, sorted.
    fn gifts(hand: &Hand, k: usize, out: &mut Vec<Action>) {
        for i in 1..=JESTER {
            let c = hand.0[i];
            if c == 0 {
                continue;
            }
            let a = Card::from_index(i);
            if k == 1 {
                out.push(Action::Give(Gift::one(a)));
                continue;
            }
            if c >= 2 {
                out.push(Action::Give(Gift::two(a, a)));
            }
            for j in i + 1..=JESTER {
                if hand.0[j] > 0 {
                    out.push(Action::Give(Gift::two(a, Card::from_index(j))));
                }
            }
        }
    }

    fn check_held(hand: &Hand, need: &Hand, phase: Phase) -> Result<(), IllegalAction> {
        for i in 1..=JESTER {
            if need.0[i] > hand.0[i] {
                return Err(IllegalAction::NotHeld {
                    card: Card::from_index(i),
                    need: need.0[i],
                    have: hand.0[i],
                    phase,
                });
            }
        }
        Ok(())
    }

    /// Whether the seat to move may take `a`, and if not, why.
    pub(crate) fn check_action(&self, a: Action) -> Result<(), IllegalAction> {
        if self.phase == Phase::Over {
            return Err(IllegalAction::GameOver);
        }
        let wrong = || IllegalAction::WrongPhase {
            action: a,
            phase: self.phase,
        };
        let hand = &self.hands[self.turn as usize];
        match a {
            Action::Pass => {
                if self.phase != Phase::Play {
                    return Err(wrong());
                }
                if self.trick.is_none() {
                    return Err(IllegalAction::MustLead);
                }
                Ok(())
            }
            Action::Play(p) => {
                if self.phase != Phase::Play {
                    return Err(wrong());
                }
                if let Some((last, _)) = self.trick {
                    if !p.beats(last) {
                        return Err(IllegalAction::DoesNotBeat { last });
                    }
                }
                let mut need = Hand::EMPTY;
                need.0[p.rank() as usize] += p.naturals();
                need.0[JESTER] += p.jesters();
                Self::check_held(hand, &need, self.phase)
            }
            Action::Give(g) => {
                let k = match self.phase {
                    Phase::GreaterTax => self.tax_size(true),
                    Phase::LesserTax => self.tax_size(false),
                    Phase::MarketReturn => 1,
                    Phase::SeatNew
                    | Phase::Revolution
                    | Phase::Market
                    | Phase::Play
                    | Phase::Over => return Err(wrong()),
                };
                if g.len() != k {
                    return Err(IllegalAction::GiftSize {
                        expected: k,
                        phase: self.phase,
                    });
                }
                Self::check_held(hand, &g.hand(), self.phase)
            }
            Action::Revolution | Action::NoRevolution => {
                if self.phase != Phase::Revolution {
                    return Err(IllegalAction::NoRevolution);
                }
                Ok(())
            }
            Action::Market(partner, c) => {
                if self.phase != Phase::Market {
                    return Err(wrong());
                }
                if self.options.black_market {
                    return Err(IllegalAction::MarketKind { black: true });
                }
                if !self.is_market_partner(partner) {
                    return Err(IllegalAction::NotMerchant(partner));
                }
                let mut need = Hand::EMPTY;
                need.add(c, 1);
                Self::check_held(hand, &need, self.phase)
            }
            Action::BlackMarket(partner) => {
                if self.phase != Phase::Market {
                    return Err(wrong());
                }
                if !self.options.black_market {
                    return Err(IllegalAction::MarketKind { black: false });
                }
                if !self.is_market_partner(partner) {
                    return Err(IllegalAction::NotMerchant(partner));
                }
                Ok(())
            }
            Action::NoMarket => {
                if self.phase != Phase::Market {
                    return Err(wrong());
                }
                Ok(())
            }
            Action::SeatNew(_) => {
                if self.phase != Phase::SeatNew {
                    return Err(wrong());
                }
                Ok(())
            }
        }
    }

    /// Applies a legal action.
    #[inline(always)]
    pub(crate) fn apply_action(&mut self, a: Action) {
        self.fresh = false;
        match a {
            Action::Pass => self.pass(),
            Action::Play(p) => self.play(p),
            Action::Give(_)
            | Action::Revolution
            | Action::NoRevolution
            | Action::Market(..)
            | Action::BlackMarket(_)
            | Action::NoMarket
            | Action::SeatNew(_) => self.apply_other(a),
        }
    }

    /// [`Dalmuti::apply_action`] for everything but plays and passes.
    #[inline(never)]
    fn apply_other(&mut self, a: Action) {
        let s = self.turn;
        match a {
            Action::Pass => self.pass(),
            Action::Play(p) => self.play(p),
            Action::Give(g) => self.give(s, g),
            Action::Revolution => {
                let n = self.players as usize;
                if self.pos[s as usize] as usize == n - 1 {
                    self.revolution = Revolution::Great;
                    say!(self, Event::GreatRevolution { seat: seat(s) });
                    self.order[..n].reverse();
                    self.fix_pos();
                    self.say_roles();
                    self.begin_taxes_or_play(true);
                } else {
                    self.revolution = Revolution::Declared;
                    say!(self, Event::Revolution { seat: seat(s) });
                    self.begin_taxes_or_play(false);
                }
            }
            Action::NoRevolution => {
                // D7: keeping quiet reveals nothing about who held the Jesters
                tell!(self, s, Event::Declined { seat: seat(s) });
                say!(self, Event::NoRevolution);
                let taxes = self.taxes_unless_revolution();
                self.begin_taxes_or_play(taxes);
            }
            Action::Market(partner, c) => {
                let t = partner.index() as u8;
                let g = Gift::one(c);
                self.move_cards(s, t, g);
                self.record(s, t, g, TransferKind::Market);
                say!(
                    self,
                    Event::MarketTrade {
                        seat: seat(s),
                        partner,
                    }
                );
                self.tell_transfer(s, t, g);
                self.market_with = Some(t);
                self.phase = Phase::MarketReturn;
                self.turn = t;
            }
            Action::BlackMarket(partner) => self.black_market(s, partner),
            Action::NoMarket => {
                say!(self, Event::NoTrade { seat: seat(s) });
                self.begin_play();
            }
            Action::SeatNew(side) => {
                let n = self.players as usize;
                say!(
                    self,
                    Event::SeatsNewcomer {
                        seat: seat(s),
                        side
                    }
                );
                let mid = n / 2;
                self.seat_newcomer(match side {
                    Side::Above => mid,
                    Side::Below => mid + 1,
                });
                self.deal();
                self.after_deal();
            }
        }
    }

    /// `give`: seat `s`'s tax choice (D8) or the market's card back (D14).
    fn give(&mut self, s: u8, g: Gift) {
        match self.phase {
            Phase::GreaterTax => {
                self.tell_choice(s, g, Role::GreaterPeon);
                self.greater_gift = Some(g);
                self.after_greater_choice();
            }
            Phase::LesserTax => {
                self.tell_choice(s, g, Role::LesserPeon);
                self.lesser_gift = Some(g);
                self.resolve_taxes();
            }
            Phase::MarketReturn => {
                let first = self.at(2);
                self.move_cards(s, first, g);
                self.record(s, first, g, TransferKind::Market);
                say!(
                    self,
                    Event::MarketReturn {
                        from: seat(s),
                        to: seat(first),
                    }
                );
                self.tell_transfer(s, first, g);
                self.begin_play();
            }
            Phase::SeatNew | Phase::Revolution | Phase::Market | Phase::Play | Phase::Over => {
                panic!("give in phase {}", self.phase)
            }
        }
    }

    /// `black-market`: seat `s` and `partner` each draw a card at random
    /// from the other's hand (D14).
    fn black_market(&mut self, s: u8, partner: Seat) {
        let t = partner.index() as u8;
        let mine = self.hands[s as usize];
        let theirs = self.hands[t as usize];
        let a = mine.nth(below(&mut self.rng, mine.len() as u32) as usize);
        let b = theirs.nth(below(&mut self.rng, theirs.len() as u32) as usize);
        self.move_cards(s, t, Gift::one(a));
        self.move_cards(t, s, Gift::one(b));
        self.record(s, t, Gift::one(a), TransferKind::Market);
        self.record(t, s, Gift::one(b), TransferKind::Market);
        self.market_with = Some(t);
        say!(
            self,
            Event::BlackMarket {
                seat: seat(s),
                partner,
            }
        );
        tell!(
            self,
            s,
            Event::BlackMarketDraw {
                seat: seat(s),
                other: partner,
                lost: a,
                got: b,
            }
        );
        tell!(
            self,
            t,
            Event::BlackMarketDraw {
                seat: partner,
                other: seat(s),
                lost: b,
                got: a,
            }
        );
        self.begin_play();
    }
}
