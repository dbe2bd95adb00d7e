//! What every [`Store`] backend must do, as tests over `&dyn Store`: each
//! backend's test module runs every one of them on a fresh, empty store of
//! its own, so SQLite and PostgreSQL are held to one contract.

/// The contract as tests for one backend: one `#[test]` per check, each
/// on a fresh, empty store that `$on_fresh` (a function taking a check
/// `FnOnce(Arc<dyn Store>)`) makes, runs it on and cleans up. The checks
/// that need two stores or a file (concurrent appends, dump and restore)
/// are written by each backend.
macro_rules! contract_tests {
    ($on_fresh:path) => {
        #[test]
        fn contract_round_trip() {
            $on_fresh(|s| $crate::store::contract::round_trip(s.as_ref()));
        }

        #[test]
        fn contract_end_with_last_action() {
            $on_fresh(|s| $crate::store::contract::end_with_last_action(s.as_ref()));
        }

        #[test]
        fn contract_idle_and_fill() {
            $on_fresh(|s| $crate::store::contract::idle_and_fill(s.as_ref()));
        }

        #[test]
        fn contract_fair_inputs() {
            $on_fresh(|s| $crate::store::contract::fair_inputs(s.as_ref()));
        }

        #[test]
        fn contract_ownership_and_fencing() {
            $on_fresh(|s| $crate::store::contract::ownership_and_fencing(s.as_ref()));
        }

        #[test]
        fn contract_social_links() {
            $on_fresh(|s| $crate::store::contract::social_links(s.as_ref()));
        }

        #[test]
        fn contract_results_and_ratings() {
            $on_fresh(|s| $crate::store::contract::results_and_ratings(s.as_ref()));
        }

        #[test]
        fn contract_concessions() {
            $on_fresh(|s| $crate::store::contract::concessions(s.as_ref()));
        }

        #[test]
        fn contract_retokens() {
            $on_fresh(|s| $crate::store::contract::retokens(s.as_ref()));
        }

        #[test]
        fn contract_profiles() {
            $on_fresh(|s| $crate::store::contract_profile::profiles(s.as_ref()));
        }

        #[test]
        fn contract_relations() {
            $on_fresh(|s| $crate::store::contract_profile::relations(s.as_ref()));
        }

        #[test]
        fn contract_passkeys() {
            $on_fresh(|s| $crate::store::contract_profile::passkeys(s.as_ref()));
        }

        #[test]
        fn contract_tickets() {
            $on_fresh(|s| $crate::store::contract_profile::tickets(s.as_ref()));
        }

        #[test]
        fn contract_tournaments() {
            $on_fresh(|s| $crate::store::contract_profile::tournaments(s.as_ref()));
        }

        #[test]
        fn contract_site_secret() {
            $on_fresh(|s| $crate::store::contract::site_secret(s.as_ref()));
        }
    };
}
pub(crate) use contract_tests;

use super::*;
use game::Seat;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// A three-seat Big Cheese table: a free human seat and two bots.
pub(crate) fn table(id: &str) -> StoredTable {
    StoredTable {
        id: id.to_string(),
        game: "bigcheese".to_string(),
        rules_version: "bigcheese/1".to_string(),
        players: 3,
        options: [("dice".to_string(), "d6".to_string())].into(),
        seed: u64::MAX.into(),
        seed_hash: "abc".to_string(),
        fair: None,
        config: TableConfig::default(),
        created_at: 100,
        finished_at: None,
        seats: vec![
            StoredSeat {
                seat: Seat::new(0),
                kind: SeatKind::Human {
                    name: None,
                    token_hash: None,
                },
            },
            StoredSeat {
                seat: Seat::new(1),
                kind: SeatKind::Bot("heuristic".to_string()),
            },
            StoredSeat {
                seat: Seat::new(2),
                kind: SeatKind::Bot("random".to_string()),
            },
        ],
        actions: Vec::new(),
        access: Access {
            public: true,
            ..Access::default()
        },
        social: Social::default(),
    }
}

/// An action of seat `seat`.
pub(crate) fn act(seq: u64, seat: usize, action: &str) -> StoredAction {
    StoredAction {
        seq,
        seat: Seat::new(seat),
        action: action.to_string(),
        stand_in: false,
    }
}

const N: &str = "node-a";

