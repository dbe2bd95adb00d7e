//! The translation coverage test: every event kind of both games has a
//! template in English, Italian and French in the web client's language
//! files (`i18n-en.js`, `i18n-it.js`, `i18n-fr.js`), the three files hold
//! the same keys,
//! and no template names a field its event does not have.
//!
//! The templates are read from the file the server serves
//! (`include_str!`), so a new event variant, a renamed field or a template
//! deleted by mistake fails `cargo test` instead of showing a raw kind name
//! at an Italian or French table. Each file is an ES module whose
//! `export default { ... };` holds its texts, one key a line; a long text
//! is written as single-quoted pieces joined with `+`.

use game::GameEvent;
use serde_json::Value;
use std::collections::BTreeMap;

/// The three language files, each an ES module holding one
/// `export default { ... };` block.
const LANGS: [(&str, &str); 3] = [
    ("en", include_str!("../../web/i18n-en.js")),
    ("it", include_str!("../../web/i18n-it.js")),
    ("fr", include_str!("../../web/i18n-fr.js")),
];

/// The texts' block of one language's file: from `export default {` to
/// the `};` that closes it.
fn block(lang: &str) -> &'static str {
    let (_, file) = LANGS
        .iter()
        .find(|(l, _)| *l == lang)
        .unwrap_or_else(|| panic!("no language {lang}"));
    let head = "export default {";
    let start = file.find(head).expect("the block") + head.len();
    let end = file[start..].find("\n};").expect("the block ends");
    &file[start..start + end]
}

/// Reads a single-quoted JavaScript string starting at `s[0] == '\''`:
/// its value (with `\'` and `\\` unescaped) and the rest after it.
fn js_string(s: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = s.strip_prefix('\'')?.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?.1),
            '\'' => return Some((out, &s[i + 2..])),
            c => out.push(c),
        }
    }
    None
}

/// A text: single-quoted pieces joined with `+` (one piece, most often),
/// and the rest after it.
fn js_text(s: &str) -> Option<(String, &str)> {
    let (mut out, mut rest) = js_string(s)?;
    while let Some(next) = rest.trim_start().strip_prefix('+') {
        let (piece, after) = js_string(next.trim_start())?;
        out.push_str(&piece);
        rest = after;
    }
    Some((out, rest))
}

/// A template's value: a text, or an object of plural forms
/// (`{ one: '…', other: '…' }`, read as its forms joined by a newline), and
/// the rest after it.
fn js_value(s: &str) -> Option<(String, &str)> {
    let Some(mut rest) = s.strip_prefix('{') else {
        return js_text(s);
    };
    let mut forms = Vec::new();
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix('}') {
            return Some((forms.join("\n"), after));
        }
        let (name, after) = rest.split_once(':')?;
        // `n` names the variable that chooses the form; the rest are forms.
        if !["n", "zero", "one", "two", "few", "many", "other"].contains(&name.trim()) {
            return None;
        }
        let (form, after) = js_text(after.trim_start())?;
        forms.push(form);
        rest = after.trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest);
    }
}

/// Every quoted key (`'key':`) of one language's block, in order.
fn keys(lang: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = block(lang);
    while let Some(i) = rest.find('\'') {
        if let Some(c) = rest[..i].find("/*") {
            // A comment: skip it (its apostrophes are not quotes).
            let end = rest[c..].find("*/").expect("the comment ends");
            rest = &rest[c + end + 2..];
            continue;
        }
        let (text, after) = js_string(&rest[i..]).expect("a string");
        if after.starts_with(':') {
            out.push(text);
        }
        rest = after;
    }
    out
}

/// The `'ev.GAME.KIND': 'template'` entries of one language's block, by
/// key.
fn templates(lang: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = block(lang);
    while let Some(i) = rest.find("'ev.") {
        let (key, after) = js_string(&rest[i..]).expect("a key string");
        let after = after.trim_start().strip_prefix(':').expect("key: value");
        let (value, after) = js_value(after.trim_start()).expect("a template");
        if key.starts_with("ev.bigcheese.") || key.starts_with("ev.dalmuti.") {
            out.insert(key, value);
        }
        rest = after;
    }
    out
}

