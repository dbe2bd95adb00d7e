//! The Big Cheese re-roll rule of thumb (B10, B11), written once for the
//! heuristic (and so the strong) bot and the panel bots: which dice a
//! poor roll re-rolls in each dice mode. Each bot keeps its own keenness
//! ([`RerollStyle`]) and its own answer to a re-roll it may not make, so
//! the bots still differ where they always did.

use bigcheese::{Action, DiceMode, Faces, HalfOfNMean, RerollDice, RollView};

/// How keen a bot is to spend a Big Cheese on its roll (B10).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RerollStyle {
    /// Single die (polyhedral, d6): re-roll a payout below this fraction
    /// of the die's mean.
    pub below_mean: f64,
    /// Best-of-two and half-of-n: re-roll counted dice showing at most this.
    pub low_face: u8,
}

/// The re-roll `style` wants of roll `r` in `dice` mode, the target left
/// aside: with one die, a payout below `style.below_mean` of the die's
/// mean; in best-of-two, the lower die when the higher shows at most
/// `style.low_face`; in half-of-n, the counted dice (the best half)
/// showing at most `style.low_face`; otherwise [`Action::Keep`]. The
/// re-roll may not be legal (half-of-n takes a Big Cheese per die): the
/// caller checks.
pub(crate) fn poor_roll(r: &RollView, dice: DiceMode, style: RerollStyle) -> Action {
    match dice {
        DiceMode::Polyhedral | DiceMode::D6 => {
            let mean = dice.mean_of_payouts(r.card.value() as u16, HalfOfNMean::Rough);
            if (r.payout as f64) < style.below_mean * mean {
                Action::Reroll(RerollDice::Die)
            } else {
                Action::Keep
            }
        }
        DiceMode::BestOfTwo => {
            if r.dice[1] <= style.low_face {
                Action::Reroll(RerollDice::Faces(Faces::of(&[r.dice[0]])))
            } else {
                Action::Keep
            }
        }
        DiceMode::HalfOfN => {
            let half = r.dice.len() / 2;
            let low: Vec<u8> = r.dice[r.dice.len() - half..]
                .iter()
                .copied()
                .filter(|&d| d <= style.low_face)
                .collect();
            if low.is_empty() {
                Action::Keep
            } else {
                Action::Reroll(RerollDice::Faces(Faces::of(&low)))
            }
        }
        DiceMode::NoDice => Action::Keep,
    }
}
