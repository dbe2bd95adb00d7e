//! The lab report as Markdown (`report.md`, with the plots beside it as
//! SVG files) and as one self-contained HTML page (`report.html`, the same
//! plots inline), drawn with plotters' SVG backend.
//!
//! Both are rendered from one list of blocks (headings, paragraphs,
//! tables, figures) so they cannot drift apart. Only the line that says
//! how long the run took and on how many threads depends on the machine;
//! everything else is a function of the seed.

use super::format::*;
use super::plots::*;
use super::{Report, VariantReport};
use crate::Error;
use std::path::Path;

/// One piece of the report.
enum Block {
    Heading(u8, String),
    Para(String),
    Table(Vec<String>, Vec<Vec<String>>),
    Figure {
        file: &'static str,
        alt: String,
        svg: String,
    },
}

const METHOD: &[&str] = &[
    "Every variant plays the same deal seeds (a deal is the seed of the shuffles, the seating draw and the dice). \
     Three studies per variant, each on `deals` deals:",
    "**Seat advantage.** The strong bot in every seat, one game per deal on `deals` x players deals (not every \
     rotation of fewer deals: identical bots would replay the same game in every rotation). Each seat's starting position is read from the game as \
     dealt (who leads first in Big Cheese, the role from the seating draw in Dalmuti), since the seat number itself \
     is arbitrary. First-place rate per position with Wilson 95% intervals (a shared win counts as a fraction); \
     Pearson's chi-square of the first places per position against equal shares, with players - 1 degrees of \
     freedom. The same games give the game lengths (actions per game, every seat's every action; for Dalmuti with \
     `hands=1` that is one hand).",
    "**Skill index.** One strong bot and players - 1 weak bots, every deal played once per rotation so the strong bot \
     sits in every seat of every deal. p = the strong bot's first-place rate; the index is (p - 1/players) / \
     (1 - 1/players): 0 means it wins no more than its fair share, 1 that it always wins. The interval is a normal \
     interval over deals (the mean over a deal's rotations is one observation, since a deal's games share its cards).",
    "**Strong ahead of weak.** Strong and weak bots alternate round the table (strong in seats P1, P3, ..., so \
     with an odd table the strong bots are one more), every rotation of every deal. For every (strong, weak) pair of seats in a game: 1 if the strong bot finished in a \
     better place, 1/2 if tied, 0 if worse; averaged per game, then per deal; interval over deals. 0.5 means the \
     bots are indistinguishable under these rules.",
    "**Luck vs skill.** On those same mixed games, a seat's result is y = (players - place) / (players - 1): 1 for \
     first, 0 for last. Its total variance (sum of squares about the mean, over every seat of every game) is split \
     as in a two-way analysis of variance: *luck* = sum over (deal, seat) of rotations x (mean y of that seat of \
     that deal over the rotations - mean)^2, what the cards and dice of that position were worth whoever played \
     them (it includes the seat's own advantage); *skill* = sum over the two bots of games x (bot's mean y - mean)^2; \
     *residual* = the rest, how a particular bot's play met a particular deal. In a duplicate match every seat sees \
     every bot equally often, so luck and skill do not overlap. The luck share is luck / total; its interval is \
     the 2.5-97.5% percentile of 400 bootstrap resamples of the deals. With few rotations the cell means keep a \
     little residual noise (about residual/rotations), so the luck share is slightly high, equally for every variant.",
    "The luck and skill shares depend on the pair of bots (a wider gap between them raises the skill share), so \
     compare variants within a report rather than read them as absolute properties of the game. Every interval \
     is 95%; intervals of different variants overlap when the data cannot tell them apart.",
];

fn blocks(r: &Report) -> Result<Vec<Block>, Error> {
    let mut b = Vec::new();
    intro_blocks(r, &mut b);
    summary_blocks(r, &mut b);
    seat_blocks(r, &mut b)?;
    length_blocks(r, &mut b)?;
    skill_blocks(r, &mut b)?;
    luck_blocks(r, &mut b);
    Ok(b)
}

