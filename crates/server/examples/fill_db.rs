//! Makes a SQLite database of many tables for the `ratrace db copy`
//! measurement: each table a whole game of The Big Cheese or
//! Dalmuti played by random legal moves (9 in 10 finished, the rest
//! abandoned or still unfinished), stored as `ratrace serve` stores them.
//!
//! Usage: `cargo run --release -p server --example fill_db -- FILE
//! [TABLES (40000)]`. The file must not exist.

use game::{Game, GameOptions, Seat};
use rand::{Rng, SeedableRng};
use server::store::{
    Access, SeatKind, SqliteStore, Store, StoredAction, StoredSeat, StoredTable, TableConfig,
    TableDump,
};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A game of `G` played by random legal moves from `seed`, for at most
/// `cap` actions: the actions and whether it ended.
fn play<G: Game>(
    options: &G::Options,
    players: usize,
    seed: u64,
    cap: usize,
) -> Option<(Vec<(Seat, String)>, bool)> {
    let mut game = G::new(options, players, seed).ok()?;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed ^ 0x5eed);
    let mut legal = Vec::new();
    let mut actions = Vec::new();
    while game.outcome().is_none() && actions.len() < cap {
        let seat = game.to_move()?;
        game.legal_actions(&mut legal);
        let a = *legal.get(rng.random_range(0..legal.len().max(1)))?;
        actions.push((seat, a.to_string()));
        game.apply(a).ok()?;
    }
    Some((actions, game.outcome().is_some()))
}

fn table<G: Game>(
    id: String,
    options: &[(&str, &str)],
    players: usize,
    seed: u64,
    kind: u32,
) -> Option<TableDump> {
    let mut opts = G::Options::default();
    for (k, v) in options {
        opts.set(k, v).ok()?;
    }
    // kind 0..8 finished, 8 abandoned midway, 9 unfinished
    let cap = if kind < 8 { 600 } else { 20 };
    let (moves, over) = play::<G>(&opts, players, seed, cap)?;
    let created = 1_700_000_000 + (seed % 10_000_000) as i64;
    let finished = (kind < 9).then_some(created + moves.len() as i64);
    Some(TableDump {
        table: StoredTable {
            id,
            game: G::NAME.to_string(),
            rules_version: G::RULES_VERSION.to_string(),
            players,
            options: opts.pairs().into_iter().collect(),
            seed: seed.into(),
            seed_hash: registry::fair::sha256_hex(&seed.to_string()),
            fair: None,
            config: TableConfig::default(),
            created_at: created,
            finished_at: finished,
            seats: (0..players)
                .map(|i| StoredSeat {
                    seat: Seat::new(i),
                    kind: SeatKind::Bot("random".to_string()),
                })
                .collect(),
            actions: moves
                .iter()
                .enumerate()
                .map(|(i, (seat, action))| StoredAction {
                    seq: i as u64 + 1,
                    seat: *seat,
                    action: action.clone(),
                    stand_in: false,
                })
                .collect(),
            access: Access {
                public: true,
                ..Access::default()
            },
            social: Default::default(),
        },
        last_active: Some(created + moves.len() as i64),
        ended: match (kind, over) {
            (9, _) => None,
            (_, true) => Some("over".to_string()),
            _ => Some("abandoned".to_string()),
        },
        action_times: (0..moves.len() as i64).map(|i| created + i).collect(),
    })
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: fill_db FILE [TABLES (40000)]");
        return ExitCode::from(2);
    };
    let n: usize = args.next().and_then(|t| t.parse().ok()).unwrap_or(40_000);
    if std::path::Path::new(&path).exists() {
        eprintln!("{path} exists: give a new file");
        return ExitCode::from(2);
    }
    let store = match SqliteStore::open(std::path::Path::new(&path)) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let next = Arc::new(AtomicUsize::new(0));
    let started = std::time::Instant::now();
    // Several writers: the store commits their tables together.
    let workers: Vec<_> = (0..8)
        .map(|_| {
            let (store, next) = (Arc::clone(&store), Arc::clone(&next));
            std::thread::spawn(move || {
                let mut actions = 0;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        return Ok(actions);
                    }
                    let id = format!("t{i:07}");
                    let seed = rand::rng().random::<u64>();
                    let kind = ((i / 2) % 10) as u32;
                    let dump = if i % 2 == 0 {
                        table::<bigcheese::BigCheese>(id, &[], 4, seed, kind)
                    } else {
                        table::<dalmuti::Dalmuti>(id, &[("hands", "1")], 5, seed, kind)
                    };
                    let Some(dump) = dump else {
                        return Err(format!("table {i}: the game did not set up"));
                    };
                    actions += dump.table.actions.len();
                    store.restore(&dump).map_err(|e| e.to_string())?;
                }
            })
        })
        .collect();
    let mut actions = 0;
    for w in workers {
        match w.join() {
            Ok(Ok(a)) => actions += a,
            Ok(Err(e)) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
            Err(_) => return ExitCode::FAILURE,
        }
    }
    println!(
        "{path}: {n} tables, {actions} actions, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
