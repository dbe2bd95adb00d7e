//! What changed between two JSON texts, as an RFC 6902 JSON Patch: the
//! `patch` of an `update` message turns the view a connection had into
//! the new one (send what changed, not the whole view again).
//!
//! A standard patch, not a home-made format, so that a client in any
//! language can apply it with its own JSON Patch library; the web
//! client's (`applyPatch` in `web/patch.js`) is short because the patches
//! made here use three operations only: `add` (a new member, or `-` to append to an
//! array), `replace` and `remove`.
//!
//! The diff works on the JSON text, not on a parsed tree, and in one
//! pass per level: a level is split into its members' text spans (a plain
//! scanner: the text is serde's own output, so it needs no validation),
//! equal members are compared as text and skipped, and only the ones that
//! differ are opened further. Objects are compared member by member,
//! arrays of the same length element by element, an array that grew by
//! appending gets `add`s at its end, and anything else is replaced whole.
//! A level that does not split as expected (a key with an escape in it,
//! text that is not JSON) is replaced whole too, so the patch is always
//! right, at worst larger.

/// The JSON Patch (a JSON array of operations, as text) that turns the
/// JSON text `old` into the JSON text `new`; `[]` when they are equal.
/// Both must be JSON (what serde writes); a whole-document `replace` is
/// the answer for anything the scanner does not follow.
pub fn diff(old: &str, new: &str) -> String {
    diff_with(old, new, None)
}

/// [`diff`], reusing `shared` wherever a part of the documents is exactly
/// its two texts: every seat's view holds the same public view, whose
/// diff a broadcast makes once for all of them.
pub fn diff_with(old: &str, new: &str, shared: Option<&Shared>) -> String {
    let mut out = Out {
        text: String::with_capacity(128),
        paths: Vec::new(),
        shared,
    };
    out.text.push('[');
    let mut path = String::new();
    value(&mut path, old.trim(), new.trim(), &mut out);
    out.text.push(']');
    out.text
}

/// A diff made once and reused inside others (see [`diff_with`]).
#[derive(Debug, Default)]
pub struct Shared {
    old: String,
    new: String,
    /// The operations, comma-separated, with paths from the part's root.
    ops: String,
    /// Where each operation's path begins in `ops`.
    paths: Vec<usize>,
}

impl Shared {
    /// The diff from `old` to `new`, to reuse.
    pub fn new(old: String, new: String) -> Shared {
        let trimmed = |t: String| {
            if t.trim().len() == t.len() {
                t
            } else {
                t.trim().to_string()
            }
        };
        let (old, new) = (trimmed(old), trimmed(new));
        let mut out = Out {
            text: String::new(),
            paths: Vec::new(),
            shared: None,
        };
        let mut path = String::new();
        value(&mut path, &old, &new, &mut out);
        Shared {
            old,
            new,
            ops: out.text,
            paths: out.paths,
        }
    }

    /// The newer text.
    pub fn new_text(&self) -> &str {
        &self.new
    }

    /// Takes the newer text back.
    pub fn into_new(self) -> String {
        self.new
    }

    /// Appends the operations with `prefix` before each path.
    fn emit(&self, prefix: &str, out: &mut Out<'_>) {
        if self.ops.is_empty() {
            return;
        }
        if !out.paths.is_empty() {
            out.text.push(',');
        }
        let mut from = 0;
        for &at in &self.paths {
            out.text.push_str(&self.ops[from..at]);
            out.paths.push(out.text.len());
            out.text.push_str(prefix);
            from = at;
        }
        out.text.push_str(&self.ops[from..]);
    }
}

/// A patch being written.
struct Out<'a> {
    text: String,
    /// Where each operation's path begins in `text` (so also how many
    /// operations there are).
    paths: Vec<usize>,
    shared: Option<&'a Shared>,
}

/// Appends the operations that turn `old` into `new` at `path`.
fn value(path: &mut String, old: &str, new: &str, out: &mut Out<'_>) {
    if old == new {
        return;
    }
    if let Some(s) = out.shared.filter(|s| s.old == old && s.new == new) {
        return s.emit(path, out);
    }
    let done = match (old.as_bytes().first(), new.as_bytes().first()) {
        (Some(b'{'), Some(b'{')) => object(path, old, new, out),
        (Some(b'['), Some(b'[')) => array(path, old, new, out),
        _ => false,
    };
    if !done {
        op(out, "replace", path, Some(new));
    }
}

