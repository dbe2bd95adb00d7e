//! The `learned` bot plays, from each seat's view, the action the
//! network chose in numpy on the same position: the positions and
//! numpy's choices are written by the training program beside the
//! weights (`crates/bots/weights/<game>.positions.json`, each a game seed,
//! its action ids, and numpy's id at decisions whose best logit leads by
//! at least 1e-3), so this fails if the Rust encoder, action ids or
//! forward pass ever part from the Python package's.

use bots::Roster;
use game::{Game, GameOptions, Seed, Tensor};
use serde_json::Value;

fn replay<G: Roster + Tensor>(positions: &str) -> usize {
    let file: Value = serde_json::from_str(positions).unwrap();
    let mut options = G::Options::default();
    for (k, v) in file["options"].as_object().unwrap() {
        let v = match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        options.set(k, &v).unwrap();
    }
    let players = file["players"].as_u64().unwrap() as usize;
    let mut checked = 0;
    for record in file["games"].as_array().unwrap() {
        let seed = record["seed"].as_u64().unwrap();
        let mut game = G::new_seeded(&options, players, &Seed::Legacy(seed)).unwrap();
        let mut bot = G::bot("learned", seed).unwrap();
        let mut decisions = record["decisions"].as_array().unwrap().iter().peekable();
        let mut legal = Vec::new();
        for (k, id) in record["actions"].as_array().unwrap().iter().enumerate() {
            let action = game.action_of(id.as_u64().unwrap() as usize).unwrap();
            if let Some(d) = decisions.next_if(|d| d[0].as_u64() == Some(k as u64)) {
                let seat = game.to_move().unwrap();
                game.legal_actions(&mut legal);
                let chosen = bot.choose(&game.view(seat), &legal);
                assert_eq!(
                    game.action_id(chosen),
                    Some(d[1].as_u64().unwrap() as usize),
                    "seed {seed}, action {k}: numpy chose id {}, the learned bot {chosen:?}",
                    d[1]
                );
                checked += 1;
            }
            game.apply(action).unwrap();
        }
        assert!(
            decisions.next().is_none(),
            "seed {seed}: a decision past the end"
        );
    }
    checked
}

#[test]
fn the_learned_bot_plays_what_numpy_played_big_cheese() {
    let n = replay::<bigcheese::BigCheese>(include_str!("../../weights/bigcheese.positions.json"));
    assert!(n >= 100, "only {n} decisions checked");
}

#[test]
fn the_learned_bot_plays_what_numpy_played_dalmuti() {
    let n = replay::<dalmuti::Dalmuti>(include_str!("../../weights/dalmuti.positions.json"));
    assert!(n >= 100, "only {n} decisions checked");
}

#[test]
fn the_shipped_weights_read_and_fit_their_table() {
    fn check<G: Roster + Tensor>(bytes: &[u8], options: &G::Options, players: usize) {
        let net = bots::net::Mlp::from_bytes(bytes).unwrap();
        assert_eq!(net.inputs(), G::obs_len(options, players));
        assert_eq!(net.outputs(), G::num_actions(options, players));
        assert_eq!(net.metadata()["players"], players.to_string());
    }
    let mut dalmuti = dalmuti::Options::default();
    dalmuti.set("hands", "1").unwrap();
    check::<dalmuti::Dalmuti>(bots::great_dalmuti::WEIGHTS, &dalmuti, 5);
    check::<bigcheese::BigCheese>(bots::big_cheese::WEIGHTS, &bigcheese::Options::default(), 4);
}

#[test]
fn at_another_table_size_the_learned_bot_plays_as_strong() {
    // 3-player Dalmuti: the network (5 players) does not fit, so the
    // bot's choices are `strong`'s, decision for decision.
    let options = dalmuti::Options::default();
    for seed in 0..3 {
        let mut game = dalmuti::Dalmuti::new_seeded(&options, 3, &Seed::Legacy(seed)).unwrap();
        let mut learned = dalmuti::Dalmuti::bot("learned", seed).unwrap();
        let mut strong = dalmuti::Dalmuti::bot("strong", seed).unwrap();
        let mut legal = Vec::new();
        while let Some(seat) = game.to_move() {
            game.legal_actions(&mut legal);
            let view = game.view(seat);
            let a = learned.choose(&view, &legal);
            assert_eq!(a, strong.choose(&view, &legal));
            game.apply(a).unwrap();
        }
    }
}
