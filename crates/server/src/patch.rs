//! What changed between two JSON texts, as an RFC 6902 JSON Patch: the
//! `patch` of an `update` message turns the view a connection had into
//! the new one (issue 10, "send what changed").
//!
//! A standard patch, not a home-made format, so that a client in any
//! language can apply it with its own JSON Patch library; ours
//! (`web/common.js`) is a dozen lines because the patches made here use
//! three operations only: `add` (a new member, or `-` to append to an
//! array), `replace` and `remove`.
//!
//! The diff works on the JSON text, not on a parsed tree: each level is
//! split into borrowed raw members (`&RawValue`), equal members are
//! compared as text and skipped, and only the ones that differ are opened
//! further. Objects are compared member by member, arrays of the same
//! length element by element, an array that grew by appending gets `add`s
//! at its end, and anything else is replaced whole. Anything that does not
//! split (it cannot happen for text serde wrote) is replaced whole too, so
//! the patch is always right, at worst larger.

use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The JSON Patch (a JSON array of operations, as text) that turns the
/// JSON text `old` into the JSON text `new`; `[]` when they are equal.
pub fn diff(old: &str, new: &str) -> String {
    let mut out = String::from("[");
    let mut path = String::new();
    match (raw(old), raw(new)) {
        (Some(o), Some(n)) => value(&mut path, o, n, &mut out),
        _ => op(&mut out, "replace", "", Some(new)),
    }
    out.push(']');
    out
}

fn raw(text: &str) -> Option<&RawValue> {
    serde_json::from_str(text).ok()
}

/// Appends the operations that turn `old` into `new` at `path`.
fn value(path: &mut String, old: &RawValue, new: &RawValue, out: &mut String) {
    let (o, n) = (old.get(), new.get());
    if o == n {
        return;
    }
    let done = match (o.as_bytes().first(), n.as_bytes().first()) {
        (Some(b'{'), Some(b'{')) => object(path, o, n, out),
        (Some(b'['), Some(b'[')) => array(path, o, n, out),
        _ => false,
    };
    if !done {
        op(out, "replace", path, Some(n));
    }
}

/// Member by member; `false` if either side does not split.
fn object(path: &mut String, old: &str, new: &str, out: &mut String) -> bool {
    type Members<'a> = BTreeMap<&'a str, &'a RawValue>;
    let (Ok(o), Ok(n)) = (
        serde_json::from_str::<Members<'_>>(old),
        serde_json::from_str::<Members<'_>>(new),
    ) else {
        return false;
    };
    let at = path.len();
    for (key, old_value) in &o {
        push_key(path, key);
        match n.get(key) {
            Some(new_value) => value(path, old_value, new_value, out),
            None => op(out, "remove", path, None),
        }
        path.truncate(at);
    }
    for (key, new_value) in &n {
        if !o.contains_key(key) {
            push_key(path, key);
            op(out, "add", path, Some(new_value.get()));
            path.truncate(at);
        }
    }
    true
}

/// Element by element when the length is the same, appends when the old
/// array is the new one's beginning; `false` otherwise (replaced whole).
fn array(path: &mut String, old: &str, new: &str, out: &mut String) -> bool {
    let (Ok(o), Ok(n)) = (
        serde_json::from_str::<Vec<&RawValue>>(old),
        serde_json::from_str::<Vec<&RawValue>>(new),
    ) else {
        return false;
    };
    let at = path.len();
    if o.len() == n.len() {
        for (i, (a, b)) in o.iter().zip(&n).enumerate() {
            let _ = write!(path, "/{i}");
            value(path, a, b, out);
            path.truncate(at);
        }
        return true;
    }
    let grown = n.len() > o.len() && o.iter().zip(&n).all(|(a, b)| a.get() == b.get());
    if grown {
        path.push_str("/-");
        for b in &n[o.len()..] {
            op(out, "add", path, Some(b.get()));
        }
        path.truncate(at);
    }
    grown
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

/// Appends one operation; `value` is JSON text.
fn op(out: &mut String, name: &str, path: &str, value: Option<&str>) {
    if out.len() > 1 {
        out.push(',');
    }
    out.push_str(r#"{"op":""#);
    out.push_str(name);
    out.push_str(r#"","path":"#);
    // A pointer is made of keys serde wrote, but is escaped all the same.
    out.push_str(&serde_json::Value::from(path).to_string());
    if let Some(v) = value {
        out.push_str(r#","value":"#);
        out.push_str(v);
    }
    out.push('}');
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
        check(json!(3), json!("three"));
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (0i64..4).prop_map(Value::from),
            "[a-c~/]{0,2}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-c/~]{1,2}", inner, 0..4)
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
    }
}