/// Tables, seats and actions read back as written; a seq is stored once;
/// a seat is taken once.
pub(crate) fn round_trip(s: &dyn Store) {
    assert_eq!(s.create_table(&table("t1"), N).unwrap(), 1);
    let mut older = table("t2");
    older.created_at = 50;
    s.create_table(&older, N).unwrap();
    s.append_action("t1", &act(1, 1, "bid 2"), 101, false, 1)
        .unwrap();
    let stood_in = StoredAction {
        stand_in: true,
        ..act(2, 2, "pass")
    };
    s.append_action("t1", &stood_in, 102, false, 1).unwrap();
    assert!(
        s.append_action("t1", &act(2, 0, "pass"), 103, false, 1)
            .is_err(),
        "a seq is stored once"
    );
    assert!(s
        .take_seat("t1", Seat::new(0), "Ann", "hash", None, 1)
        .unwrap());
    assert!(!s
        .take_seat("t1", Seat::new(0), "Bob", "h2", None, 1)
        .unwrap());
    assert!(!s
        .take_seat("t1", Seat::new(1), "Bob", "h2", None, 1)
        .unwrap());
    s.mark_finished("t2", 200).unwrap();
    let live = s.load_unfinished().unwrap();
    assert_eq!(live.len(), 1);
    let t = &live[0];
    assert_eq!(t.id, "t1");
    assert_eq!(t.seed, u64::MAX.into());
    assert_eq!(t.options["dice"], "d6");
    assert_eq!(t.actions.len(), 2);
    assert_eq!(t.actions[1].action, "pass");
    assert_eq!(t.actions[1].seat, Seat::new(2));
    assert!(
        !t.actions[0].stand_in && t.actions[1].stand_in,
        "who made each"
    );
    assert_eq!(
        t.seats[0].kind,
        SeatKind::Human {
            name: Some("Ann".to_string()),
            token_hash: Some("hash".to_string())
        }
    );
    assert_eq!(t.seats[2].kind, SeatKind::Bot("random".to_string()));
    assert_eq!(s.load("t2").unwrap().unwrap().finished_at, Some(200));
    assert!(s.load("nope").unwrap().is_none());
    assert_eq!(s.unfinished_ids().unwrap(), vec!["t1".to_string()]);
    let mut second = table("t3");
    second.created_at = 300;
    second.access.public = false;
    s.create_table(&second, N).unwrap();
    let list = s.list(10).unwrap();
    assert_eq!(list.len(), 2, "a private table is not listed");
    assert_eq!(list[0].id, "t1", "newest first");
    assert!(list.iter().any(|t| t.id == "t2" && t.status == "finished"));
    let t1 = list.iter().find(|t| t.id == "t1").unwrap();
    assert_eq!((t1.status, t1.free_seats), ("playing", 0));
    assert!(
        s.create_table(&table("t1"), N).is_err(),
        "an id is stored once"
    );
}

/// A crash never splits an ending: the last action and the game's end are one write; an action after
/// the end is refused.
pub(crate) fn end_with_last_action(s: &dyn Store) {
    s.create_table(&table("e"), N).unwrap();
    s.append_action("e", &act(1, 0, "pass"), 10, false, 1)
        .unwrap();
    assert_eq!(s.load("e").unwrap().unwrap().finished_at, None);
    s.append_action("e", &act(2, 0, "pass"), 11, true, 1)
        .unwrap();
    assert_eq!(s.load("e").unwrap().unwrap().finished_at, Some(11));
    assert!(s
        .append_action("e", &act(3, 0, "pass"), 12, false, 1)
        .is_err());
    assert_eq!(s.load("e").unwrap().unwrap().actions.len(), 2);
    assert_eq!(s.list(5).unwrap()[0].status, "finished");
}

