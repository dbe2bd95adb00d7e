//! Scenario checks through the `Scenario` impl (the file runner lives in the
//! CLI crate): setup validation, expectations that fail with a message, and
//! the hidden-information rules of the tax phase.

use dalmuti::{Action, Dalmuti, Options, Phase, Setup, SingleHand};
use game::{Game, GameOptions, OptionError, Outcome, Scenario, ScenarioError, Seat, SetupError};

fn setup(lines: &[&str]) -> Setup {
    let mut s = Setup::default();
    for l in lines {
        let (k, a) = l.split_once(' ').unwrap_or((l, ""));
        Dalmuti::setup_line(&mut s, k, a).unwrap();
    }
    s
}

fn one_hand() -> Options {
    Options {
        hands: 1,
        ..Options::default()
    }
}

fn act(g: &mut Dalmuti, seat: usize, a: &str) {
    let a: Action = a.parse().unwrap();
    g.act(Seat::new(seat - 1), a).unwrap();
}

#[test]
fn hand_made_hands_are_checked_against_the_deck() {
    let s = setup(&["order P1 P2 P3 P4", "hand P1 12 1", "hand P2 2"]);
    let e = Dalmuti::from_setup(&one_hand(), 4, 0, s).unwrap_err();
    assert!(
        matches!(&e, SetupError::Position(m) if m.contains("4-player deck has only 0")),
        "{e}"
    );
    let s = setup(&["hand P1 1 1"]);
    let e = Dalmuti::from_setup(&one_hand(), 5, 0, s).unwrap_err();
    assert!(e.to_string().contains("2 cards of 1"), "{e}");
    let s = setup(&["order P1 P2 P1"]);
    assert!(matches!(
        Dalmuti::from_setup(&one_hand(), 3, 0, s),
        Err(SetupError::Position(_))
    ));
    let e = Dalmuti::from_setup(&one_hand(), 14, 0, Setup::default()).unwrap_err();
    assert!(matches!(
        e,
        SetupError::Players {
            players: 14,
            ruling: "D1",
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        "The Great Dalmuti is for 3 to 13 players, not 14 (D1)"
    );
    let mut bad = Setup::default();
    assert!(matches!(
        Dalmuti::setup_line(&mut bad, "colour", "red"),
        Err(ScenarioError::UnknownKey(_))
    ));
    assert!(matches!(
        Dalmuti::setup_line(&mut bad, "hand", "P1 14"),
        Err(ScenarioError::BadArgs(_))
    ));
}

#[test]
fn partial_hands_deal_the_rest() {
    let s = setup(&["order P1 P2 P3 P4", "hand P1 1 2 2"]);
    let g = Dalmuti::from_setup(&one_hand(), 4, 9, s).unwrap();
    g.expect("hand", "P1 1 2 2").unwrap();
    g.expect("deck", "57").unwrap();
    g.expect("count", "P2 18").unwrap();
    g.expect("count", "P4 18").unwrap();
}

#[test]
fn failed_expectations_say_what_was_found() {
    let s = setup(&[
        "order P1 P2 P3",
        "hand P1 3 4",
        "hand P2 5",
        "hand P3 6",
        "no-taxes",
    ]);
    let g = Dalmuti::from_setup(&one_hand(), 3, 0, s).unwrap();
    match g.expect("hand", "P1 3") {
        Err(ScenarioError::Failed(m)) => {
            assert_eq!(m, "expected P1's hand 3, found 3 | 4")
        }
        other => panic!("{other:?}"),
    }
    match g.expect("role", "P2 greater-peon") {
        Err(ScenarioError::Failed(m)) => assert!(m.contains("found merchant"), "{m}"),
        other => panic!("{other:?}"),
    }
    match g.expect("trick", "3x7 P2") {
        Err(ScenarioError::Failed(m)) => assert!(m.contains("found none"), "{m}"),
        other => panic!("{other:?}"),
    }
    g.expect("phase", "play").unwrap();
    g.expect("finished", "none").unwrap();
    g.expect("passed", "none").unwrap();
    match g.expect("taxes", "pending") {
        Err(ScenarioError::Failed(m)) => assert!(m.contains("pending a revolution"), "{m}"),
        other => panic!("{other:?}"),
    }
    // A seeded deal from the Greater Dalmuti P2, 5 players: P2 and P3,
    // dealt first, hold the extra cards (D5).
    let dealt = setup(&["order P2 P3 P1 P4 P5"]);
    let d = Dalmuti::from_setup(&one_hand(), 5, 4, dealt).unwrap();
    d.expect("dealt", "P2 P3 P1 P4 P5").unwrap();
    match d.expect("dealt", "P3 P2 P1 P4 P5") {
        Err(ScenarioError::Failed(m)) => {
            assert!(m.contains("found P2 P3 P1 P4 P5"), "{m}")
        }
        other => panic!("{other:?}"),
    }
    // After a play the deal cannot be seen any more.
    let mut played = g.clone();
    played.apply("play 3".parse().unwrap()).unwrap();
    match played.expect("dealt", "P1 P2 P3") {
        Err(ScenarioError::Failed(m)) => assert!(m.contains("before the first card"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        g.expect("mood", "x"),
        Err(ScenarioError::UnknownKey(_))
    ));
}

#[test]
fn pending_tax_choices_are_hidden() {
    let s = setup(&[
        "order P1 P2 P3 P4",
        "hand P1 5 6 7 8 9",
        "hand P2 4 10 10",
        "hand P3 2 3 10",
        "hand P4 1 3 9 J",
    ]);
    let mut g = Dalmuti::from_setup(&one_hand(), 4, 0, s).unwrap();
    act(&mut g, 1, "give 8 9");
    assert_eq!(g.phase(), Phase::LesserTax);
    let mine = g.view(Seat::new(0));
    assert_eq!(mine.pending_gift.map(|g| g.to_string()), Some("8 9".into()));
    for s in 1..4 {
        let v = g.view(Seat::new(s));
        assert_eq!(v.pending_gift, None);
        assert!(!format!("{v:?}").contains("8 9"));
        // a sampled state shows the same view, whatever it guessed
        let mut rng = rand::rngs::SmallRng::seed_from_u64(s as u64);
        let sample = Dalmuti::sample_from_view(&v, &mut rng);
        assert_eq!(sample.view(Seat::new(s)), v);
    }
    act(&mut g, 2, "give 10");
    // the Greater Peon knows which cards it received
    let v = g.view(Seat::new(3));
    assert_eq!(v.transfers.len(), 2);
    assert!(v.to_string().contains("your hand: 8 | 9 9 | J"), "{v}");
    // the Lesser Peon does not see the greater exchange's cards
    let v = g.view(Seat::new(2));
    assert!(v.transfers.iter().all(|t| t.from != Seat::new(0)));
    assert_eq!(v.public.exchanges.len(), 4);
    // Once cards are played, the board lists neither the exchanges nor the
    // seat's own transfers (the log told them; a terminal redrawing the
    // board before every turn repeated them), though the view still holds
    // the transfers.
    assert_eq!(g.phase(), Phase::Play);
    let board = g.view(Seat::new(3)).to_string();
    assert!(!board.contains("(tax)"), "{board}");
    assert!(!board.contains("gave"), "{board}");
}

use rand::SeedableRng;

#[test]
fn boards_name_roles_and_tricks() {
    let s = setup(&[
        "order P3 P1 P2 P4",
        "hand P1 3 5 5 7 7 7 J",
        "hand P2 4",
        "hand P3 7 7 7 9",
        "hand P4 10",
        "no-taxes",
    ]);
    let mut g = Dalmuti::from_setup(&one_hand(), 4, 0, s).unwrap();
    act(&mut g, 3, "play 3x7");
    act(&mut g, 1, "pass");
    let board = g.view(Seat::new(0)).to_string();
    for want in [
        "P3  Greater Dalmuti",
        "P1  Lesser Dalmuti",
        "P4  Greater Peon",
        "trick: P3 played 3x7; passed since: P1",
        "your hand: 3 | 5 5 | 7 7 7 | J",
        "P2 to move",
    ] {
        assert!(board.contains(want), "missing `{want}` in\n{board}");
    }
    let public = g.public_view().to_string();
    assert!(!public.contains("your hand"));
    assert!(public.contains("P3 played 3x7"));
}

#[test]
fn options_conflict_and_bad_setups() {
    let mut o = Options::default();
    o.set("black_market", "on").unwrap();
    assert!(matches!(
        o.set("market", "on"),
        Err(OptionError::Conflict(_))
    ));
    assert!(Dalmuti::new(&Options::default(), 2, 0).is_err());
    assert!(Dalmuti::new(&Options::default(), 14, 0).is_err());
    let mut o = Options::default();
    o.set("joins", "2,3").unwrap();
    assert!(Dalmuti::new(&o, 12, 0).is_err());
    assert!(Dalmuti::new(&o, 11, 0).is_ok());
}

/// 3 players, benevolent rulers, a single hand: P1 goes out first (+2)
/// and the Greater Peon P3 rises (+1 to P1); P2 started with 3 points.
fn tied_single_hand(single_hand: SingleHand) -> Outcome {
    let mut o = one_hand();
    o.benevolent_rulers = true;
    o.single_hand = single_hand;
    let s = setup(&[
        "order P1 P2 P3",
        "hand P1 9",
        "hand P2 8 10",
        "hand P3 7",
        "scores 0 3 0",
        "no-taxes",
    ]);
    let mut g = Dalmuti::from_setup(&o, 3, 0, s).unwrap();
    act(&mut g, 1, "play 9");
    act(&mut g, 2, "play 8");
    act(&mut g, 3, "play 7");
    g.outcome().unwrap()
}

#[test]
fn ties_share_the_win() {
    // D12 on one hand (`single_hand=points`): the scores decide, ties share.
    let out = tied_single_hand(SingleHand::Points);
    assert_eq!(out.scores, vec![3, 3, 1]);
    assert_eq!(out.places, vec![1, 1, 3]);
    assert_eq!(out.winners, vec![Seat::new(0), Seat::new(1)]);
}

#[test]
fn a_single_hand_is_won_by_going_out_first() {
    // D16 (the default): the same hand, P1 out first wins alone; places
    // are the finishing order (P1, P3, P2), scores are still kept.
    let out = tied_single_hand(SingleHand::FirstOut);
    assert_eq!(out.scores, vec![3, 3, 1]);
    assert_eq!(out.places, vec![1, 3, 2]);
    assert_eq!(out.winners, vec![Seat::new(0)]);
}

#[test]
fn a_seat_not_at_the_table_sees_only_public_facts() {
    let g = Dalmuti::new(&one_hand(), 4, 1).unwrap();
    for s in 4..Seat::MAX {
        let v = g.view(Seat::new(s));
        assert!(v.hand.is_empty());
        assert!(v.transfers.is_empty());
        assert_eq!(v.public, g.public_view());
    }
}

/// D7: the table must not learn who holds both Jesters from a pending or a
/// declined revolution. Two positions that differ only in which opponent
/// holds them give a third seat (and a spectator) the same view and the
/// same public log, before and after the decline.
#[test]
fn a_declined_revolution_names_nobody() {
    // P2 (Lesser Dalmuti) or P4 (Greater Peon) holds both Jesters
    let position = |p2: &str, p4: &str| {
        let s = setup(&[
            "order P1 P2 P3 P4",
            "hand P1 5 6 7 8 9",
            &format!("hand P2 {p2}"),
            "hand P3 2 3 10",
            &format!("hand P4 {p4}"),
        ]);
        let mut g = Dalmuti::from_setup(&one_hand(), 4, 0, s).unwrap();
        g.set_logging(true);
        g
    };
    let mut a = position("4 10 J J", "1 3 9 9");
    let mut b = position("4 10 9 9", "1 3 J J");
    let public_log = |g: &Dalmuti| -> Vec<String> {
        g.events()
            .iter()
            .filter(|e| e.to.is_none())
            .map(|e| e.event.to_string())
            .collect()
    };
    let same = |a: &Dalmuti, b: &Dalmuti| {
        for s in [0, 2] {
            let (va, vb) = (a.view(Seat::new(s)), b.view(Seat::new(s)));
            assert_eq!(va, vb);
            assert_eq!(va.to_string(), vb.to_string());
            assert!(!va.revolution_offer);
        }
        assert_eq!(a.public_view(), b.public_view());
        assert_eq!(a.public_view().to_string(), b.public_view().to_string());
        assert_eq!(public_log(a), public_log(b));
    };
    assert_eq!(a.phase(), Phase::Revolution);
    assert_eq!(a.public_view().to_move, None);
    assert!(a.public_view().revolution_offered);
    let board = a.public_view().to_string();
    assert!(
        board.contains("a revolution decision is pending"),
        "{board}"
    );
    assert!(!board.contains("to move)"), "{board}");
    same(&a, &b);
    // the holder's own view says the decision is theirs
    let mine = a.view(Seat::new(1));
    assert!(mine.revolution_offer);
    assert!(mine.to_string().contains("P2 to move"), "{mine}");
    // a non-holder who tries to act is not told whose turn it is
    for g in [&a, &b] {
        for text in ["pass", "revolution", "give 5 6"] {
            let e = g
                .check_as(Seat::new(2), text.parse().unwrap())
                .unwrap_err()
                .to_string();
            assert!(
                !e.contains("P2") && !e.contains("P4") && e.ends_with("(D7)"),
                "{e}"
            );
        }
    }
    act(&mut a, 2, "no-revolution");
    act(&mut b, 4, "no-revolution");
    assert!(public_log(&a)
        .iter()
        .any(|l| l == "no revolution is declared (D7)"));
    same(&a, &b);
    assert!(a.view(Seat::new(1)).revolution_offer);
    assert!(!a.view(Seat::new(3)).revolution_offer);
    assert!(b.view(Seat::new(3)).revolution_offer);
    // a declared revolution names the declarer
    let mut c = position("4 10 J J", "1 3 9 9");
    act(&mut c, 2, "revolution");
    assert_eq!(c.public_view().revolution_by, Some(Seat::new(1)));
}

/// The sampler follows what the view implies about the Jesters (D7) and
/// the Peon's forced tax cards (D8).
#[test]
fn samples_respect_what_the_view_implies() {
    let dealt_jesters = |g: &Dalmuti, s: usize| -> i32 {
        let pv = g.public_view();
        let mut j = g.view(Seat::new(s)).hand.jesters() as i32 + pv.played[s].jesters() as i32;
        for t in &g.view(Seat::new(s)).transfers {
            let k = t.cards.cards().filter(|c| c.is_jester()).count() as i32;
            if t.from.index() == s {
                j += k;
            }
            if t.to.index() == s {
                j -= k;
            }
        }
        j
    };
    let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
    // pending: P3 sees a decision pending; the sample's holder has both
    let s = setup(&[
        "order P1 P2 P3 P4 P5",
        "hand P2 4 4 4 4 5 5 5 5 5 6 6 6 6 6 6 7 J J",
        "hand P3 1 2 2 3",
    ]);
    let g = Dalmuti::from_setup(&one_hand(), 5, 3, s).unwrap();
    assert_eq!(g.phase(), Phase::Revolution);
    let v = g.view(Seat::new(2));
    let mut holders = [0; 5];
    for _ in 0..400 {
        let x = Dalmuti::sample_from_view(&v, &mut rng);
        let h = x.to_move().unwrap().index();
        assert_ne!(h, 2);
        assert_eq!(x.view(Seat::new(h)).hand.jesters(), 2);
        assert!(x.view(Seat::new(h)).revolution_offer);
        assert_eq!(x.view(Seat::new(2)), v);
        holders[h] += 1;
    }
    assert!(
        holders
            .iter()
            .enumerate()
            .all(|(s, &k)| (s == 2) == (k == 0)),
        "{holders:?}"
    );
    // not offered although taxes are paid: no opponent held both Jesters
    // as dealt; and the Greater Dalmuti's sample keeps the Greater Peon's
    // other cards no better than the worst it paid (D8)
    let mut checked = 0;
    for seed in 0..200u64 {
        let mut g = Dalmuti::new(&one_hand(), 5, seed).unwrap();
        if g.phase() != Phase::GreaterTax {
            continue;
        }
        let mut legal = Vec::new();
        while g.phase() != Phase::Play {
            g.legal_actions(&mut legal);
            g.apply(legal[0]).unwrap();
        }
        let gd = g.order().next().unwrap();
        let gp = g.order().last().unwrap();
        let v = g.view(gd);
        let paid = v
            .transfers
            .iter()
            .find(|t| t.from == gp)
            .unwrap()
            .cards
            .cards()
            .map(|c| c.index())
            .max()
            .unwrap();
        for _ in 0..5 {
            let x = Dalmuti::sample_from_view(&v, &mut rng);
            assert_eq!(x.view(gd), v);
            for s in 0..5 {
                if s != gd.index() {
                    assert!(dealt_jesters(&x, s) < 2, "seed {seed}");
                }
            }
            let h = x.view(gp).hand;
            let back = v
                .transfers
                .iter()
                .find(|t| t.from == gd)
                .unwrap()
                .cards
                .hand();
            let rest = h.minus(&back).unwrap();
            assert!(
                rest.cards().all(|c| c.index() >= paid),
                "seed {seed}: {h} after paying {paid}"
            );
        }
        checked += 1;
    }
    assert!(checked > 50, "{checked}");
}

#[test]
fn a_version_1_record_scores_a_single_hand_by_points() {
    let mut r = game::Record::new::<Dalmuti>(&one_hand(), 4, 3u64);
    r.options.remove("single_hand");
    r.rules_version = "dalmuti/1".into();
    assert_eq!(
        r.options::<Dalmuti>().unwrap().single_hand,
        SingleHand::Points
    );
    r.rules_version = Dalmuti::RULES_VERSION.into();
    assert_eq!(
        r.options::<Dalmuti>().unwrap().single_hand,
        SingleHand::FirstOut
    );
    r.rules_version = "dalmuti/9".into();
    assert!(r.start::<Dalmuti>().is_err());
}

/// Every `scenarios/dalmuti/*.scen` file through the one scenario runner
/// (`game::scenario`): the engine's own tests cover every ruling.
#[test]
fn scenario_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/dalmuti");
    let mut failures = Vec::new();
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "scen") {
            files += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            let report = game::scenario::run::<Dalmuti>(&path.display().to_string(), &text);
            failures.extend(report.failures.iter().map(ToString::to_string));
        }
    }
    assert!(files >= 15, "only {files} scenario files");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
