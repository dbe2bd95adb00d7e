//! The browser protocol's committed JSON Schemas (docs/protocol/web/) are
//! the ones its types generate (`server::protocol::schemas`): a change to
//! a message that is not regenerated fails here, with the command that
//! regenerates them. What real pages receive is checked against them by
//! the browser tests (e2e/helpers.mjs, `checkFrames`).

use std::path::PathBuf;

const REGENERATE: &str = "RATRACE_WRITE_SCHEMAS=1 cargo test -p server --test tests schemas";

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/protocol")
}

#[test]
fn web_schemas_are_up_to_date() {
    let write = std::env::var_os("RATRACE_WRITE_SCHEMAS").is_some();
    let mut stale = Vec::new();
    for (path, schema) in server::protocol::schemas() {
        let file = dir().join(&path);
        let mut want = serde_json::to_string_pretty(&schema).unwrap();
        want.push('\n');
        if write {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, &want).unwrap();
        } else if std::fs::read_to_string(&file).ok().as_deref() != Some(want.as_str()) {
            stale.push(path);
        }
    }
    assert!(
        stale.is_empty(),
        "docs/protocol/web/ differs from the generated schemas ({}); regenerate with `{REGENERATE}`",
        stale.join(", ")
    );
    let mut known: Vec<String> = server::protocol::schemas()
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    known.sort();
    let mut found: Vec<String> = std::fs::read_dir(dir().join("web"))
        .unwrap()
        .map(|e| format!("web/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    found.sort();
    assert_eq!(
        found, known,
        "docs/protocol/web/ has files no type generates"
    );
}

/// The schemas say what a client must know: every server message type,
/// and the fields a `state` and an `update` share.
#[test]
fn the_web_schemas_name_every_message() {
    let all = server::protocol::schemas();
    let text = |path: &str| {
        serde_json::to_string(&all.iter().find(|(p, _)| p == path).unwrap().1).unwrap()
    };
    let to_client = text("web/to-client.json");
    for kind in [
        "state", "update", "error", "pong", "presence", "chat", "rematch", "stand_in", "notice",
    ] {
        assert!(
            to_client.contains(&format!("\"const\":\"{kind}\"")),
            "{kind}"
        );
    }
    for field in [
        "\"seq\"",
        "\"legal\"",
        "\"log_from\"",
        "\"patch\"",
        "\"turn_left_ms\"",
    ] {
        assert!(to_client.contains(field), "{field}");
    }
    let from_client = text("web/from-client.json");
    for kind in ["hello", "act", "chat", "resync", "concede", "ping"] {
        assert!(
            from_client.contains(&format!("\"const\":\"{kind}\"")),
            "{kind}"
        );
    }
}