/// Idle tables are ended by the sweep (the short rule for tables that
/// never started), seats are filled once, and the caps count live tables.
pub(crate) fn idle_and_fill(s: &dyn Store) {
    let mut old = table("old");
    old.access.owner = Some("1.2.3.4".to_string());
    s.create_table(&old, N).unwrap();
    assert!(s.fill_seat("old", Seat::new(0), "random", 1).unwrap());
    assert!(!s.fill_seat("old", Seat::new(0), "random", 1).unwrap());
    assert!(!s.fill_seat("old", Seat::new(1), "random", 1).unwrap());
    assert_eq!(
        s.load("old").unwrap().unwrap().seats[0].kind,
        SeatKind::Bot("random".to_string())
    );
    assert_eq!(s.count_live("nobody").unwrap(), (1, 0));
    assert_eq!(s.count_live("1.2.3.4").unwrap(), (1, 1));
    assert!(s.abandon_idle(100, 100, 500).unwrap().is_empty());
    s.create_table(&table("begun"), N).unwrap();
    s.append_action("begun", &act(1, 1, "pass"), 100, false, 1)
        .unwrap();
    assert_eq!(
        s.abandon_idle(50, 101, 500).unwrap(),
        vec!["old".to_string()],
        "never started, idle since 100: ended by the short rule"
    );
    assert_eq!(s.load("old").unwrap().unwrap().finished_at, Some(500));
    assert_eq!(s.load("begun").unwrap().unwrap().finished_at, None);
    assert_eq!(
        s.abandon_idle(101, 101, 500).unwrap(),
        vec!["begun".to_string()]
    );
    assert!(s.list(5).unwrap().iter().all(|t| t.status == "abandoned"));
    assert!(
        !s.take_seat("begun", Seat::new(0), "Late", "h", None, 1)
            .unwrap(),
        "no seat is taken at an ended table"
    );
    assert_eq!(s.count_live("nobody").unwrap(), (0, 0));
    assert!(s.unfinished_ids().unwrap().is_empty());
}

/// A fair table's secret and contributions read back, and give its seed.
pub(crate) fn fair_inputs(s: &dyn Store) {
    let secret = [7u8; 32];
    let mut t = table("f");
    t.fair = Some(StoredFair {
        secret,
        contributions: BTreeMap::new(),
        table: Some("f".to_string()),
        signed: true,
    });
    t.seed = t.fair.as_ref().map(StoredFair::seed).unwrap();
    s.create_table(&t, N).unwrap();
    assert!(s
        .take_seat("f", Seat::new(0), "Ann", "h", Some([9u8; 32]), 1)
        .unwrap());
    let t = s.load("f").unwrap().unwrap();
    let fair = t.fair.unwrap();
    assert_eq!(fair.secret, secret);
    assert_eq!(fair.contributions[&Seat::new(0)], [9u8; 32]);
    assert_eq!(fair.table.as_deref(), Some("f"), "bound to its table");
    assert!(fair.signed, "and signed");
    assert_eq!(
        t.seed,
        registry::fair::seed(
            registry::fair::Binding::Signed("f"),
            &secret,
            &fair.contributions
        )
    );
}

/// Social links: a rematch is linked from its table in the creation's
/// transaction, once; a seat keeps its person's identity; a rematch's
/// contributions arrive one by one, once each; dumps carry all of it.
pub(crate) fn social_links(s: &dyn Store) {
    let mut old = table("s1");
    // A fair deal of version 1 (not bound to its table) stays one.
    old.fair = Some(StoredFair {
        secret: [1; 32],
        contributions: BTreeMap::new(),
        table: None,
        signed: false,
    });
    s.create_table(&old, N).unwrap();
    assert_eq!(s.load("s1").unwrap().unwrap().fair.unwrap().table, None);
    assert!(s
        .take_seat_as(SeatTaking {
            player: Some("id-ann".into()),
            origin: Some("o-ann".into()),
            ..SeatTaking::person("s1", Seat::new(0), "Ann", "h", 1)
        })
        .unwrap());
    let t = s.load("s1").unwrap().unwrap();
    assert_eq!(t.social.players[&Seat::new(0)], "id-ann");
    assert_eq!(t.social.origins[&Seat::new(0)], "o-ann");
    assert_eq!(t.social.rematch, None);
    let mut new = t.clone();
    new.id = "s2".to_string();
    new.social = Social {
        rematch_of: Some("s1".to_string()),
        players: t.social.players.clone(),
        origins: t.social.origins.clone(),
        ..Social::default()
    };
    s.create_table(&new, N).unwrap();
    assert_eq!(
        s.load("s1").unwrap().unwrap().social.rematch.as_deref(),
        Some("s2")
    );
    let back = s.load("s2").unwrap().unwrap();
    assert_eq!(back.social, new.social);
    assert_eq!(back.seats, t.seats);
    // A second rematch of s1 is refused, and nothing of it is stored.
    let mut third = new.clone();
    third.id = "s3".to_string();
    assert!(s.create_table(&third, N).is_err());
    assert!(s.load("s3").unwrap().is_none());
    // Contributions: once per seat, under the epoch, not after the end.
    assert!(s.contribute("s2", Seat::new(0), [5; 32], 1).unwrap());
    assert!(!s.contribute("s2", Seat::new(0), [6; 32], 1).unwrap());
    assert!(matches!(
        s.contribute("s2", Seat::new(1), [6; 32], 7),
        Err(StoreError::Fenced { .. })
    ));
    let fair = s.load("s2").unwrap().unwrap().fair.unwrap();
    assert_eq!(fair.contributions[&Seat::new(0)], [5; 32]);
    assert_eq!(fair.contributions.len(), 1);
    s.append_action("s2", &act(1, 1, "pass"), 150, true, 1)
        .unwrap();
    assert!(!s.contribute("s2", Seat::new(2), [6; 32], 1).unwrap());
    let dump = s.dump("s2").unwrap().unwrap();
    assert_eq!(dump.table.social, new.social);
}

