//! The contract of profiles, as a test over `&dyn Store` that both
//! backends run (see `contract_tests!`): the rating history is written
//! with each rating update, read back oldest first and capped, and keeps
//! private tables off the profile.

use super::model::{
    Access, SeatKind, SeatTaking, Social, Store, StoredAction, StoredSeat, StoredTable, TableConfig,
};
use super::profile::Lookup;
use super::ratings::{GameResult, Rated};
use game::Seat;

/// A Big Cheese table of a person (seat 0) and two bots, not yet played.
fn table(id: &str, public: bool, created_at: i64) -> StoredTable {
    let bot = |seat: usize, name: &str| StoredSeat {
        seat: Seat::new(seat),
        kind: SeatKind::Bot(name.to_string()),
    };
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
        created_at,
        finished_at: None,
        seats: vec![
            StoredSeat {
                seat: Seat::new(0),
                kind: SeatKind::Human {
                    name: None,
                    token_hash: None,
                },
            },
            bot(1, "heuristic"),
            bot(2, "random"),
        ],
        actions: Vec::new(),
        access: Access {
            public,
            ..Access::default()
        },
        social: Social::default(),
    }
}

/// Ann's whole id: a short id of `0123abcd`.
const ANN: &str = "0123abcd00000000000000000000000000000000000000000000000000000000";

/// Plays table `id` out for Ann in seat 0 against two bots, public or
/// not, her place `place`, at `at`; records its result.
fn play(s: &dyn Store, id: &str, public: bool, place: u8, at: i64) {
    s.create_table(&table(id, public, at - 10), "node-a")
        .unwrap();
    assert!(s
        .take_seat_as(SeatTaking {
            player: Some(ANN.into()),
            ..SeatTaking::person(id, Seat::new(0), "Ann", "a", 1)
        })
        .unwrap());
    let pass = StoredAction {
        seq: 1,
        seat: Seat::new(0),
        action: "pass".to_string(),
        stand_in: false,
    };
    s.append_action(id, &pass, at - 5, true, 1).unwrap();
    let places = match place {
        1 => vec![1, 2, 3],
        2 => vec![2, 1, 3],
        _ => vec![3, 1, 2],
    };
    let result = GameResult {
        game: "bigcheese".to_string(),
        outcome: r#"{"winners":[],"places":[],"scores":[],"capped":false}"#.to_string(),
        places,
        capped: false,
        seats: vec![
            Rated::Person {
                id: ANN.to_string(),
                name: "Ann".to_string(),
                origin: None,
            },
            Rated::Bot("heuristic".to_string()),
            Rated::Bot("random".to_string()),
        ],
        at,
        public,
        actions: super::ratings::MIN_RATED_ACTIONS,
        engaged: Vec::new(),
        tutorial: false,
    };
    assert!(s.record_result(id, &result).unwrap());
}

