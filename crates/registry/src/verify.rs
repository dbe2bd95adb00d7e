//! The fairness check behind `ratrace verify` and `POST /api/verify`:
//! replay a record from its seed, check the seed against what the server
//! published before the game (the seed's hash, or the fair-deal scheme's
//! commitment and the players' contributions, see [`crate::fair`]),
//! require a finished game and compare its outcome field by field, and
//! report every shuffle, deal and roll the replay reproduced.
//!
//! Three outcomes ([`Verdict`]): verified; unverifiable (the game replays
//! and matches, but the record carries no commitment to its seed, as a
//! local `ratrace play` game's does not); failed.
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
/// replay's in every field.
pub fn verify(record: &Record) -> Report {
    let report = Report {
        ok: true,
        verdict: Verdict::Verified,
        checks: Vec::new(),
        chance: Vec::new(),
        error: None,
        contributions: Vec::new(),
    };
    crate::dispatch!(record.game.as_str(), G => verify_game::<G>(record, report),
        _ => report.fail(format!("unknown game `{}`", record.game)))
}

fn verify_game<G: Game>(record: &Record, report: Report) -> Report {
    let mut report = match check_commitment(record, report) {
        Ok(report) => report,
        Err(failed) => return failed,
    };
    let uncommitted = record.seed_hash.is_none() && record.fairness.is_none();
    if uncommitted {
        report.checks.push(
            "the record carries no seed_hash and no fairness section: \
             the seed commitment is not checked"
                .into(),
        );
    }
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
    if uncommitted {
        report.ok = false;
        report.verdict = Verdict::Unverifiable;
        report.error = Some(
            "unverifiable: the record carries no commitment to its seed (no seed_hash, no \
             fairness section), so nothing shows the seed was fixed before the game; \
             the game replays and its outcome matches"
                .into(),
        );
    }
    report
}