/// Results and ratings: a result is recorded once, only for a game over by
/// the rules, and moves the ratings of the people once; the lists show
/// players, winners and a person's games.
pub(crate) fn results_and_ratings(s: &dyn Store) {
    use crate::store::ratings::{GameResult, Rated};
    // A game a day and a bit apart: people are proven a day after their
    // first rated game at the earliest.
    let result = |winner: usize, at: i64| GameResult {
        game: "bigcheese".to_string(),
        outcome: format!(
            r#"{{"winners":["P{}"],"places":[{},{},3],"scores":[1,1,0],"capped":false}}"#,
            winner + 1,
            if winner == 0 { 1 } else { 2 },
            if winner == 0 { 2 } else { 1 }
        ),
        places: if winner == 0 {
            vec![1, 2, 3]
        } else {
            vec![2, 1, 3]
        },
        capped: false,
        seats: vec![
            Rated::Person {
                id: "id-ann".to_string(),
                name: "Ann".to_string(),
                origin: Some("o-ann".to_string()),
            },
            Rated::Person {
                id: "id-bob".to_string(),
                name: "Bob".to_string(),
                origin: Some("o-bob".to_string()),
            },
            Rated::Bot("random".to_string()),
        ],
        at,
        public: true,
        actions: crate::store::ratings::MIN_RATED_ACTIONS,
        engaged: Vec::new(),
        tutorial: false,
    };
    let games = [
        ("r1", 0),
        ("r2", 1),
        ("r3", 0),
        ("r5", 1),
        ("r6", 0),
        ("r7", 0),
    ];
    for (n, &(id, winner)) in games.iter().enumerate() {
        if n == 5 {
            // Five games each, all above the bot: as unproven people
            // they did not count for each other, so they stand level.
            let board = s.leaderboard("bigcheese", 10).unwrap();
            assert_eq!((board[0].games, board[1].games), (5, 5), "{board:?}");
            assert!((board[0].score - board[1].score).abs() < 1e-9, "{board:?}");
        }
        let mut t = table(id);
        t.seats[1] = StoredSeat {
            seat: Seat::new(1),
            kind: SeatKind::Human {
                name: None,
                token_hash: None,
            },
        };
        t.created_at = 100 + i64::from(winner as u8) + id.len() as i64;
        s.create_table(&t, N).unwrap();
        assert!(s
            .take_seat_as(SeatTaking {
                player: Some("id-ann".into()),
                ..SeatTaking::person(id, Seat::new(0), "Ann", "a", 1)
            })
            .unwrap());
        assert!(s
            .take_seat_as(SeatTaking {
                player: Some("id-bob".into()),
                ..SeatTaking::person(id, Seat::new(1), "Bob", "b", 1)
            })
            .unwrap());
        let at = 500 + 30_000 * n as i64;
        // Not before the end.
        assert!(!s.record_result(id, &result(winner, at)).unwrap());
        s.append_action(id, &act(1, 2, "pass"), 150, true, 1)
            .unwrap();
        // Over, its result not written yet (a crash would leave it so):
        // the start-up repair finds it.
        let unrecorded = |s: &dyn Store| s.unrecorded_ids("", 100).unwrap();
        assert_eq!(unrecorded(s), vec![id.to_string()]);
        assert!(s.record_result(id, &result(winner, at)).unwrap());
        assert!(!s.record_result(id, &result(winner, at)).unwrap(), "once");
        assert!(unrecorded(s).is_empty());
    }
    // An abandoned game records nothing.
    let mut t = table("r4");
    t.created_at = 50;
    s.create_table(&t, N).unwrap();
    s.mark_abandoned("r4", 120, 1).unwrap();
    assert!(!s.record_result("r4", &result(0, 500)).unwrap());
    assert!(
        s.unrecorded_ids("", 100).unwrap().is_empty(),
        "abandoned: no result due"
    );

    // Both proven now: Ann's last win over Bob counted for both.
    let board = s.leaderboard("bigcheese", 10).unwrap();
    assert_eq!(board.len(), 2);
    assert_eq!(board[0].name, "Ann", "the last game: {board:?}");
    assert_eq!((board[0].games, board[1].games), (6, 6));
    assert!(board[0].score > board[1].score);
    assert!(s.leaderboard("dalmuti", 10).unwrap().is_empty());
    let mine = s.ratings_of("id-bob").unwrap();
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0].name, "Bob");

    let games = s.games_of("id-ann", 10).unwrap();
    assert_eq!(games.len(), 6);
    assert!(games.iter().all(|g| g.seat == Seat::new(0)));
    let r2 = games.iter().find(|g| g.table.id == "r2").unwrap();
    assert_eq!(r2.table.winners, Some(vec![Seat::new(1)]));
    assert_eq!(r2.table.status, "finished");
    let names: Vec<Option<&str>> = r2.table.seats.iter().map(|x| x.name.as_deref()).collect();
    assert_eq!(names, vec![Some("Ann"), Some("Bob"), Some("random")]);
    assert!(s.games_of("id-nobody", 10).unwrap().is_empty());
    let listed = s.list(10).unwrap();
    let r1 = listed.iter().find(|t| t.id == "r1").unwrap();
    assert_eq!(r1.winners, Some(vec![Seat::new(0)]));
    assert_eq!(r1.seats.len(), 3);
    assert_eq!(listed.iter().find(|t| t.id == "r4").unwrap().winners, None);
}

