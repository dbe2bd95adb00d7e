//! The Great Dalmuti as tensors ([`game::Tensor`]): a fixed action space
//! and a fixed-length `f32` observation, for reinforcement learning.
//!
//! Shaped for a batched vector environment: plays and gifts are numbered
//! by arithmetic over their parts and read back from small constant
//! tables, the observation is written from the state's count arrays into
//! the caller's buffer, and nothing allocates. The observation reads only
//! what the seat's [`crate::View`] shows: its own hand, its own transfers
//! and pending tax choice (D8), and the public table; while a revolution
//! decision is pending nobody but the holder of both Jesters learns whose
//! it is (D7), so "to move" is blank for every seat then and only the
//! holder's own "my decision" flag is set.
//!
//! A session can grow (D13): everything per seat is sized for `S` seats,
//! `S` = the starting players plus the joins (at most 13), so the sizes
//! stay fixed for the whole session; seats not yet at the table are zero.
//! Seats are ordered relative to the observer in table order (D4): the
//! observer, then the seat that plays after it, and so on, so one policy
//! serves every seat. Actions that name a seat (the market, D14) name it
//! the same way, relative to the seat to move.
//!
//! # Action ids
//!
//! `S` as above; card kinds `1..=12` and the Jester (13).
//!
//! | id | len | action |
//! |---|---|---|
//! | 0 | 1 | `pass` (D9) |
//! | 1 | 1 | `revolution` (D7) |
//! | 2 | 1 | `no-revolution` (D7) |
//! | 3 | 1 | `no-market` (D14) |
//! | 4 | 2 | `seat-new above`, `seat-new below` (D13) |
//! | 6 | 236 | `play`: for rank r = 1..=12, naturals n = 1..=r, Jesters j = 0..=2, id `6 + 3(r-1)r/2 + 3(n-1) + j`; then `play J` (240) and `play 2xJ` (241) (D6, D9) |
//! | 242 | 13 | `give c`, one card, c = 1..=12, J (D8, D14) |
//! | 255 | 91 | `give a b`, a ≤ b, pairs in order (1 1), (1 2) .. (1 J), (2 2) .. (J J) (D8) |
//! | 346 | 13(S-1) | `market P c` (D14): `346 + 13(k-1) + (c-1)`, P the k-th seat after the mover in table order |
//! | 346 + 13(S-1) | S-1 | `market P` (black market, D14): k-th seat after the mover |
//!
//! `num_actions` = `346 + 14(S-1)`: 388 for 4 players without joins.
//!
//! # Observation
//!
//! Copies of kind c: c for a rank, 2 for the Jester; card counts per kind
//! are divided by them. A global block of 111 values, then one block of
//! `31 + S` per seat slot (the observer first, then in table order):
//! length `111 + S(31 + S)` (251 for 4 players).
//!
//! | offset | len | meaning |
//! |---|---|---|
//! | 0 | 8 | phase one-hot: seat-new, revolution, greater-tax, lesser-tax, market, market-return, play, over |
//! | 8 | 1 | 1 if the decision is the observer's (also a pending revolution's, D7) |
//! | 9 | 1 | hand number / hands in the session (D12) |
//! | 10 | 1 | taxes are paid this hand (D8) |
//! | 11 | 1 | a revolution decision was offered this hand (D7; never says whose) |
//! | 12 | 1 | a revolution was declared this hand |
//! | 13 | 1 | it was a Great Revolution (D7) |
//! | 14 | 1 | the observer was offered the revolution (held both Jesters) |
//! | 15 | 1 | a trick is on (there is a set to beat) |
//! | 16 | 13 | the set to beat: rank one-hot (1..=12, 13 for Jesters alone, D6) |
//! | 29 | 14 | the set to beat: size one-hot (1..=14) |
//! | 43 | 1 | the set to beat: its Jesters / 2 |
//! | 44 | 13 | the observer's hand per kind / copies |
//! | 57 | 13 | cards unseen by the observer (the hand's deck, D2, minus its own hand and every card played) per kind / copies |
//! | 70 | 13 | the observer's tax choice made and not yet carried out (D8), per kind / 2 |
//! | 83 | 13 | cards the observer received this hand (taxes, market) per kind / 2 |
//! | 96 | 13 | cards the observer gave this hand per kind / 2 |
//! | 109 | 1 | cards in this hand's deck / 80 (D2) |
//! | 110 | 1 | seats at the table / S |
//!
//! Per seat slot (offset within the slot's block):
//!
//! | offset | len | meaning |
//! |---|---|---|
//! | 0 | 1 | the seat is at the table |
//! | 1 | S | its table position one-hot (0 = Greater Dalmuti, D4) |
//! | 1 + S | 5 | its role one-hot: Greater Dalmuti, Lesser Dalmuti, Merchant, Lesser Peon, Greater Peon |
//! | 6 + S | 1 | cards left / 32 |
//! | 7 + S | 1 | out of cards this hand (D11) |
//! | 8 + S | 1 | its place among those out / S (0 while in) |
//! | 9 + S | 1 | passed since the last play (D9, D10) |
//! | 10 + S | 1 | made the set to beat |
//! | 11 + S | 1 | is to move (never during a pending revolution, D7) |
//! | 12 + S | 13 | cards it played this hand per kind / copies |
//! | 25 + S | 1 | session score / ((S + 1) x hand number), at most 1 (D12) |
//! | 26 + S | 1 | session score / target (0 without a target, D12) |
//! | 27 + S | 1 | declared the revolution this hand (D7) |
//! | 28 + S | 1 | the Merchant chosen for the market (D14) |
//! | 29 + S | 1 | cards it gave this hand (taxes, market; the count is public) / 4 |
//! | 30 + S | 1 | cards it received this hand / 4 |

