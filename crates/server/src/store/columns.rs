//! How both backends write and read back the columns that are not plain
//! values: the fair deal's secret, scheme and contributions, the seed, the
//! player count, seat numbers, a rating row; and the append both queue to
//! their writers. One encoding, so a database written by one backend reads
//! the same in the other (`ratrace db copy`).

use super::lists::RatingRow;
use super::model::{Epoch, StoreError, StoredAction, StoredFair};
use game::Seat;
use std::collections::BTreeMap;

/// One append (the arguments of `Store::append_action`), as both backends
/// queue it for their writer.
#[derive(Debug)]
pub(crate) struct Append {
    pub(crate) table: String,
    pub(crate) action: StoredAction,
    pub(crate) at: i64,
    pub(crate) ends: bool,
    pub(crate) epoch: Epoch,
}

/// A rating row from its columns, read in `rating_columns!()` order.
pub(crate) fn rating_row(
    (game, player, name, rating, uncertainty, score, games): (
        String,
        String,
        String,
        f64,
        f64,
        f64,
        i64,
    ),
) -> RatingRow {
    RatingRow {
        game,
        player,
        name,
        rating,
        uncertainty,
        score,
        games: u64::try_from(games).unwrap_or(0),
    }
}

/// The `fair_scheme` column of a fair deal: its version, 3 when it is
/// signed (`ratrace-fair/3`), 2 when its seed is bound to its table
/// (`ratrace-fair/2`), 1 otherwise.
pub(crate) fn fair_scheme(f: &StoredFair) -> i64 {
    match (&f.table, f.signed) {
        (Some(_), true) => 3,
        (Some(_), false) => 2,
        (None, _) => 1,
    }
}

/// A fair deal's binding read back from its `fair_scheme` column (NULL:
/// made before version 2): the table it is bound to, and whether it is
/// signed.
pub(crate) fn fair_table(
    scheme: Option<i64>,
    id: &str,
) -> Result<(Option<String>, bool), StoreError> {
    match scheme {
        None | Some(1) => Ok((None, false)),
        Some(2) => Ok((Some(id.to_string()), false)),
        Some(3) => Ok((Some(id.to_string()), true)),
        Some(other) => Err(StoreError::Corrupt(format!("fair scheme {other}"))),
    }
}

/// A fair deal read back from its columns, as both backends store it: the
/// secret's hex (none: no fair deal), the contributions, the scheme.
pub(crate) fn fair_of(
    secret: Option<&str>,
    contributions: Option<&str>,
    scheme: Option<i64>,
    id: &str,
) -> Result<Option<StoredFair>, StoreError> {
    let Some(hex) = secret else {
        return Ok(None);
    };
    let (table, signed) = fair_table(scheme, id)?;
    Ok(Some(StoredFair {
        secret: registry::fair::parse_hex32("secret", hex)
            .map_err(|e| StoreError::Corrupt(e.to_string()))?,
        contributions: parse_contributions(contributions)?,
        table,
        signed,
    }))
}

/// A table's seed read back: a fair deal's comes from its inputs, any
/// other from the `seed` column's decimal text.
pub(crate) fn seed_of(seed: &str, fair: Option<&StoredFair>) -> Result<game::Seed, StoreError> {
    match fair {
        Some(f) => Ok(f.seed()),
        None => seed
            .parse()
            .map_err(|_| StoreError::Corrupt(format!("seed {seed}"))),
    }
}

/// A table's player count read back.
pub(crate) fn players_of(players: i64) -> Result<usize, StoreError> {
    usize::try_from(players).map_err(|_| StoreError::Corrupt(format!("players {players}")))
}

/// The contributions column: a JSON object from seat (`P2`) to 64 hex
/// digits.
pub(crate) fn contributions_json(all: &BTreeMap<Seat, [u8; 32]>) -> String {
    let map: BTreeMap<String, String> = all
        .iter()
        .map(|(s, c)| (s.to_string(), registry::fair::hex(c)))
        .collect();
    serde_json::to_string(&map).unwrap_or_else(|_| "{}".to_string())
}

/// Reads the contributions column back.
pub(crate) fn parse_contributions(
    text: Option<&str>,
) -> Result<BTreeMap<Seat, [u8; 32]>, StoreError> {
    let map: BTreeMap<String, String> = serde_json::from_str(text.unwrap_or("{}"))?;
    map.into_iter()
        .map(|(s, c)| {
            let seat: Seat = s
                .parse()
                .map_err(|_| StoreError::Corrupt(format!("contribution seat {s}")))?;
            let value = registry::fair::parse_contribution(&c)
                .map_err(|e| StoreError::Corrupt(e.to_string()))?;
            Ok((seat, value))
        })
        .collect()
}

/// A stored seat index as a seat.
pub(crate) fn seat_of(index: i64) -> Result<Seat, StoreError> {
    usize::try_from(index)
        .ok()
        .and_then(Seat::try_new)
        .ok_or_else(|| StoreError::Corrupt(format!("seat {index}")))
}