/// Several processes: claims, epochs and fencing. A table is written only under
/// its current epoch; a live owner keeps it; a dead or departed one loses
/// it; a released one is free.
pub(crate) fn ownership_and_fencing(s: &dyn Store) {
    let long = Duration::from_secs(3600);
    let a = Node {
        id: "A".to_string(),
        url: "http://127.0.0.1:1".to_string(),
    };
    let b = Node {
        id: "B".to_string(),
        url: "http://127.0.0.1:2".to_string(),
    };
    s.heartbeat(&a).unwrap();
    s.heartbeat(&b).unwrap();
    assert_eq!(s.live_nodes(long).unwrap(), vec![a.clone(), b.clone()]);
    assert!(s.live_nodes(Duration::ZERO).unwrap().is_empty());
    assert_eq!(s.create_table(&table("o"), "A").unwrap(), 1);
    assert_eq!(
        s.claim("o", "B", long).unwrap(),
        Ownership::Other(a.clone())
    );
    assert_eq!(s.claim("none", "B", long).unwrap(), Ownership::Missing);
    assert_eq!(s.claim("o", "A", long).unwrap(), Ownership::Mine(2));
    assert!(
        matches!(
            s.append_action("o", &act(1, 1, "pass"), 1, false, 1),
            Err(StoreError::Fenced {
                epoch: 1,
                current: 2,
                ..
            })
        ),
        "even its own older epoch is fenced"
    );
    s.append_action("o", &act(1, 1, "pass"), 1, false, 2)
        .unwrap();
    assert!(s.orphans("B", long, 10).unwrap().is_empty(), "A is alive");
    // A falls silent: under a zero lease nobody is alive.
    assert_eq!(
        s.orphans("B", Duration::ZERO, 10).unwrap(),
        vec!["o".to_string()]
    );
    assert_eq!(
        s.claim("o", "B", Duration::ZERO).unwrap(),
        Ownership::Mine(3)
    );
    // The stale owner can write nothing: no action, seat or end.
    for stale in [
        s.append_action("o", &act(2, 2, "pass"), 2, false, 2),
        s.take_seat("o", Seat::new(0), "Eve", "x", None, 2)
            .map(|_| ()),
        s.fill_seat("o", Seat::new(0), "random", 2).map(|_| ()),
        s.mark_abandoned("o", 2, 2),
    ] {
        assert!(matches!(stale, Err(StoreError::Fenced { .. })), "{stale:?}");
    }
    let t = s.load("o").unwrap().unwrap();
    assert_eq!(t.actions.len(), 1, "the history did not fork");
    assert_eq!(t.finished_at, None);
    s.append_action("o", &act(2, 2, "pass"), 2, false, 3)
        .unwrap();
    assert_eq!(
        s.claim("o", "A", long).unwrap(),
        Ownership::Other(b.clone())
    );
    // A release under an old epoch does nothing; the owner's frees it.
    s.release("o", "B", 2).unwrap();
    assert_eq!(
        s.claim("o", "A", long).unwrap(),
        Ownership::Other(b.clone())
    );
    s.release("o", "B", 3).unwrap();
    assert!(s.orphans("A", Duration::ZERO, 10).unwrap().is_empty());
    assert_eq!(s.claim("o", "A", long).unwrap(), Ownership::Mine(4));
    // A process that leaves orphans its tables at once.
    s.leave("A").unwrap();
    assert_eq!(s.live_nodes(long).unwrap(), vec![b.clone()]);
    assert_eq!(s.orphans("B", long, 10).unwrap(), vec!["o".to_string()]);
    assert_eq!(s.claim("o", "B", long).unwrap(), Ownership::Mine(5));
    assert_eq!(s.load("o").unwrap().unwrap().actions.len(), 2);
}

