//! Rules arithmetic the panel bots share: payout distributions in every
//! dice mode (B11), what a card is worth to a given score with or without
//! an exact target (B12, B13), who is still in an auction (B5), and the
//! Big Cheese re-roll forms (B10, B11).
//!
//! Only facts of the rules live here, no prices: each panel bot prices
//! cards its own way in its own module, so that the panel's players differ.
//! The dice arithmetic is the rules crate's ([`DiceMode::payouts`]) and
//! the re-roll rule the bots' one ([`poor_roll`]), each with the panel's
//! own choices (the exact half-of-n mean, each bot's keenness); the rest
//! is written afresh for the panel (not borrowed from the ladder's
//! modules), so a change to the ladder's pricing cannot move the panel.

use crate::big_cheese::reroll::poor_roll;
pub(crate) use crate::big_cheese::reroll::RerollStyle;
use bigcheese::{
    Action, AuctionView, Card, DiceMode, Faces, HalfOfNMean, PlayerView, RerollDice, View,
};
use game::Seat;

/// The payout distribution of number card `card` in `dice` mode, as
/// (payout, probability) pairs (B11); none for a special. Half-of-n is
/// given as one point at its exact mean (the sum of the best half of `v`
/// d6, times 2), where the ladder takes a rough one.
pub(crate) fn payouts(dice: DiceMode, card: Card) -> Vec<(u16, f64)> {
    let v = card.value() as u16;
    if v == 0 {
        return Vec::new();
    }
    dice.payouts(v, HalfOfNMean::Exact)
}

/// Mean payout of `card` (0 for a special).
pub(crate) fn mean(dice: DiceMode, card: Card) -> f64 {
    payouts(dice, card).iter().map(|&(p, q)| p as f64 * q).sum()
}

/// The mean payout of a number card drawn at random from a full deck:
/// the panel's unit of value in this dice mode.
pub(crate) fn typical(dice: DiceMode) -> f64 {
    let cards = &Card::ALL[..7];
    cards.iter().map(|&c| mean(dice, c)).sum::<f64>() / cards.len() as f64
}

/// Expected points `card` adds to `score`: with `exact` a payout that
/// would pass the target counts 0 (B13).
pub(crate) fn scoring_mean(view: &View, card: Card, score: u16) -> f64 {
    let pv = &view.public;
    payouts(pv.options.dice, card)
        .iter()
        .filter(|&&(p, _)| !pv.options.exact || score + p <= pv.target)
        .map(|&(p, q)| p as f64 * q)
        .sum()
}

/// Chance that `card` brings `score` to the target (exactly, with
/// `exact`; B12, B13).
pub(crate) fn reach_chance(view: &View, card: Card, score: u16) -> f64 {
    let pv = &view.public;
    payouts(pv.options.dice, card)
        .iter()
        .filter(|&&(p, _)| {
            if pv.options.exact {
                score + p == pv.target
            } else {
                score + p >= pv.target
            }
        })
        .map(|&(_, q)| q)
        .sum()
}

/// Expected points still to come from `seat`'s number projects on the
/// table (ignoring the exact rule).
pub(crate) fn pending(view: &View, seat: &PlayerView) -> f64 {
    seat.projects
        .iter()
        .map(|&(c, _)| mean(view.public.options.dice, c))
        .sum()
}

/// The score a seat's next card adds to, for pricing it: its score, and
/// with `exact` also the expected payouts of its projects on the table
/// (they pay first, and a payout past the target pays nothing, B13).
pub(crate) fn basis(view: &View, seat: &PlayerView) -> u16 {
    if view.public.options.exact {
        let planned = seat.score as f64 + pending(view, seat);
        (planned.round() as u16).min(view.public.target)
    } else {
        seat.score
    }
}

/// What number card `card` is worth to `seat`, in typical cards: its
/// expected points from [`basis`]; with `exact` a payout that hits the
/// target exactly (and so wins, B13) counts three typical cards more, as
/// only exact hits end such a game.
pub(crate) fn worth(view: &View, card: Card, seat: &PlayerView) -> f64 {
    let base = basis(view, seat);
    let mut w = scoring_mean(view, card, base) / typical(view.public.options.dice);
    if view.public.options.exact {
        w += 3.0 * reach_chance(view, card, base);
    }
    w
}

/// The auction in progress (the caller only asks during one).
pub(crate) fn auction(view: &View) -> &AuctionView {
    view.public.auction.as_ref().expect("an auction is on")
}