/// The title, the question, how the report was made.
fn intro_blocks(r: &Report, b: &mut Vec<Block>) {
    use Block::*;
    b.push(Heading(1, r.title.clone()));
    if let Some(q) = &r.question {
        b.push(Para(format!("**Question.** {q}")));
    }
    b.push(Para(format!("Made by `{}`", r.command)));
    b.push(Para(format!(
        "{}: strong bot `{}`, weak bot `{}`; {} deals per study and variant; seed {}.",
        r.game, r.strong, r.weak, r.deals, r.seed
    )));
    b.push(Para(format!(
        "*Played {} games in {:.1} s on {} thread(s).*",
        r.games, r.seconds, r.threads
    )));
}

/// `Summary`: one row per variant.
fn summary_blocks(r: &Report, b: &mut Vec<Block>) {
    use Block::*;
    b.push(Heading(2, "Summary".into()));
    b.push(Table(
        [
            "variant",
            "players",
            "options (vs defaults)",
            "seat spread",
            "equal positions: χ² p",
            "mean length",
            "skill index",
            "strong ahead",
            "luck share",
        ]
        .map(String::from)
        .to_vec(),
        r.variants
            .iter()
            .map(|v| {
                let rates = v.seats.rates.iter().map(|i| i.value);
                let spread = rates.clone().fold(0.0f64, f64::max) - rates.fold(1.0f64, f64::min);
                vec![
                    v.name.clone(),
                    v.players.to_string(),
                    if v.changes.is_empty() {
                        "(defaults)".into()
                    } else {
                        format!("`{}`", v.changes.join(" "))
                    },
                    format!("{:.1} pts", 100.0 * spread),
                    p_value(v.seats.chi_square.p_value),
                    format!("{:.1}", v.lengths.summary.mean),
                    num_ci(&v.skill.index),
                    pct_ci(&v.skill.ahead),
                    pct_ci(&v.luck.luck),
                ]
            })
            .collect(),
    ));
    b.push(Para(
        "Seat spread: the best starting position's first-place rate minus the worst's. See the method section at the end for what each figure is."
            .into(),
    ));
}

/// `Seat advantage`: the plot and the table by starting position.
fn seat_blocks(r: &Report, b: &mut Vec<Block>) -> Result<(), Error> {
    use Block::*;
    b.push(Heading(2, "Seat advantage".into()));
    b.push(Para(format!(
        "By starting position: {}. Lines: the fair share 1/players.",
        r.position
    )));
    b.push(Figure {
        file: "seat.svg",
        alt: "first-place rate per starting position".into(),
        svg: seat_plot(r)?,
    });
    let labels = position_labels(r);
    let mut header = vec!["position".to_string()];
    header.extend(r.variants.iter().map(|v| v.name.clone()));
    let mut rows: Vec<Vec<String>> = (0..labels.len())
        .map(|s| {
            let mut row = vec![labels[s].clone()];
            row.extend(
                r.variants
                    .iter()
                    .map(|v| v.seats.rates.get(s).map(pct_ci).unwrap_or_default()),
            );
            row
        })
        .collect();
    let row = |label: &str, f: &dyn Fn(&VariantReport) -> String| {
        let mut row = vec![label.to_string()];
        row.extend(r.variants.iter().map(f));
        row
    };
    rows.push(row("fair share", &|v| pct(1.0 / v.players as f64)));
    rows.push(row("χ² (df)", &|v| {
        format!(
            "{:.2} ({})",
            v.seats.chi_square.statistic, v.seats.chi_square.df
        )
    }));
    rows.push(row("p (equal positions)", &|v| {
        p_value(v.seats.chi_square.p_value)
    }));
    rows.push(row("games", &|v| v.seats.games.to_string()));
    rows.push(row("capped (no winner)", &|v| v.seats.capped.to_string()));
    b.push(Table(header, rows));
    Ok(())
}

