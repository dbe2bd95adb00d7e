//! Property tests: random playouts over all options, player counts 3..=13
//! and joins end, on small research decks too (D17); cards are conserved; `check` agrees with
//! `legal_actions`; illegal actions leave the state unchanged; views do not
//! depend on hidden information; text forms round-trip; seeds reproduce.

use dalmuti::{Action, Card, Dalmuti, Hand, Options, Play};
use game::{Game, GameOptions, Seat};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn options_strategy() -> impl Strategy<Value = Options> {
    (
        1u32..4,
        prop::option::of(3u32..12),
        any::<[bool; 6]>(),
        0u8..3,
        prop::collection::vec(2u16..5, 0..3),
    )
        .prop_map(|(hands, target, b, market, joins)| {
            let mut o = Options {
                hands,
                target,
                standard_deck: b[0],
                settling_hand: b[1],
                auto_revolution: b[2],
                benevolent_rulers: b[3],
                the_elected: b[4],
                market: market == 1,
                black_market: market == 2,
                ..Options::default()
            };
            let mut j: Vec<u16> = joins;
            j.sort_unstable();
            j.dedup();
            let text: Vec<String> = j.iter().map(|h| h.to_string()).collect();
            if !text.is_empty() {
                o.set("joins", &text.join(",")).unwrap();
            }
            o
        })
}

/// Total cards in hands plus played equals the deck.
fn conserved(g: &Dalmuti) -> bool {
    let pv = g.public_view();
    let mut total = Hand::EMPTY;
    for s in 0..g.players() {
        total.add_all(&g.view(Seat::new(s)).hand);
        total.add_all(&pv.played[s]);
    }
    total == pv.deck
        && (0..g.players()).all(|s| g.view(Seat::new(s)).hand.len() == pv.cards_left[s] as usize)
}