/// The seat looking.
pub(crate) fn me(view: &View) -> &PlayerView {
    &view.public.seats[view.me.index()]
}

/// Rivals who have not passed this auction (B5), the high bidder included.
pub(crate) fn rivals_in(view: &View) -> impl Iterator<Item = &PlayerView> {
    let a = auction(view);
    view.public
        .seats
        .iter()
        .filter(move |s| s.seat != view.me && !a.passed.contains(&s.seat))
}

/// The bid that wins this auction outright: one more than any rival
/// still in can bid (B5), and above the high bid.
pub(crate) fn sure_price(view: &View) -> u8 {
    let a = auction(view);
    let richest = rivals_in(view).map(|s| s.free).max().unwrap_or(0);
    richest.saturating_add(1).max(a.high + 1)
}

/// The high bidder when it is a rival.
pub(crate) fn rival_bidder(view: &View) -> Option<Seat> {
    auction(view).bidder.filter(|&b| b != view.me)
}

/// Raising one chip at a time up to `price`: `bid high + 1` while that is
/// within the price and legal, else `pass`.
pub(crate) fn creep(legal: &[Action], high: u8, price: u8) -> Action {
    if high < price {
        bid_or_pass(legal, high + 1)
    } else {
        Action::Pass
    }
}

/// `bid n` when it is legal, else `pass` (always legal in an auction).
pub(crate) fn bid_or_pass(legal: &[Action], n: u8) -> Action {
    let a = Action::Bid(n);
    if n > 0 && legal.contains(&a) {
        a
    } else {
        Action::Pass
    }
}

/// The first legal action when `choice` is not legal (a safety net).
/// Every panel bot's `choose`: its own roll is kept or re-rolled in its
/// `style` (B10), an auction goes to its `auction` rule, anything else
/// (and a choice that is not legal) gets the first legal action.
pub(crate) fn decide(
    view: &View,
    legal: &[Action],
    style: RerollStyle,
    auction: impl FnOnce(&View, &[Action]) -> Action,
) -> Action {
    let choice = if view.public.roll.is_some() {
        reroll(view, legal, style)
    } else if view.public.auction.is_some() {
        auction(view, legal)
    } else {
        legal[0]
    };
    legal_or_first(choice, legal)
}

pub(crate) fn legal_or_first(choice: Action, legal: &[Action]) -> Action {
    if legal.contains(&choice) {
        choice
    } else {
        legal[0]
    }
}

/// The Big Cheese decision (B10, B11) in `style`: a roll that wins is
/// kept; with `exact` a roll that would pass the target (and pay nothing,
/// B13) is re-rolled; otherwise poor rolls are re-rolled per `style`.
pub(crate) fn reroll(view: &View, legal: &[Action], style: RerollStyle) -> Action {
    let pv = &view.public;
    let Some(r) = pv.roll.as_ref() else {
        return legal[0];
    };
    if legal.len() == 1 {
        return legal[0];
    }
    let score = me(view).score;
    let total = score + r.payout;
    if pv.options.exact {
        if total == pv.target {
            return Action::Keep;
        }
        if total > pv.target {
            // Pays nothing as it stands: re-roll the highest dice shown.
            return match pv.options.dice {
                DiceMode::Polyhedral | DiceMode::D6 => Action::Reroll(RerollDice::Die),
                _ => {
                    let top = *r.dice.last().expect("a roll has dice");
                    legal_or_first(Action::Reroll(RerollDice::Faces(Faces::of(&[top]))), legal)
                }
            };
        }
    } else if total >= pv.target {
        return Action::Keep;
    }
    let choice = poor_roll(r, pv.options.dice, style);
    legal_or_first(choice, legal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_of_n_means() {
        let half_of_n_mean = |n| HalfOfNMean::Exact.of(n);
        // 2 dice, best 1: E[max of two d6] = 161/36.
        assert!((half_of_n_mean(2) - 2.0 * 161.0 / 36.0).abs() < 1e-9);
        // 4 dice, best 2: between 2 x 3.5 x 2 and 2 x 6 x 2.
        let m = half_of_n_mean(4);
        assert!(m > 14.0 && m < 24.0, "{m}");
    }

    #[test]
    fn polyhedral_typical_card() {
        // (1.5 + 2.5 + 3.5 + 4.5 + 5.5 + 6.5 + 10.5) / 7.
        assert!((typical(DiceMode::Polyhedral) - 34.5 / 7.0).abs() < 1e-9);
    }
}
