//! Runs every `scenarios/bigcheese/*.scen` file through the engine's
//! `Scenario` hooks. A deliberately small reader of the shared scenario
//! format, for this crate's own tests only (the CLI owns the real runner).

use bigcheese::{Action, BigCheese, Options};
use game::{Game, GameOptions, Scenario, Seat};
use std::path::PathBuf;

fn run(path: &std::path::Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut players = 4;
    let mut seed = 0;
    let mut opts = Options::default();
    let mut setup = Some(<BigCheese as Scenario>::Setup::default());
    let mut game: Option<BigCheese> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let at = |e: String| format!("{}:{}: {e}\n  {raw}", path.display(), i + 1);
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let is_action = key.parse::<Seat>().is_ok() || key == "illegal" || key == "expect";
        if is_action && game.is_none() {
            let g =
                BigCheese::from_setup(&opts, players, seed, setup.take().unwrap()).map_err(at)?;
            let mut g = g;
            g.set_logging(true);
            game = Some(g);
        }
        match key {
            "game" => assert_eq!(rest, "bigcheese"),
            "players" => players = rest.parse().unwrap(),
            "seed" => seed = rest.parse().unwrap(),
            "option" => opts.set_pair(rest).map_err(|e| at(e.to_string()))?,
            "illegal" => {
                let g = game.as_mut().unwrap();
                let (act, reason) = rest.split_once(':').unwrap_or((rest, ""));
                let (s, a) = act.trim().split_once(' ').unwrap();
                let a: Action = a.parse().map_err(at)?;
                let before = g.clone();
                match g.act(s.parse().unwrap(), a) {
                    Ok(()) => return Err(at(format!("{a} was accepted"))),
                    Err(e) if e.to_string().contains(reason.trim()) => {}
                    Err(e) => return Err(at(format!("refused with `{e}`"))),
                }
                assert_eq!(*g, before);
            }
            "expect" => {
                let g = game.as_ref().unwrap();
                let (k, args) = rest.split_once(' ').unwrap_or((rest, ""));
                let args = args.trim();
                let fail = |m: String| Err(at(m));
                match k {
                    "turn" => {
                        if g.to_move() != Some(args.parse().unwrap()) {
                            return fail(format!("turn is {:?}", g.to_move()));
                        }
                    }
                    "over" => {
                        if g.outcome().is_none() {
                            return fail("not over".into());
                        }
                    }
                    "not-over" => {
                        if g.outcome().is_some() {
                            return fail("over".into());
                        }
                    }
                    "winners" => {
                        let want: Vec<Seat> = args
                            .split_whitespace()
                            .filter(|w| *w != "none")
                            .map(|w| w.parse().unwrap())
                            .collect();
                        let got = g.outcome().map(|o| o.winners).unwrap_or_default();
                        if got != want {
                            return fail(format!("winners {got:?}"));
                        }
                    }
                    "legal-actions" => {
                        let mut legal = Vec::new();
                        g.legal_actions(&mut legal);
                        let got: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
                        let want: Vec<&str> = args.split(',').map(str::trim).collect();
                        if got != want {
                            return fail(format!("legal actions {got:?}"));
                        }
                    }
                    "legal" | "not-legal" => {
                        let a: Action = args.parse().map_err(at)?;
                        if g.check(a).is_ok() != (k == "legal") {
                            return fail(format!("{a} is not {k}"));
                        }
                    }
                    "log" => {
                        if !g.log().iter().any(|l| l.text.contains(args)) {
                            let all: Vec<&str> = g.log().iter().map(|l| l.text.as_str()).collect();
                            return fail(format!(
                                "no log line contains `{args}`:\n{}",
                                all.join("\n")
                            ));
                        }
                    }
                    _ => g
                        .expect(k, args)
                        .map_err(|e| at(format!("{e}\n{}", g.public_view())))?,
                }
            }
            _ if key.parse::<Seat>().is_ok() => {
                let g = game.as_mut().unwrap();
                let a: Action = rest.parse().map_err(at)?;
                g.act(key.parse().unwrap(), a)
                    .map_err(|e| at(format!("{e}\n{}", g.public_view())))?;
            }
            _ => BigCheese::setup_line(setup.as_mut().unwrap(), key, rest)
                .map_err(|e| at(e.to_string()))?,
        }
    }
    Ok(())
}

#[test]
fn scenario_files() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/bigcheese");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "scen"))
        .collect();
    files.sort();
    let mut errors = Vec::new();
    for f in &files {
        if let Err(e) = run(f) {
            errors.push(e);
        }
    }
    assert!(
        errors.is_empty(),
        "{} of {} scenarios failed:\n{}",
        errors.len(),
        files.len(),
        errors.join("\n\n")
    );
}
