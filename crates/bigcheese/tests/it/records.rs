//! Records made under an older rules version still replay as they were
//! played: `bigcheese/1` read `target=auto` with `exact=on` as 30 in every
//! dice mode (B19 changed that for the other modes).

use bigcheese::{BigCheese, FinalTie, Options};
use game::{Game, GameOptions, Record, RecordError};
use std::collections::BTreeMap;

fn record(version: &str, dice: &str) -> Record {
    let mut options: BTreeMap<String, String> = Options::default().pairs().into_iter().collect();
    options.insert("dice".into(), dice.into());
    options.insert("exact".into(), "on".into());
    options.insert("target".into(), "auto".into());
    options.remove("final_tie");
    Record {
        game: "bigcheese".into(),
        rules_version: version.into(),
        players: 4,
        options,
        seed: 7u64.into(),
        names: Vec::new(),
        actions: Vec::new(),
        outcome: None,
        seed_hash: None,
        fairness: None,
    }
}

#[test]
fn a_version_1_record_keeps_its_exact_target_of_30() {
    for (dice, now) in [("d6", 200), ("no-dice", 60), ("polyhedral", 30)] {
        let old = record("bigcheese/1", dice).options::<BigCheese>().unwrap();
        assert_eq!(old.target(), 30, "{dice}");
        assert_eq!(
            old.final_tie,
            FinalTie::Shared,
            "B14's shared tie, as version 1 played"
        );
        let new = record(BigCheese::RULES_VERSION, dice)
            .options::<BigCheese>()
            .unwrap();
        assert_eq!(new.target(), now, "{dice}");
    }
    // A version-1 game replays: its first actions are legal as before.
    let mut r = record("bigcheese/1", "d6");
    let g: BigCheese = r.start().unwrap();
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    r.push::<BigCheese>(g.to_move().unwrap(), legal[0]);
    assert!(r.replay_actions::<BigCheese>(false, |_, _, _| {}).is_ok());
}

#[test]
fn an_unknown_rules_version_is_refused() {
    let err = record("bigcheese/0", "d6")
        .start::<BigCheese>()
        .unwrap_err();
    assert!(
        matches!(err, RecordError::WrongRulesVersion { .. }),
        "{err}"
    );
}
