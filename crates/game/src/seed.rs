//! Game seeds: the one source of all chance in a game, either a legacy
//! 64-bit number or a full 256-bit value.
//!
//! Every record, scenario and published figure made before 256-bit seeds
//! existed names a `u64`; [`Seed::Legacy`] seeds an engine's RNG exactly as
//! before (`SeedableRng::seed_from_u64`), so those replay bit for bit. A
//! [`Seed::Full`] seed (the server's fair-deal scheme derives one) is the
//! RNG's own 32-byte seed (`SeedableRng::from_seed`). The type only hands
//! an engine a seeded RNG of the engine's choice ([`Seed::rng`]), so this
//! crate needs no particular RNG. Text form: decimal for a legacy seed, 64
//! lowercase hex digits for a full one; the two never overlap in what this
//! crate writes.

use rand::SeedableRng;
use std::fmt;
use std::str::FromStr;

/// The seed of all chance in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seed {
    /// A 64-bit seed, as every game before 256-bit seeds used: the RNG is
    /// seeded with `seed_from_u64`. Written in decimal.
    Legacy(u64),
    /// A full 256-bit seed: the RNG's own seed bytes (`from_seed`). Written
    /// as 64 hex digits.
    Full([u8; 32]),
}

impl Seed {
    /// An RNG seeded from this seed: `R::seed_from_u64` for a legacy seed
    /// (bit-identical to games seeded before this type existed),
    /// `R::from_seed` for a full one.
    pub fn rng<R: SeedableRng<Seed = [u8; 32]>>(&self) -> R {
        match *self {
            Seed::Legacy(n) => R::seed_from_u64(n),
            Seed::Full(bytes) => R::from_seed(bytes),
        }
    }

    /// The legacy 64-bit number, if this is one.
    pub fn legacy(&self) -> Option<u64> {
        match *self {
            Seed::Legacy(n) => Some(n),
            Seed::Full(_) => None,
        }
    }

    /// The 32 bytes of a full seed, if this is one.
    pub fn full(&self) -> Option<[u8; 32]> {
        match *self {
            Seed::Legacy(_) => None,
            Seed::Full(b) => Some(b),
        }
    }
}

impl From<u64> for Seed {
    fn from(n: u64) -> Seed {
        Seed::Legacy(n)
    }
}

impl From<[u8; 32]> for Seed {
    fn from(b: [u8; 32]) -> Seed {
        Seed::Full(b)
    }
}

impl fmt::Display for Seed {
    /// Decimal for a legacy seed, 64 lowercase hex digits for a full one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seed::Legacy(n) => write!(f, "{n}"),
            Seed::Full(b) => {
                for byte in b {
                    write!(f, "{byte:02x}")?;
                }
                Ok(())
            }
        }
    }
}

/// A seed written wrongly: neither a decimal `u64` nor 64 hex digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedParseError(pub String);

impl fmt::Display for SeedParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seed `{}` is neither a decimal number below 2^64 nor 64 hex digits",
            self.0
        )
    }
}

impl std::error::Error for SeedParseError {}

impl FromStr for Seed {
    type Err = SeedParseError;

    /// Exactly 64 hex digits (either case) is a full seed; anything else
    /// must be a decimal `u64` (as `u64::from_str` reads it, so every
    /// record written before full seeds reads as before).
    fn from_str(s: &str) -> Result<Seed, SeedParseError> {
        if s.len() == 64 && s.bytes().all(|c| c.is_ascii_hexdigit()) {
            let mut b = [0u8; 32];
            for (i, byte) in b.iter_mut().enumerate() {
                *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16)
                    .map_err(|_| SeedParseError(s.to_string()))?;
            }
            return Ok(Seed::Full(b));
        }
        s.parse::<u64>()
            .map(Seed::Legacy)
            .map_err(|_| SeedParseError(s.to_string()))
    }
}

impl serde::Serialize for Seed {
    /// Always a string: JSON numbers lose precision above 2^53.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Seed {
    /// A string (see [`Seed::from_str`]) or, for old hand-written records,
    /// a JSON number (a legacy seed).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Seed, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Either {
            Num(u64),
            Text(String),
        }
        match Either::deserialize(d)? {
            Either::Num(n) => Ok(Seed::Legacy(n)),
            Either::Text(t) => t.parse().map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in RNG that keeps its 32-byte seed, to see what `rng` hands
    /// an engine.
    struct Bytes([u8; 32]);

    impl SeedableRng for Bytes {
        type Seed = [u8; 32];
        fn from_seed(seed: [u8; 32]) -> Bytes {
            Bytes(seed)
        }
    }

    #[test]
    fn legacy_seeds_use_seed_from_u64_and_full_seeds_their_bytes() {
        assert_eq!(Seed::Legacy(7).rng::<Bytes>().0, Bytes::seed_from_u64(7).0);
        let b: [u8; 32] = std::array::from_fn(|i| i as u8 * 7);
        assert_eq!(Seed::Full(b).rng::<Bytes>().0, b);
        assert_ne!(
            Seed::Legacy(7).rng::<Bytes>().0,
            Seed::Legacy(8).rng::<Bytes>().0
        );
    }

    #[test]
    fn text_round_trips_and_tells_the_kinds_apart() {
        let b: [u8; 32] = std::array::from_fn(|i| 0xf0 ^ i as u8);
        for s in [
            Seed::Legacy(0),
            Seed::Legacy(u64::MAX),
            Seed::Full(b),
            Seed::Full([0; 32]),
        ] {
            assert_eq!(s.to_string().parse::<Seed>(), Ok(s));
        }
        assert_eq!(Seed::Full(b).to_string().len(), 64);
        assert_eq!(
            Seed::Full(b).to_string(),
            Seed::Full(b).to_string().to_lowercase()
        );
        let upper = Seed::Full(b).to_string().to_uppercase();
        assert_eq!(upper.parse::<Seed>(), Ok(Seed::Full(b)));
        // 64 decimal digits are hex digits too: a full seed, never a u64.
        assert!(matches!("1".repeat(64).parse::<Seed>(), Ok(Seed::Full(_))));
        for bad in [
            "",
            "x",
            "-1",
            "18446744073709551616",
            &"g".repeat(64),
            &"a".repeat(63),
            &"a".repeat(65),
        ] {
            assert!(bad.parse::<Seed>().is_err(), "{bad}");
        }
        assert_eq!(Seed::Legacy(5).legacy(), Some(5));
        assert_eq!(Seed::Full(b).full(), Some(b));
        assert_eq!(Seed::Full(b).legacy(), None);
    }
}