fn all_candidate_actions(g: &Dalmuti) -> Vec<Action> {
    let mut v = vec![
        Action::Pass,
        Action::Revolution,
        Action::NoRevolution,
        Action::NoMarket,
        "seat-new above".parse().unwrap(),
        "give 1".parse().unwrap(),
        "give 12 J".parse().unwrap(),
        "give 5 5".parse().unwrap(),
        "market P4 7".parse().unwrap(),
        "market P5".parse().unwrap(),
    ];
    for c in Card::all() {
        for n in 0..4 {
            for j in 0..3 {
                let card = if n == 0 { Card::JESTER } else { c };
                if let Some(p) = Play::new(card, n, j) {
                    v.push(Action::Play(p));
                }
            }
        }
    }
    let _ = g;
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_sessions_are_consistent(opts in options_strategy(), players in 3usize..=13, seed in any::<u64>()) {
        let players = players.min(13 - opts.joins.len());
        let mut g = Dalmuti::new(&opts, players, seed).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x55);
        let mut legal = Vec::new();
        let mut steps = 0;
        let candidates = all_candidate_actions(&g);
        while let Some(seat) = g.to_move() {
            steps += 1;
            prop_assert!(steps < 20_000, "session does not end");
            prop_assert!(conserved(&g));
            g.legal_actions(&mut legal);
            prop_assert!(!legal.is_empty());
            for a in &legal {
                prop_assert!(g.check(*a).is_ok(), "{a} listed but rejected: {:?}", g.check(*a));
                prop_assert_eq!(a.to_string().parse::<Action>(), Ok(*a));
            }
            if steps % 7 == 0 {
                for a in &candidates {
                    let ok = g.check(*a).is_ok();
                    prop_assert_eq!(ok, legal.contains(a), "{} check={} legal={}", a, ok, legal.contains(a));
                    if !ok {
                        let before = format!("{g:?}");
                        prop_assert!(g.apply(*a).is_err());
                        prop_assert_eq!(before, format!("{g:?}"));
                    }
                }
                // views do not depend on hidden information
                let v = g.view(seat);
                // the JSON a bot program gets reads back as the same view
                let json = serde_json::to_value(&v).unwrap();
                prop_assert_eq!(serde_json::from_value::<dalmuti::View>(json).unwrap(), v.clone());
                let mut srng = SmallRng::seed_from_u64(steps as u64);
                let s = Dalmuti::sample_from_view(&v, &mut srng);
                prop_assert_eq!(s.view(seat), v.clone());
                prop_assert!(conserved(&s));
                let mut sl = Vec::new();
                s.legal_actions(&mut sl);
                prop_assert_eq!(&sl, &legal);
                let _ = v.to_string();
                let _ = g.public_view().to_string();
            }
            if g.phase() == dalmuti::Phase::Revolution {
                // D7: nobody but the holder can tell who holds both Jesters:
                // a sample from another seat's view may put them elsewhere
                // and still shows that seat, and the table, the same thing
                let pv = g.public_view();
                prop_assert_eq!(pv.to_move, None);
                for w in (0..g.players()).map(Seat::new).filter(|&w| w != seat) {
                    let v = g.view(w);
                    prop_assert!(!v.revolution_offer);
                    let mut srng = SmallRng::seed_from_u64(steps as u64 ^ w.index() as u64);
                    let s = Dalmuti::sample_from_view(&v, &mut srng);
                    let h = s.to_move().unwrap();
                    prop_assert!(h != w);
                    prop_assert_eq!(s.view(h).hand.jesters(), 2);
                    prop_assert_eq!(s.view(w), v);
                    prop_assert_eq!(s.public_view(), pv.clone());
                }
            }
            let a = legal[rng.random_range(0..legal.len())];
            g.apply(a).unwrap();
        }
        let o = g.outcome().unwrap();
        prop_assert!(!o.winners.is_empty());
        prop_assert_eq!(o.scores.len(), g.players());
        g.legal_actions(&mut legal);
        prop_assert!(legal.is_empty());
    }

    #[test]
    fn small_decks_hold_only_their_ranks_and_play_to_the_end(
        ranks in 1u32..=12,
        jesters in any::<bool>(),
        hands in 1u32..3,
        players in 3usize..=13,
        seed in any::<u64>(),
    ) {
        // D17: a deck too small for 2 cards each is refused; any other
        // deals exactly its cards, holds no rank above `ranks` and no
        // Jester without `jesters`, and plays to the end
        let o = Options { hands, ranks, jesters, ..Options::default() };
        let deck = o.deck(players);
        let allowed = |c: Card| if c == Card::JESTER { jesters } else { c.index() <= ranks as usize };
        prop_assert!(deck.cards().all(allowed), "the deck {} for ranks={} jesters={}", deck, ranks, jesters);
        let mut g = match Dalmuti::new(&o, players, seed) {
            Err(e) => {
                prop_assert!(deck.len() < 2 * players, "refused a deck of {}: {e}", deck.len());
                prop_assert!(e.to_string().contains("(D17)"), "{e}");
                return Ok(());
            }
            Ok(g) => g,
        };
        prop_assert!(deck.len() >= 2 * players);
        prop_assert_eq!(g.public_view().deck, deck);
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x17);
        let mut legal = Vec::new();
        while g.to_move().is_some() {
            prop_assert!(conserved(&g));
            prop_assert!(g.public_view().deck == deck);
            g.legal_actions(&mut legal);
            prop_assert!(!legal.is_empty());
            let a = legal[rng.random_range(0..legal.len())];
            g.apply(a).unwrap();
        }
        prop_assert!(!g.outcome().unwrap().winners.is_empty());
    }

    #[test]
    fn random_action_draws_legal_actions_and_all_of_them(opts in options_strategy(), players in 3usize..=13, seed in any::<u64>()) {
        // The list-free sampler returns only legal actions, and every one of
        // them (checked where the list is short, so the test stays cheap).
        let players = players.min(13 - opts.joins.len());
        let mut g = Dalmuti::new(&opts, players, seed).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed ^ 0xa11);
        let mut legal = Vec::new();
        let mut scratch = Vec::new();
        let mut seen = Vec::new();
        while g.to_move().is_some() {
            g.legal_actions(&mut legal);
            let draws = if legal.len() <= 16 { 40 * legal.len() } else { 8 };
            seen.clear();
            for _ in 0..draws {
                let a = g.random_action(&mut rng, &mut scratch);
                prop_assert!(legal.contains(&a), "random_action gave illegal {}", a);
                if !seen.contains(&a) {
                    seen.push(a);
                }
            }
            if legal.len() <= 16 {
                prop_assert_eq!(seen.len(), legal.len(), "random_action misses some of {:?}", legal);
            }
            let a = g.random_action(&mut rng, &mut scratch);
            g.apply(a).unwrap();
        }
    }

    #[test]
    fn same_seed_same_game(players in 3usize..=8, seed in any::<u64>()) {
        let opts = Options { hands: 2, ..Options::default() };
        let play = |logging: bool| {
            let mut g = Dalmuti::new(&opts, players, seed).unwrap();
            g.set_logging(logging);
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut legal = Vec::new();
            let mut actions = Vec::new();
            while g.to_move().is_some() {
                g.legal_actions(&mut legal);
                let a = legal[rng.random_range(0..legal.len())];
                actions.push(a);
                g.apply(a).unwrap();
            }
            (actions, g.outcome())
        };
        prop_assert_eq!(play(false), play(true));
    }

    #[test]
    fn play_text_round_trips(r in 1u8..=13, n in 0u8..=12, j in 0u8..=2) {
        let card = if r == 13 { Card::JESTER } else { Card::rank(r).unwrap() };
        if let Some(p) = Play::new(card, n, j) {
            prop_assert_eq!(p.to_string().parse::<Play>(), Ok(p));
            let a = Action::Play(p);
            prop_assert_eq!(a.to_string().parse::<Action>(), Ok(a));
        }
    }
}

#[test]
fn logging_tells_the_story() {
    let opts = Options {
        hands: 1,
        ..Options::default()
    };
    let mut g = Dalmuti::new(&opts, 5, 3).unwrap();
    g.set_logging(true);
    let mut legal = Vec::new();
    while g.to_move().is_some() {
        g.legal_actions(&mut legal);
        g.apply(legal[legal.len() - 1]).unwrap();
    }
    let text: Vec<String> = g.events().iter().map(|e| e.event.to_string()).collect();
    let all = text.join("\n");
    assert!(all.contains("seating draw"), "{all}");
    assert!(all.contains("is Greater Dalmuti"), "{all}");
    assert!(all.contains("you are dealt"), "{all}");
    assert!(all.contains(" plays "), "{all}");
    assert!(all.contains("goes out 1st (+4)"), "{all}");
    assert!(all.contains("the hand is over: "), "{all}");
    assert!(all.contains("wins, out first (D16)"), "{all}");
    assert!(g.events().iter().any(|e| e.to.is_some()));
    let mut quiet = Dalmuti::new(&opts, 5, 3).unwrap();
    quiet.set_logging(false);
    assert!(quiet.events().is_empty());
}