/// `Game length`: the histograms and their summary.
fn length_blocks(r: &Report, b: &mut Vec<Block>) -> Result<(), Error> {
    use Block::*;
    b.push(Heading(2, "Game length".into()));
    b.push(Figure {
        file: "length.svg",
        alt: "game length histograms".into(),
        svg: length_plot(r)?,
    });
    b.push(Table(
        ["variant", "mean", "median", "p90", "min", "max"]
            .map(String::from)
            .to_vec(),
        r.variants
            .iter()
            .map(|v| {
                let s = &v.lengths.summary;
                vec![
                    v.name.clone(),
                    format!("{:.1}", s.mean),
                    s.median.to_string(),
                    s.p90.to_string(),
                    s.min.to_string(),
                    s.max.to_string(),
                ]
            })
            .collect(),
    ));
    b.push(Para(
        "Actions per game, counted over the seat-advantage games (strong bot in every seat)."
            .into(),
    ));
    Ok(())
}

/// `Skill`: the lone strong bot and the skill index.
fn skill_blocks(r: &Report, b: &mut Vec<Block>) -> Result<(), Error> {
    use Block::*;
    b.push(Heading(2, "Skill".into()));
    b.push(Figure {
        file: "skill.svg",
        alt: "skill index, strong ahead of weak and luck share per variant".into(),
        svg: skill_plot(r)?,
    });
    b.push(Table(
        [
            "variant",
            "lone strong wins",
            "fair share",
            "× fair share",
            "skill index",
            "strong ahead of weak",
        ]
        .map(String::from)
        .to_vec(),
        r.variants
            .iter()
            .map(|v| {
                let s = &v.skill;
                vec![
                    v.name.clone(),
                    pct_ci(&s.strong_wins),
                    pct(s.fair_share),
                    format!("{:.2}", s.strong_wins.value / s.fair_share),
                    num_ci(&s.index),
                    pct_ci(&s.ahead),
                ]
            })
            .collect(),
    ));
    Ok(())
}

/// `Luck vs skill` and `Method`.
fn luck_blocks(r: &Report, b: &mut Vec<Block>) {
    use Block::*;
    b.push(Heading(2, "Luck vs skill".into()));
    b.push(Table(
        [
            "variant",
            "luck (deal) share",
            "skill (bot) share",
            "residual share",
        ]
        .map(String::from)
        .to_vec(),
        r.variants
            .iter()
            .map(|v| {
                vec![
                    v.name.clone(),
                    pct_ci(&v.luck.luck),
                    pct_ci(&v.luck.skill),
                    pct_ci(&v.luck.residual),
                ]
            })
            .collect(),
    ));
    b.push(Para(
        "Shares of the variance of a seat's normalised place in the mixed strong/weak games; they sum to 100%."
            .into(),
    ));

    b.push(Heading(2, "Method".into()));
    for p in METHOD {
        b.push(Para(p.replace("`deals`", &r.deals.to_string())));
    }
}