/// Each rating update leaves a history point (public tables' only on the
/// profile), read back oldest first and capped to the newest; stats by
/// seat and the recent games leave the private table out.
pub(crate) fn profiles(s: &dyn Store) {
    assert_eq!(s.profile("0123abcd", 10, 10).unwrap(), Lookup::Unknown);
    play(s, "h1", true, 1, 1000);
    play(s, "h2", false, 1, 2000);
    play(s, "h3", true, 3, 3000);
    play(s, "h4", true, 2, 4000);
    let Lookup::Found(p) = s.profile("0123abcd", 10, 10).unwrap() else {
        panic!("Ann has a profile");
    };
    assert_eq!(p.player, ANN);
    assert_eq!(p.ratings.len(), 1);
    assert_eq!(
        p.ratings[0].games, 4,
        "the private game is rated (bots count)"
    );
    let (game, points) = &p.history[0];
    assert_eq!(game, "bigcheese");
    let tables: Vec<&str> = points.iter().map(|x| x.table.as_str()).collect();
    assert_eq!(
        tables,
        ["h1", "h3", "h4"],
        "oldest first, the private one left out"
    );
    let places: Vec<u8> = points.iter().map(|x| x.place).collect();
    assert_eq!(places, [1, 3, 2]);
    assert!(points[0].rating > 25.0, "a win over two bots lifts her");
    let last = points.last().unwrap();
    assert!(
        (last.rating - p.ratings[0].rating).abs() < 1e-9,
        "the newest is the rating"
    );
    assert!((last.score - (last.rating - 3.0 * last.uncertainty)).abs() < 1e-9);
    assert!(points.iter().all(|x| x.seat == 0));
    assert_eq!(p.stats.len(), 1);
    let st = &p.stats[0];
    assert_eq!((st.seat, st.games, st.wins, st.place_sum), (0, 3, 1, 6));
    // by variant: the three public games share their options; the
    // private one is not counted
    assert_eq!(p.variants.len(), 1, "{:?}", p.variants);
    let v = &p.variants[0];
    assert_eq!(
        (v.game.as_str(), v.games, v.wins, v.place_sum),
        ("bigcheese", 3, 1, 6)
    );
    let options: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&v.options).unwrap();
    assert_eq!(options, [("dice".to_string(), "d6".to_string())].into());
    let games: Vec<&str> = p.games.iter().map(|g| g.table.id.as_str()).collect();
    assert_eq!(games, ["h4", "h3", "h1"], "newest first, public only");
    // Capped to the newest.
    let Lookup::Found(p) = s.profile("0123abcd", 2, 1).unwrap() else {
        panic!("Ann has a profile");
    };
    let tables: Vec<&str> = p.history[0].1.iter().map(|x| x.table.as_str()).collect();
    assert_eq!(tables, ["h3", "h4"]);
    assert_eq!(p.games.len(), 1);
    // Accuracy: each analysed seat of hers at a public table, weighted
    // by decisions; a new analysis of a table replaces its rows; the
    // private table's and the bots' seats count for nothing.
    use super::profile::SeatAccuracy;
    let seat = |seat: u8, decisions: u64, accuracy: f64, blunders: u64| SeatAccuracy {
        seat,
        decisions,
        accuracy,
        mistakes: 1,
        blunders,
    };
    let p1 = |decisions, accuracy, blunders| {
        [seat(0, decisions, accuracy, blunders), seat(1, 50, 0.1, 9)]
    };
    s.put_analysis("h1", "f", "{}", 1, &p1(10, 0.5, 3)).unwrap();
    s.put_analysis("h1", "f", "{}", 2, &p1(10, 0.9, 1)).unwrap();
    s.put_analysis("h3", "f", "{}", 3, &p1(30, 0.5, 0)).unwrap();
    s.put_analysis("h2", "f", "{}", 4, &p1(40, 0.0, 5)).unwrap();
    let Lookup::Found(p) = s.profile("0123abcd", 10, 10).unwrap() else {
        panic!("Ann has a profile");
    };
    assert_eq!(p.accuracy.len(), 1, "{:?}", p.accuracy);
    let a = &p.accuracy[0];
    assert_eq!(
        (
            a.game.as_str(),
            a.games,
            a.decisions,
            a.mistakes,
            a.blunders
        ),
        ("bigcheese", 2, 40, 2, 1)
    );
    assert!(
        (a.accuracy - (10.0 * 0.9 + 30.0 * 0.5) / 40.0).abs() < 1e-9,
        "{a:?}"
    );
    assert_eq!(s.analysis("h1").unwrap().unwrap().0, "f");
    // Prefixes of nobody.
    assert_eq!(s.profile("0123abce", 10, 10).unwrap(), Lookup::Unknown);
    assert_eq!(s.profile("0123abc0", 10, 10).unwrap(), Lookup::Unknown);
}

/// Bob's whole id.
const BOB: &str = "4567abcd00000000000000000000000000000000000000000000000000000000";

/// Seats `player` as `name` at a new table `id` made at `at`.
fn seat(s: &dyn Store, id: &str, player: &str, name: &str, at: i64) {
    s.create_table(&table(id, true, at), "node-a").unwrap();
    assert!(s
        .take_seat_as(SeatTaking {
            player: Some(player.into()),
            ..SeatTaking::person(id, Seat::new(0), name, "t", 1)
        })
        .unwrap());
}

