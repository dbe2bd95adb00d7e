//! A tournament game's id, `dDEAL-lLINEUP-rROTATION`: made by the worker
//! that plays the game, read back by `--rerun`. It stands below everything
//! else of the tournament, so the modules that name games share it without
//! naming each other.

use crate::Error;

/// The id of the game of deal `deal`, lineup `lineup`, rotation
/// `rotation`: `d12-l0-r3`.
pub fn game_id(deal: u64, lineup: usize, rotation: usize) -> String {
    format!("d{deal}-l{lineup}-r{rotation}")
}

/// The deal, lineup and rotation of an id made by [`game_id`].
pub fn parse_game_id(id: &str) -> Result<(u64, usize, usize), Error> {
    let bad = || {
        Error::Config(format!(
            "`{id}` is not a game id: ids are dDEAL-lLINEUP-rROTATION, e.g. d12-l0-r3, as the report's games list gives them"
        ))
    };
    let mut parts = id.trim().split('-');
    let mut field = |prefix: char| -> Result<u64, Error> {
        parts
            .next()
            .and_then(|p| p.strip_prefix(prefix))
            .and_then(|n| n.parse().ok())
            .ok_or_else(bad)
    };
    let deal = field('d')?;
    let lineup = field('l')?;
    let rotation = field('r')?;
    if parts.next().is_some() {
        return Err(bad());
    }
    let small = |n: u64| usize::try_from(n).map_err(|_| bad());
    Ok((deal, small(lineup)?, small(rotation)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_read_back() {
        let id = game_id(12, 3, 4);
        assert_eq!(id, "d12-l3-r4");
        assert_eq!(parse_game_id(&id).unwrap(), (12, 3, 4));
        for bad in [
            "",
            "d1-l0",
            "d1-l0-r2-x",
            "x1-l0-r0",
            "d-1-l0-r0",
            "d1-l0-rr",
        ] {
            let e = parse_game_id(bad).unwrap_err().to_string();
            assert!(e.contains("not a game id"), "{bad}: {e}");
        }
    }
}