/// Member by member; `false` if either side does not split.
fn object(path: &mut String, old: &str, new: &str, out: &mut Out<'_>) -> bool {
    let (Some(o), Some(n)) = (members(old, out.shared), members(new, out.shared)) else {
        return false;
    };
    let at = path.len();
    for (i, (key, old_value)) in o.iter().enumerate() {
        push_key(path, key);
        // Serde writes a struct's fields in one order: the same position
        // is almost always the same key.
        let found = match n.get(i) {
            Some((k, v)) if k == key => Some(*v),
            _ => n.iter().find(|(k, _)| k == key).map(|(_, v)| *v),
        };
        match found {
            Some(new_value) => value(path, old_value, new_value, out),
            None => op(out, "remove", path, None),
        }
        path.truncate(at);
    }
    for (i, (key, new_value)) in n.iter().enumerate() {
        let known = match o.get(i) {
            Some((k, _)) if k == key => true,
            _ => o.iter().any(|(k, _)| k == key),
        };
        if !known {
            push_key(path, key);
            op(out, "add", path, Some(new_value));
            path.truncate(at);
        }
    }
    true
}

/// Element by element when the length is the same, appends when the old
/// array is the new one's beginning; `false` otherwise (replaced whole).
fn array(path: &mut String, old: &str, new: &str, out: &mut Out<'_>) -> bool {
    let (Some(o), Some(n)) = (elements(old), elements(new)) else {
        return false;
    };
    let at = path.len();
    if o.len() == n.len() {
        for (i, (a, b)) in o.iter().zip(&n).enumerate() {
            push_index(path, i);
            value(path, a, b, out);
            path.truncate(at);
        }
        return true;
    }
    let grown = n.len() > o.len() && o.iter().zip(&n).all(|(a, b)| a == b);
    if grown {
        path.push_str("/-");
        for b in &n[o.len()..] {
            op(out, "add", path, Some(b));
        }
        path.truncate(at);
    }
    grown
}

/// An object's members: each key (the text between its quotes, which
/// holds no escape) and its value's text. `None` if `text` is not one
/// object or a key has an escape. A member whose text begins with one of
/// `known`'s two texts is that text (a JSON object or array ends where its
/// brackets close), found with one comparison instead of a scan.
fn members<'t>(text: &'t str, known: Option<&Shared>) -> Option<Vec<(&'t str, &'t str)>> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(8);
    let skip = |at: usize| -> Option<usize> {
        let rest = text.get(at..)?;
        let whole = |k: &str| {
            (matches!(k.as_bytes().first(), Some(b'{' | b'[')) && rest.starts_with(k))
                .then_some(at + k.len())
        };
        known
            .and_then(|s| whole(&s.new).or_else(|| whole(&s.old)))
            .or_else(|| value_end(b, at))
    };
    let mut i = ws(b, 1);
    if b.get(i) == Some(&b'}') {
        return (ws(b, i + 1) == b.len()).then_some(out);
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let end = string_end(b, i)?;
        let key = &text[i + 1..end - 1];
        if key.contains('\\') {
            return None;
        }
        i = ws(b, end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let start = ws(b, i + 1);
        let stop = skip(start)?;
        out.push((key, &text[start..stop]));
        i = ws(b, stop);
        match b.get(i) {
            Some(b',') => i = ws(b, i + 1),
            Some(b'}') if ws(b, i + 1) == b.len() => return Some(out),
            _ => return None,
        }
    }
}

/// An array's elements' texts; `None` if `text` is not one array.
fn elements(text: &str) -> Option<Vec<&str>> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(8);
    let mut i = ws(b, 1);
    if b.get(i) == Some(&b']') {
        return (ws(b, i + 1) == b.len()).then_some(out);
    }
    loop {
        let stop = value_end(b, i)?;
        out.push(&text[i..stop]);
        i = ws(b, stop);
        match b.get(i) {
            Some(b',') => i = ws(b, i + 1),
            Some(b']') if ws(b, i + 1) == b.len() => return Some(out),
            _ => return None,
        }
    }
}

/// The first index at or after `i` that is not JSON whitespace.
fn ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
        i += 1;
    }
    i
}

