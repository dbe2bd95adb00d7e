//! The committed JSON Schemas (docs/protocol/) are the ones the protocol's
//! types generate: a change to a view, an event, an action's notation or a
//! message that is not regenerated fails here, with the command that
//! regenerates them. What real games write is checked against these files
//! by crates/python/tests/test_schemas.py.

use extbot::schema::{self, SchemaFile};
use game::GameOptions;
use std::path::PathBuf;

/// Every schema file, as the code generates it.
fn generated() -> Vec<SchemaFile> {
    let mut files = vec![schema::from_bot()];
    files.extend(schema::game::<
        bigcheese::View,
        bigcheese::Event,
        bigcheese::Action,
    >("bigcheese", bigcheese::Options::info()));
    files.extend(
        schema::game::<dalmuti::View, dalmuti::Event, dalmuti::Action>(
            "dalmuti",
            dalmuti::Options::info(),
        ),
    );
    files
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/protocol")
}

const REGENERATE: &str = "RATRACE_WRITE_SCHEMAS=1 cargo test -p extbot --test schemas";

#[test]
fn schemas_are_up_to_date() {
    let write = std::env::var_os("RATRACE_WRITE_SCHEMAS").is_some();
    let mut stale = Vec::new();
    for f in generated() {
        let path = dir().join(&f.path);
        let want = f.text();
        if write {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &want).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(want.as_str()) {
            stale.push(f.path.clone());
        }
    }
    assert!(
        stale.is_empty(),
        "docs/protocol/ differs from the generated schemas ({}); regenerate with `{REGENERATE}`",
        stale.join(", ")
    );
}

#[test]
fn no_stray_schema_files() {
    let known: Vec<String> = generated().into_iter().map(|f| f.path).collect();
    let mut found = Vec::new();
    for entry in walk(&dir()) {
        let rel = entry
            .strip_prefix(dir())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        // (web/: the browser protocol's, the server's own test keeps them)
        if rel.ends_with(".json") && !known.contains(&rel) && !rel.starts_with("web/") {
            found.push(rel);
        }
    }
    assert!(
        found.is_empty(),
        "docs/protocol/ has files no type generates: {found:?}"
    );
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn the_schemas_say_what_a_bot_author_needs() {
    let files = generated();
    let text = |path: &str| files.iter().find(|f| f.path == path).unwrap().text();
    // The option names agree: the view's options have the `start` keys.
    let bc_view = text("bigcheese/view.json");
    for key in ["\"veto\"", "\"final_tie\"", "\"before-bid\"", "\"chance\""] {
        assert!(
            bc_view.contains(key),
            "{key} missing from bigcheese/view.json"
        );
    }
    assert!(!bc_view.contains("veto_before_bid") && !bc_view.contains("tie_by_chance"));
    // The Big Cheese view says `me`; Dalmuti's says `seat`.
    let me = files
        .iter()
        .find(|f| f.path == "bigcheese/view.json")
        .unwrap();
    assert!(me.schema.pointer("/properties/me").is_some());
    let d = files
        .iter()
        .find(|f| f.path == "dalmuti/view.json")
        .unwrap();
    assert!(d.schema.pointer("/properties/seat").is_some());
    // Every message to the bot is there, told apart by `type`.
    for game in ["bigcheese", "dalmuti"] {
        let t = text(&format!("{game}/to-bot.json"));
        for ty in ["start", "event", "act", "end", "quit"] {
            assert!(t.contains(&format!("\"const\": \"{ty}\"")), "{game}: {ty}");
        }
    }
}
