//! Display names as people will see them: what is removed, what is refused
//! (a name that poses as a bot's). Shared by the lobby, the tables and the
//! social pages; it imports only the error type.

use crate::error::Error;
use bots::Roster;

/// Characters that change how text around them is shown without showing
/// themselves: bidirectional overrides and isolates, zero-width spaces and
/// joiners, invisible fillers, tags.
pub(crate) fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0E}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{FFF0}'..='\u{FFFB}' | '\u{E0000}'..='\u{E0FFF}')
}

/// A display name as people will see it: control, bidirectional and
/// zero-width characters removed, runs of spaces made one, 1 to 32
/// characters, and no word that names a bot (no human may pose as one).
pub fn clean_name(raw: &str) -> Result<String, Error> {
    clean_name_among(raw, &[])
}

/// The words of a name as bot names are compared: lower case, split at
/// every character that is not a letter or a digit, trailing digits cut
/// (`Peek2` is `peek`).
fn name_words(name: &str) -> Vec<String> {
    name.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .map(|w| w.trim_end_matches(|c: char| c.is_ascii_digit()))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// [`clean_name`], also refusing a name that holds the words of one of
/// `programs`, the bot programs this server offers (`peek`, `deep-blue`
/// in `Deep Blue`): they are bots' names too.
pub fn clean_name_among(raw: &str, programs: &[String]) -> Result<String, Error> {
    let mut name = String::with_capacity(raw.len());
    for c in raw.chars() {
        if c.is_control() || invisible(c) {
            continue;
        }
        if c.is_whitespace() {
            if !name.is_empty() && !name.ends_with(' ') {
                name.push(' ');
            }
        } else {
            name.push(c);
        }
    }
    let name = name.trim_end().to_string();
    if name.is_empty() || name.chars().count() > 32 {
        return Err(Error::BadInput(
            "a name is 1 to 32 visible characters".to_string(),
        ));
    }
    let lower = name.to_lowercase();
    let taken = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .any(|w| {
            let w = w.trim_end_matches(|c: char| c.is_ascii_digit());
            ["bot", "bots", "robot", "level", "ai", "cpu"].contains(&w)
                || <bigcheese::BigCheese as Roster>::LADDER.contains(&w)
                || <dalmuti::Dalmuti as Roster>::LADDER.contains(&w)
        });
    let words = name_words(&name);
    let program = programs.iter().any(|p| {
        let p = name_words(p);
        !p.is_empty() && words.windows(p.len()).any(|w| w == p.as_slice())
    });
    if taken || program {
        return Err(Error::BadInput(format!(
            "`{name}` reads like a bot's name; people choose another"
        )));
    }
    Ok(name)
}
