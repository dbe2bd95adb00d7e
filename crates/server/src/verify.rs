//! The fairness check behind `ratrace verify` and `POST /api/verify`:
//! replay a record from its seed, check the seed against the published
//! hash, and report every shuffle, deal and roll the replay reproduced.
//!
//! Records carry no shuffles or dice, only the seed and the decisions, so
//! replaying them *is* recomputing every chance event; what can fail is
//! the seed commitment, an action the replay finds illegal (a different
//! deck or roll would make it so), or the recorded outcome.

use crate::table::sha256_hex;
use game::{Game, Record};
use serde::Serialize;

/// The result of a check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Whether everything matched.
    pub ok: bool,
    /// What was checked, one line each, in order; the first mismatch is
    /// the last line when `ok` is false.
    pub checks: Vec<String>,
    /// Every chance event the replay reproduced (shuffles, deals, draws,
    /// rolls), in words.
    pub chance: Vec<String>,
    /// The first mismatch, if any.
    pub error: Option<String>,
}

impl Report {
    /// A report of a check that could not run.
    pub fn failed(error: &str) -> Report {
        Report {
            ok: false,
            checks: Vec::new(),
            chance: Vec::new(),
            error: Some(error.to_string()),
        }
    }

    fn fail(mut self, error: String) -> Report {
        self.ok = false;
        self.checks.push(format!("MISMATCH: {error}"));
        self.error = Some(error);
        self
    }
}

fn is_chance(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    ["shuffl", "dealt", "roll", "draw"]
        .iter()
        .any(|w| t.contains(w))
}

/// Checks a record: seed against `seed_hash` (if present), every action
/// legal in the replay, the outcome (if recorded).
pub fn verify(record: &Record) -> Report {
    let report = Report {
        ok: true,
        checks: Vec::new(),
        chance: Vec::new(),
        error: None,
    };
    crate::with_game!(record.game.as_str(), G => verify_game::<G>(record, report),
        _ => report.fail(format!("unknown game `{}`", record.game)))
}

fn verify_game<G: Game>(record: &Record, mut report: Report) -> Report {
    match &record.seed_hash {
        Some(hash) => {
            let actual = sha256_hex(&record.seed.to_string());
            if !actual.eq_ignore_ascii_case(hash.trim()) {
                return report.fail(format!(
                    "the seed {} hashes to {actual}, not to the published {hash}",
                    record.seed
                ));
            }
            report.checks.push(format!(
                "seed {} matches the published hash {actual}",
                record.seed
            ));
        }
        None => report
            .checks
            .push("the record carries no seed_hash: the seed commitment is not checked".into()),
    }
    let game: G = match record.replay(true, |_, _, _| {}) {
        Ok(g) => g,
        Err(e) => return report.fail(e.to_string()),
    };
    report.chance = game
        .log()
        .iter()
        .filter(|e| is_chance(&e.text))
        .map(|e| match e.to {
            None => e.text.clone(),
            Some(seat) => format!("[{seat}] {}", e.text),
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
    match (&record.outcome, game.outcome()) {
        (Some(o), _) => {
            let winners: Vec<String> = o.winners.iter().map(ToString::to_string).collect();
            report.checks.push(format!(
                "the outcome matches: won by {}, scores {:?}",
                winners.join(", "),
                o.scores
            ));
        }
        (None, Some(_)) => report
            .checks
            .push("the game is over; the record states no outcome to compare".into()),
        (None, None) => report.checks.push("the game is not over".into()),
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use bigcheese::BigCheese;

    fn played(seed: u64) -> Record {
        let mut g = BigCheese::new(&Default::default(), 3, seed).unwrap();
        let mut r = Record::new::<BigCheese>(g.options(), 3, seed);
        let mut legal = Vec::new();
        let mut bot = <BigCheese as bots::Roster>::bot("heuristic", seed).unwrap();
        while let Some(seat) = g.to_move() {
            g.legal_actions(&mut legal);
            let a = bot.choose(&g.view(seat), &legal);
            g.apply(a).unwrap();
            r.push::<BigCheese>(seat, a);
        }
        r.outcome = g.outcome();
        r.seed_hash = Some(sha256_hex(&seed.to_string()));
        r
    }

    #[test]
    fn an_honest_record_verifies_and_a_tampered_one_does_not() {
        let r = played(11);
        let ok = verify(&r);
        assert!(ok.ok, "{ok:?}");
        assert!(!ok.chance.is_empty());

        let mut bad_hash = r.clone();
        bad_hash.seed_hash = Some(sha256_hex("12"));
        let rep = verify(&bad_hash);
        assert!(!rep.ok && rep.error.unwrap().contains("hashes to"));

        let mut other_seed = r.clone();
        other_seed.seed = 12;
        other_seed.seed_hash = None;
        let rep = verify(&other_seed);
        assert!(!rep.ok, "another seed gives another game");

        let mut bad_outcome = r;
        if let Some(o) = bad_outcome.outcome.as_mut() {
            o.scores[0] += 1;
        }
        assert!(!verify(&bad_outcome).ok);
    }
}
