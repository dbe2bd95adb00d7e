//! The lab report's plots, drawn as SVG with plotters: seat advantage,
//! game length, skill against luck.

use super::format::*;
use super::stats::Interval;
use super::{Report, VariantReport};
use crate::Error;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

pub(super) fn plot_err<E: std::fmt::Debug>(e: E) -> Error {
    Error::Plot(format!("{e:?}"))
}

/// Vertical whisker from `low` to `high` at `x`, caps `half` wide.
pub(super) fn whisker(x: f64, low: f64, high: f64, half: f64) -> Vec<PathElement<(f64, f64)>> {
    let style = ShapeStyle::from(&BLACK).stroke_width(1);
    vec![
        PathElement::new(vec![(x, low), (x, high)], style),
        PathElement::new(vec![(x - half, low), (x + half, low)], style),
        PathElement::new(vec![(x - half, high), (x + half, high)], style),
    ]
}

/// The name of every position index across variants: the variants' own
/// name when they agree, else the ordinal (4th is the Greater Peon at 4
/// players, the Lesser Peon at 5).
pub(super) fn position_labels(r: &Report) -> Vec<String> {
    let seats = r.variants.iter().map(|v| v.players).max().unwrap_or(0);
    (0..seats)
        .map(|i| {
            let mut names = r.variants.iter().filter_map(|v| v.seats.positions.get(i));
            match names.next() {
                Some(first) if names.all(|n| n == first) => first.clone(),
                _ => super::ordinal(i + 1),
            }
        })
        .collect()
}

/// First-place rate per position, variants side by side, with CI whiskers.
pub(super) fn seat_plot(r: &Report) -> Result<String, Error> {
    let seats = r.variants.iter().map(|v| v.players).max().unwrap_or(1);
    let top = r
        .variants
        .iter()
        .flat_map(|v| v.seats.rates.iter().map(|i| i.high))
        .fold(0.0f64, f64::max)
        .max(0.05)
        * 1.15;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "First-place rate per starting position, strong bot in every seat (95% CI)",
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5..seats as f64 - 0.5, 0.0..top)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_label_formatter(&|y| format!("{:.0}%", 100.0 * y))
            .y_desc("first places")
            .draw()
            .map_err(plot_err)?;
        category_labels(&root, &chart, &position_labels(r))?;
        let k = r.variants.len().max(1) as f64;
        let slot = 0.8 / k;
        for (j, v) in r.variants.iter().enumerate() {
            let c = colour(j);
            let x = |s: usize| s as f64 - 0.4 + (j as f64 + 0.5) * slot;
            chart
                .draw_series(v.seats.rates.iter().enumerate().map(|(s, i)| {
                    Rectangle::new(
                        [(x(s) - 0.42 * slot, 0.0), (x(s) + 0.42 * slot, i.value)],
                        c.filled(),
                    )
                }))
                .map_err(plot_err)?
                .label(format!("{} ({}p)", v.name, v.players))
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
            for (s, i) in v.seats.rates.iter().enumerate() {
                chart
                    .draw_series(whisker(x(s), i.low, i.high, 0.15 * slot))
                    .map_err(plot_err)?;
            }
            let fair = 1.0 / v.players as f64;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(-0.5, fair), (v.players as f64 - 0.5, fair)],
                    ShapeStyle::from(&c.mix(0.6)).stroke_width(1),
                )))
                .map_err(plot_err)?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(plot_err)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// One length histogram per variant, stacked, on a shared x axis.