/// The `{field}` placeholders of a template.
fn placeholders(template: &str) -> Vec<&str> {
    template
        .split('{')
        .skip(1)
        .filter_map(|p| p.split_once('}').map(|(name, _)| name))
        .collect()
}

/// Every problem with one game's templates in one language.
fn problems<E: GameEvent>(game: &str, lang: &str, all: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    let prefix = format!("ev.{game}.");
    for example in E::examples() {
        let key = format!("{prefix}{}", example.kind());
        let Some(template) = all.get(&key) else {
            out.push(format!("{lang}: no template `{key}`"));
            continue;
        };
        let json = serde_json::to_value(&example).unwrap();
        for field in placeholders(template) {
            if field == "kind" || json.get(field).is_none() {
                out.push(format!(
                    "{lang}: `{key}` names {{{field}}}, which a `{}` event does not have: {json}",
                    example.kind()
                ));
            }
        }
    }
    for key in all.keys().filter(|k| k.starts_with(&prefix)) {
        if !E::KINDS.contains(&&key[prefix.len()..]) {
            out.push(format!("{lang}: `{key}` is a template for no event kind"));
        }
    }
    out
}

#[test]
fn every_event_kind_has_a_template_in_every_language() {
    let mut all = Vec::new();
    for (lang, _) in LANGS {
        let t = templates(lang);
        all.extend(problems::<bigcheese::Event>("bigcheese", lang, &t));
        all.extend(problems::<dalmuti::Event>("dalmuti", lang, &t));
    }
    assert!(all.is_empty(), "i18n.js templates:\n{}", all.join("\n"));
}

#[test]
fn the_check_catches_a_missing_template_and_a_wrong_field() {
    let mut t = templates("en");
    assert_eq!(
        t.len(),
        bigcheese::Event::KINDS.len() + dalmuti::Event::KINDS.len()
    );
    assert!(problems::<bigcheese::Event>("bigcheese", "en", &t).is_empty());
    t.remove("ev.bigcheese.bid");
    t.insert("ev.bigcheese.pass".into(), "{seat} passes {amount}".into());
    t.insert("ev.bigcheese.shout".into(), "{seat}!".into());
    let found = problems::<bigcheese::Event>("bigcheese", "en", &t);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].contains("no template `ev.bigcheese.bid`"));
    assert!(found[1].contains("{amount}"));
    assert!(found[2].contains("ev.bigcheese.shout"));
    assert_eq!(placeholders("{a} x {b}{c"), ["a", "b"]);
    let v: Value = serde_json::to_value(bigcheese::Event::examples()[0].clone()).unwrap();
    assert_eq!(v["kind"], "shuffled");
}

#[test]
fn the_three_languages_have_the_same_keys_once_each() {
    let en = keys("en");
    assert!(en.len() > 300, "{} keys", en.len());
    let set: std::collections::BTreeSet<_> = en.iter().collect();
    assert_eq!(set.len(), en.len(), "a key twice in en");
    for lang in ["it", "fr"] {
        let other = keys(lang);
        let theirs: std::collections::BTreeSet<_> = other.iter().collect();
        assert_eq!(theirs.len(), other.len(), "a key twice in {lang}");
        let missing: Vec<_> = set.difference(&theirs).collect();
        let extra: Vec<_> = theirs.difference(&set).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{lang}: missing {missing:?}, extra {extra:?}"
        );
    }
}

#[test]
fn plural_forms_are_read_as_a_template() {
    let (v, rest) = js_value("{ one: '{n} chip', other: '{n} chips' }, 'x'").unwrap();
    assert_eq!(v, "{n} chip\n{n} chips");
    assert_eq!(rest, ", 'x'");
    assert!(js_value("{ bogus: 'x' }").is_none());
    let (v, rest) = js_value("'a long ' +\n    'text', 'x'").unwrap();
    assert_eq!(v, "a long text");
    assert_eq!(rest, ", 'x'");
    let (v, _) = js_value("{\n  one: '1 ' + 'chip',\n  other: 'n',\n}").unwrap();
    assert_eq!(v, "1 chip\nn");
}
