use super::*;

fn tournament(kind: TournamentKind, players: usize, people: usize) -> Tournament {
    let mut t = Tournament {
        id: "T1".into(),
        name: "Cup".into(),
        kind,
        preset: "dalmuti-4-one-hand".into(),
        game: "dalmuti".into(),
        players,
        bot: "heuristic".into(),
        bot_delay_ms: None,
        rounds: 3,
        minutes: 10,
        creator: Some("p0".into()),
        owner: "127.0.0.1".into(),
        seed: "00".repeat(32),
        created_ms: 0,
        starts_ms: 1_000,
        ends_ms: None,
        status: TournamentStatus::Open,
        round: 0,
        note: None,
        entrants: Vec::new(),
        tables: Vec::new(),
    };
    for i in 0..people {
        t.join(&format!("p{i}"), format!("P{i}"), None, 0).unwrap();
    }
    t
}

/// Ends table `i` with places by seat.
fn finish(t: &mut Tournament, i: usize, places: &[u8], now: i64) {
    t.tables[i].made = true;
    let n = places.len();
    t.record(
        i,
        Outcome {
            places: places.to_vec(),
            stand_in: vec![false; n],
            void: false,
        },
        now,
    );
}

fn entrants_of(t: &Tournament, i: usize) -> Vec<usize> {
    t.tables[i].seats.iter().flatten().copied().collect()
}

#[test]
fn it_waits_for_its_start_then_calls_off_with_too_few() {
    let mut t = tournament(TournamentKind::Swiss, 4, 1);
    assert!(t.advance(999).is_empty());
    assert_eq!(t.status, TournamentStatus::Open);
    assert!(t.advance(1_000).is_empty());
    assert_eq!(t.status, TournamentStatus::Finished);
    assert!(t.note.as_deref().unwrap().contains("called off"));
}

#[test]
fn only_its_creator_starts_it_early() {
    let mut t = tournament(TournamentKind::Swiss, 4, 2);
    assert!(matches!(
        t.start_now(Some("p1"), 10),
        Err(Error::Forbidden(_))
    ));
    assert!(matches!(t.start_now(None, 10), Err(Error::Forbidden(_))));
    t.start_now(Some("p0"), 10).unwrap();
    assert_eq!(t.advance(10).len(), 1);
    assert_eq!(t.status, TournamentStatus::Running);
}

#[test]
fn a_swiss_plays_its_rounds_by_standing() {
    let mut t = tournament(TournamentKind::Swiss, 4, 8);
    let first = t.advance(1_000);
    assert_eq!(first.len(), 2, "8 people, tables of 4");
    let mut seen: Vec<usize> = first.iter().flat_map(|&i| entrants_of(&t, i)).collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..8).collect::<Vec<_>>(), "each once in a round");
    // the round's winners: seat 0 first at both tables
    finish(&mut t, 0, &[1, 2, 3, 4], 2_000);
    assert!(
        t.advance(2_000).is_empty(),
        "a round waits for all its tables"
    );
    finish(&mut t, 1, &[1, 2, 3, 4], 2_000);
    let second = t.advance(2_000);
    assert_eq!((second.len(), t.round), (2, 2));
    let standings = t.standings();
    let top: Vec<usize> = entrants_of(&t, second[0]);
    for e in &top {
        assert!(
            standings[*e].points >= 2.0,
            "the first table of round 2 holds the leaders"
        );
    }
    finish(&mut t, 2, &[4, 3, 2, 1], 3_000);
    finish(&mut t, 3, &[1, 1, 3, 4], 3_000);
    assert_eq!(t.advance(3_000).len(), 2);
    finish(&mut t, 4, &[1, 2, 3, 4], 4_000);
    finish(&mut t, 5, &[1, 2, 3, 4], 4_000);
    assert!(t.advance(4_000).is_empty());
    assert_eq!(t.status, TournamentStatus::Finished);
    let total: f64 = t.standings().iter().map(|s| s.points).sum();
    // per table 3+2+1+0, but the tie at table 3: 3+3+1+0
    assert_eq!(total, 6.0 * 6.0 + 1.0);
    assert!(t.standings().iter().all(|s| s.tables == 3));
}

