//! `example-bot`: a small `ratrace-bot/1` bot in Rust (docs/bot-protocol.md).
//!
//! It reads JSON lines on stdin and answers `start` with `ready` and each
//! `act` with one string of `legal`. The rules are simple and deterministic:
//!
//! - Dalmuti: play the set with the most cards, of the worst rank (the
//!   highest number), Jesters kept for last; pass when there is nothing to
//!   play; give away the worst cards in taxes; decline revolutions and the
//!   market.
//! - Big Cheese: keep every roll, never veto, bid the cheapest bid while it
//!   is at most a third of the seat's free chips (at least 1), else pass.
//!
//! The legal strings are read with the engines' own notation
//! (`dalmuti::Action`, `bigcheese::Action`, both `FromStr`). A string that
//! does not parse is never chosen over one that does; whatever happens, the
//! answer is one of `legal`.

use serde_json::{json, Value};
use std::io::{self, BufRead, Write};

/// Which game the current `start` announced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GameKind {
    Dalmuti,
    BigCheese,
    Unknown,
}

impl GameKind {
    fn of(name: &str) -> GameKind {
        match name {
            "dalmuti" => GameKind::Dalmuti,
            "bigcheese" => GameKind::BigCheese,
            _ => GameKind::Unknown,
        }
    }
}

/// How bad a Dalmuti card is to hold: a 12 is the worst (12), a 1 the best
/// (1); a Jester is wild, so it counts as the best (0).
fn badness(card: dalmuti::Card) -> usize {
    if card.is_jester() {
        0
    } else {
        card.index()
    }
}

/// The Dalmuti choice: index into `legal`.
fn choose_dalmuti(legal: &[&str]) -> usize {
    use dalmuti::Action;
    let parsed: Vec<Option<Action>> = legal.iter().map(|s| s.parse().ok()).collect();
    // (preference, index): the highest preference wins, the first on ties
    let mut best: Option<((u8, usize, usize, u8), usize)> = None;
    for (i, a) in parsed.iter().enumerate() {
        let key = match a {
            // most cards first, then the worst rank, then fewest Jesters
            Some(Action::Play(p)) => (
                3,
                p.size() as usize,
                p.rank() as usize,
                u8::MAX - p.jesters(),
            ),
            // the worst cards away
            Some(Action::Give(g)) => (3, 0, g.cards().map(badness).sum(), 0),
            Some(Action::NoRevolution | Action::NoMarket) => (2, 0, 0, 0),
            Some(Action::Pass) => (1, 0, 0, 0),
            _ => (0, 0, 0, 0),
        };
        if best.is_none_or(|(k, _)| key > k) {
            best = Some((key, i));
        }
    }
    best.map_or(0, |(_, i)| i)
}

/// This seat's free chips in a Big Cheese view, if the view says so.
fn free_chips(view: &Value) -> Option<u64> {
    let me = view.get("me")?.as_str()?;
    view.get("public")?
        .get("seats")?
        .as_array()?
        .iter()
        .find(|p| p.get("seat").and_then(Value::as_str) == Some(me))?
        .get("free")?
        .as_u64()
}

/// The Big Cheese choice: index into `legal`.
fn choose_bigcheese(legal: &[&str], view: &Value) -> usize {
    use bigcheese::Action;
    let parsed: Vec<Option<Action>> = legal.iter().map(|s| s.parse().ok()).collect();
    let find = |want: Action| parsed.iter().position(|a| *a == Some(want));
    if let Some(i) = find(Action::Keep) {
        return i;
    }
    let cheapest = parsed
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Some(Action::Bid(n)) => Some((*n, i)),
            _ => None,
        })
        .min();
    let limit = free_chips(view).map_or(1, |f| (f / 3).max(1));
    match (cheapest, find(Action::Pass)) {
        (Some((n, i)), _) if u64::from(n) <= limit => i,
        (_, Some(i)) => i,
        (Some((_, i)), None) => i,
        (None, None) => 0,
    }
}

/// The answer to one `act`: one of `legal` (`None` only if `legal` is empty).
fn decide(kind: GameKind, view: &Value, legal: &[&str]) -> Option<String> {
    let i = match kind {
        GameKind::Dalmuti => choose_dalmuti(legal),
        GameKind::BigCheese => choose_bigcheese(legal, view),
        GameKind::Unknown => 0,
    };
    legal.get(i).or(legal.first()).map(|s| s.to_string())
}

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut kind = GameKind::Unknown;
    for line in stdin.lock().lines() {
        let line = line?;
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            eprintln!("example-bot: not JSON, ignored: {line:.80}");
            continue;
        };
        let answer = match msg.get("type").and_then(Value::as_str) {
            Some("start") => {
                kind = GameKind::of(msg.get("game").and_then(Value::as_str).unwrap_or(""));
                Some(json!({"type": "ready", "name": "example-bot (rust)", "protocol": 1}))
            }
            Some("act") => {
                let legal: Vec<&str> = msg
                    .get("legal")
                    .and_then(Value::as_array)
                    .map(|l| l.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let view = msg.get("view").unwrap_or(&Value::Null);
                decide(kind, view, &legal).map(|action| {
                    json!({"type": "action", "id": msg.get("id").cloned().unwrap_or(Value::Null), "action": action})
                })
            }
            Some("quit") => break,
            _ => None, // event, end, and anything newer
        };
        if let Some(a) = answer {
            writeln!(out, "{a}")?;
            out.flush()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dalmuti_sheds_the_most_worst_cards() {
        let legal = ["pass", "play 1x3", "play 2x9", "play 2x5", "play 1x9+J"];
        assert_eq!(choose_dalmuti(&legal), 2);
        assert_eq!(choose_dalmuti(&["pass"]), 0);
        // taxes: the worst cards, a Jester kept
        assert_eq!(choose_dalmuti(&["give 1 2", "give 11 12", "give 12 J"]), 1);
    }

    #[test]
    fn bigcheese_bids_cheaply_or_passes() {
        let view = json!({"me": "P1", "public": {"seats": [{"seat": "P1", "free": 9}]}});
        assert_eq!(choose_bigcheese(&["pass", "bid 3", "bid 4"], &view), 1);
        assert_eq!(choose_bigcheese(&["pass", "bid 4", "bid 5"], &view), 0);
        assert_eq!(choose_bigcheese(&["keep", "reroll"], &view), 0);
        // a view it cannot read: still a legal answer
        assert_eq!(
            decide(GameKind::BigCheese, &Value::Null, &["bid 7"]).as_deref(),
            Some("bid 7")
        );
        assert_eq!(
            decide(GameKind::Unknown, &Value::Null, &["x"]).as_deref(),
            Some("x")
        );
    }
}
