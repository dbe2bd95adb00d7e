//! The record check's tests: honest records, tampered ones, every verdict.

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
    assert_eq!(rep.verdict, Verdict::Failed, "{what}: {:?}", rep.checks);
    let e = rep.error.expect("a failed report names its error");
    assert_eq!(rep.checks.last(), Some(&format!("MISMATCH: {e}")));
    e
}

/// A record whose only commitment is its seed's hash replays and
/// checks the hash, but is unverifiable (anyone could have hashed the
/// seed afterwards); one that is tampered with fails.
#[test]
fn an_honest_record_replays_and_a_tampered_one_does_not() {
    for r in records() {
        let ok = verify(&r);
        assert_eq!(ok.verdict, Verdict::Unverifiable, "{ok:?}");
        assert!(
            ok.error.as_deref().unwrap().contains("bare seed_hash"),
            "{ok:?}"
        );
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
        // A bare seed hash is no more: unverifiable too.
        assert_eq!(verify(&r).verdict, Verdict::Unverifiable);
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
            let passed = rep.verdict != Verdict::Failed;
            assert_eq!(
                passed,
                same_game_result::<G>(&changed),
                "action {} `{}` as `{seat} {alt}`: {:?}",
                i + 1,
                r.actions[i],
                rep.checks
            );
            accepted += usize::from(passed);
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
    let mut r = played_with::<G>(
        options,
        players,
        fair::seed(fair::Binding::Table("tbl"), &secret, &cs),
    );
    r.seed_hash = None;
    r.fairness = Some(fair::fairness(
        fair::Binding::Table("tbl"),
        &secret,
        &cs,
        true,
    ));
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
            &tamper(&|m| m.fairness.as_mut().unwrap().contributions[1].value = fair::hex(&[2; 32])),
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

/// A version-3 record is verified only against a key the checker
/// trusts; stripped of its signature, signed by another key, or
/// dressed up with a bare seed hash instead of its section, it is not.
#[test]
fn a_signed_commitment_is_verified_only_against_a_trusted_key() {
    let key = crate::signed::Key::from_secret(&[3; 32]);
    let other = crate::signed::Key::from_secret(&[4; 32]);
    let secret = fair::new_secret();
    let cs: BTreeMap<Seat, [u8; 32]> = [(Seat::new(0), fair::new_secret())].into();
    let seed = fair::seed(fair::Binding::Signed("tbl"), &secret, &cs);
    let mut r = played_with::<Dalmuti>(&dalmuti_options("1"), 4, seed);
    r.seed_hash = None;
    let mut f = fair::fairness(fair::Binding::Signed("tbl"), &secret, &cs, true);
    key.sign(&mut f);
    r.fairness = Some(f);
    let rep = verify_with(&r, &[key.public()]);
    assert_eq!(rep.verdict, Verdict::Verified, "{rep:?}");
    assert!(rep
        .checks
        .iter()
        .any(|l| l.contains("signed by the trusted server key")));
    // Nobody trusted, or another key: sound, but unverifiable.
    for trusted in [vec![], vec![other.public()]] {
        let rep = verify_with(&r, &trusted);
        assert_eq!(rep.verdict, Verdict::Unverifiable, "{rep:?}");
        assert!(rep.error.unwrap().contains(&key.public_hex()));
    }
    // Without its signature: unverifiable.
    let mut bare = r.clone();
    bare.fairness.as_mut().unwrap().signature = None;
    assert_eq!(
        verify_with(&bare, &[key.public()]).verdict,
        Verdict::Unverifiable
    );
    // Signed again by another key that claims to be the server's key:
    // forged.
    let mut forged = r.clone();
    forged.fairness.as_mut().unwrap().key = Some(other.public_hex());
    assert_eq!(
        verify_with(&forged, &[other.public()]).verdict,
        Verdict::Failed
    );
    // Relabelled as version 2 (never signed): its seed does not derive.
    let mut v2 = r.clone();
    v2.fairness.as_mut().unwrap().scheme = fair::SCHEME_V2.into();
    assert_eq!(verify_with(&v2, &[]).verdict, Verdict::Failed);
    // The probe's dress-up: the section removed, a seed hash added.
    let mut dressed = r.clone();
    dressed.fairness = None;
    dressed.seed_hash = Some(sha256_hex(&dressed.seed.to_string()));
    let rep = verify_with(&dressed, &[key.public()]);
    assert_eq!(rep.verdict, Verdict::Unverifiable, "{rep:?}");
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
