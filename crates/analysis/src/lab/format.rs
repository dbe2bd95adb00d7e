//! How the lab report writes its figures: percentages with their
//! intervals, p-values, and the variants' colours (shared by the text and
//! the plots).

use super::stats::Interval;
use plotters::prelude::*;

pub(super) const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

pub(super) fn colour(i: usize) -> RGBColor {
    COLOURS[i % COLOURS.len()]
}

/// A share as a percentage with one decimal, the lab report's precision.
pub(super) fn pct(x: f64) -> String {
    crate::stats::pct(x, 1)
}

/// An interval of shares: `12.3% [10.1, 14.5]`.
pub(super) fn pct_ci(i: &Interval) -> String {
    format!(
        "{} [{:.1}, {:.1}]",
        pct(i.value),
        100.0 * i.low,
        100.0 * i.high
    )
}

pub(super) fn num_ci(i: &Interval) -> String {
    format!("{:.3} [{:.3}, {:.3}]", i.value, i.low, i.high)
}

pub(super) fn p_value(p: f64) -> String {
    if p < 0.001 {
        "<0.001".into()
    } else {
        format!("{p:.3}")
    }
}
