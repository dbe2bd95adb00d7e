//! The fairness check behind `ratrace verify` and `POST /api/verify`:
//! replay a record from its seed, check the seed against what the server
//! published before the game (the seed's hash, or the fair-deal scheme's
//! commitment and the players' contributions, see [`crate::fair`]),
//! require a finished game and compare its outcome field by field, and
//! report every shuffle, deal and roll the replay reproduced.
//!
//! Three outcomes ([`Verdict`]): verified; unverifiable (the game replays
//! and matches, but nothing shows the server fixed the seed before the
//! game: the record carries no commitment, as a local `ratrace play`
//! game's does not, or only a bare `seed_hash`, which anyone can compute
//! afterwards, or a version-3 commitment signed by a key the checker does
//! not trust); failed.
//!
//! Records carry no shuffles or dice, only the seed and the decisions, so
//! replaying them *is* recomputing every chance event; what can fail is
//! the seed commitment, an action the replay finds illegal (a different
//! deck or roll would make it so), a game the actions do not finish, or
//! the recorded outcome. Only finished games verify: a server's record is
//! a finished game, and an unfinished one (cut short, or stopped at a
//! simulator's length cap) proves nothing about who won.

use crate::fair::sha256_hex;
use game::{seat_list, Contribution, Game, GameEvent, Record};
use serde::Serialize;

/// What a check concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The seed was committed to before the game (its hash, or the
    /// fair-deal commitment), and everything checks out.
    Verified,
    /// The game replays and its outcome matches, but the record carries
    /// no commitment: nothing shows the seed was not chosen afterwards.
    Unverifiable,
    /// Something does not match (or the check could not run).
    Failed,
}

/// The result of a check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Whether the record is verified: true only for
    /// [`Verdict::Verified`].
    pub ok: bool,
    /// What the check concluded.
    pub verdict: Verdict,
    /// What was checked, one line each, in order; the first mismatch is
    /// the last line when `ok` is false.
    pub checks: Vec<String>,
    /// Every chance event the replay reproduced (shuffles, deals, draws,
    /// rolls), in words.
    pub chance: Vec<String>,
    /// Why the record is not verified: the first mismatch, or why it is
    /// unverifiable.
    pub error: Option<String>,
    /// The players' contributions that were checked to have gone into the
    /// seed (fair-deal records only), so a page can tell a player that
    /// the value their browser made is among them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub contributions: Vec<Contribution>,
}

impl Report {
    /// A report of a check that could not run.
    pub fn failed(error: &str) -> Report {
        Report {
            ok: false,
            verdict: Verdict::Failed,
            checks: Vec::new(),
            chance: Vec::new(),
            error: Some(error.to_string()),
            contributions: Vec::new(),
        }
    }

    fn fail(mut self, error: String) -> Report {
        self.ok = false;
        self.verdict = Verdict::Failed;
        self.checks.push(format!("MISMATCH: {error}"));
        self.error = Some(error);
        self
    }
}

/// Checks a record: the seed against `seed_hash` and against the
/// `fairness` section (whichever are present), every action legal in the
/// replay, the game finished, and the recorded outcome equal to the
/// replay's in every field. No key is trusted: a signed (version-3)
/// record is at best unverifiable ([`verify_with`]).
pub fn verify(record: &Record) -> Report {
    verify_with(record, &[])
}

/// [`verify`], trusting the server keys `trusted` (Ed25519 public keys):
/// a version-3 record is verified only if one of them signed its
/// commitment.
pub fn verify_with(record: &Record, trusted: &[[u8; 32]]) -> Report {
    let report = Report {
        ok: true,
        verdict: Verdict::Verified,
        checks: Vec::new(),
        chance: Vec::new(),
        error: None,
        contributions: Vec::new(),
    };
    crate::dispatch!(record.game.as_str(), G => verify_game::<G>(record, trusted, report),
        _ => report.fail(format!("unknown game `{}`", record.game)))
}

fn verify_game<G: Game>(record: &Record, trusted: &[[u8; 32]], report: Report) -> Report {
    let (mut report, unproven) = match check_commitment(record, trusted, report) {
        Ok(checked) => checked,
        Err(failed) => return failed,
    };
    let game: G = match record.replay_actions(true, |_, _, _| {}) {
        Ok(g) => g,
        Err(e) => return report.fail(e.to_string()),
    };
    report.chance = game
        .events()
        .iter()
        .filter(|e| e.event.is_chance())
        .map(|e| match e.to {
            None => e.event.to_string(),
            Some(seat) => format!("[{seat}] {}", e.event),
        })
        .collect();
    report.checks.push(format!(
        "{} actions replayed from the seed, each legal",
        record.actions.len()
    ));
    report.checks.push(format!(
        "{} shuffles, deals, draws and rolls reproduced from the seed",
        report.chance.len()
    ));
    let mut report = match check_outcome(record, &game, report) {
        Ok(report) => report,
        Err(failed) => return failed,
    };
    if let Some(why) = unproven {
        report.ok = false;
        report.verdict = Verdict::Unverifiable;
        report.error = Some(format!(
            "unverifiable: {why}, so nothing shows the server fixed the seed before the \
             game; the game replays and its outcome matches"
        ));
    }
    report
}