use crate::action::{Action, Gift, Play, Side};
use crate::card::{Card, Hand, JESTER};
use crate::options::Options;
use crate::role::{Phase, Role};
use crate::state::{Dalmuti, Revolution};
use game::{scaled, Game, Seat, Tensor};

/// The first play id.
const PLAY_BASE: usize = 6;
/// Plays of naturals (12 ranks, 1..=r naturals, 0..=2 Jesters).
const NATURAL_PLAYS: usize = 3 * 78;
/// The first one-card gift id.
const GIVE_BASE: usize = PLAY_BASE + NATURAL_PLAYS + 2;
/// The first two-card gift id.
const PAIR_BASE: usize = GIVE_BASE + 13;
/// The first market id.
const MARKET_BASE: usize = PAIR_BASE + 91;
/// Length of the global block.
const GLOBAL: usize = 111;

/// `PLAYS[i]` = (rank, naturals, Jesters) of play id `PLAY_BASE + i`.
const PLAYS: [(u8, u8, u8); NATURAL_PLAYS + 2] = {
    let mut t = [(0u8, 0u8, 0u8); NATURAL_PLAYS + 2];
    let mut i = 0;
    let mut r = 1;
    while r <= 12 {
        let mut n = 1;
        while n <= r {
            let mut j = 0;
            while j <= 2 {
                t[i] = (r as u8, n as u8, j as u8);
                i += 1;
                j += 1;
            }
            n += 1;
        }
        r += 1;
    }
    t[i] = (JESTER as u8, 0, 1);
    t[i + 1] = (JESTER as u8, 0, 2);
    t
};

/// `PAIRS[i]` = the kinds (a, b), a ≤ b, of gift id `PAIR_BASE + i`.
const PAIRS: [(u8, u8); 91] = {
    let mut t = [(0u8, 0u8); 91];
    let mut i = 0;
    let mut a = 1;
    while a <= 13 {
        let mut b = a;
        while b <= 13 {
            t[i] = (a as u8, b as u8);
            i += 1;
            b += 1;
        }
        a += 1;
    }
    t
};

