//! The `ratrace` commands: every scenario file of the project, the
//! scenario runner's own failure reports, terminal play from a scripted
//! input, records and replays, and the simulator's determinism.

use analysis::simulate;
use cli::{play, records, scenario};
use game::{Game, GameOptions, Record, Seat};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scenario_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for game in ["bigcheese", "dalmuti"] {
        let dir = repo().join("scenarios").join(game);
        for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "scen") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_project_scenario_passes() {
    let files = scenario_files();
    assert!(
        files.len() >= 32,
        "expected scenarios for every ruling, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    let mut checks = 0;
    for f in &files {
        let r = scenario::run_file(f);
        checks += r.checks;
        failures.extend(r.failures.iter().map(ToString::to_string));
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checks > 100, "only {checks} checks ran");
}

/// The ruling ids the rules pages document (`## B18 Veto timing`): the
/// first rulings B1..B17 and D1..D15, and those found later.
fn documented_rulings() -> Vec<(char, u32)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut ids = Vec::new();
    for (page, letter) in [("bigcheese", 'B'), ("dalmuti", 'D')] {
        let text = std::fs::read_to_string(root.join(format!("docs/rules/{page}.md"))).unwrap();
        for line in text.lines() {
            let Some(rest) = line
                .strip_prefix("## ")
                .and_then(|r| r.strip_prefix(letter))
            else {
                continue;
            };
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = digits.parse() {
                ids.push((letter.to_ascii_lowercase(), n));
            }
        }
    }
    ids
}

/// Every ruling id has a scenario: a file named after it (`b07_...`) or one
/// that names it in a comment.
#[test]
fn every_ruling_has_a_scenario() {
    let files: Vec<(String, String)> = scenario_files()
        .iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().to_lowercase(),
                std::fs::read_to_string(p).unwrap(),
            )
        })
        .collect();
    let ids = documented_rulings();
    for shared in (1..=17).map(|i| ('b', i)).chain((1..=15).map(|i| ('d', i))) {
        assert!(ids.contains(&shared), "docs/rules lack {shared:?}");
    }
    for later in [('b', 18), ('b', 19), ('b', 20), ('d', 16)] {
        assert!(ids.contains(&later), "docs/rules lack {later:?}");
    }
    let mut missing = Vec::new();
    for (letter, n) in ids {
        let prefix = format!("{letter}{n:02}");
        let word = format!("{}{n}", letter.to_ascii_uppercase());
        let covered = files.iter().any(|(name, text)| {
            name.starts_with(&prefix)
                || text
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| w == word)
        });
        if !covered {
            missing.push(word);
        }
    }
    assert!(
        missing.is_empty(),
        "rulings without a scenario: {missing:?}"
    );
}

#[test]
fn runner_reports_failed_expectations_with_their_line() {
    let text = "# a scenario that must fail\ngame bigcheese\nplayers 3\n\nexpect turn P1\nexpect turn P2\nexpect over\n";
    let r = scenario::run_text("t.scen", text);
    // Exactly one of P1/P2 is to move, and the game is not over.
    let lines: Vec<usize> = r.failures.iter().map(|f| f.line).collect();
    assert_eq!(lines.len(), 2, "{:?}", r.failures);
    assert!(lines.contains(&7), "{:?}", r.failures);
    assert!(r.failures.iter().all(|f| f.file == "t.scen"));
}

#[test]
fn runner_rejects_unknown_games_keys_and_actions() {
    let r = scenario::run_text("x", "game chess\n");
    assert_eq!(r.failures[0].line, 1);
    assert!(
        r.failures[0].message.contains("unknown game"),
        "{:?}",
        r.failures
    );

    let r = scenario::run_text("x", "game dalmuti\nfrobnicate 3\nexpect over\n");
    assert_eq!(r.failures[0].line, 2, "{:?}", r.failures);

    let r = scenario::run_text("x", "game bigcheese\nP1 dance\n");
    assert_eq!(r.failures[0].line, 2);
    assert!(
        r.failures[0].message.contains("cannot read action"),
        "{:?}",
        r.failures
    );
}