/// The seed against what was published before the game: its hash, and
/// the fair-deal section ([`crate::fair::check`]), and who signed that
/// section's commitment ([`crate::signed::check`]). `Ok` carries, besides
/// the report, why the commitment proves nothing if it does not (none, a
/// bare hash, a key not trusted); `Err` is the failed report.
fn check_commitment(
    record: &Record,
    trusted: &[[u8; 32]],
    mut report: Report,
) -> Result<(Report, Option<String>), Report> {
    if let Some(hash) = &record.seed_hash {
        let actual = sha256_hex(&record.seed.to_string());
        if !actual.eq_ignore_ascii_case(hash.trim()) {
            return Err(report.fail(format!(
                "the seed {} hashes to {actual}, not to the published {hash}",
                record.seed
            )));
        }
        report.checks.push(format!(
            "seed {} matches the published hash {actual}",
            record.seed
        ));
    }
    let Some(f) = &record.fairness else {
        let why = if record.seed_hash.is_some() {
            "the record's only commitment is a bare seed_hash, which anyone can compute from \
             the seed after the game (no signed fairness section)"
        } else {
            "the record carries no commitment to its seed (no seed_hash, no fairness section)"
        };
        report
            .checks
            .push(format!("{why}: the seed commitment proves nothing"));
        return Ok((report, Some(why.to_string())));
    };
    match crate::fair::check(f, &record.seed) {
        Ok(lines) => {
            report.checks.extend(lines);
            report.contributions = f.contributions.clone();
        }
        Err(e) => return Err(report.fail(e.to_string())),
    }
    if f.scheme != crate::fair::SCHEME {
        // Versions 1 and 2 were never signed: they keep their verdict.
        return Ok((report, None));
    }
    match crate::signed::check(f, trusted) {
        Ok(crate::signed::Signer::Trusted(key)) => {
            report.checks.push(format!(
                "the commitment is signed by the trusted server key {key}"
            ));
            Ok((report, None))
        }
        Ok(crate::signed::Signer::Untrusted(key)) => {
            let why = format!(
                "the commitment is signed by key {key}, which this check was not told to trust \
                 (give the server's key: `ratrace verify --key`, from its `GET /api/key` or \
                 `ratrace serve --print-key`)"
            );
            report.checks.push(why.clone());
            Ok((report, Some(why)))
        }
        Err(e @ crate::signed::SignError::Unsigned) => {
            let why = e.to_string();
            report.checks.push(why.clone());
            Ok((report, Some(why)))
        }
        Err(e) => Err(report.fail(e.to_string())),
    }
}

/// The replayed game over, and its outcome the record's, field by field.
/// `Err` is the failed report.
fn check_outcome<G: Game>(record: &Record, game: &G, mut report: Report) -> Result<Report, Report> {
    let Some(actual) = game.outcome() else {
        let capped = if record.outcome.as_ref().is_some_and(|o| o.capped) {
            " (the record says capped: a game stopped at a length cap is not a finished game)"
        } else {
            ""
        };
        return Err(report.fail(format!(
            "the game is not over after {} actions ({} to move): only a finished game verifies{capped}",
            record.actions.len(),
            game.to_move().map_or("nobody".to_string(), |s| s.to_string()),
        )));
    };
    let Some(expected) = &record.outcome else {
        return Err(report.fail(format!(
            "the record states no outcome (the replay ends won by {}): there is nothing to verify",
            seat_list(&actual.winners)
        )));
    };
    let diff = expected.diff(&actual);
    if !diff.is_empty() {
        return Err(report.fail(format!("the outcome does not match: {}", diff.join("; "))));
    }
    let join = |v: &[String]| v.join(" / ");
    report.checks.push(format!(
        "the game is over and the outcome matches the replay: won by {}, places {}, scores {}{}",
        seat_list(&actual.winners),
        join(
            &actual
                .places
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        ),
        join(
            &actual
                .scores
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        ),
        if actual.capped { ", capped" } else { "" }
    ));
    Ok(report)
}

#[cfg(test)]
mod tests;
