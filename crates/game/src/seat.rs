//! Seats: who a player is at the table, as a small `Copy` newtype so that no
//! bare integer ever stands for a player.

use std::fmt;
use std::str::FromStr;

/// A player's seat, 0-based inside, written `P1`, `P2`, ... for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(try_from = "String")]
pub struct Seat(u8);

/// Every seat's name, so that writing one (in every view and message the
/// server sends) needs no formatting and no allocation.
const NAMES: [&str; Seat::MAX] = [
    "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10", "P11", "P12", "P13", "P14", "P15",
    "P16",
];

impl serde::Serialize for Seat {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl Seat {
    /// The largest number of seats any game here supports (Dalmuti: 13).
    pub const MAX: usize = 16;

    /// The seat's name, `P1`, `P2`, ...
    pub fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// Seat number `index` (0-based).
    ///
    /// # Panics
    /// If `index >= Seat::MAX`.
    pub const fn new(index: usize) -> Seat {
        assert!(index < Seat::MAX, "seat index out of range");
        Seat(index as u8)
    }

    /// Seat number `index` (0-based), or `None` past [`Seat::MAX`]: for
    /// indexes that come from outside (a file, a message, a database row).
    pub const fn try_new(index: usize) -> Option<Seat> {
        if index < Seat::MAX {
            Some(Seat(index as u8))
        } else {
            None
        }
    }

    /// The 0-based index, for per-seat arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat after this one in a table of `players` seats.
    pub const fn next(self, players: usize) -> Seat {
        Seat(((self.0 as usize + 1) % players) as u8)
    }

    /// All seats of a table of `players`, in order.
    pub fn all(players: usize) -> impl Iterator<Item = Seat> + Clone {
        (0..players).map(Seat::new)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0 + 1)
    }
}

/// A seat written wrongly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatParseError(pub String);

impl fmt::Display for SeatParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a seat (write P1, P2, ...)", self.0)
    }
}

impl std::error::Error for SeatParseError {}

impl FromStr for Seat {
    type Err = SeatParseError;

    fn from_str(s: &str) -> Result<Seat, SeatParseError> {
        let digits = s
            .strip_prefix('P')
            .or_else(|| s.strip_prefix('p'))
            .ok_or_else(|| SeatParseError(s.to_string()))?;
        match digits.parse::<usize>() {
            Ok(n) if (1..=Seat::MAX).contains(&n) && !digits.starts_with('+') => {
                Ok(Seat::new(n - 1))
            }
            _ => Err(SeatParseError(s.to_string())),
        }
    }
}

impl From<Seat> for String {
    fn from(s: Seat) -> String {
        s.to_string()
    }
}

impl TryFrom<String> for Seat {
    type Error = SeatParseError;
    fn try_from(s: String) -> Result<Seat, SeatParseError> {
        s.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for i in 0..Seat::MAX {
            let s = Seat::new(i);
            assert_eq!(s.to_string().parse::<Seat>(), Ok(s));
            assert_eq!(s.name(), s.to_string());
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
        }
        assert!("P0".parse::<Seat>().is_err());
        assert!("P17".parse::<Seat>().is_err());
        assert!("3".parse::<Seat>().is_err());
        assert!("P+1".parse::<Seat>().is_err());
        assert_eq!("p2".parse::<Seat>(), Ok(Seat::new(1)));
    }
}