#[test]
fn a_short_round_is_filled_with_bots() {
    let mut t = tournament(TournamentKind::Swiss, 4, 5);
    let first = t.advance(1_000);
    assert_eq!(first.len(), 2);
    let bots: usize = first
        .iter()
        .map(|&i| t.tables[i].seats.iter().filter(|s| s.is_none()).count())
        .sum();
    assert_eq!(bots, 3);
}

#[test]
fn a_duplicate_rotates_seats_and_compares_the_same_seat() {
    let mut t = tournament(TournamentKind::Duplicate, 4, 8);
    t.rounds = 1;
    let tables = t.advance(1_000);
    assert_eq!(tables.len(), 2);
    // the same cards for everyone in the round, another round's differ
    assert_eq!(t.deal_secret(1), t.deal_secret(1));
    assert_ne!(t.deal_secret(1), t.deal_secret(2));
    // seat i of the two tables: the groups are laid out one seat apart
    let (a, b) = (&t.tables[0].seats, &t.tables[1].seats);
    assert!(a.iter().all(Option::is_some) && b.iter().all(Option::is_some));
    // table 0: seat 0 first; table 1: seat 0 third, ties at seats 2 and 3
    finish(&mut t, 0, &[1, 2, 3, 4], 2_000);
    finish(&mut t, 1, &[3, 1, 3, 4], 2_000);
    let st = t.standings();
    let at = |table: usize, seat: usize| t.tables[table].seats[seat].unwrap();
    assert_eq!(st[at(0, 0)].points, 1.0, "first beats third at seat 0");
    assert_eq!(st[at(1, 0)].points, 0.0);
    assert_eq!(st[at(0, 1)].points, 0.0, "second loses to first at seat 1");
    assert_eq!(st[at(1, 1)].points, 1.0);
    assert_eq!(st[at(0, 2)].points, 0.5, "a tie is half");
    assert_eq!(st[at(1, 2)].points, 0.5);
    assert_eq!(st[at(0, 3)].points, 0.5);
    assert!(t.advance(2_000).is_empty());
    assert_eq!(t.status, TournamentStatus::Finished);
}

#[test]
fn a_duplicate_needs_two_tables() {
    let mut t = tournament(TournamentKind::Duplicate, 4, 4);
    assert!(t.advance(1_000).is_empty());
    assert_eq!(t.status, TournamentStatus::Finished);
}

#[test]
fn an_arena_reseats_the_free_and_fills_with_bots_after_a_wait() {
    let mut t = tournament(TournamentKind::Arena, 4, 6);
    let first = t.advance(1_000);
    assert_eq!(first.len(), 1, "4 seated, 2 wait for more people");
    assert_eq!(t.ends_ms, Some(1_000 + 10 * 60_000));
    assert!(t.advance(1_000 + ARENA_FILL_MS - 1).is_empty());
    let second = t.advance(1_000 + ARENA_FILL_MS);
    assert_eq!(second.len(), 1);
    assert_eq!(entrants_of(&t, second[0]).len(), 2, "two people, two bots");
    // the first table ends: its four are free; they are seated at once
    finish(&mut t, 0, &[1, 2, 3, 4], 20_000);
    let again = t.advance(20_000);
    assert_eq!(again.len(), 1);
    // the second ends: now 2 wait; a joiner makes three
    finish(&mut t, 1, &[1, 2, 3, 4], 30_000);
    t.join("p6", "P6".into(), None, 30_000).unwrap();
    assert!(t.advance(30_000).is_empty());
    let bots = t.advance(30_000 + ARENA_FILL_MS);
    assert_eq!(entrants_of(&t, bots[0]).len(), 3);
}

#[test]
fn an_arena_prefers_new_opponents() {
    let mut t = tournament(TournamentKind::Arena, 2, 4);
    let first = t.advance(1_000);
    assert_eq!(first.len(), 2);
    let pairs: Vec<Vec<usize>> = first.iter().map(|&i| entrants_of(&t, i)).collect();
    finish(&mut t, 0, &[1, 2], 5_000);
    finish(&mut t, 1, &[1, 2], 5_000);
    for i in t.advance(5_000) {
        let now = entrants_of(&t, i);
        assert!(
            !pairs.iter().any(|p| p.iter().all(|e| now.contains(e))),
            "nobody meets the same opponent twice in a row when another is free"
        );
    }
}