/// The copies of each kind in the full deck (D2), as divisors; index 0
/// unused.
const COPIES: [f32; 14] = [
    1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 2.0,
];

/// The index of the pair (a, b), kinds 1..=13, a ≤ b.
#[inline]
fn pair_index(a: usize, b: usize) -> usize {
    let (x, y) = (a - 1, b - 1);
    x * 13 - x * (x.saturating_sub(1)) / 2 + (y - x)
}

/// `S`: seat slots for a session started with `players` under `options`.
fn slots(options: &Options, players: usize) -> usize {
    (players + options.joins.len()).min(crate::MAX_PLAYERS)
}

impl Dalmuti {
    /// `S` for this session: the seats now plus the joins still to come
    /// (one waiting to be seated counts as to come).
    fn seat_slots(&self) -> usize {
        let h = self.hand_no;
        let to_come = self
            .options
            .joins
            .hands()
            .iter()
            .filter(|&&j| j as u32 > h || (j as u32 == h && self.phase == Phase::SeatNew))
            .count();
        (self.players as usize + to_come).min(crate::MAX_PLAYERS)
    }

    /// The table position of the seat to move (0 when nobody is).
    fn mover_pos(&self) -> usize {
        match self.to_move_seat() {
            Some(s) => self.pos[s.index()] as usize,
            None => 0,
        }
    }
}

/// Writes `hand / copies` per kind into `out` (13 values).
#[inline]
fn write_kinds(hand: &Hand, out: &mut [f32]) {
    for k in 1..=JESTER {
        out[k - 1] = hand.0[k] as f32 / COPIES[k];
    }
}

impl Tensor for Dalmuti {
    fn num_actions(options: &Options, players: usize) -> usize {
        MARKET_BASE + 14 * (slots(options, players) - 1)
    }

    fn max_players(options: &Options, players: usize) -> usize {
        slots(options, players)
    }

    fn obs_len(options: &Options, players: usize) -> usize {
        let s = slots(options, players);
        GLOBAL + s * (31 + s)
    }

    #[inline]
    fn action_id(&self, action: Action) -> Option<usize> {
        match action {
            Action::Pass => Some(0),
            Action::Revolution => Some(1),
            Action::NoRevolution => Some(2),
            Action::NoMarket => Some(3),
            Action::SeatNew(Side::Above) => Some(4),
            Action::SeatNew(Side::Below) => Some(5),
            Action::Play(p) => {
                let (r, n, j) = (
                    p.rank() as usize,
                    p.naturals() as usize,
                    p.jesters() as usize,
                );
                if n == 0 {
                    Some(PLAY_BASE + NATURAL_PLAYS + j - 1)
                } else if n <= r {
                    Some(PLAY_BASE + 3 * (r - 1) * r / 2 + 3 * (n - 1) + j)
                } else {
                    None
                }
            }
            Action::Give(g) => {
                let mut cards = g.cards();
                let a = cards.next().map_or(1, |c| c.index());
                Some(match cards.next() {
                    None => GIVE_BASE + a - 1,
                    Some(b) => PAIR_BASE + pair_index(a, b.index()),
                })
            }
            Action::Market(partner, card) => {
                let k = self.partner_offset(partner)?;
                Some(MARKET_BASE + 13 * (k - 1) + card.index() - 1)
            }
            Action::BlackMarket(partner) => {
                let k = self.partner_offset(partner)?;
                Some(MARKET_BASE + 13 * (self.seat_slots() - 1) + k - 1)
            }
        }
    }