/// A dump restored into another store dumps the same, column for column.
pub(crate) fn dump_and_restore(from: &dyn Store, to: &dyn Store) {
    let mut t = table("d1");
    t.access = Access {
        public: false,
        invite_hash: Some("i".to_string()),
        creator_hash: Some("c".to_string()),
        owner: Some("9.9.9.9".to_string()),
    };
    from.create_table(&t, N).unwrap();
    from.append_action("d1", &act(1, 1, "pass"), 150, false, 1)
        .unwrap();
    assert!(from
        .take_seat("d1", Seat::new(0), "Ann", "h", None, 1)
        .unwrap());
    assert!(from.concede("d1", Seat::new(0), 1, 1).unwrap());
    from.append_action("d1", &act(2, 2, "bid 3"), 160, true, 1)
        .unwrap();
    from.create_table(&table("d2"), N).unwrap();
    from.abandon_idle(1000, 1000, 1001).unwrap();
    assert_eq!(
        from.ids_after("", 10).unwrap(),
        vec!["d1".to_string(), "d2".to_string()]
    );
    assert_eq!(from.ids_after("d1", 10).unwrap(), vec!["d2".to_string()]);
    assert_eq!(from.ids_after("", 1).unwrap(), vec!["d1".to_string()]);
    for id in ["d1", "d2"] {
        let dump = from.dump(id).unwrap().unwrap();
        to.restore(&dump).unwrap();
        assert_eq!(to.dump(id).unwrap().unwrap(), dump);
        assert!(to.restore(&dump).is_err(), "restored once");
    }
    let d1 = to.dump("d1").unwrap().unwrap();
    assert_eq!(d1.action_times, vec![150, 160]);
    assert_eq!(d1.ended.as_deref(), Some("over"));
    assert_eq!(
        to.dump("d2").unwrap().unwrap().ended.as_deref(),
        Some("abandoned")
    );
    assert!(from.dump("none").unwrap().is_none());
}