/// The index just past the string that opens at `i`.
fn string_end(b: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    loop {
        match b.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// The index just past the value that starts at `i`.
fn value_end(b: &[u8], mut i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            loop {
                match b.get(i)? {
                    b'"' => {
                        i = string_end(b, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let start = i;
            while !matches!(
                b.get(i),
                None | Some(b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t')
            ) {
                i += 1;
            }
            (i > start).then_some(i)
        }
    }
}

/// Appends `/key` to a JSON Pointer (RFC 6901: `~` is `~0`, `/` is `~1`).
fn push_key(path: &mut String, key: &str) {
    path.push('/');
    for c in key.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

fn push_index(path: &mut String, i: usize) {
    use std::fmt::Write;
    let _ = write!(path, "/{i}");
}

/// Appends one operation; `value` is JSON text. The path is made of keys
/// with no escape in them (see [`members`]), so it goes between quotes as
/// it is.
fn op(out: &mut Out<'_>, name: &str, path: &str, value: Option<&str>) {
    let t = &mut out.text;
    // Every operation records its path: any recorded means one came before.
    if !out.paths.is_empty() {
        t.push(',');
    }
    t.push_str(r#"{"op":""#);
    t.push_str(name);
    t.push_str(r#"","path":""#);
    out.paths.push(t.len());
    t.push_str(path);
    t.push('"');
    if let Some(v) = value {
        t.push_str(r#","value":"#);
        t.push_str(v);
    }
    t.push('}');
}

#[cfg(test)]
mod tests {
    use super::diff;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    /// Applies `patch` to `doc` with an independent implementation (the
    /// `json-patch` crate), so the patches are checked against the RFC,
    /// not against our own reading of it.
    fn apply(doc: &Value, patch: &str) -> Value {
        let patch: json_patch::Patch = serde_json::from_str(patch).unwrap();
        let mut doc = doc.clone();
        json_patch::patch(&mut doc, &patch).unwrap();
        doc
    }

    fn check(old: Value, new: Value) -> String {
        let p = diff(&old.to_string(), &new.to_string());
        assert_eq!(apply(&old, &p), new, "patch {p}");
        // Pretty text (with whitespace) gives the same operations.
        let pretty = diff(
            &serde_json::to_string_pretty(&old).unwrap(),
            &serde_json::to_string_pretty(&new).unwrap(),
        );
        assert_eq!(apply(&old, &pretty), new, "patch {pretty}");
        p
    }

    #[test]
    fn small_changes_make_small_patches() {
        let old = json!({"public": {"top": "10", "seats": [{"free": 10}, {"free": 10}], "discards": ["5"]}, "me": "P1"});
        let new = json!({"public": {"top": "12", "seats": [{"free": 10}, {"free": 7}], "discards": ["5", "6"]}, "me": "P1"});
        let p = check(old, new);
        assert_eq!(
            p,
            r#"[{"op":"add","path":"/public/discards/-","value":"6"},{"op":"replace","path":"/public/seats/1/free","value":7},{"op":"replace","path":"/public/top","value":"12"}]"#
        );
        assert_eq!(check(json!({"a": 1}), json!({"a": 1})), "[]");
    }

    #[test]
    fn members_come_and_go_and_kinds_change() {
        check(
            json!({"a": 1, "b": null}),
            json!({"b": {"c": []}, "d": "x"}),
        );
        check(json!({"a": [1, 2, 3]}), json!({"a": [1]}));
        check(json!({"a": [1, 2]}), json!({"a": [2, 1, 0]}));
        check(json!({"a/b": 1, "~": 2}), json!({"a/b": 2, "~": 3}));
        check(json!([1, 2]), json!({"a": 1}));
        check(json!({"k\\": 1, "l": 2}), json!({"k\\": 2, "l": 2}));
        check(json!({"a": "x\"]}"}), json!({"a": "x\"]}", "b": [{}, []]}));
        check(json!(3), json!("three"));
    }

    #[test]
    fn a_shared_part_is_diffed_once_and_reused_with_its_path() {
        let (old_p, new_p) = (
            json!({"top": "1", "seats": [1, 2]}),
            json!({"top": "2", "seats": [1, 3]}),
        );
        let shared = super::Shared::new(old_p.to_string(), new_p.to_string());
        for me in ["P1", "P2"] {
            let old = json!({"me": me, "public": old_p, "hand": "3 4"});
            let new = json!({"me": me, "public": new_p, "hand": "4"});
            let p = super::diff_with(&old.to_string(), &new.to_string(), Some(&shared));
            assert_eq!(apply(&old, &p), new, "{p}");
            assert!(p.contains(r#""path":"/public/seats/1""#), "{p}");
        }
        // A part that is not the shared one is diffed as usual.
        let other = json!({"public": {"top": "9"}});
        let p = super::diff_with(&json!({}).to_string(), &other.to_string(), Some(&shared));
        assert_eq!(apply(&json!({}), &p), other);
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (0i64..4).prop_map(Value::from),
            // Quotes and backslashes: escapes inside strings.
            "[a-c~/\"\\\\]{0,3}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-c/~\\\\]{1,2}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Whatever the two documents, applying the patch to the first
        /// gives the second.
        #[test]
        fn the_patch_turns_old_into_new(old in json_value(), new in json_value()) {
            let p = diff(&old.to_string(), &new.to_string());
            prop_assert_eq!(apply(&old, &p), new);
        }

        /// With a shared part (which may or may not be where it is
        /// expected), the patch is still exact.
        #[test]
        fn a_shared_part_never_makes_a_wrong_patch(
            a in json_value(), b in json_value(), x in json_value(), y in json_value(), swap: bool,
        ) {
            let shared = super::Shared::new(a.to_string(), b.to_string());
            let (pa, pb) = if swap { (b.clone(), a.clone()) } else { (a, b) };
            let old = json!({"me": x, "public": pa, "z": [1]});
            let new = json!({"me": y, "public": pb, "z": [1, 2]});
            let p = super::diff_with(&old.to_string(), &new.to_string(), Some(&shared));
            prop_assert_eq!(apply(&old, &p), new);
        }
    }
}
