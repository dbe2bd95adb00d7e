//! The Big Cheese as tensors ([`game::Tensor`]): a fixed action space and
//! a fixed-length `f32` observation, for reinforcement learning.
//!
//! Shaped for a batched vector environment: ids are arithmetic (a re-roll
//! of several dice is ranked as a multiset with a small binomial table,
//! not looked up in a map), the observation is written straight from the
//! state's fixed arrays into the caller's buffer, and nothing allocates.
//! Everything in this game is public except the deck below the top card
//! and the dice to come (B3), so the observation may show every seat's
//! position; it reads only fields that [`crate::View`] shows, and only in
//! the phases where the view shows them (the auction only during an
//! auction, the roll and the payouts still due only during a roll).
//!
//! # Action ids
//!
//! | id | action |
//! |---|---|
//! | 0 | `pass` |
//! | 1 | `veto` (B6) |
//! | 2 | `keep` (B10) |
//! | 3 | `reroll` (one die: `polyhedral`, `d6`; B10) |
//! | 4 + b | `bid b`, b in 0..=255 (`bid 0` is never legal, B5) |
//! | 260 + r | `reroll F`: F a non-empty multiset of d6 faces, ranked by size, then lexicographically by its faces in ascending order (260..266 are `reroll 1` .. `reroll 6`) |
//!
//! The re-roll ids exist only as far as the dice mode needs them (B11):
//! `best-of-two` re-rolls one die, so its space ends at 266; `half-of-n`
//! re-rolls up to 20 dice (the 20's roll): all 230,229 non-empty multisets
//! of at most 20 d6, so its space ends at 230,489; `polyhedral`, `d6` and
//! `no-dice` stop at 260.
//!
//! # Observation
//!
//! `n` = players; `CH` = `chips + 4`, the most chips one seat can hold
//! (its starting chips, B1, and up to 4 hired, B15); `T` = the target in force (B12, B13).
//! Counts are divided by the largest they can be and clamped to `[0, 1]`.
//! A global block of 47 values, then one block of 40 per seat, the
//! observer first, then the seats to its left (the auction's turn order,
//! B5): length `47 + 40n` (207 at 4 players).
//!
//! | offset | len | meaning |
//! |---|---|---|
//! | 0 | 3 | phase one-hot: auction, roll (B10), over |
//! | 3 | 1 | 1 if the observer is to move |
//! | 4 | 9 | the face-up top card (B3), one-hot by kind (2, 4, 6, 8, 10, 12, 20, V, BC); all 0 with an empty deck |
//! | 13 | 1 | cards in the deck / 36 |
//! | 14 | 9 | discards per kind / 4 |
//! | 23 | 1 | chips hired in the game / 2n (B15) |
//! | 24 | 1 | the auction's high bid / CH (0 outside an auction) |
//! | 25 | 7 | the roll waiting for a decision (B10): its card, one-hot over the number cards |
//! | 32 | 1 | polyhedral: the die shown / 20 |
//! | 33 | 6 | d6 modes: dice showing each face 1..6 / dice rolled |
//! | 39 | 1 | what the roll pays if kept / T |
//! | 40 | 7 | number projects matured in this advance and not yet paid (B9), per card / 4 |
//!
//! Per seat (offset within the seat's block):
//!
//! | offset | len | meaning |
//! |---|---|---|
//! | 0 | 1 | free chips / CH |
//! | 1 | 1 | matured Vetos in hand / 4 |
//! | 2 | 1 | matured Big Cheeses in hand / 4 |
//! | 3 | 1 | score / T |
//! | 4 | 1 | projects that paid points / 16 (the B14 tie-break) |
//! | 5 | 1 | chips hired / 4 (B15) |
//! | 6 | 1 | has passed in this auction (B5) |
//! | 7 | 1 | has bid in this auction (B18) |
//! | 8 | 1 | holds the high bid |
//! | 9 | 1 | leads the current or next auction (B4) |
//! | 10 | 1 | is to move |
//! | 11 | 1 | owns the roll waiting for a decision |
//! | 12 | 1 | its number projects still to be paid in this advance / 4 |
//! | 13 | 27 | its projects per kind k (kind order as above): at `13 + 3k` their number / 4, the chips on them / CH, the fewest chips on one of them / CH (how soon one matures, B8) |

use crate::state::{BigCheese, Phase, NONE};
use crate::{Action, DiceMode, Faces, RerollDice};
use game::{scaled, Seat, Tensor};