/// Follows and blocks: a person is found by the short id of anyone who
/// held a seat, under their newest name; a relation is set once, cleared,
/// capped in the statement that stores it, listed newest first with
/// whether the other blocks the owner.
pub(crate) fn relations(s: &dyn Store) {
    use super::relations::{Person, Relation, RelationChange, SetOutcome};
    assert_eq!(s.find_person("4567abcd").unwrap(), Person::Unknown);
    seat(s, "r1", BOB, "Bob", 100);
    seat(s, "r2", BOB, "Bobby", 200);
    seat(s, "r3", ANN, "Ann", 300);
    assert_eq!(
        s.find_person("4567abcd").unwrap(),
        Person::Found {
            player: BOB.into(),
            name: "Bobby".into()
        }
    );
    assert_eq!(
        s.find_person("4567").unwrap(),
        Person::Found {
            player: BOB.into(),
            name: "Bobby".into()
        }
    );
    assert_eq!(
        s.find_person("0").unwrap(),
        Person::Found {
            player: ANN.into(),
            name: "Ann".into()
        }
    );
    seat(
        s,
        "r4",
        "0999000000000000000000000000000000000000000000000000000000000000",
        "Cy",
        400,
    );
    assert_eq!(s.find_person("0").unwrap(), Person::Ambiguous);
    let change = |kind, owner: &str, other: &str, on, cap, at| RelationChange {
        kind,
        owner: owner.into(),
        other: other.into(),
        on,
        cap,
        at,
    };
    assert_eq!(
        s.set_relation(change(Relation::Follow, ANN, BOB, true, 2, 10))
            .unwrap(),
        SetOutcome::Changed
    );
    assert_eq!(
        s.set_relation(change(Relation::Follow, ANN, BOB, true, 2, 11))
            .unwrap(),
        SetOutcome::Unchanged
    );
    assert_eq!(
        s.set_relation(change(Relation::Follow, ANN, "c", true, 2, 12))
            .unwrap(),
        SetOutcome::Changed
    );
    assert_eq!(
        s.set_relation(change(Relation::Follow, ANN, "d", true, 2, 13))
            .unwrap(),
        SetOutcome::Full,
        "two follows at most"
    );
    // A block is its own kind, with its own cap.
    assert_eq!(
        s.set_relation(change(Relation::Block, ANN, "d", true, 2, 14))
            .unwrap(),
        SetOutcome::Changed
    );
    assert!(s.blocks(ANN, "d").unwrap());
    assert!(!s.blocks("d", ANN).unwrap());
    assert!(!s.blocks(ANN, BOB).unwrap(), "a follow is no block");
    let rows = s.relations_of(ANN, 10).unwrap();
    let seen: Vec<(Relation, &str, &str, bool)> = rows
        .iter()
        .map(|r| (r.kind, r.player.as_str(), r.name.as_str(), r.blocks_owner))
        .collect();
    assert_eq!(
        seen,
        [
            (Relation::Follow, "c", "", false),
            (Relation::Follow, BOB, "Bobby", false),
            (Relation::Block, "d", "", false),
        ],
        "newest first, each kind"
    );
    // Bob blocks Ann: her list says so.
    s.set_relation(change(Relation::Block, BOB, ANN, true, 2, 20))
        .unwrap();
    let rows = s.relations_of(ANN, 1).unwrap();
    assert_eq!(rows.len(), 2, "one of each kind at most");
    let bob = s
        .relations_of(ANN, 10)
        .unwrap()
        .into_iter()
        .find(|r| r.player == BOB)
        .unwrap();
    assert!(bob.blocks_owner);
    // Cleared, then room for another.
    assert_eq!(
        s.set_relation(change(Relation::Follow, ANN, BOB, false, 2, 30))
            .unwrap(),
        SetOutcome::Changed
    );
    assert_eq!(
        s.set_relation(change(Relation::Follow, ANN, BOB, false, 2, 31))
            .unwrap(),
        SetOutcome::Unchanged
    );
    assert_eq!(
        s.set_relation(change(Relation::Follow, ANN, "d", true, 2, 32))
            .unwrap(),
        SetOutcome::Changed
    );
    let follows: Vec<String> = s
        .relations_of(ANN, 10)
        .unwrap()
        .into_iter()
        .filter(|r| r.kind == Relation::Follow)
        .map(|r| r.player)
        .collect();
    assert_eq!(follows, ["d", "c"]);
}