#[test]
fn an_arena_seat_played_by_its_stand_in_scores_nothing_and_it_ends_on_time() {
    let mut t = tournament(TournamentKind::Arena, 2, 2);
    let first = t.advance(1_000);
    t.tables[first[0]].made = true;
    t.record(
        0,
        Outcome {
            places: vec![1, 2],
            stand_in: vec![true, false],
            void: false,
        },
        2_000,
    );
    let winner = t.tables[0].seats[0].unwrap();
    let st = t.standings()[winner];
    assert_eq!((st.points, st.firsts, st.stand_ins), (0.0, 1, 1));
    let end = t.ends_ms.unwrap();
    let last = t.advance(end - 1);
    assert_eq!(last.len(), 1);
    assert!(t.advance(end).is_empty());
    assert_eq!(t.status, TournamentStatus::Running, "a table still plays");
    finish(&mut t, last[0], &[1, 2], end + 5);
    t.advance(end + 5);
    assert_eq!(t.status, TournamentStatus::Finished);
}

#[test]
fn entries_close_as_each_kind_says() {
    let mut t = tournament(TournamentKind::Swiss, 4, 2);
    t.advance(1_000);
    assert!(matches!(
        t.join("late", "L".into(), None, 1_500),
        Err(Error::Refused(_))
    ));
    let mut a = tournament(TournamentKind::Arena, 4, 2);
    a.advance(1_000);
    a.join("late", "L".into(), None, 1_500).unwrap();
    let end = a.ends_ms.unwrap();
    assert!(a.join("later", "L".into(), None, end).is_err());
    a.leave("late").unwrap();
    assert!(a.leave("nobody").is_err());
    assert!(!a.view(Some("late")).you.unwrap().entered);
}

#[test]
fn it_holds_at_most_its_entrants() {
    let mut t = tournament(TournamentKind::Arena, 4, MAX_ENTRANTS);
    assert!(matches!(
        t.join("one-more", "X".into(), None, 0),
        Err(Error::Refused(_))
    ));
    t.join("p3", "Renamed".into(), None, 0).unwrap();
    assert_eq!(t.entrants.len(), MAX_ENTRANTS);
    assert_eq!(t.entrants[3].name, "Renamed");
}

#[test]
fn the_view_shares_places_and_shows_a_person_their_table() {
    let mut t = tournament(TournamentKind::Swiss, 2, 4);
    let first = t.advance(1_000);
    let p0 = t.entrant_of("p0").unwrap();
    let mine = first
        .iter()
        .copied()
        .find(|&i| t.tables[i].seats.contains(&Some(p0)))
        .unwrap();
    assert_eq!(t.view(Some("p0")).you.unwrap().table, None, "not made yet");
    t.tables[mine].made = true;
    let view = t.view(Some("p0"));
    assert_eq!(
        view.you.as_ref().unwrap().table.as_deref(),
        Some(t.tables[mine].id.as_str())
    );
    assert!(view.you.unwrap().creator);
    for &i in &first {
        finish(&mut t, i, &[1, 2], 2_000);
    }
    let v = t.view(None);
    assert!(v.you.is_none());
    let places: Vec<usize> = v.standings.iter().map(|l| l.place).collect();
    assert_eq!(places, [1, 1, 3, 3]);
    assert!(v
        .standings
        .iter()
        .all(|l| l.short.is_some() && l.bot.is_none()));
    let json = serde_json::to_string(&v).unwrap();
    assert!(!json.contains(&t.seed), "the seed is never shown");
}

#[test]
fn a_view_lists_the_newest_tables_and_counts_them_all() {
    let mut t = tournament(TournamentKind::Arena, 2, 2);
    let mut now = 1_000;
    for _ in 0..VIEW_TABLES + 20 {
        let made = t.advance(now);
        assert_eq!(made.len(), 1);
        finish(&mut t, made[0], &[1, 2], now + 1);
        now += 2;
    }
    let v = t.view(None);
    assert_eq!(v.tables.len(), VIEW_TABLES);
    assert_eq!(v.tables[0].id, t.tables.last().unwrap().id, "newest first");
    assert!(v.standings.iter().all(|l| l.tables == VIEW_TABLES + 20));
}