#[test]
fn illegal_lines_must_really_be_illegal() {
    // Whoever moves first, a bid above 10 free chips is illegal for them...
    let g = bigcheese::BigCheese::new(&Default::default(), 3, 0).unwrap();
    let first = g.to_move().unwrap();
    let ok = format!("game bigcheese\nplayers 3\nillegal {first} bid 11: 11\n");
    assert!(
        scenario::run_text("x", &ok).failures.is_empty(),
        "{:?}",
        scenario::run_text("x", &ok).failures
    );
    // ...and a pass is not, so claiming it is must fail.
    let bad = format!("game bigcheese\nplayers 3\nillegal {first} pass\n");
    assert_eq!(scenario::run_text("x", &bad).failures[0].line, 3);
}

pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ratrace-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Plays a whole game through the terminal loop with scripted input:
/// garbage, an out-of-range number, an illegal action, `help`, then always
/// the first legal action.
fn play_scripted<G: bots::Roster>(
    players: usize,
    seed: u64,
    dir: &Path,
) -> (play::Ending, String, PathBuf) {
    let path = dir.join(format!("{}-{seed}.json", G::NAME));
    let cfg = play::Config::<G> {
        players,
        options: G::Options::default(),
        seed,
        bots: vec!["random".into(), "heuristic".into()],
        human: Some(Seat::new(1)),
        pace: std::time::Duration::ZERO,
        record_path: path.clone(),
        limits: extbot::Limits::default(),
    };
    let mut input = String::from("help\nboard\nhint\nflibbertigibbet\n0\n999\n");
    input.push_str(&"1\n".repeat(20_000));
    let mut out = Vec::new();
    let ending = play::play(&cfg, input.as_bytes(), &mut out).unwrap();
    (ending, String::from_utf8(out).unwrap(), path)
}

