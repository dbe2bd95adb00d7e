//! `ratrace db copy` through the real binary: a SQLite file with a played,
//! finished game and an unfinished table is copied into another database,
//! every table reads back equal, the finished game's record verifies on
//! the target, a second run skips what is there, and a missing source is
//! refused without making a file.

use game::{Game, GameOptions, Seat};
use server::store::{
    Access, SeatKind, SqliteStore, Store, StoredAction, StoredSeat, StoredTable, TableConfig,
    TableDump,
};
use std::process::Command;

/// A Dalmuti table of 4 bots played by first legal moves, for at most
/// `cap` actions, as stored.
fn dump(id: &str, seed: u64, cap: usize) -> TableDump {
    let options = <dalmuti::Dalmuti as Game>::Options::default();
    let mut game = dalmuti::Dalmuti::new(&options, 4, seed).unwrap();
    let mut legal = Vec::new();
    let mut actions = Vec::new();
    while game.outcome().is_none() && actions.len() < cap {
        let seat = game.to_move().unwrap();
        game.legal_actions(&mut legal);
        let a = legal[0];
        actions.push(StoredAction {
            seq: actions.len() as u64 + 1,
            seat,
            action: a.to_string(),
            // some made by a stand-in: the copy keeps who made each
            stand_in: actions.len() % 5 == 4,
        });
        game.apply(a).unwrap();
    }
    let over = game.outcome().is_some();
    let action_times = (0..actions.len() as i64).map(|i| 1000 + i).collect();
    TableDump {
        table: StoredTable {
            id: id.to_string(),
            game: "dalmuti".to_string(),
            rules_version: <dalmuti::Dalmuti as Game>::RULES_VERSION.to_string(),
            players: 4,
            options: options.pairs().into_iter().collect(),
            seed: seed.into(),
            seed_hash: registry::fair::sha256_hex(&seed.to_string()),
            fair: None,
            config: TableConfig::default(),
            created_at: 1000,
            finished_at: over.then_some(2000),
            seats: (0..4)
                .map(|i| StoredSeat {
                    seat: Seat::new(i),
                    kind: SeatKind::Bot("random".to_string()),
                })
                .collect(),
            actions,
            access: Access::default(),
            social: Default::default(),
        },
        last_active: Some(1500),
        ended: over.then(|| "over".to_string()),
        action_times,
    }
}

/// Runs `ratrace db copy`; whether it succeeded, and what it printed.
fn copy(from: &str, to: &str) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ratrace"))
        .args(["db", "copy", "--from", from, "--to", to])
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn db_copy_moves_and_verifies_every_table_and_refuses_a_missing_source() {
    let dir = super::temp_dir("db-copy");
    let (a, b) = (dir.join("a.db"), dir.join("b.db"));
    let finished = dump("done", 7, 100_000);
    assert_eq!(finished.ended.as_deref(), Some("over"), "a whole game");
    let unfinished = dump("live", 8, 5);
    {
        let s = SqliteStore::open(&a).unwrap();
        s.restore(&finished).unwrap();
        s.restore(&unfinished).unwrap();
    }
    let src = format!("sqlite:{}", a.display());
    let dst = format!("sqlite:{}", b.display());
    let (ok, text) = copy(&src, &dst);
    assert!(ok, "{text}");
    assert!(text.contains("2 tables (2 new, 0 already there)"), "{text}");
    assert!(text.contains("1 finished games verified"), "{text}");
    let target = SqliteStore::open(&b).unwrap();
    assert_eq!(target.dump("done").unwrap().unwrap(), finished);
    assert_eq!(target.dump("live").unwrap().unwrap(), unfinished);
    drop(target);
    let (ok, text) = copy(&src, &dst);
    assert!(ok && text.contains("(0 new, 2 already there)"), "{text}");
    let missing = dir.join("missing.db");
    let (ok, text) = copy(&missing.display().to_string(), &dst);
    assert!(!ok && text.contains("no such database file"), "{text}");
    assert!(!missing.exists(), "no file made for a missing source");
    let _ = std::fs::remove_dir_all(&dir);
}
