//! The server's layers, checked: every source file of `crates/server/src`
//! belongs to a floor ([`FLOORS`], the order `lib.rs` and docs/server.md
//! "Shape" describe), an import may only point to its own floor or one
//! below, and no files import each other in a circle. A new file must be
//! given a floor here, so the order is a decision, never an accident.
//!
//! Imports are read from the text: `use crate::…`, `use super::…`, a
//! module's `use child::…`, and paths `crate::a::b` written inline, each
//! resolved to the file that defines the longest module path it names.
//! Comments and `#[cfg(test)] mod tests` blocks are left out (a unit test
//! may use anything of its own file).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The floors, top first. A path ending in `/` is a whole folder.
const FLOORS: &[(&str, &[&str])] = &[
    (
        "the crate root: the router and the accept loops",
        &["lib.rs"],
    ),
    (
        "faces: HTTP handlers, the WebSocket, static files, background tasks",
        &[
            "analysis/mod.rs",
            "ops.rs",
            "lobby/",
            "pairing/",
            "friends/",
            "rooms/",
            "passkeys/",
            "tournaments/",
            "ws/",
            "web.rs",
            "web/",
            "cluster/",
        ],
    ),
    ("connections: the accept loop and its caps", &["net.rs"]),
    (
        "the shared state, what it holds and its life (opening it, the cluster's heartbeats and take-overs)",
        &["state/"],
    ),
    (
        "tables",
        &["table/"],
    ),
    (
        "the wire, the people and the bots",
        &[
            "protocol.rs",
            "tournament_wire.rs",
            "patch.rs",
            "social.rs",
            "extbots.rs",
            "names.rs",
        ],
    ),
    ("accounting", &["metrics.rs", "quota.rs", "error.rs"]),
    ("the store", &["store/"]),
    (
        "ground: plain data and helpers that import nothing of the server",
        &["clock.rs", "ids.rs", "limits.rs", "addr.rs"],
    ),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn sources(dir: &Path, root: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap();
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The module path of a file: `table/mod.rs` is `table`, `lib.rs` none.
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// A file's floor: where it is named itself, else where its folder is.
fn floor_of(file: &str) -> Option<usize> {
    let named = |exact: bool| {
        FLOORS.iter().position(|(_, members)| {
            members.iter().any(|m| {
                if exact {
                    *m == file
                } else {
                    m.ends_with('/') && file.starts_with(m)
                }
            })
        })
    };
    named(true).or_else(|| named(false))
}

/// The code of a file without comments and without its unit tests.
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = match line.find("//") {
            // `//` inside a string (a URL) is rare in these files; a line
            // is cut at its first `//`.
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    match out.find("#[cfg(test)]\nmod tests {") {
        Some(i) => out[..i].to_string(),
        None => out,
    }
}

/// Every path a `use` tree names, e.g. `a::{b, c::{d}}` is `a::b`, `a::c::d`.
fn expand(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head: Vec<String> = tree[..open]
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let mut base = prefix.to_vec();
        base.extend(head);
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&base, &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(&base, &inner[start..], out);
    } else if !tree.is_empty() {
        let mut path = prefix.to_vec();
        let tree = tree.split(" as ").next().unwrap_or(tree);
        path.extend(
            tree.split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty() && *s != "self" && *s != "*")
                .map(str::to_string),
        );
        out.push(path);
    }
}

struct Graph {
    files: Vec<String>,
    by_module: BTreeMap<Vec<String>, String>,
    edges: BTreeMap<String, BTreeSet<String>>,
}

impl Graph {
    fn read() -> Graph {
        let root = src();
        let mut files = Vec::new();
        sources(&root, &root, &mut files);
        files.sort();
        let by_module = files.iter().map(|f| (module_of(f), f.clone())).collect();
        let mut graph = Graph {
            files,
            by_module,
            edges: BTreeMap::new(),
        };
        for file in graph.files.clone() {
            let text = std::fs::read_to_string(root.join(&file)).unwrap();
            let targets = graph.imports(&file, &code(&text));
            graph.edges.insert(file, targets);
        }
        graph
    }

    /// The file that defines the longest module prefix of `path`.
    fn resolve(&self, path: &[String]) -> String {
        (0..=path.len())
            .rev()
            .find_map(|n| self.by_module.get(&path[..n]).cloned())
            .unwrap_or_else(|| "lib.rs".to_string())
    }