/// Passkeys: stored within their person's cap, found by credential id,
/// listed oldest first, their credential updated when used; a credential
/// id is stored once.
pub(crate) fn passkeys(s: &dyn Store) {
    use super::passkeys::PasskeyRow;
    let key = |id: &str, player: &str, at: i64| PasskeyRow {
        id: id.into(),
        player: player.into(),
        identity_key: format!("key of {player}"),
        passkey: format!("{{\"cred\":\"{id}\"}}"),
        created_at: at,
        used_at: None,
    };
    assert_eq!(s.passkey("c1").unwrap(), None);
    assert!(s.add_passkey(&key("c1", ANN, 10), 2).unwrap());
    assert!(s.add_passkey(&key("c2", ANN, 20), 2).unwrap());
    assert!(
        !s.add_passkey(&key("c3", ANN, 30), 2).unwrap(),
        "two at most"
    );
    assert!(
        s.add_passkey(&key("c3", BOB, 30), 2).unwrap(),
        "Bob's own cap"
    );
    assert!(
        s.add_passkey(&key("c3", BOB, 40), 2).is_err(),
        "one credential id is stored once"
    );
    let mine: Vec<String> = s
        .passkeys_of(ANN)
        .unwrap()
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(mine, ["c1", "c2"]);
    assert!(
        !s.remove_passkey(BOB, "c1").unwrap(),
        "only its own person removes it"
    );
    assert!(s.remove_passkey(ANN, "c2").unwrap());
    assert!(!s.remove_passkey(ANN, "c2").unwrap(), "once");
    assert_eq!(s.passkeys_of(ANN).unwrap().len(), 1);
    assert!(s.passkey("c2").unwrap().is_none());
    assert!(
        s.add_passkey(&key("c2", ANN, 25), 2).unwrap(),
        "a place freed"
    );
    let got = s.passkey("c1").unwrap().unwrap();
    assert_eq!(
        (got.player.as_str(), got.identity_key.as_str()),
        (
            ANN,
            "key of 0123abcd00000000000000000000000000000000000000000000000000000000"
        )
    );
    s.passkey_used("c1", "{\"cred\":\"c1\",\"counter\":2}", 99)
        .unwrap();
    let got = s.passkey("c1").unwrap().unwrap();
    assert_eq!(
        (got.passkey.as_str(), got.used_at),
        ("{\"cred\":\"c1\",\"counter\":2}", Some(99))
    );
}