    fn action_of(&self, id: usize) -> Option<Action> {
        let s = self.seat_slots();
        Some(match id {
            0 => Action::Pass,
            1 => Action::Revolution,
            2 => Action::NoRevolution,
            3 => Action::NoMarket,
            4 => Action::SeatNew(Side::Above),
            5 => Action::SeatNew(Side::Below),
            _ if id < GIVE_BASE => {
                let (r, n, j) = PLAYS[id - PLAY_BASE];
                Action::Play(Play::raw(r, n, j))
            }
            _ if id < PAIR_BASE => Action::Give(Gift::one(Card::from_index(id - GIVE_BASE + 1))),
            _ if id < MARKET_BASE => {
                let (a, b) = PAIRS[id - PAIR_BASE];
                Action::Give(Gift::two(
                    Card::from_index(a as usize),
                    Card::from_index(b as usize),
                ))
            }
            _ if id < MARKET_BASE + 13 * (s - 1) => {
                let i = id - MARKET_BASE;
                let partner = self.partner_at(i / 13 + 1)?;
                Action::Market(partner, Card::from_index(i % 13 + 1))
            }
            _ if id < MARKET_BASE + 14 * (s - 1) => {
                let k = id - MARKET_BASE - 13 * (s - 1) + 1;
                Action::BlackMarket(self.partner_at(k)?)
            }
            _ => return None,
        })
    }

    fn write_obs(&self, seat: Seat, out: &mut [f32]) {
        let s_max = self.seat_slots();
        let block = 31 + s_max;
        let out = &mut out[..GLOBAL + s_max * block];
        out.fill(0.0);
        let n = self.players as usize;
        let me = seat.index();
        let seated = me < n;
        let (g, seats) = out.split_at_mut(GLOBAL);
        let phase = self.phase;
        g[match phase {
            Phase::SeatNew => 0,
            Phase::Revolution => 1,
            Phase::GreaterTax => 2,
            Phase::LesserTax => 3,
            Phase::Market => 4,
            Phase::MarketReturn => 5,
            Phase::Play => 6,
            Phase::Over => 7,
        }] = 1.0;
        let to_move = self.to_move_seat();
        g[8] = f32::from(to_move == Some(seat));
        g[9] = scaled(self.hand_no as f32, self.options.hands as f32);
        g[10] = f32::from(self.taxes);
        g[11] = f32::from(self.jester_holder.is_some());
        g[12] = f32::from(self.revolution != Revolution::None);
        g[13] = f32::from(self.revolution == Revolution::Great);
        g[14] = f32::from(seated && self.jester_holder == Some(me as u8));
        if let Some((play, _)) = self.trick {
            g[15] = 1.0;
            g[16 + play.rank() as usize - 1] = 1.0;
            g[29 + (play.size() as usize).clamp(1, 14) - 1] = 1.0;
            g[43] = play.jesters() as f32 / 2.0;
        }
        let hand = if seated { self.hands[me] } else { Hand::EMPTY };
        write_kinds(&hand, &mut g[44..57]);
        let mut unseen = self.deck;
        for k in 1..=JESTER {
            let mut gone = hand.0[k];
            for p in &self.played[..n] {
                gone += p.0[k];
            }
            unseen.0[k] = unseen.0[k].saturating_sub(gone);
        }
        write_kinds(&unseen, &mut g[57..70]);
        if seated && phase == Phase::LesserTax && self.pos[me] == 0 {
            if let Some(gift) = self.greater_gift {
                for c in gift.cards() {
                    g[70 + c.index() - 1] += 0.5;
                }
            }
        }
        for t in &self.transfers[..self.n_transfers as usize] {
            let (from, to) = (t.from.index(), t.to.index());
            for c in t.cards.cards() {
                if to == me {
                    g[83 + c.index() - 1] += 0.5;
                }
                if from == me {
                    g[96 + c.index() - 1] += 0.5;
                }
            }
            seats_add(seats, self.slot_of(from, me), block, 29 + s_max, 0.25);
            seats_add(seats, self.slot_of(to, me), block, 30 + s_max, 0.25);
        }
        for v in &mut g[70..109] {
            *v = v.min(1.0);
        }
        g[109] = self.deck.len() as f32 / 80.0;
        g[110] = scaled(n as f32, s_max as f32);

        self.write_seats(seats, me, s_max, block);
    }
}