    fn imports(&self, file: &str, code: &str) -> BTreeSet<String> {
        let me = module_of(file);
        let parent = me[..me.len().saturating_sub(1)].to_vec();
        let mut paths = Vec::new();
        // `use` statements, which may span lines.
        for stmt in code.split(';') {
            let stmt = stmt.trim_start();
            let stmt = stmt
                .strip_prefix("pub(crate) ")
                .or_else(|| stmt.strip_prefix("pub(super) "))
                .or_else(|| stmt.strip_prefix("pub "))
                .unwrap_or(stmt);
            let Some(tree) = stmt.strip_prefix("use ") else {
                continue;
            };
            let tree = tree.trim();
            if let Some(rest) = tree.strip_prefix("crate::") {
                expand(&[], rest, &mut paths);
            } else if let Some(rest) = tree.strip_prefix("super::") {
                expand(&parent, rest, &mut paths);
            } else if let Some((head, _)) = tree.split_once("::") {
                // `use child::…` in a folder's mod.rs
                let mut child = me.clone();
                child.push(head.trim().to_string());
                if self.by_module.contains_key(&child) {
                    expand(&me, tree, &mut paths);
                }
            }
        }
        // Inline paths: `crate::a::b(…)`, `super::x::y`.
        for (marker, base) in [("crate::", Vec::new()), ("super::", parent.clone())] {
            let mut rest = code;
            while let Some(i) = rest.find(marker) {
                let before = rest[..i].chars().next_back();
                rest = &rest[i + marker.len()..];
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .unwrap_or(rest.len());
                if end == 0 {
                    // `crate::{…}`: a `use` tree, read above.
                    continue;
                }
                let mut path = base.clone();
                path.extend(
                    rest[..end]
                        .split("::")
                        .filter(|s| !s.is_empty())
                        .map(str::to_string),
                );
                paths.push(path);
            }
        }
        paths
            .iter()
            .map(|p| self.resolve(p))
            .filter(|target| target != file)
            .collect()
    }

    /// Files that import each other in a circle (each circle once, as the
    /// set of its files).
    fn circles(&self) -> Vec<BTreeSet<String>> {
        // Tarjan's strongly connected components, iterative enough for a
        // few dozen files.
        struct T<'a> {
            g: &'a Graph,
            index: BTreeMap<&'a str, usize>,
            low: BTreeMap<&'a str, usize>,
            stack: Vec<&'a str>,
            on: BTreeSet<&'a str>,
            out: Vec<BTreeSet<String>>,
        }
        fn visit<'a>(t: &mut T<'a>, v: &'a str) {
            let n = t.index.len();
            t.index.insert(v, n);
            t.low.insert(v, n);
            t.stack.push(v);
            t.on.insert(v);
            let g = t.g;
            for w in g.edges.get(v).into_iter().flatten() {
                if !t.index.contains_key(w.as_str()) {
                    visit(t, w);
                    let low = t.low[w.as_str()].min(t.low[v]);
                    t.low.insert(v, low);
                } else if t.on.contains(w.as_str()) {
                    let low = t.index[w.as_str()].min(t.low[v]);
                    t.low.insert(v, low);
                }
            }
            if t.low[v] == t.index[v] {
                let mut set = BTreeSet::new();
                while let Some(w) = t.stack.pop() {
                    t.on.remove(w);
                    set.insert(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if set.len() > 1 {
                    t.out.push(set);
                }
            }
        }
        let mut t = T {
            g: self,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            on: BTreeSet::new(),
            out: Vec::new(),
        };
        for f in &self.files {
            if !t.index.contains_key(f.as_str()) {
                visit(&mut t, f);
            }
        }
        t.out
    }
}

#[test]
fn every_server_file_has_a_floor_and_imports_only_downwards() {
    let graph = Graph::read();
    assert!(graph.files.len() > 20, "read {:?}", graph.files);
    let mut wrong = Vec::new();
    for file in &graph.files {
        let Some(floor) = floor_of(file) else {
            wrong.push(format!("{file}: no floor (add it to FLOORS)"));
            continue;
        };
        for target in &graph.edges[file] {
            let to = floor_of(target).unwrap_or(0);
            if to < floor {
                wrong.push(format!(
                    "{file} ({}) imports {target} ({}), a floor above",
                    FLOORS[floor].0, FLOORS[to].0
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "layer order broken:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_server_files_import_each_other_in_a_circle() {
    let circles = Graph::read().circles();
    assert!(circles.is_empty(), "import circles: {circles:?}");
}

/// The checker sees what it must: a planted upward import and a planted
/// circle are both found.
#[test]
fn the_layer_check_catches_an_upward_import_and_a_circle() {
    let mut graph = Graph::read();
    let planted = graph.imports(
        "store/model.rs",
        "use crate::table::{Command, TableHandle};\n",
    );
    assert_eq!(planted, BTreeSet::from(["table/mod.rs".to_string()]));
    let inline = graph.imports("clock.rs", "fn f() { crate::state::AppState::x() }\n");
    assert_eq!(inline, BTreeSet::from(["state/mod.rs".to_string()]));
    let child = graph.imports("table/mod.rs", "pub use outbox::{Kick, Outbox};\n");
    assert_eq!(child, BTreeSet::from(["table/outbox.rs".to_string()]));
    assert!(floor_of("store/model.rs") > floor_of("table/mod.rs"));
    graph
        .edges
        .get_mut("clock.rs")
        .unwrap()
        .insert("ids.rs".to_string());
    graph
        .edges
        .get_mut("ids.rs")
        .unwrap()
        .insert("clock.rs".to_string());
    let circles = graph.circles();
    assert_eq!(
        circles,
        vec![BTreeSet::from([
            "clock.rs".to_string(),
            "ids.rs".to_string()
        ])]
    );
}
