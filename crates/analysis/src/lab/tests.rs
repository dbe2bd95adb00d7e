//! The lab's tests: variants compared on small runs, the report's blocks.

use super::*;
use game::Seat;

#[test]
fn start_positions_are_the_drawn_leader_and_roles() {
    let mut leaders = [0; 4];
    for seed in 0..200 {
        let g = bigcheese::BigCheese::new(&Default::default(), 4, seed).unwrap();
        let pos = bigcheese::BigCheese::start_positions(&g);
        let mut sorted = pos.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2, 3]);
        let leader = g.public_view().leader.index();
        assert_eq!(pos[leader], 0);
        assert_eq!(pos[(leader + 1) % 4], 1);
        leaders[leader] += 1;
    }
    // The leader is drawn, not always P1 (B4).
    assert!(leaders.iter().all(|&n| n > 20), "{leaders:?}");

    let mut options = dalmuti::Options::default();
    options.set("hands", "1").unwrap();
    for seed in 0..50 {
        let g = dalmuti::Dalmuti::new(&options, 5, seed).unwrap();
        let pos = dalmuti::Dalmuti::start_positions(&g);
        for (s, &p) in pos.iter().enumerate() {
            assert_eq!(g.role(Seat::new(s)), dalmuti::Role::of(p, 5));
        }
    }
    assert_eq!(dalmuti::Dalmuti::position_name(0, 5), "Greater Dalmuti");
    assert_eq!(dalmuti::Dalmuti::position_name(2, 7), "Merchant (3rd)");
    assert_eq!(bigcheese::BigCheese::position_name(0, 4), "1st (leads)");
    assert_eq!(ordinal(12), "12th");
    assert_eq!(ordinal(22), "22nd");
}

#[test]
fn variants_parse_and_report_their_changes() {
    let base = dalmuti::Options::default();
    let v = parse_variant::<dalmuti::Dalmuti>("std=players=4,standard_deck=on", &base, 5).unwrap();
    assert_eq!((v.name.as_str(), v.players), ("std", 4));
    assert_eq!(v.changes(), vec!["standard_deck=on".to_string()]);
    let v = parse_variant::<dalmuti::Dalmuti>("book", &base, 5).unwrap();
    assert!(v.changes().is_empty());
    for bad in [
        "=hands=1",
        "a b=hands=1",
        "x=players=two",
        "x=players=2",
        "x=nosuch=1",
    ] {
        assert!(
            parse_variant::<dalmuti::Dalmuti>(bad, &base, 5).is_err(),
            "{bad}"
        );
    }
    for game in registry::GAMES {
        for p in presets(game) {
            assert_eq!(preset(game, p.name).unwrap(), p);
        }
    }
    for p in presets("bigcheese") {
        for v in p.variants {
            parse_variant::<bigcheese::BigCheese>(v, &Default::default(), 4).unwrap();
        }
    }
    for p in presets("dalmuti") {
        for v in p.variants {
            parse_variant::<dalmuti::Dalmuti>(v, &base, 5).unwrap();
        }
    }
    assert!(preset("dalmuti", "dice")
        .unwrap_err()
        .to_string()
        .contains("taxes, settling, deck"));
}