/// The seed against what was published before the game: its hash, and
/// the fair-deal section ([`crate::fair::check`]). `Err` is the failed
/// report.
fn check_commitment(record: &Record, mut report: Report) -> Result<Report, Report> {
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
    if let Some(f) = &record.fairness {
        match crate::fair::check(f, &record.seed) {
            Ok(lines) => {
                report.checks.extend(lines);
                report.contributions = f.contributions.clone();
            }
            Err(e) => return Err(report.fail(e.to_string())),
        }
    }
    Ok(report)
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
mod tests {
    use super::*;
    use crate::fair;
    use bigcheese::BigCheese;
    use dalmuti::Dalmuti;
    use game::{GameOptions, Outcome, Seat, Seed};
    use std::collections::BTreeMap;

    /// A whole game of `G` from `seed`, every seat played by the heuristic
    /// bot, recorded as a server records it (outcome and seed hash).
    fn played_with<G: bots::Roster>(options: &G::Options, players: usize, seed: Seed) -> Record {
        let mut g = G::new_seeded(options, players, &seed).unwrap();
        let mut r = Record::new::<G>(options, players, seed);
        let mut legal = Vec::new();
        let mut bot = G::bot("heuristic", 1).unwrap();
        while let Some(seat) = g.to_move() {
            g.legal_actions(&mut legal);
            let a = bot.choose(&g.view(seat), &legal);
            g.apply(a).unwrap();
            r.push::<G>(seat, a);
        }
        r.outcome = g.outcome();
        r.seed_hash = Some(sha256_hex(&seed.to_string()));
        r
    }

    fn played(seed: u64) -> Record {
        played_with::<BigCheese>(&Default::default(), 3, Seed::Legacy(seed))
    }

    fn dalmuti_options(hands: &str) -> dalmuti::Options {
        let mut o = dalmuti::Options::default();
        o.set("hands", hands).unwrap();
        o
    }

    /// The records the mutation tests tamper with: both games, both kinds
    /// of seed.
    fn records() -> Vec<Record> {
        vec![
            played(11),
            played_with::<BigCheese>(&Default::default(), 4, Seed::Legacy(5)),
            played_with::<BigCheese>(&Default::default(), 5, Seed::Full([7; 32])),
            played_with::<Dalmuti>(&dalmuti_options("1"), 4, Seed::Legacy(3)),
            played_with::<Dalmuti>(&dalmuti_options("2"), 5, Seed::Full([9; 32])),
        ]
    }

    /// Verifies `r`, which must fail; returns the error.
    fn refused(r: &Record, what: &str) -> String {
        let rep = verify(r);
        assert!(!rep.ok, "{what} verified: {:?}", rep.checks);
        let e = rep.error.expect("a failed report names its error");
        assert_eq!(rep.checks.last(), Some(&format!("MISMATCH: {e}")));
        e
    }

    #[test]
    fn an_honest_record_verifies_and_a_tampered_one_does_not() {
        for r in records() {
            let ok = verify(&r);
            assert!(ok.ok, "{ok:?}");
            assert!(!ok.chance.is_empty());
            assert!(ok
                .checks
                .iter()
                .any(|l| l.contains("matches the published hash")));
            assert!(ok
                .checks
                .last()
                .unwrap()
                .contains("outcome matches the replay"));
        }
        let r = played(11);
        let mut bad_hash = r.clone();
        bad_hash.seed_hash = Some(sha256_hex("12"));
        assert!(refused(&bad_hash, "a wrong hash").contains("hashes to"));

        let mut other_seed = r.clone();
        other_seed.seed = Seed::Legacy(12);
        other_seed.seed_hash = None;
        refused(&other_seed, "another seed");

        let mut full_seed = r.clone();
        full_seed.seed = Seed::Full([11; 32]);
        full_seed.seed_hash = None;
        refused(&full_seed, "a full seed instead of the legacy one");
    }

    /// A record with no commitment (a local game's) is unverifiable, not
    /// verified, however well it replays; one that also fails is failed.
    #[test]
    fn a_record_without_a_commitment_is_unverifiable() {
        for r in records() {
            let mut bare = r.clone();
            bare.seed_hash = None;
            bare.fairness = None;
            let rep = verify(&bare);
            assert_eq!(
                (rep.ok, rep.verdict),
                (false, Verdict::Unverifiable),
                "{rep:?}"
            );
            assert!(rep.error.as_deref().unwrap().contains("no commitment"));
            assert!(rep.checks.iter().any(|l| l.contains("outcome matches")));
            let mut broken = bare.clone();
            broken.outcome.as_mut().unwrap().scores[0] += 1;
            assert_eq!(verify(&broken).verdict, Verdict::Failed);
            assert_eq!(verify(&r).verdict, Verdict::Verified);
        }
        let json = serde_json::to_value(Report::failed("x")).unwrap();
        assert_eq!(json["verdict"], "failed");
    }

    /// A forged record never verifies: the first 40 actions of a finished game
    /// with a forged outcome, or with none, verified.
    #[test]
    fn a_truncated_record_does_not_verify() {
        for r in records() {
            let n = r.outcome.as_ref().unwrap().scores.len();
            let mut cut = r.clone();
            cut.actions.truncate(40);
            let mut scores = vec![0; n];
            scores[0] = 99;
            cut.outcome = Some(Outcome {
                winners: vec![Seat::new(0)],
                places: (0..n).map(|i| if i == 0 { 1 } else { 2 }).collect(),
                scores,
                capped: true,
            });
            let e = refused(&cut, "a truncated record with a forged outcome");
            assert!(e.contains("not over after 40 actions"), "{e}");
            assert!(e.contains("capped"), "{e}");

            cut.outcome = None;
            let e = refused(&cut, "a truncated record without an outcome");
            assert!(e.contains("not over after 40 actions"), "{e}");

            // Even the outcome a length cap would really give at that point
            // (what a simulator records, and `Record::replay` accepts) is
            // no finished game.
            let mut capped = r.clone();
            capped.actions.truncate(40);
            capped.outcome = Some(crate::dispatch!(capped.game.as_str(), G => capped
                .replay_actions::<G>(false, |_, _, _| {})
                .unwrap()
                .capped_outcome(), _ => unreachable!()));
            let replays = crate::dispatch!(capped.game.as_str(),
                G => capped.replay::<G>(false, |_, _, _| {}).is_ok(), _ => false);
            assert!(replays, "replay accepts the true capped outcome");
            refused(&capped, "a capped record");

            // A finished game without its outcome proves nothing either.
            let mut silent = r.clone();
            silent.outcome = None;
            assert!(refused(&silent, "a record without outcome").contains("states no outcome"));
        }
    }

    /// `Record::replay` (the CLI's replay) compares the outcome with the
    /// same words, and still takes a simulator's capped record.
    #[test]
    fn replay_checks_the_outcome_field_by_field_and_keeps_capped_records() {
        let r = played(11);
        let mut cut = r.clone();
        cut.actions.truncate(40);
        let g: BigCheese = cut.replay_actions(false, |_, _, _| {}).unwrap();
        let capped = g.capped_outcome();
        cut.outcome = Some(capped.clone());
        assert!(cut.replay::<BigCheese>(false, |_, _, _| {}).is_ok());

        let mut forged = cut.clone();
        let o = forged.outcome.as_mut().unwrap();
        o.winners = vec![Seat::new(0)];
        o.scores[0] = 99;
        let e = forged
            .replay::<BigCheese>(false, |_, _, _| {})
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("winners: record says P1, replay gives nobody"),
            "{e}"
        );
        let want = format!(
            "score of P1: record says 99, replay gives {}",
            capped.scores[0]
        );
        assert!(e.contains(&want), "{e}");

        cut.outcome = r.outcome.clone();
        let e = cut
            .replay::<BigCheese>(false, |_, _, _| {})
            .unwrap_err()
            .to_string();
        assert!(e.contains("still going after 40 actions"), "{e}");

        let mut changed = r.clone();
        let o = changed.outcome.as_mut().unwrap();
        o.scores[2] += 1;
        let e = changed
            .replay::<BigCheese>(false, |_, _, _| {})
            .unwrap_err()
            .to_string();
        assert!(e.contains("score of P3: record says"), "{e}");
        assert!(!e.contains("Seat("), "{e}");
    }

    /// Every field of the outcome changed alone: refused, naming the
    /// field and both values in words.
    #[test]
    fn every_outcome_field_is_checked_and_named() {
        for r in records() {
            let o = r.outcome.clone().unwrap();
            let n = o.scores.len();
            let with = |f: &dyn Fn(&mut Outcome)| {
                let mut m = r.clone();
                f(m.outcome.as_mut().unwrap());
                m
            };
            for w in 0..o.winners.len() {
                let other = Seat::all(n).find(|s| !o.winners.contains(s)).unwrap();
                let e = refused(&with(&|m| m.winners[w] = other), "a changed winner");
                let want = format!(
                    "winners: record says {}, replay gives {}",
                    {
                        let mut ws = o.winners.clone();
                        ws[w] = other;
                        seat_list(&ws)
                    },
                    seat_list(&o.winners)
                );
                assert!(e.contains(&want), "{e} / {want}");
            }
            let other = Seat::all(n).find(|s| !o.winners.contains(s)).unwrap();
            let e = refused(&with(&|m| m.winners.push(other)), "an added winner");
            assert!(e.contains("winners: record says"), "{e}");
            let e = refused(&with(&|m| m.winners.clear()), "no winner");
            assert!(e.contains("winners: record says nobody"), "{e}");
            for i in 0..n {
                let seat = Seat::new(i);
                let e = refused(&with(&|m| m.places[i] += 1), "a changed place");
                let want = format!(
                    "place of {seat}: record says {}, replay gives {}",
                    o.places[i] + 1,
                    o.places[i]
                );
                assert!(e.contains(&want), "{e} / {want}");
                let e = refused(&with(&|m| m.scores[i] = 99), "a changed score");
                if o.scores[i] != 99 {
                    let want = format!(
                        "score of {seat}: record says 99, replay gives {}",
                        o.scores[i]
                    );
                    assert!(e.contains(&want), "{e} / {want}");
                }
                let e = refused(&with(&|m| m.scores[i] -= 1), "a lower score");
                assert!(e.contains(&format!("score of {seat}: record says")), "{e}");
            }
            let e = refused(&with(&|m| m.capped = true), "capped");
            assert!(
                e.contains("capped: record says yes, replay gives no"),
                "{e}"
            );
            let e = refused(&with(&|m| m.scores.push(0)), "an extra seat");
            assert!(e.contains("scores: record lists"), "{e}");
            let e = refused(
                &with(&|m| {
                    m.places.pop();
                }),
                "a missing seat",
            );
            assert!(e.contains("places: record lists"), "{e}");
            assert!(!e.contains("Seat("), "no debug text: {e}");
        }
    }

    /// Every action dropped, or given to another seat: refused, naming
    /// the action. Every action replaced by each other action that was
    /// legal at that point: refused, unless the altered record is itself a
    /// whole legal game from the seed that ends exactly as recorded (a bid
    /// raised in an auction its bidder won anyway, a Dalmuti play by the
    /// last seat holding cards). A replay cannot tell such a record from
    /// the real one: it proves the record is a legal game from the
    /// committed seed with the stated outcome, not that these were the
    /// decisions made (`docs/server.md`, "What verify proves").
    #[test]
    fn every_action_is_checked() {
        for r in records() {
            crate::dispatch!(r.game.as_str(), G => tamper_actions::<G>(&r), _ => unreachable!());
        }
    }

    /// Replays `r` without `verify`: a finished legal game with exactly
    /// the recorded outcome.
    fn same_game_result<G: Game>(r: &Record) -> bool {
        r.replay_actions::<G>(false, |_, _, _| {})
            .is_ok_and(|g| g.outcome().is_some() && g.outcome() == r.outcome)
    }

    fn tamper_actions<G: Game>(r: &Record) {
        let mut g: G = r.start().unwrap();
        let mut legal = Vec::new();
        let (mut replaced, mut accepted) = (0, 0);
        for i in 0..r.actions.len() {
            let (seat, action) = r.parse_action::<G>(i).unwrap();

            let mut dropped = r.clone();
            dropped.actions.remove(i);
            refused(&dropped, &format!("record without action {}", i + 1));

            let other = Seat::new(if seat.index() == 0 { 1 } else { 0 });
            let mut moved = r.clone();
            moved.actions[i] = format!("{other} {action}");
            let e = refused(&moved, &format!("action {} by {other}", i + 1));
            assert!(e.contains(&format!("action {} `{other} ", i + 1)), "{e}");

            g.legal_actions(&mut legal);
            for alt in legal.iter().filter(|a| **a != action) {
                let mut changed = r.clone();
                changed.actions[i] = format!("{seat} {alt}");
                replaced += 1;
                let rep = verify(&changed);
                assert_eq!(
                    rep.ok,
                    same_game_result::<G>(&changed),
                    "action {} `{}` as `{seat} {alt}`: {:?}",
                    i + 1,
                    r.actions[i],
                    rep.checks
                );
                accepted += usize::from(rep.ok);
            }
            g.act(seat, action).unwrap();
        }
        assert!(replaced > 100, "only {replaced} replacements");
        assert!(
            accepted * 4 < replaced,
            "{accepted} of {replaced} replacements are legal games with the same outcome"
        );
    }

    /// A game seeded by the fair-deal scheme: 4 seats, humans at P1 and
    /// P3.
    fn fair_record<G: bots::Roster>(options: &G::Options, players: usize) -> (Record, [u8; 32]) {
        let secret = fair::new_secret();
        let cs: BTreeMap<Seat, [u8; 32]> = [
            (Seat::new(0), fair::new_secret()),
            (Seat::new(2), fair::new_secret()),
        ]
        .into_iter()
        .collect();
        let mut r = played_with::<G>(options, players, fair::seed(Some("tbl"), &secret, &cs));
        r.seed_hash = None;
        r.fairness = Some(fair::fairness(Some("tbl"), &secret, &cs, true));
        (r, secret)
    }

    #[test]
    fn a_fair_deal_record_verifies_and_a_tampered_one_does_not() {
        let records = [
            fair_record::<BigCheese>(&Default::default(), 4),
            fair_record::<Dalmuti>(&dalmuti_options("1"), 4),
        ];
        for (r, secret) in records {
            let f = r.fairness.clone().unwrap();
            let rep = verify(&r);
            assert!(rep.ok, "{rep:?}");
            assert_eq!(rep.contributions, f.contributions);
            for c in &f.contributions {
                let line = format!("{}'s contribution {} went into the seed", c.seat, c.value);
                assert!(rep.checks.contains(&line), "{line} in {:?}", rep.checks);
            }
            assert!(rep.checks.contains(&format!(
                "the server's secret {} matches its published commitment {}",
                fair::hex(&secret),
                f.commitment
            )));
            // The JSON a server sends round-trips.
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<Record>(&json).unwrap(), r);

            let tamper = |t: &dyn Fn(&mut Record)| {
                let mut m = r.clone();
                t(&mut m);
                m
            };
            let e = refused(
                &tamper(&|m| m.fairness.as_mut().unwrap().secret = Some(fair::hex(&[1; 32]))),
                "a wrong secret",
            );
            assert!(e.contains("published commitment"), "{e}");
            let e = refused(
                &tamper(&|m| m.fairness.as_mut().unwrap().commitment = fair::commitment(&[1; 32])),
                "a wrong commitment",
            );
            assert!(e.contains("published commitment"), "{e}");
            let e = refused(
                &tamper(&|m| {
                    m.fairness.as_mut().unwrap().contributions[1].value = fair::hex(&[2; 32])
                }),
                "a changed contribution",
            );
            assert!(e.contains("the secret and the contributions give"), "{e}");
            let e = refused(
                &tamper(&|m| drop(m.fairness.as_mut().unwrap().contributions.remove(0))),
                "a dropped contribution",
            );
            assert!(e.contains("the secret and the contributions give"), "{e}");
            let e = refused(
                &tamper(&|m| m.fairness.as_mut().unwrap().contributions[0].seat = Seat::new(1)),
                "a contribution moved to another seat",
            );
            assert!(e.contains("the secret and the contributions give"), "{e}");
            let e = refused(&tamper(&|m| m.seed = Seed::Full([3; 32])), "a changed seed");
            assert!(e.contains("the record's seed is"), "{e}");
            let e = refused(
                &tamper(&|m| m.fairness.as_mut().unwrap().secret = None),
                "a hidden secret",
            );
            assert!(e.contains("does not reveal"), "{e}");
            // With a seed hash as well, both are checked.
            let both = tamper(&|m| m.seed_hash = Some(sha256_hex(&m.seed.to_string())));
            assert!(verify(&both).ok);
        }
    }

    #[test]
    fn seeds_of_both_kinds_replay_deterministically() {
        fn same<G: Game>(options: &G::Options, players: usize) {
            let state = |s: &Seed| format!("{:?}", G::new_seeded(options, players, s).unwrap());
            for n in [0, 1, 42, u64::MAX] {
                let legacy = format!("{:?}", G::new(options, players, n).unwrap());
                assert_eq!(
                    legacy,
                    state(&Seed::Legacy(n)),
                    "new(u64) is the legacy seed"
                );
            }
            let a = Seed::Full([1; 32]);
            let mut b_bytes = [1; 32];
            b_bytes[31] = 2;
            assert_eq!(state(&a), state(&a));
            assert_ne!(state(&a), state(&Seed::Full(b_bytes)));
            assert_ne!(state(&a), state(&Seed::Legacy(1)));
        }
        same::<BigCheese>(&Default::default(), 4);
        same::<Dalmuti>(&Default::default(), 5);
        for r in records() {
            let again = crate::dispatch!(r.game.as_str(), G => {
                let a: G = r.replay(true, |_, _, _| {}).unwrap();
                let b: G = r.replay(true, |_, _, _| {}).unwrap();
                (format!("{a:?}"), format!("{b:?}"), a.events() == b.events())
            }, _ => unreachable!());
            assert_eq!(again.0, again.1);
            assert!(again.2);
        }
    }
}