/// A concession is recorded once, for a taken human seat of an unfinished
/// table, under the owner's epoch, and read back with the table.
pub(crate) fn concessions(s: &dyn Store) {
    s.create_table(&table("c1"), N).unwrap();
    let ann = Seat::new(0);
    assert!(
        !s.concede("c1", ann, 0, 1).unwrap(),
        "nobody sits there yet"
    );
    assert!(s.take_seat("c1", ann, "Ann", "h", None, 1).unwrap());
    assert!(
        !s.concede("c1", Seat::new(1), 0, 1).unwrap(),
        "a bot's seat"
    );
    assert!(matches!(
        s.concede("c1", ann, 0, 2),
        Err(StoreError::Fenced { .. })
    ));
    s.append_action("c1", &act(1, 1, "pass"), 150, false, 1)
        .unwrap();
    assert!(s.concede("c1", ann, 1, 1).unwrap());
    assert!(!s.concede("c1", ann, 1, 1).unwrap(), "once");
    let t = s.load("c1").unwrap().unwrap();
    assert_eq!(t.social.conceded, BTreeMap::from([(ann, 1)]));
    // A finished table takes none.
    let mut t2 = table("c2");
    t2.seats[0].kind = SeatKind::Human {
        name: Some("Bo".into()),
        token_hash: Some("h2".into()),
    };
    s.create_table(&t2, N).unwrap();
    s.append_action("c2", &act(1, 1, "pass"), 150, true, 1)
        .unwrap();
    assert!(!s.concede("c2", ann, 1, 1).unwrap());
    assert!(s.load("c2").unwrap().unwrap().social.conceded.is_empty());
}

/// A person's seat takes a new token only for that person, at an
/// unfinished table, under the owner's epoch; the old token is gone.
pub(crate) fn retokens(s: &dyn Store) {
    s.create_table(&table("r1"), N).unwrap();
    let ann = Seat::new(0);
    assert!(
        !s.retoken("r1", ann, "pA", "h2", 1).unwrap(),
        "nobody sits there"
    );
    let mut taking = SeatTaking::person("r1", ann, "Ann", "h1", 1);
    taking.player = Some("pA".into());
    assert!(s.take_seat_as(taking).unwrap());
    assert!(
        !s.retoken("r1", ann, "pB", "h2", 1).unwrap(),
        "another person"
    );
    assert!(matches!(
        s.retoken("r1", ann, "pA", "h2", 7),
        Err(StoreError::Fenced { .. })
    ));
    let token = |s: &dyn Store| match &s.load("r1").unwrap().unwrap().seats[0].kind {
        SeatKind::Human { token_hash, .. } => token_hash.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(token(s).as_deref(), Some("h1"));
    assert!(s.retoken("r1", ann, "pA", "h2", 1).unwrap());
    assert_eq!(token(s).as_deref(), Some("h2"));
    s.append_action("r1", &act(1, 1, "pass"), 150, true, 1)
        .unwrap();
    assert!(
        !s.retoken("r1", ann, "pA", "h3", 1).unwrap(),
        "the game is over"
    );
    assert_eq!(token(s).as_deref(), Some("h2"));
}

/// Eight threads append at once; a repeated seq fails alone; the
/// non-blocking form reports once committed.
pub(crate) fn concurrent_appends(s: Arc<dyn Store>) {
    for i in 0..8 {
        s.create_table(&table(&format!("g{i}")), N).unwrap();
    }
    let threads: Vec<_> = (0..8)
        .map(|i| {
            let s = Arc::clone(&s);
            std::thread::spawn(move || {
                let id = format!("g{i}");
                for seq in 1..=50 {
                    s.append_action(&id, &act(seq, 0, "pass"), 1, false, 1)
                        .unwrap();
                    if seq % 4 == 0 {
                        assert!(s
                            .append_action(&id, &act(seq, 0, "pass"), 1, false, 1)
                            .is_err());
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let (tx, rx) = std::sync::mpsc::channel();
    Arc::clone(&s).append_action_then(
        "g0".to_string(),
        act(51, 0, "pass"),
        2,
        false,
        1,
        Box::new(move |r| tx.send(r.is_ok()).unwrap()),
    );
    assert!(rx.recv().unwrap());
    for t in s.load_unfinished().unwrap() {
        let want = if t.id == "g0" { 51 } else { 50 };
        assert_eq!(t.actions.len(), want, "{}", t.id);
    }
}

/// The site's secret is made once: every call reads the same 64 hex
/// digits.
pub(crate) fn site_secret(s: &dyn Store) {
    let first = s.site_secret().unwrap();
    assert_eq!(first.len(), 64, "{first}");
    assert!(first.bytes().all(|b| b.is_ascii_hexdigit()), "{first}");
    assert_eq!(s.site_secret().unwrap(), first);
}
