//! Projects paying out (B10..B14, B19, B20): the dice of each mode, the
//! Big Cheese's re-roll, the resolution queue, scores and the winners.

use super::*;

impl BigCheese {
    pub(super) fn die(&mut self, sides: u8) -> u8 {
        if self.forced_pos < self.forced_len {
            let v = self.forced[self.forced_pos as usize];
            self.forced_pos += 1;
            // A scripted result the die cannot show counts as its top face.
            return v.clamp(1, sides);
        }
        self.rng.random_range(1..=sides)
    }

    /// Rolls `k` d6 into the face counts `counts[1..=6]`.
    pub(super) fn roll_d6_into(&mut self, counts: &mut [u8; 7], k: u8) {
        for _ in 0..k {
            let v = self.die(6).clamp(1, 6);
            counts[v as usize] += 1;
        }
    }

    pub(super) fn fill_sorted(roll: &mut Roll, counts: &[u8; 7]) {
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
    pub(super) fn roll_for(&mut self, owner: u8, card: Card) -> Roll {
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
    pub(super) fn rolled(&self, roll: &Roll) -> Rolled {
        Rolled {
            mode: self.opts.dice,
            dice: roll.dice().to_vec(),
            payout: self.payout(roll),
        }
    }

    /// Pays the current matured projects one at a time (B9). Returns false
    /// when it stops for an owner's Big Cheese decision (B10).
    pub(super) fn resolve_queue(&mut self) -> bool {
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
    pub(super) fn pay(&mut self, roll: &Roll, via: Via) {
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
    pub(super) fn check_winners(&mut self) -> bool {
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
        if self.opts.final_tie == FinalTie::Chance && winners.count_ones() > 1 {
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

    pub(super) fn reroll(&mut self, dice: RerollDice) {
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
}