fn play_and_replay<G: bots::Roster>(players: usize) {
    let dir = temp_dir(G::NAME);
    let (ending, out, path) = play_scripted::<G>(players, 42, &dir);
    assert_eq!(
        ending,
        play::Ending::Finished,
        "{}",
        &out[out.len().saturating_sub(2000)..]
    );
    assert!(
        out.contains("Cannot read `flibbertigibbet`"),
        "garbled input must be answered"
    );
    assert!(out.contains("There is no choice 0"));
    // `hint` names one of the legal actions listed just before it.
    let hint_at = out.find("Hint (").expect("hint answered");
    let legal_line = out[..hint_at]
        .lines()
        .rfind(|l| l.contains("Legal:"))
        .unwrap();
    let hinted = out[hint_at..].lines().next().unwrap();
    let hinted = hinted.split_once("): ").unwrap().1.trim();
    assert!(
        legal_line.contains(&format!("] {hinted}")),
        "hint `{hinted}` not in {legal_line}"
    );
    assert!(out.contains("There is no choice 999"));
    // The result is said once, by the final board's last line.
    let results = out
        .lines()
        .filter(|l| l.contains("over: ") && l.ends_with(" won"))
        .count();
    assert_eq!(results, 1, "{}", &out[out.len().saturating_sub(800)..]);
    assert!(
        out.contains(&path.display().to_string()),
        "the record path is printed"
    );

    let record = records::read(&path).unwrap();
    assert_eq!(record.game, G::NAME);
    assert!(record.outcome.is_some());
    let text = records::play_by_play(&record, false).unwrap();
    assert!(text.contains("result: won by"), "{text}");
    // Replaying reproduces the same outcome.
    let g: G = record.replay(false, |_, _, _| {}).unwrap();
    assert_eq!(g.outcome(), record.outcome);

    // A record with a changed action is refused, naming that action.
    let mut bad = record.clone();
    let k = bad.actions.len() / 2;
    bad.actions[k] = "P1 flibber".into();
    let err = records::play_by_play(&bad, false).unwrap_err().to_string();
    assert!(err.contains(&format!("action {}", k + 1)), "{err}");

    // An action by the wrong seat is refused too.
    let mut bad = record.clone();
    let (seat, action) = bad.actions[0].split_once(' ').unwrap();
    let other = Seat::new((seat.parse::<Seat>().unwrap().index() + 1) % players);
    bad.actions[0] = format!("{other} {action}");
    let err = records::play_by_play(&bad, false).unwrap_err().to_string();
    assert!(err.contains("action 1"), "{err}");

    // Broken JSON names its line.
    let json = std::fs::read_to_string(&path).unwrap();
    let broken = json.replacen("\"actions\": [", "\"actions\": [[", 1);
    let err = records::parse(&broken).unwrap_err().to_string();
    assert!(err.contains("line"), "{err}");
    // Wrong game.
    let mut other = record.clone();
    other.game = "chess".into();
    assert!(records::play_by_play(&other, false)
        .unwrap_err()
        .to_string()
        .contains("unknown game"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bigcheese_terminal_game_record_and_replay() {
    play_and_replay::<bigcheese::BigCheese>(4);
}

#[test]
fn dalmuti_terminal_game_record_and_replay() {
    play_and_replay::<dalmuti::Dalmuti>(5);
}

#[test]
fn quitting_saves_the_game_so_far() {
    let dir = temp_dir("quit");
    let path = dir.join("q.json");
    let cfg = play::Config::<dalmuti::Dalmuti> {
        players: 4,
        options: Default::default(),
        seed: 9,
        bots: vec!["random".into()],
        human: Some(Seat::new(0)),
        pace: std::time::Duration::ZERO,
        record_path: path.clone(),
        limits: extbot::Limits::default(),
    };
    let mut out = Vec::new();
    let ending = play::play(&cfg, "1\n1\nquit\n".as_bytes(), &mut out).unwrap();
    assert_eq!(ending, play::Ending::Quit);
    let record = records::read(&path).unwrap();
    assert!(record.outcome.is_none());
    let g: dalmuti::Dalmuti = record.replay(false, |_, _, _| {}).unwrap();
    assert!(g.outcome().is_none());
    // The seed is told only at the end.
    let out = String::from_utf8(out).unwrap();
    let (before, after) = out.split_at(out.find("Left the game.").unwrap());
    assert!(
        !before.contains("Seed: 9") && !before.contains("seed 9"),
        "{before}"
    );
    assert!(after.contains("Seed: 9"), "{after}");
    // A replay of an unfinished game hides the seed and every private line...
    let text = records::play_by_play(&record, false).unwrap();
    assert!(text.contains("hidden until the game ends"), "{text}");
    assert!(!text.contains("you are dealt"), "{text}");
    assert!(!text.contains("seed 9"), "{text}");
    // ...unless asked to reveal them.
    let text = records::play_by_play(&record, true).unwrap();
    assert!(
        text.contains("you are dealt") && text.contains("seed 9"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A terminal Dalmuti game tells each tax once. The board is
/// redrawn before every turn (and here on `board` too), and it used to
/// repeat every exchange; now each line about a tax or a card given back
/// appears once per hand, from every seat, and none after the last hand.
#[test]
fn a_terminal_dalmuti_game_tells_each_tax_once() {
    let dir = temp_dir("taxes");
    for (seed, human) in [(7, 0), (7, 1), (7, 2), (7, 3), (7, 4), (11, 0), (12, 4)] {
        let cfg = play::Config::<dalmuti::Dalmuti> {
            players: 5,
            options: dalmuti::Options::from_pairs([("hands", "4")]).unwrap(),
            seed,
            bots: vec!["heuristic".into()],
            human: Some(Seat::new(human)),
            pace: std::time::Duration::ZERO,
            record_path: dir.join(format!("taxes-{seed}-{human}.json")),
            limits: extbot::Limits::default(),
        };
        let input = "board\n1\n".repeat(5_000);
        let mut out = Vec::new();
        let ending = play::play(&cfg, input.as_bytes(), &mut out).unwrap();
        assert_eq!(ending, play::Ending::Finished);
        let out = String::from_utf8(out).unwrap();
        // The output of each hand, from its deal (the last one runs to the
        // end of the game, final board included).
        let hands: Vec<&str> = out.split(": the deck of ").skip(1).collect();
        assert_eq!(hands.len(), 4, "seed {seed} seat {human}");
        for (h, text) in hands.iter().enumerate() {
            let mut seen = std::collections::BTreeMap::<&str, usize>::new();
            for line in text.lines() {
                // A log line may follow the prompt, which is not echoed.
                let line = line.rsplit("> ").next().unwrap().trim();
                // A tax paid, a card given back or given (not the prompt
                // that a revolution decision is pending).
                if ["of tax", "(tax)", "gave", "gives", "you give "]
                    .iter()
                    .any(|w| line.contains(w))
                {
                    *seen.entry(line).or_default() += 1;
                }
            }
            assert!(
                seen.len() >= 4,
                "seed {seed} seat {human} hand {}: taxes not told: {seen:?}",
                h + 1
            );
            let repeated: Vec<_> = seen.iter().filter(|(_, n)| **n > 1).collect();
            assert!(
                repeated.is_empty(),
                "seed {seed} seat {human} hand {}: repeated {repeated:?}",
                h + 1
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

fn sim<G: bots::Roster>(threads: usize, seed: u64) -> simulate::Summary {
    let cfg = simulate::Config::<G> {
        games: 200,
        players: G::DEFAULT_PLAYERS,
        bots: vec!["heuristic".into(), "random".into()],
        options: G::Options::default(),
        seed,
        threads,
        max_actions: 100_000,
        rotate: true,
        limits: extbot::Limits::default(),
        save: None,
    };
    simulate::run(&cfg, &analysis::Quiet).unwrap()
}

fn sim_is_deterministic<G: bots::Roster>() {
    let a = sim::<G>(1, 5);
    let b = sim::<G>(2, 5);
    let c = sim::<G>(2, 6);
    let wins = |s: &simulate::Summary| s.seats.iter().map(|x| x.wins.wins).collect::<Vec<_>>();
    assert_eq!(wins(&a), wins(&b));
    assert_eq!(a.mean_actions, b.mean_actions);
    assert_ne!(
        a.mean_actions, c.mean_actions,
        "another seed gives other games"
    );
    let total: f64 = a.seats.iter().map(|s| s.wins.wins).sum::<f64>() + a.capped as f64;
    assert!(
        (total - 200.0).abs() < 1e-6,
        "every game has a winner or is capped: {total}"
    );
    for s in &a.seats {
        assert!(s.wins.low <= s.wins.rate && s.wins.rate <= s.wins.high);
    }
}

#[test]
fn bigcheese_simulation_is_deterministic() {
    sim_is_deterministic::<bigcheese::BigCheese>();
}

#[test]
fn dalmuti_simulation_is_deterministic() {
    sim_is_deterministic::<dalmuti::Dalmuti>();
}

#[test]
fn records_round_trip_through_json() {
    let mut options = bigcheese::Options::default();
    options.set("dice", "d6").unwrap();
    let mut r = Record::new::<bigcheese::BigCheese>(&options, 3, u64::MAX);
    r.actions.push("P1 pass".into());
    let dir = temp_dir("json");
    let path = dir.join("r.json");
    records::write(&path, &r).unwrap();
    let back = records::read(&path).unwrap();
    assert_eq!(back, r);
    assert_eq!(back.options::<bigcheese::BigCheese>().unwrap(), options);
    std::fs::remove_dir_all(&dir).ok();
}

/// The real binary, as a person runs it.
mod binary {
    use std::io::Write;
    use std::process::{Command, Output, Stdio};

    fn ratrace(args: &[&str], stdin: &str) -> Output {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ratrace"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    }

    fn text(b: &[u8]) -> String {
        String::from_utf8_lossy(b).into_owned()
    }

    #[test]
    fn bad_input_gets_a_clear_error_and_exit_code_2() {
        let cases: &[(&[&str], &str)] = &[
            (&["play", "chess"], "unknown game `chess`"),
            (
                &["simulate", "bigcheese", "--players", "9", "--games", "1"],
                "3 to 6 players",
            ),
            (
                &[
                    "simulate",
                    "dalmuti",
                    "--option",
                    "nonsense=1",
                    "--games",
                    "1",
                ],
                "unknown option `nonsense`",
            ),
            (
                &["simulate", "bigcheese", "--option", "dice", "--games", "1"],
                "key=value",
            ),
            (
                &["simulate", "bigcheese", "--bots", "genius", "--games", "1"],
                "unknown bot `genius`",
            ),
            (
                &["replay", "/nonexistent/record.json"],
                "/nonexistent/record.json",
            ),
            // No games used to print 0% win rates and exit 0.
            (
                &["simulate", "bigcheese", "--games", "0"],
                "--games must be at least 1",
            ),
        ];
        for (args, want) in cases {
            let out = ratrace(args, "");
            assert_eq!(
                out.status.code(),
                Some(2),
                "{args:?}: {}",
                text(&out.stderr)
            );
            assert!(
                text(&out.stderr).contains(want),
                "{args:?}: {}",
                text(&out.stderr)
            );
            assert!(!text(&out.stderr).contains("panicked"), "{args:?}");
        }
    }

    #[test]
    fn play_quit_and_replay_through_the_binary() {
        let dir = super::temp_dir("bin");
        let record = dir.join("g.json");
        let r = record.to_str().unwrap();
        let out = ratrace(
            &["play", "bigcheese", "--seed", "3", "--record", r],
            "bid 99\nquit\n",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(stdout.contains("Game record saved to"), "{stdout}");
        let out = ratrace(&["replay", r], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("bigcheese"));
        // Ctrl-D (end of input) also leaves cleanly.
        let out = ratrace(&["play", "dalmuti", "--seed", "3", "--record", r], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        std::fs::remove_dir_all(&dir).ok();
    }

    /// `ratrace verify`: an honest finished record verifies; a forged score, a
    /// truncated record with a forged outcome and one with none are refused
    /// (exit 1) with the mismatch in words (a forged record never verifies). A
    /// local game's record, which commits to no seed, is unverifiable (exit 3)
    /// unless `--allow-uncommitted`.
    #[test]
    fn verify_accepts_an_honest_record_and_refuses_forgeries() {
        let dir = super::temp_dir("verify");
        let (_, _, path) = super::play_scripted::<bigcheese::BigCheese>(4, 5, &dir);
        let local = cli::records::read(&path).unwrap();
        let p = path.to_str().unwrap();
        let out = ratrace(&["verify", p], "");
        assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
        assert!(text(&out.stdout).contains("outcome matches the replay"));
        assert!(
            text(&out.stderr).contains("no commitment"),
            "{}",
            text(&out.stderr)
        );
        assert!(!text(&out.stdout).contains("verified:"));
        let out = ratrace(&["verify", "--allow-uncommitted", p], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("unverifiable, allowed"));

        // A bare hash of its seed proves nothing (anyone can hash a seed
        // after the game): still unverifiable, though the hash is checked.
        let mut honest = local.clone();
        honest.seed_hash = Some(registry::fair::sha256_hex(&honest.seed.to_string()));
        let committed = dir.join("committed.json");
        cli::records::write(&committed, &honest).unwrap();
        let out = ratrace(&["verify", committed.to_str().unwrap()], "");
        assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
        assert!(
            text(&out.stderr).contains("bare seed_hash"),
            "{}",
            text(&out.stderr)
        );
        assert!(text(&out.stdout).contains("matches the published hash"));
        let o = honest.outcome.clone().expect("a finished game");

        let check = |r: &game::Record, want: &str| {
            let f = dir.join("forged.json");
            cli::records::write(&f, r).unwrap();
            let out = ratrace(&["verify", f.to_str().unwrap()], "");
            assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
            assert!(text(&out.stderr).contains(want), "{}", text(&out.stderr));
        };
        let mut score = honest.clone();
        score.outcome.as_mut().unwrap().scores[0] = 99;
        check(
            &score,
            &format!("score of P1: record says 99, replay gives {}", o.scores[0]),
        );
        let mut cut = honest.clone();
        cut.actions.truncate(40);
        cut.outcome = Some(game::Outcome {
            winners: vec![game::Seat::new(0)],
            places: vec![1, 2, 2, 2],
            scores: vec![99, 0, 0, 0],
            capped: true,
        });
        check(&cut, "the game is not over after 40 actions");
        cut.outcome = None;
        check(&cut, "the game is not over after 40 actions");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// `ratrace verify` on a fair-deal record lists each player's
    /// contribution; a changed contribution is refused.
    #[test]
    fn verify_shows_each_contribution_of_a_fair_deal() {
        use bigcheese::BigCheese;
        use game::{Game, Record};
        use registry::fair;
        let secret = fair::new_secret();
        let mut cs = std::collections::BTreeMap::new();
        let (a, b) = (
            fair::hex(&fair::new_secret()),
            fair::hex(&fair::new_secret()),
        );
        fair::contribute(&mut cs, game::Seat::new(0), &a).unwrap();
        fair::contribute(&mut cs, game::Seat::new(2), &b).unwrap();
        let seed = fair::seed(fair::Binding::Table("tbl"), &secret, &cs);
        let options = Default::default();
        let mut g = BigCheese::new_seeded(&options, 3, &seed).unwrap();
        let mut r = Record::new::<BigCheese>(&options, 3, seed);
        let mut bot = <BigCheese as bots::Roster>::bot("heuristic", 1).unwrap();
        let mut legal = Vec::new();
        while let Some(seat) = g.to_move() {
            g.legal_actions(&mut legal);
            let action = bot.choose(&g.view(seat), &legal);
            g.apply(action).unwrap();
            r.push::<BigCheese>(seat, action);
        }
        r.outcome = g.outcome();
        r.fairness = Some(fair::fairness(
            fair::Binding::Table("tbl"),
            &secret,
            &cs,
            true,
        ));
        let dir = super::temp_dir("fair");
        let f = dir.join("fair.json");
        cli::records::write(&f, &r).unwrap();
        let out = ratrace(&["verify", f.to_str().unwrap()], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        for want in [
            format!("P1's contribution {a} went into the seed"),
            format!("P3's contribution {b} went into the seed"),
            "matches its published commitment".to_string(),
        ] {
            assert!(stdout.contains(&want), "{want} in {stdout}");
        }
        r.fairness.as_mut().unwrap().contributions[1].value = a;
        cli::records::write(&f, &r).unwrap();
        let out = ratrace(&["verify", f.to_str().unwrap()], "");
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stderr).contains("the secret and the contributions give"),
            "{}",
            text(&out.stderr)
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    /// `ratrace verify` on a signed (version 3) record: verified only with
    /// the server's key given as `--key`; without it, or with another
    /// key, unverifiable (exit 3); a key that is no key, a usage error.
    #[test]
    fn verify_trusts_only_the_keys_it_is_given() {
        use bigcheese::BigCheese;
        use game::{Game, Record};
        use registry::fair;
        let secret = fair::new_secret();
        let mut cs = std::collections::BTreeMap::new();
        fair::contribute(&mut cs, game::Seat::new(0), &fair::hex(&fair::new_secret())).unwrap();
        let seed = fair::seed(fair::Binding::Signed("tbl"), &secret, &cs);
        let options = Default::default();
        let mut g = BigCheese::new_seeded(&options, 3, &seed).unwrap();
        let mut r = Record::new::<BigCheese>(&options, 3, seed);
        let mut bot = <BigCheese as bots::Roster>::bot("heuristic", 1).unwrap();
        let mut legal = Vec::new();
        while let Some(seat) = g.to_move() {
            g.legal_actions(&mut legal);
            let action = bot.choose(&g.view(seat), &legal);
            g.apply(action).unwrap();
            r.push::<BigCheese>(seat, action);
        }
        r.outcome = g.outcome();
        let mut f = fair::fairness(fair::Binding::Signed("tbl"), &secret, &cs, true);
        let key = registry::signed::Key::from_secret(&[5; 32]);
        key.sign(&mut f);
        r.fairness = Some(f);
        let dir = super::temp_dir("signed");
        let path = dir.join("signed.json");
        cli::records::write(&path, &r).unwrap();
        let p = path.to_str().unwrap();
        let mine = key.public_hex();
        let other = registry::signed::Key::from_secret(&[6; 32]).public_hex();
        let out = ratrace(&["verify", p, "--key", &mine], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("signed by the trusted server key"));
        for args in [vec!["verify", p], vec!["verify", p, "--key", &other]] {
            let out = ratrace(&args, "");
            assert_eq!(
                out.status.code(),
                Some(3),
                "{args:?}: {}",
                text(&out.stdout)
            );
            assert!(text(&out.stderr).contains(&mine), "{}", text(&out.stderr));
        }
        let out = ratrace(&["verify", p, "--key", "not-a-key"], "");
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A `--passkey-origin` that is no site's origin is refused before
    /// anything is opened: no database file is made.
    #[test]
    fn serve_refuses_a_passkey_origin_that_is_no_site() {
        let dir = super::temp_dir("passkey-origin");
        let db = dir.join("t.db");
        for origin in ["not a url", "mailto:x@example.org"] {
            let out = ratrace(
                &[
                    "serve",
                    "--addr",
                    "127.0.0.1:1",
                    "--db",
                    db.to_str().unwrap(),
                    "--passkey-origin",
                    origin,
                ],
                "",
            );
            assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
            assert!(
                text(&out.stderr).contains("--passkey-origin"),
                "{}",
                text(&out.stderr)
            );
            assert!(!db.exists(), "nothing was opened");
        }
    }

    /// A server run as root runs its bot programs as nobody; as root only
    /// when told so explicitly (`--bot-allow-root`): `--bot-user root`
    /// alone is refused at start-up, before it listens, saying why. A
    /// program its user cannot read is refused too. `--print-key` gives
    /// the site's key, the same each time for one database.
    #[test]
    fn serve_refuses_to_run_bot_programs_as_root_without_leave() {
        let dir = super::temp_dir("bot-user");
        let db = dir.join("t.db");
        let db = db.to_str().unwrap();
        let serve = |extra: &[&str]| {
            let mut args = vec![
                "serve",
                "--addr",
                "127.0.0.1:1",
                "--db",
                db,
                "--bot",
                "x=true",
            ];
            args.extend(extra);
            ratrace(&args, "")
        };
        let root = text(&Command::new("id").arg("-u").output().unwrap().stdout).trim() == "0";
        if root {
            let out = serve(&["--bot-user", "root"]);
            assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
            assert!(
                text(&out.stderr).contains("--bot-allow-root"),
                "{}",
                text(&out.stderr)
            );
            // A program under a folder only root may enter.
            let hidden = dir.join("private");
            std::fs::create_dir_all(&hidden).unwrap();
            std::fs::write(hidden.join("bot.py"), "").unwrap();
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&hidden, std::fs::Permissions::from_mode(0o700)).unwrap();
            }
            let bot = format!("hidden=python3 {}", hidden.join("bot.py").display());
            let out = ratrace(
                &["serve", "--addr", "127.0.0.1:1", "--db", db, "--bot", &bot],
                "",
            );
            assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
            assert!(
                text(&out.stderr).contains("cannot be read"),
                "{}",
                text(&out.stderr)
            );
        } else {
            let out = serve(&["--bot-user", "root"]);
            assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        }
        let key = |_| text(&ratrace(&["serve", "--db", db, "--print-key"], "").stdout);
        let (a, b) = (key(1), key(2));
        assert_eq!(a.trim().len(), 64, "{a}");
        assert_eq!(a, b, "one site, one key");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_closed_output_pipe_ends_quietly() {
        use std::io::Read;
        // A whole Dalmuti session replays to more than a pipe holds (64 KiB).
        let dir = super::temp_dir("pipe");
        let (_, _, record) = super::play_scripted::<dalmuti::Dalmuti>(5, 3, &dir);
        let full =
            cli::records::play_by_play(&cli::records::read(&record).unwrap(), false).unwrap();
        assert!(full.len() > 80 * 1024, "only {} bytes", full.len());
        // `ratrace replay FILE | head -c 10`: the reader goes away early.
        let mut child = Command::new(env!("CARGO_BIN_EXE_ratrace"))
            .arg("replay")
            .arg(&record)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 10];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            !text(&out.stderr).contains("panicked"),
            "{}",
            text(&out.stderr)
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn simulate_json_is_machine_readable() {
        let out = ratrace(
            &[
                "simulate",
                "dalmuti",
                "--games",
                "20",
                "--option",
                "hands=2",
                "--json",
                "--threads",
                "2",
            ],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["games"], 20);
        assert_eq!(v["seats"].as_array().unwrap().len(), 5);
    }

    #[test]
    fn scenario_command_exits_nonzero_on_failure() {
        let dir = super::temp_dir("scen");
        let f = dir.join("bad.scen");
        std::fs::write(&f, "game dalmuti\nexpect over\n").unwrap();
        let out = ratrace(&["scenario", f.to_str().unwrap()], "");
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stderr).contains("bad.scen:2:"),
            "{}",
            text(&out.stderr)
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