fn markdown(blocks: &[Block]) -> String {
    let mut out = String::new();
    for b in blocks {
        match b {
            Block::Heading(level, text) => {
                out.push_str(&format!("{} {text}\n\n", "#".repeat(*level as usize)))
            }
            Block::Para(text) => out.push_str(&format!("{text}\n\n")),
            Block::Table(header, rows) => {
                let line = |cells: &[String]| {
                    format!(
                        "| {} |\n",
                        cells
                            .iter()
                            .map(|c| c.replace('|', "\\|"))
                            .collect::<Vec<_>>()
                            .join(" | ")
                    )
                };
                out.push_str(&line(header));
                out.push_str(&format!("|{}\n", " --- |".repeat(header.len())));
                for r in rows {
                    out.push_str(&line(r));
                }
                out.push('\n');
            }
            Block::Figure { file, alt, .. } => out.push_str(&format!("![{alt}]({file})\n\n")),
        }
    }
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Escapes `text` and turns the Markdown spans the report uses (`code`,
/// **bold**, *italic*) into HTML.
fn inline(text: &str) -> String {
    let mut out = String::new();
    let mut rest = escape(text);
    // Code first, so its contents are left alone.
    let mut parts = Vec::new();
    while let Some(a) = rest.find('`') {
        let Some(len) = rest[a + 1..].find('`') else {
            break;
        };
        parts.push((rest[..a].to_string(), false));
        parts.push((rest[a + 1..a + 1 + len].to_string(), true));
        rest = rest[a + 2 + len..].to_string();
    }
    parts.push((rest, false));
    for (part, code) in parts {
        if code {
            out.push_str(&format!("<code>{part}</code>"));
        } else {
            let mut p = part;
            for (mark, tag) in [("**", "strong"), ("*", "em")] {
                let mut open = true;
                while p.contains(mark) {
                    let t = if open {
                        format!("<{tag}>")
                    } else {
                        format!("</{tag}>")
                    };
                    p = p.replacen(mark, &t, 1);
                    open = !open;
                }
            }
            out.push_str(&p);
        }
    }
    out
}

fn html(title: &str, blocks: &[Block]) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\n\
         body {{ font-family: sans-serif; max-width: 980px; margin: 2em auto; padding: 0 1em; color: #222; }}\n\
         table {{ border-collapse: collapse; margin: 1em 0; }}\n\
         th, td {{ border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }}\n\
         th {{ background: #f3f3f3; }}\n\
         figure {{ margin: 1em 0; }}\n\
         svg {{ max-width: 100%; height: auto; }}\n\
         </style>\n</head>\n<body>\n",
        escape(title)
    );
    for b in blocks {
        match b {
            Block::Heading(level, text) => {
                out.push_str(&format!("<h{level}>{}</h{level}>\n", inline(text)))
            }
            Block::Para(text) => out.push_str(&format!("<p>{}</p>\n", inline(text))),
            Block::Table(header, rows) => {
                out.push_str("<table>\n<tr>");
                for h in header {
                    out.push_str(&format!("<th>{}</th>", inline(h)));
                }
                out.push_str("</tr>\n");
                for r in rows {
                    out.push_str("<tr>");
                    for c in r {
                        out.push_str(&format!("<td>{}</td>", inline(c)));
                    }
                    out.push_str("</tr>\n");
                }
                out.push_str("</table>\n");
            }
            Block::Figure { alt, svg, .. } => {
                out.push_str(&format!(
                    "<figure role=\"img\" aria-label=\"{}\">\n{svg}\n</figure>\n",
                    escape(alt)
                ));
            }
        }
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// A rendered report.
pub struct Rendered {
    /// `report.md`.
    pub markdown: String,
    /// `report.html`.
    pub html: String,
    /// The plots: (file name, SVG text).
    pub svgs: Vec<(&'static str, String)>,
}

/// The report's Markdown and HTML texts and its SVG files.
pub fn render(r: &Report) -> Result<Rendered, Error> {
    let blocks = blocks(r)?;
    let svgs = blocks
        .iter()
        .filter_map(|b| match b {
            Block::Figure { file, svg, .. } => Some((*file, svg.clone())),
            _ => None,
        })
        .collect();
    Ok(Rendered {
        markdown: markdown(&blocks),
        html: html(&r.title, &blocks),
        svgs,
    })
}

/// Checks that `dir` can take the report before any game is played: makes
/// it and writes `report.md` there (overwritten by [`write()`]).
pub fn check_out_dir(dir: &Path) -> Result<(), Error> {
    let fail = |source| Error::Report {
        dir: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    std::fs::write(dir.join("report.md"), "(the lab is running)\n").map_err(fail)
}

/// Writes `report.md`, `report.html` and the SVG plots into `dir`.
pub fn write(r: &Report, dir: &Path) -> Result<(), Error> {
    let Rendered {
        markdown: md,
        html: page,
        svgs,
    } = render(r)?;
    let fail = |source| Error::Report {
        dir: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    std::fs::write(dir.join("report.md"), md).map_err(fail)?;
    std::fs::write(dir.join("report.html"), page).map_err(fail)?;
    for (file, svg) in svgs {
        std::fs::write(dir.join(file), svg).map_err(fail)?;
    }
    Ok(())
}