/// Ids below the bids: pass, veto, keep, reroll.
const BID_BASE: usize = 4;
/// The first re-roll-of-faces id.
const FACES_BASE: usize = BID_BASE + 256;
/// Most dice re-rolled at once (`half-of-n` on a 20, B11).
const MAX_REROLL: usize = 20;
/// Length of the global block.
const GLOBAL: usize = 47;
/// Length of one seat's block.
const SEAT: usize = 40;

/// `BINOM[n][k]` = n choose k, for multiset ranking.
const BINOM: [[u32; 7]; 27] = {
    let mut t = [[0u32; 7]; 27];
    let mut n = 0;
    while n < 27 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 7 && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Non-decreasing sequences of `m` faces drawn from `v..=6`.
#[inline]
fn tails(m: usize, v: usize) -> usize {
    BINOM[m + 6 - v][6 - v] as usize
}

/// Non-empty multisets of fewer than `k` d6: the first rank of size `k`.
#[inline]
fn size_offset(k: usize) -> usize {
    BINOM[k + 5][6] as usize - 1
}

/// The largest re-roll the dice mode allows (B11).
fn max_reroll(dice: DiceMode) -> usize {
    match dice {
        DiceMode::BestOfTwo => 1,
        DiceMode::HalfOfN => MAX_REROLL,
        DiceMode::Polyhedral | DiceMode::D6 | DiceMode::NoDice => 0,
    }
}

/// The rank of a non-empty multiset of at most [`MAX_REROLL`] faces: by
/// size, then lexicographically by its ascending faces.
fn rank_faces(f: Faces) -> usize {
    let counts = f.counts();
    let k = f.len();
    let mut r = size_offset(k);
    let mut lo = 1;
    let mut i = 0;
    for (face, &c) in (1..=6usize).zip(counts.iter()) {
        for _ in 0..c {
            let m = k - i - 1;
            for v in lo..face {
                r += tails(m, v);
            }
            lo = face;
            i += 1;
        }
    }
    r
}

/// The multiset of faces with rank `r` (`r` below the count of multisets
/// of at most [`MAX_REROLL`] dice).
fn unrank_faces(mut r: usize) -> Faces {
    let mut k = 1;
    while size_offset(k + 1) <= r {
        k += 1;
    }
    r -= size_offset(k);
    let mut counts = [0u8; 6];
    let mut v = 1;
    for i in 0..k {
        let m = k - i - 1;
        loop {
            let t = tails(m, v);
            if r < t {
                break;
            }
            r -= t;
            v += 1;
        }
        counts[v - 1] += 1;
    }
    Faces::from_counts(counts)
}

impl BigCheese {
    /// `CH`: the most chips one seat can hold (its own, B1, and up to 4
    /// hired, B15): free chips, bids and chips on projects are divided by
    /// it.
    fn chip_scale(&self) -> f32 {
        self.opts.chips as f32 + crate::state::MAX_HIRED as f32
    }
}

impl Tensor for BigCheese {
    fn num_actions(options: &Self::Options, _players: usize) -> usize {
        FACES_BASE + size_offset(max_reroll(options.dice) + 1)
    }

    fn obs_len(_options: &Self::Options, players: usize) -> usize {
        GLOBAL + SEAT * players
    }

    #[inline]
    fn action_id(&self, action: Action) -> Option<usize> {
        match action {
            Action::Pass => Some(0),
            Action::Veto => Some(1),
            Action::Keep => Some(2),
            Action::Reroll(RerollDice::Die) => Some(3),
            Action::Bid(b) => Some(BID_BASE + b as usize),
            Action::Reroll(RerollDice::Faces(f)) => {
                let k = f.len();
                (k >= 1 && k <= max_reroll(self.opts.dice)).then(|| FACES_BASE + rank_faces(f))
            }
        }
    }

    fn action_of(&self, id: usize) -> Option<Action> {
        match id {
            0 => Some(Action::Pass),
            1 => Some(Action::Veto),
            2 => Some(Action::Keep),
            3 => Some(Action::Reroll(RerollDice::Die)),
            _ if id < FACES_BASE => Some(Action::Bid((id - BID_BASE) as u8)),
            _ => {
                let r = id - FACES_BASE;
                (r < size_offset(max_reroll(self.opts.dice) + 1))
                    .then(|| Action::Reroll(RerollDice::Faces(unrank_faces(r))))
            }
        }
    }

    fn write_obs(&self, seat: Seat, out: &mut [f32]) {
        let n = self.n as usize;
        let out = &mut out[..GLOBAL + SEAT * n];
        out.fill(0.0);
        let me = seat.index();
        let ch = self.chip_scale();
        let target = self.target as f32;
        let (g, seats) = out.split_at_mut(GLOBAL);
        match self.phase {
            Phase::Auction => g[0] = 1.0,
            Phase::Roll => g[1] = 1.0,
            Phase::Over => g[2] = 1.0,
        }
        let to_move = self.to_move_seat();
        g[3] = f32::from(to_move as usize == me);
        if let Some(top) = self.top() {
            g[4 + top.index()] = 1.0;
        }
        g[13] = self.deck_len as f32 / 36.0;
        for k in 0..9 {
            g[14 + k] = scaled(self.discards[k] as f32, 4.0);
        }
        g[23] = scaled(self.hired_total as f32, 2.0 * n as f32);
        // Relative slot of each seat: the observer first, then to its left.
        let slot = |p: usize| (p + n - me) % n;
        if self.phase == Phase::Auction {
            g[24] = scaled(self.high as f32, ch);
            for p in 0..n {
                let b = &mut seats[slot(p) * SEAT..][..SEAT];
                b[6] = f32::from(self.passed & (1 << p) != 0);
                b[7] = f32::from(self.bid_in & (1 << p) != 0);
                b[8] = f32::from(self.bidder as usize == p);
            }
        }
        if self.phase == Phase::Roll {
            let roll = &self.roll;
            g[25 + roll.card.index()] = 1.0;
            let dice = roll.dice();
            match self.opts.dice {
                DiceMode::Polyhedral => g[32] = scaled(dice[0] as f32, 20.0),
                DiceMode::D6 | DiceMode::BestOfTwo | DiceMode::HalfOfN => {
                    for &d in dice {
                        g[33 + (d as usize).clamp(1, 6) - 1] += 1.0;
                    }
                    let k = dice.len().max(1) as f32;
                    for v in &mut g[33..39] {
                        *v /= k;
                    }
                }
                DiceMode::NoDice => {}
            }
            g[39] = scaled(self.payout(roll) as f32, target);
            seats[slot(roll.owner as usize) * SEAT + 11] = 1.0;
            for m in &self.queue[self.q_head as usize..self.q_len as usize] {
                if m.card.is_number() {
                    g[40 + m.card.index()] += 0.25;
                }
                seats[slot(m.owner as usize) * SEAT + 12] += 0.25;
            }
            for v in g[40..47].iter_mut() {
                *v = v.min(1.0);
            }
        }
        for p in 0..n {
            let b = &mut seats[slot(p) * SEAT..][..SEAT];
            b[0] = scaled(self.free[p] as f32, ch);
            b[1] = scaled(self.vetos[p] as f32, 4.0);
            b[2] = scaled(self.cheeses[p] as f32, 4.0);
            b[3] = scaled(self.scores[p] as f32, target);
            b[4] = scaled(self.scored[p] as f32, 16.0);
            b[5] = scaled(self.hired[p] as f32, 4.0);
            b[9] = f32::from(self.leader as usize == p);
            b[10] = f32::from(to_move != NONE && to_move as usize == p);
            b[12] = b[12].min(1.0);
        }
        for pr in &self.projects[..self.n_projects as usize] {
            let b = &mut seats[slot(pr.owner as usize) * SEAT + 13..][..27];
            let k = 3 * pr.card.index();
            let chips = scaled(pr.chips as f32, ch);
            b[k + 2] = if b[k] == 0.0 {
                chips
            } else {
                b[k + 2].min(chips)
            };
            b[k] = (b[k] + 0.25).min(1.0);
            b[k + 1] = (b[k + 1] + chips).min(1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multisets_rank_in_order() {
        // Every multiset of at most 20 dice, ranked and unranked.
        let total = size_offset(MAX_REROLL + 1);
        assert_eq!(total, 230_229);
        let mut prev: Option<Vec<u8>> = None;
        for r in 0..total {
            let f = unrank_faces(r);
            assert_eq!(rank_faces(f), r, "{f:?}");
            let v: Vec<u8> = f.values().collect();
            if let Some(p) = &prev {
                assert!(
                    p.len() < v.len() || (p.len() == v.len() && *p < v),
                    "{p:?} then {v:?}"
                );
            }
            prev = Some(v);
        }
        for face in 1..=6u8 {
            assert_eq!(rank_faces(Faces::of(&[face])), face as usize - 1);
        }
    }

    #[test]
    fn sizes_per_dice_mode() {
        let mut o = crate::Options::default();
        for (mode, n) in [
            (DiceMode::Polyhedral, 260),
            (DiceMode::D6, 260),
            (DiceMode::NoDice, 260),
            (DiceMode::BestOfTwo, 266),
            (DiceMode::HalfOfN, 230_489),
        ] {
            o.dice = mode;
            assert_eq!(BigCheese::num_actions(&o, 4), n, "{mode}");
        }
        assert_eq!(BigCheese::obs_len(&o, 4), 207);
    }
}
