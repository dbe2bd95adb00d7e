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
    let games: Vec<&str> = p.games.iter().map(|g| g.table.id.as_str()).collect();
    assert_eq!(games, ["h4", "h3", "h1"], "newest first, public only");
    // Capped to the newest.
    let Lookup::Found(p) = s.profile("0123abcd", 2, 1).unwrap() else {
        panic!("Ann has a profile");
    };
    let tables: Vec<&str> = p.history[0].1.iter().map(|x| x.table.as_str()).collect();
    assert_eq!(tables, ["h3", "h4"]);
    assert_eq!(p.games.len(), 1);
    // Prefixes of nobody.
    assert_eq!(s.profile("0123abce", 10, 10).unwrap(), Lookup::Unknown);
    assert_eq!(s.profile("0123abc0", 10, 10).unwrap(), Lookup::Unknown);
}