impl Dalmuti {
    /// The per-seat blocks of the observation (one of `block` values per
    /// seat, `me`'s first), after the transfers' counts were added to
    /// them: place, role, cards left, finishing, passing, the trick, the
    /// turn, played cards, scores, the revolution's declarer, the market.
    fn write_seats(&self, seats: &mut [f32], me: usize, s_max: usize, block: usize) {
        let n = self.players as usize;
        let public_to_move = self.public_to_move();
        let declarer = match self.revolution {
            Revolution::None => None,
            Revolution::Declared | Revolution::Great => self.jester_holder,
        };
        let score_scale = ((s_max + 1) as f32) * self.hand_no.max(1) as f32;
        for p in 0..n {
            let b = &mut seats[self.slot_of(p, me) * block..][..block];
            let pos = self.pos[p] as usize;
            b[0] = 1.0;
            b[1 + pos.min(s_max - 1)] = 1.0;
            b[1 + s_max
                + match Role::of(pos, n) {
                    Role::GreaterDalmuti => 0,
                    Role::LesserDalmuti => 1,
                    Role::Merchant => 2,
                    Role::LesserPeon => 3,
                    Role::GreaterPeon => 4,
                }] = 1.0;
            b[6 + s_max] = scaled(self.left[p] as f32, 32.0);
            if let Some(place) = self.finished[..self.n_finished as usize]
                .iter()
                .position(|&x| x as usize == p)
            {
                b[7 + s_max] = 1.0;
                b[8 + s_max] = scaled((place + 1) as f32, s_max as f32);
            }
            b[9 + s_max] = f32::from(self.passed & (1 << p) != 0);
            b[10 + s_max] = f32::from(self.trick.is_some_and(|(_, by)| by as usize == p));
            b[11 + s_max] = f32::from(public_to_move.is_some_and(|t| t.index() == p));
            write_kinds(&self.played[p], &mut b[12 + s_max..25 + s_max]);
            let score = self.scores[p].max(0) as f32;
            b[25 + s_max] = scaled(score, score_scale);
            if let Some(t) = self.options.target {
                b[26 + s_max] = scaled(score, t as f32);
            }
            b[27 + s_max] = f32::from(declarer == Some(p as u8));
            b[28 + s_max] = f32::from(self.market_with == Some(p as u8));
            b[29 + s_max] = b[29 + s_max].min(1.0);
            b[30 + s_max] = b[30 + s_max].min(1.0);
        }
    }
}

/// Adds `v` at `offset` of slot `slot`'s block, if the slot exists.
#[inline]
fn seats_add(seats: &mut [f32], slot: usize, block: usize, offset: usize, v: f32) {
    if let Some(x) = seats.get_mut(slot * block + offset) {
        *x += v;
    }
}

impl Dalmuti {
    /// The slot of seat `p` in `me`'s observation: its table position
    /// counted from `me`'s (from the Greater Dalmuti's if `me` is not
    /// seated).
    #[inline]
    fn slot_of(&self, p: usize, me: usize) -> usize {
        let n = self.players as usize;
        let base = if me < n { self.pos[me] as usize } else { 0 };
        (self.pos[p] as usize + n - base) % n
    }

    /// `k`: `partner` is the k-th seat after the mover in table order
    /// (1..n); `None` for the mover itself or a seat not at the table.
    #[inline]
    fn partner_offset(&self, partner: Seat) -> Option<usize> {
        let n = self.players as usize;
        let p = partner.index();
        if p >= n {
            return None;
        }
        let k = (self.pos[p] as usize + n - self.mover_pos()) % n;
        (k > 0).then_some(k)
    }

    /// The k-th seat after the mover in table order, if the table has it.
    #[inline]
    fn partner_at(&self, k: usize) -> Option<Seat> {
        let n = self.players as usize;
        (k > 0 && k < n).then(|| Seat::new(self.order[(self.mover_pos() + k) % n] as usize))
    }
}