pub(super) fn length_plot(r: &Report) -> Result<String, Error> {
    let lo = r
        .variants
        .iter()
        .map(|v| v.lengths.histogram.start)
        .min()
        .unwrap_or(0) as f64;
    let hi = r
        .variants
        .iter()
        .map(|v| {
            let h = &v.lengths.histogram;
            h.start + h.width * h.counts.len() as u64
        })
        .max()
        .unwrap_or(1) as f64;
    let hi = hi.max(lo + 1.0);
    let panel = 170u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, 40 + panel * r.variants.len() as u32))
            .into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let (title, body) = root.split_vertically(40);
        title
            .titled(
                "Game length (actions per game), share of games per bin",
                ("sans-serif", 18),
            )
            .map_err(plot_err)?;
        let panels = body.split_evenly((r.variants.len().max(1), 1));
        for (j, (v, area)) in r.variants.iter().zip(panels).enumerate() {
            let h = &v.lengths.histogram;
            let games = h.counts.iter().sum::<u64>().max(1) as f64;
            let top = h.counts.iter().copied().max().unwrap_or(0) as f64 / games * 1.15 + 1e-9;
            let s = &v.lengths.summary;
            let mut chart = ChartBuilder::on(&area)
                .caption(
                    format!(
                        "{}: mean {:.1}, median {}, p90 {}",
                        v.name, s.mean, s.median, s.p90
                    ),
                    ("sans-serif", 14),
                )
                .margin(6)
                .x_label_area_size(24)
                .y_label_area_size(56)
                .build_cartesian_2d(lo..hi, 0.0..top)
                .map_err(plot_err)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .y_labels(4)
                .y_label_formatter(&|y| format!("{:.0}%", 100.0 * y))
                .x_label_formatter(&|x| format!("{x:.0}"))
                .draw()
                .map_err(plot_err)?;
            let c = colour(j);
            chart
                .draw_series(h.counts.iter().enumerate().map(|(b, &n)| {
                    let x0 = (h.start + h.width * b as u64) as f64;
                    let x1 = x0 + h.width as f64;
                    Rectangle::new([(x0, 0.0), (x1, n as f64 / games)], c.filled())
                }))
                .map_err(plot_err)?;
            let m = s.mean;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(m, 0.0), (m, top)],
                    ShapeStyle::from(&BLACK).stroke_width(1),
                )))
                .map_err(plot_err)?;
        }
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// Writes `names[i]` under x = i of a chart whose y axis starts at its
/// bottom edge (plotters' own labels would fall on "nice" fractional x).
pub(super) fn category_labels(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    chart: &ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    names: &[String],
) -> Result<(), Error> {
    let bottom = chart.y_range().start;
    let (ox, oy) = area.get_base_pixel();
    let style = TextStyle::from(("sans-serif", 13).into_font())
        .pos(Pos::new(HPos::Center, VPos::Top))
        .color(&BLACK);
    for (i, name) in names.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(i as f64, bottom));
        area.draw(&Text::new(
            name.clone(),
            (x - ox, y - oy + 6),
            style.clone(),
        ))
        .map_err(plot_err)?;
    }
    Ok(())
}

/// Bars with whiskers, one per variant, in one panel.
pub(super) fn bar_panel(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    caption: &str,
    names: &[String],
    values: &[Interval],
    reference: Option<f64>,
) -> Result<(), Error> {
    let k = values.len().max(1);
    let lo = values.iter().map(|i| i.low).fold(0.0f64, f64::min);
    let hi = values
        .iter()
        .map(|i| i.high)
        .fold(reference.unwrap_or(0.0), f64::max)
        .max(0.05);
    let pad = 0.12 * (hi - lo);
    let lo = if lo < 0.0 { lo - pad } else { 0.0 };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 15))
        .margin(8)
        .x_label_area_size(28)
        .y_label_area_size(56)
        .build_cartesian_2d(-0.5..k as f64 - 0.5, lo..hi + pad)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(5)
        .y_label_formatter(&|y| format!("{y:.2}"))
        .draw()
        .map_err(plot_err)?;
    category_labels(area, &chart, names)?;
    for (j, i) in values.iter().enumerate() {
        let x = j as f64;
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(x - 0.3, 0.0), (x + 0.3, i.value)],
                colour(j).filled(),
            )))
            .map_err(plot_err)?;
        chart
            .draw_series(whisker(x, i.low, i.high, 0.08))
            .map_err(plot_err)?;
    }
    if let Some(y) = reference {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, y), (k as f64 - 0.5, y)],
                ShapeStyle::from(&BLACK.mix(0.5)).stroke_width(1),
            )))
            .map_err(plot_err)?;
    }
    Ok(())
}

/// Skill index, strong-ahead rate and luck share per variant.
pub(super) fn skill_plot(r: &Report) -> Result<String, Error> {
    let names: Vec<String> = r.variants.iter().map(|v| v.name.clone()).collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, 3 * 240)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let panels = root.split_evenly((3, 1));
        let pick = |f: fn(&VariantReport) -> Interval| r.variants.iter().map(f).collect::<Vec<_>>();
        bar_panel(
            &panels[0],
            "Skill index: lone strong bot's first places, 0 = fair share, 1 = always (95% CI)",
            &names,
            &pick(|v| v.skill.index),
            None,
        )?;
        bar_panel(
            &panels[1],
            "Strong finishes ahead of weak, mixed table (95% CI; 0.5 = no skill)",
            &names,
            &pick(|v| v.skill.ahead),
            Some(0.5),
        )?;
        bar_panel(
            &panels[2],
            "Luck share: variance of a seat's result explained by the deal (95% bootstrap CI)",
            &names,
            &pick(|v| v.luck.luck),
            None,
        )?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}