/// Pairing tickets: kept, found as strays once their process is gone (or
/// never was), taken over by one survivor only, and forgotten.
pub(crate) fn tickets(s: &dyn Store) {
    use super::model::Node;
    use super::tickets::TicketRow;
    use std::time::Duration;
    let ticket = |id: &str, node: &str, joined_ms: i64| TicketRow {
        id: id.into(),
        preset: "dalmuti-5".into(),
        player: ANN.into(),
        name: "Ann".into(),
        addr: "127.0.0.1".into(),
        bot: "heuristic".into(),
        wait_ms: 20_000,
        contribution: None,
        joined_ms,
        node: node.into(),
    };
    let minute = Duration::from_secs(60);
    s.heartbeat(&Node {
        id: "alive".into(),
        url: "http://alive".into(),
    })
    .unwrap();
    s.put_ticket(&ticket("t2", "dead", 2)).unwrap();
    s.put_ticket(&ticket("t1", "dead", 1)).unwrap();
    s.put_ticket(&ticket("t3", "alive", 3)).unwrap();
    s.put_ticket(&ticket("t4", "me", 4)).unwrap();
    assert!(
        s.put_ticket(&ticket("t1", "dead", 1)).is_err(),
        "a ticket is kept once"
    );
    let strays: Vec<String> = s
        .stray_tickets("me", minute, 10)
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(
        strays,
        ["t1", "t2"],
        "a gone process's, oldest first; never a live one's or mine"
    );
    assert_eq!(
        s.stray_tickets("me", minute, 1).unwrap().len(),
        1,
        "at most the limit"
    );
    assert_eq!(
        s.stray_tickets("me", minute, 10).unwrap()[0],
        ticket("t1", "dead", 1)
    );
    // one survivor takes it, the other finds it taken
    assert!(s.take_ticket("t1", "dead", "me").unwrap());
    assert!(!s.take_ticket("t1", "dead", "other").unwrap());
    let strays: Vec<String> = s
        .stray_tickets("me", minute, 10)
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(strays, ["t2"]);
    // with no lease at all, every other process's is a stray (a process
    // alone at start)
    let all: Vec<String> = s
        .stray_tickets("me", Duration::ZERO, 10)
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(all, ["t2", "t3"]);
    s.drop_ticket("t2").unwrap();
    s.drop_ticket("t2").unwrap();
    let all: Vec<String> = s
        .stray_tickets("me", Duration::ZERO, 10)
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(all, ["t3"]);
}

/// Tournaments: a save is compared on the version, the director's list
/// holds its own and a gone process's unfinished ones, a take-over is a
/// compare-and-set, and a person's entries are listed once each.
pub(crate) fn tournaments(s: &dyn Store) {
    use super::model::Node;
    use super::tournaments::TournamentRow;
    use std::time::Duration;
    let row = |id: &str, node: &str, created_ms: i64| TournamentRow {
        id: id.into(),
        doc: format!("{{\"id\":\"{id}\"}}"),
        version: 0,
        status: "open".into(),
        node: node.into(),
        created_ms,
    };
    let minute = Duration::from_secs(60);
    s.heartbeat(&Node {
        id: "alive".into(),
        url: "http://alive".into(),
    })
    .unwrap();
    s.put_tournament(&row("a", "me", 1)).unwrap();
    s.put_tournament(&row("b", "dead", 2)).unwrap();
    s.put_tournament(&row("c", "alive", 3)).unwrap();
    assert!(s.put_tournament(&row("a", "me", 1)).is_err(), "made once");
    assert!(s.save_tournament("a", 0, "{\"v\":1}", "running").unwrap());
    assert!(
        !s.save_tournament("a", 0, "{\"v\":2}", "running").unwrap(),
        "a save from a stale version changes nothing"
    );
    let a = s.tournament("a").unwrap().unwrap();
    assert_eq!(
        (a.version, a.doc.as_str(), a.status.as_str()),
        (1, "{\"v\":1}", "running")
    );
    assert!(s.tournament("nope").unwrap().is_none());
    let driven: Vec<String> = s
        .driven_tournaments("me", minute, 10)
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(
        driven,
        ["a", "b"],
        "mine and a gone process's, never a live one's"
    );
    assert!(s.take_tournament("b", "dead", "me").unwrap());
    assert!(
        !s.take_tournament("b", "dead", "other").unwrap(),
        "taken once"
    );
    assert!(s.save_tournament("c", 0, "{}", "finished").unwrap());
    let listed: Vec<String> = s
        .tournaments(10)
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(listed, ["b", "a", "c"], "unfinished first, newest first");
    assert_eq!(s.tournaments(1).unwrap().len(), 1);
    s.enter_tournament("a", ANN, 5).unwrap();
    s.enter_tournament("a", ANN, 6).unwrap();
    s.enter_tournament("c", ANN, 7).unwrap();
    let mine: Vec<String> = s
        .tournaments_of(ANN, 10)
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(mine, ["c", "a"], "each once, newest first");
    assert!(s.tournaments_of("nobody", 10).unwrap().is_empty());
}
