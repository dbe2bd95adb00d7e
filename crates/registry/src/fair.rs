//! The fair-deal scheme `ratrace-fair/3` (commit, contribute, reveal):
//! pure functions that make and check a game's 256-bit seed, so that
//! neither the server nor a player can choose the deal (`docs/server.md`,
//! "Fairness: commit, contribute, reveal"). The seed is bound to the
//! table's id and its commitment, so a record cannot pass for another
//! table's, and version 3 adds the server's signature of that commitment
//! ([`crate::signed`]), so a record nobody's browser kept still shows the
//! server made it before the game. Records of versions 1 and 2 still
//! check.
//!
//! 1. At table creation the server draws a 32-byte secret
//!    ([`new_secret`]), publishes its [`commitment`] (hex SHA-256 of the
//!    secret's bytes) and signs it with the table's id.
//! 2. Every human who joins sends 32 random bytes made in their browser,
//!    as 64 hex digits ([`contribute`], [`parse_contribution`]); the
//!    server stores them.
//! 3. Once the last human has joined, the seed is [`seed`] of the table
//!    id, the commitment, the secret and every contribution, in seat
//!    order ([`Binding`] says which version).
//! 4. After the game the record carries the secret, the contributions and
//!    the signature ([`fairness`]); `verify` checks them ([`check`]).
//!
//! No IO and no clock here: the server's lobby and tables call these, and
//! `verify` (CLI and page) checks with the same code. Every input that
//! comes from outside is parsed into bytes first; bad text is an error,
//! never a panic.

use game::{Contribution, Fairness, Seat, Seed};
use rand::RngCore;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The scheme's name and version, as records carry it: the one new
/// tables use (signed, bound to its table).
pub const SCHEME: &str = "ratrace-fair/3";

/// The second version: bound to its table, not signed (records made
/// before version 3 carry it, and still check).
pub const SCHEME_V2: &str = "ratrace-fair/2";

/// The first version, whose seed is not bound to its table (records made
/// before version 2 carry it, and still check).
pub const SCHEME_V1: &str = "ratrace-fair/1";

/// The domain-separation tags hashed first into every seed: a hash made
/// for any other purpose, or by another version, can never be a seed of
/// this one (so a signed record stripped of its signature cannot pass for
/// an unsigned version's).
const TAG: &[u8] = b"ratrace-fair/1 seed";
const TAG_V2: &[u8] = b"ratrace-fair/2 seed";
const TAG_V3: &[u8] = b"ratrace-fair/3 seed";

/// Which version a table's seed is made by, with what it binds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding<'a> {
    /// `ratrace-fair/1`: the secret and the contributions only.
    Unbound,
    /// `ratrace-fair/2`: bound to this table and its commitment.
    Table(&'a str),
    /// `ratrace-fair/3`: as version 2, and the commitment signed by the
    /// server.
    Signed(&'a str),
}

impl Binding<'_> {
    /// The scheme's name, as records carry it.
    pub fn scheme(self) -> &'static str {
        match self {
            Binding::Unbound => SCHEME_V1,
            Binding::Table(_) => SCHEME_V2,
            Binding::Signed(_) => SCHEME,
        }
    }
}

/// The longest table id a version-2 seed binds (ids are 10 characters;
/// this only keeps a hostile record from hashing megabytes).
const MAX_TABLE: usize = 64;

/// Why fairness data could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FairError {
    /// A value that must be 32 bytes is not exactly 64 hex digits.
    #[error("{what} must be 64 hex digits (32 bytes), not `{text}`")]
    BadHex {
        /// What the value is (`a contribution`, `the secret`).
        what: &'static str,
        /// The text, cut to 80 characters.
        text: String,
    },
    /// Two contributions name the same seat.
    #[error("{0} contributed twice")]
    DuplicateSeat(Seat),
    /// The contributions are not listed in seat order.
    #[error("the contributions are not in seat order ({0} comes after a later seat)")]
    OutOfOrder(Seat),
    /// The record names a scheme this build does not know.
    #[error(
        "unknown fairness scheme `{0}` (this build checks {SCHEME_V1}, {SCHEME_V2} and {SCHEME})"
    )]
    UnknownScheme(String),
    /// A version-2 or -3 section without its table id (or one too long).
    #[error("a {SCHEME} section names its table (`table`, at most {MAX_TABLE} characters)")]
    NoTable,
    /// The record does not reveal the server's secret.
    #[error("the record does not reveal the server's secret")]
    NoSecret,
}

/// A fresh server secret: 32 bytes from the thread's RNG (a CSPRNG seeded
/// from the operating system).
pub fn new_secret() -> [u8; 32] {
    let mut b = [0u8; 32];
    rand::rng().fill_bytes(&mut b);
    b
}

/// Bytes as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hex SHA-256 of a text: the hash a server publishes of a seed before
/// the game (a record's `seed_hash`), and of invite keys and tokens.
pub fn sha256_hex(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

/// Reads exactly 64 hex digits (either case) as 32 bytes; `what` names
/// the value in the error.
pub fn parse_hex32(what: &'static str, text: &str) -> Result<[u8; 32], FairError> {
    let bad = || FairError::BadHex {
        what,
        text: text.chars().take(80).collect(),
    };
    if text.len() != 64 || !text.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(bad());
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
    }
    Ok(out)
}

/// Reads a player's contribution as their browser sent it: exactly 64 hex
/// digits (32 bytes). Anything else is refused.
pub fn parse_contribution(text: &str) -> Result<[u8; 32], FairError> {
    parse_hex32("a contribution", text)
}

/// Adds `seat`'s contribution, as its browser sent it, to the ones a
/// table has gathered: bad text, or a second contribution from the same
/// seat, is refused and changes nothing.
pub fn contribute(
    contributions: &mut BTreeMap<Seat, [u8; 32]>,
    seat: Seat,
    text: &str,
) -> Result<(), FairError> {
    if contributions.contains_key(&seat) {
        return Err(FairError::DuplicateSeat(seat));
    }
    contributions.insert(seat, parse_contribution(text)?);
    Ok(())
}

/// The commitment the server publishes at table creation: hex SHA-256 of
/// the secret's 32 bytes (not of its hex text).
pub fn commitment(secret: &[u8; 32]) -> String {
    hex(&Sha256::digest(secret))
}

/// Hashes one length-prefixed field: 4 bytes big-endian length, then the
/// bytes, so no two different field lists hash the same input.
fn field(h: &mut Sha256, bytes: &[u8]) {
    h.update((bytes.len() as u32).to_be_bytes());
    h.update(bytes);
}

/// The game's seed: SHA-256 over, each field length-prefixed (4 bytes
/// big-endian length, then the bytes):
///
/// ```text
/// field("ratrace-fair/1 seed") field(secret) count (4 bytes big-endian)
/// then for each contribution in seat order: field([seat index]) field(value)
/// ```
///
/// The seat index is the 0-based seat as one byte (`P1` is 0). Changing
/// the secret, any contribution, or which seat made it changes the seed;
/// the map keeps seats in order and makes a seat contribute at most once.
/// With no contributions (a table of bots) the seed depends on the secret
/// alone.
pub fn derive_seed(secret: &[u8; 32], contributions: &BTreeMap<Seat, [u8; 32]>) -> [u8; 32] {
    let mut h = Sha256::new();
    field(&mut h, TAG);
    field(&mut h, secret);
    hash_contributions(&mut h, contributions);
    h.finalize().into()
}

/// The count (4 bytes big-endian), then each contribution in seat order:
/// `field([seat index])`, `field(value)`.
fn hash_contributions(h: &mut Sha256, contributions: &BTreeMap<Seat, [u8; 32]>) {
    h.update((contributions.len() as u32).to_be_bytes());
    for (seat, value) in contributions {
        field(h, &[seat.index() as u8]);
        field(h, value);
    }
}

/// The game's seed in version 2 ([`SCHEME_V2`]): as [`derive_seed`], under
/// its own tag, with the table's id and the commitment (the secret's
/// SHA-256) hashed after the tag:
///
/// ```text
/// field("ratrace-fair/2 seed") field(table id) field(SHA-256(secret))
/// field(secret) count, then each contribution as in version 1
/// ```
///
/// The same secret and contributions give another seed at another table,
/// so a record cannot pass for another table's: its seed would not check.
pub fn derive_seed_v2(
    table: &str,
    secret: &[u8; 32],
    contributions: &BTreeMap<Seat, [u8; 32]>,
) -> [u8; 32] {
    derive_bound(TAG_V2, table, secret, contributions)
}

/// The game's seed in version 3 ([`SCHEME`]): version 2's, under its own
/// tag (`ratrace-fair/3 seed`).
pub fn derive_seed_v3(
    table: &str,
    secret: &[u8; 32],
    contributions: &BTreeMap<Seat, [u8; 32]>,
) -> [u8; 32] {
    derive_bound(TAG_V3, table, secret, contributions)
}

fn derive_bound(
    tag: &[u8],
    table: &str,
    secret: &[u8; 32],
    contributions: &BTreeMap<Seat, [u8; 32]>,
) -> [u8; 32] {
    let mut h = Sha256::new();
    field(&mut h, tag);
    field(&mut h, table.as_bytes());
    field(&mut h, &Sha256::digest(secret));
    field(&mut h, secret);
    hash_contributions(&mut h, contributions);
    h.finalize().into()
}

/// The seed as the engines take it (a full 256-bit [`Seed`]), by the
/// version `binding` names.
pub fn seed(
    binding: Binding<'_>,
    secret: &[u8; 32],
    contributions: &BTreeMap<Seat, [u8; 32]>,
) -> Seed {
    Seed::Full(match binding {
        Binding::Signed(table) => derive_seed_v3(table, secret, contributions),
        Binding::Table(table) => derive_seed_v2(table, secret, contributions),
        Binding::Unbound => derive_seed(secret, contributions),
    })
}

/// The record's fairness section for a game whose seed is
/// [`seed`]`(binding, secret, contributions)`. `reveal` says whether the
/// secret may be shown (only once the game is over); before, the section
/// carries the commitment and the contributions only. A signed one's
/// signature is the server's to add ([`crate::signed::Key::sign`]).
pub fn fairness(
    binding: Binding<'_>,
    secret: &[u8; 32],
    contributions: &BTreeMap<Seat, [u8; 32]>,
    reveal: bool,
) -> Fairness {
    let table = match binding {
        Binding::Unbound => None,
        Binding::Table(t) | Binding::Signed(t) => Some(t.to_string()),
    };
    Fairness {
        scheme: binding.scheme().to_string(),
        table,
        commitment: commitment(secret),
        secret: reveal.then(|| hex(secret)),
        contributions: contributions
            .iter()
            .map(|(seat, value)| Contribution {
                seat: *seat,
                value: hex(value),
            })
            .collect(),
        key: None,
        signature: None,
    }
}

/// A record's fairness section, read into bytes: the scheme is known, the
/// secret is revealed, every contribution is 32 bytes and the seats are
/// listed once each, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The table a version-2 or -3 seed is bound to (`None`: version 1).
    pub table: Option<String>,
    /// A version-3 section: its commitment is the server's to sign.
    pub signed: bool,
    /// The server's secret.
    pub secret: [u8; 32],
    /// The contributions by seat.
    pub contributions: BTreeMap<Seat, [u8; 32]>,
}

/// Reads a record's fairness section (see [`Parsed`]).
pub fn parse(f: &Fairness) -> Result<Parsed, FairError> {
    let (table, signed) = match f.scheme.as_str() {
        SCHEME_V1 => (None, false),
        s @ (SCHEME_V2 | SCHEME) => match &f.table {
            Some(t) if !t.is_empty() && t.len() <= MAX_TABLE => (Some(t.clone()), s == SCHEME),
            _ => return Err(FairError::NoTable),
        },
        other => return Err(FairError::UnknownScheme(other.chars().take(80).collect())),
    };
    let secret = parse_hex32(
        "the secret",
        f.secret.as_deref().ok_or(FairError::NoSecret)?,
    )?;
    let mut contributions = BTreeMap::new();
    for c in &f.contributions {
        if contributions.contains_key(&c.seat) {
            return Err(FairError::DuplicateSeat(c.seat));
        }
        if contributions
            .last_key_value()
            .is_some_and(|(s, _)| *s > c.seat)
        {
            return Err(FairError::OutOfOrder(c.seat));
        }
        contributions.insert(c.seat, parse_contribution(&c.value)?);
    }
    Ok(Parsed {
        table,
        signed,
        secret,
        contributions,
    })
}

impl Parsed {
    /// The version its seed is made by.
    pub fn binding(&self) -> Binding<'_> {
        match (&self.table, self.signed) {
            (None, _) => Binding::Unbound,
            (Some(t), false) => Binding::Table(t),
            (Some(t), true) => Binding::Signed(t),
        }
    }
}

/// Why a record's fairness section does not check out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The section cannot be read.
    #[error(transparent)]
    Unreadable(#[from] FairError),
    /// The revealed secret does not hash to the published commitment.
    #[error("the server's secret {secret} hashes to {actual}, not to the published commitment {published}")]
    Commitment {
        /// The secret, in hex.
        secret: String,
        /// What it hashes to.
        actual: String,
        /// The commitment the server published.
        published: String,
    },
    /// The record's seed is not the one the secret and the contributions
    /// give.
    #[error("the record's seed is {record}, but the secret and the contributions give {derived}")]
    Seed {
        /// The record's seed.
        record: Seed,
        /// The seed derived.
        derived: Seed,
    },
}

/// Checks a record's fairness section against the record's seed: the
/// secret matches the published commitment, and the seed is the one the
/// secret and the contributions give. Returns what was checked, one line
/// each (one per contribution: `P2's contribution 3fa9... went into the
/// seed`), or the first mismatch in words.
pub fn check(f: &Fairness, record_seed: &Seed) -> Result<Vec<String>, CheckError> {
    let p = parse(f)?;
    let mut lines = Vec::new();
    let actual = commitment(&p.secret);
    if !actual.eq_ignore_ascii_case(f.commitment.trim()) {
        return Err(CheckError::Commitment {
            secret: hex(&p.secret),
            actual,
            published: f.commitment.clone(),
        });
    }
    lines.push(format!(
        "the server's secret {} matches its published commitment {actual}",
        hex(&p.secret)
    ));
    if let Some(table) = &p.table {
        lines.push(format!(
            "the seed is bound to table {table} and to that commitment ({})",
            f.scheme
        ));
    }
    let derived = seed(p.binding(), &p.secret, &p.contributions);
    if derived != *record_seed {
        return Err(CheckError::Seed {
            record: *record_seed,
            derived,
        });
    }
    if p.contributions.is_empty() {
        lines.push(
            "no player contributed: the seed comes from the server's secret alone".to_string(),
        );
    }
    for (seat, value) in &p.contributions {
        lines.push(format!(
            "{seat}'s contribution {} went into the seed",
            hex(value)
        ));
    }
    lines.push(format!(
        "the seed {record_seed} is derived ({}) from the secret and {} contribution(s)",
        f.scheme,
        p.contributions.len()
    ));
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(x: u8) -> [u8; 32] {
        std::array::from_fn(|i| x.wrapping_mul(31).wrapping_add(i as u8))
    }

    fn contributions(list: &[(usize, u8)]) -> BTreeMap<Seat, [u8; 32]> {
        list.iter()
            .map(|&(s, x)| (Seat::new(s), bytes(x)))
            .collect()
    }

    #[test]
    fn the_seed_depends_on_every_input_and_on_who_gave_what() {
        let secret = bytes(1);
        let base = contributions(&[(0, 10), (2, 20)]);
        let s = derive_seed(&secret, &base);
        assert_eq!(s, derive_seed(&secret, &base), "deterministic");
        assert_ne!(s, derive_seed(&bytes(2), &base), "the secret");
        let mut one_bit = secret;
        one_bit[31] ^= 1;
        assert_ne!(s, derive_seed(&one_bit, &base));
        assert_ne!(s, derive_seed(&secret, &contributions(&[(0, 10), (2, 21)])));
        assert_ne!(s, derive_seed(&secret, &contributions(&[(0, 11), (2, 20)])));
        // the same values from other seats, or swapped between seats
        assert_ne!(s, derive_seed(&secret, &contributions(&[(1, 10), (2, 20)])));
        assert_ne!(s, derive_seed(&secret, &contributions(&[(0, 20), (2, 10)])));
        // dropping or adding one
        assert_ne!(s, derive_seed(&secret, &contributions(&[(0, 10)])));
        assert_ne!(
            s,
            derive_seed(&secret, &contributions(&[(0, 10), (2, 20), (3, 30)]))
        );
        assert_ne!(s, derive_seed(&secret, &BTreeMap::new()));
        // the secret and a contribution do not trade places
        let a = derive_seed(&bytes(10), &contributions(&[(0, 1)]));
        let b = derive_seed(&bytes(1), &contributions(&[(0, 10)]));
        assert_ne!(a, b);
        assert_eq!(seed(Binding::Unbound, &secret, &base), Seed::Full(s));
    }

    #[test]
    fn secrets_are_fresh_and_commitments_are_sha256_of_the_bytes() {
        assert_ne!(new_secret(), new_secret());
        // SHA-256 of 32 zero bytes.
        assert_eq!(
            commitment(&[0; 32]),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        assert_eq!(commitment(&bytes(3)).len(), 64);
    }

    #[test]
    fn a_seat_contributes_once() {
        let mut cs = BTreeMap::new();
        contribute(&mut cs, Seat::new(2), &hex(&bytes(1))).unwrap();
        assert_eq!(
            contribute(&mut cs, Seat::new(2), &hex(&bytes(2))),
            Err(FairError::DuplicateSeat(Seat::new(2)))
        );
        assert!(contribute(&mut cs, Seat::new(0), "nope").is_err());
        assert_eq!(cs, contributions(&[(2, 1)]));
    }

    #[test]
    fn contributions_must_be_64_hex_digits() {
        let good = hex(&bytes(7));
        assert_eq!(parse_contribution(&good), Ok(bytes(7)));
        assert_eq!(parse_contribution(&good.to_uppercase()), Ok(bytes(7)));
        let long = "a".repeat(10_000);
        let cases = [
            "",
            "00",
            &good[..63],
            &format!("{good}0"),
            &format!(" {}", &good[1..]),
            &format!("{}g", &good[..63]),
            &format!("{}é", &good[..62]),
            &format!("0x{}", &good[2..]),
            long.as_str(),
        ];
        for bad in cases {
            let e = parse_contribution(bad).unwrap_err();
            assert!(e.to_string().contains("64 hex digits"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_fairness_section_checks_and_a_tampered_one_does_not() {
        let secret = bytes(5);
        let cs = contributions(&[(1, 40), (3, 41)]);
        let seed = seed(Binding::Unbound, &secret, &cs);
        let f = fairness(Binding::Unbound, &secret, &cs, true);
        let lines = check(&f, &seed).unwrap();
        assert!(lines
            .iter()
            .any(|l| l.contains("matches its published commitment")));
        assert!(lines
            .iter()
            .any(|l| l == &format!("P2's contribution {} went into the seed", hex(&bytes(40)))));
        assert!(lines.iter().any(|l| l.starts_with("P4's contribution")));

        let hidden = fairness(Binding::Unbound, &secret, &cs, false);
        assert!(hidden.secret.is_none());
        assert!(check(&hidden, &seed)
            .unwrap_err()
            .to_string()
            .contains("secret"));

        let mut wrong_secret = f.clone();
        wrong_secret.secret = Some(hex(&bytes(6)));
        assert!(check(&wrong_secret, &seed)
            .unwrap_err()
            .to_string()
            .contains("not to the published commitment"));

        let mut changed = f.clone();
        changed.contributions[0].value = hex(&bytes(42));
        assert!(check(&changed, &seed)
            .unwrap_err()
            .to_string()
            .contains("give"));

        let mut dropped = f.clone();
        dropped.contributions.pop();
        assert!(check(&dropped, &seed).is_err());

        let mut moved = f.clone();
        moved.contributions[0].seat = Seat::new(0);
        assert!(check(&moved, &seed).is_err());

        let mut twice = f.clone();
        twice.contributions[1].seat = twice.contributions[0].seat;
        assert!(check(&twice, &seed)
            .unwrap_err()
            .to_string()
            .contains("twice"));

        let mut swapped = f.clone();
        swapped.contributions.swap(0, 1);
        assert!(check(&swapped, &seed)
            .unwrap_err()
            .to_string()
            .contains("seat order"));

        let mut garbage = f.clone();
        garbage.contributions[0].value = "zz".into();
        assert!(check(&garbage, &seed)
            .unwrap_err()
            .to_string()
            .contains("64 hex digits"));

        let mut scheme = f.clone();
        scheme.scheme = "other/9".into();
        assert!(check(&scheme, &seed)
            .unwrap_err()
            .to_string()
            .contains("unknown"));

        assert!(check(&f, &Seed::Legacy(5))
            .unwrap_err()
            .to_string()
            .contains("seed"));
        assert!(check(&f, &Seed::Full(bytes(9))).is_err());
    }

    #[test]
    fn a_version_2_seed_is_bound_to_its_table() {
        let secret = bytes(5);
        let cs = contributions(&[(0, 40), (2, 41)]);
        let x = seed(Binding::Table("tableX"), &secret, &cs);
        // Another table, or version 1, gives another seed from the same
        // secret and contributions.
        assert_ne!(x, seed(Binding::Table("tableY"), &secret, &cs));
        assert_ne!(x, seed(Binding::Unbound, &secret, &cs));
        let f = fairness(Binding::Table("tableX"), &secret, &cs, true);
        assert_eq!(
            (f.scheme.as_str(), f.table.as_deref()),
            (SCHEME_V2, Some("tableX"))
        );
        let lines = check(&f, &x).unwrap();
        assert!(
            lines.iter().any(|l| l.contains("bound to table tableX")),
            "{lines:?}"
        );
        // Posted as another table's, it fails: the seed does not check.
        let mut moved = f.clone();
        moved.table = Some("tableY".into());
        assert!(check(&moved, &x).unwrap_err().to_string().contains("give"));
        let mut none = f.clone();
        none.table = None;
        assert!(check(&none, &x)
            .unwrap_err()
            .to_string()
            .contains("names its table"));
        let mut huge = f.clone();
        huge.table = Some("t".repeat(10_000));
        assert!(check(&huge, &x).is_err());
        // Version 1 records check as before.
        let v1 = fairness(Binding::Unbound, &secret, &cs, true);
        assert_eq!(v1.scheme, SCHEME_V1);
        assert!(check(&v1, &seed(Binding::Unbound, &secret, &cs)).is_ok());
        let mut relabelled = v1.clone();
        relabelled.scheme = SCHEME.into();
        relabelled.table = Some("tableX".into());
        assert!(check(&relabelled, &seed(Binding::Unbound, &secret, &cs)).is_err());
        // Version 3's seed differs from version 2's: a signed record
        // relabelled as unsigned does not check.
        let v3 = seed(Binding::Signed("tableX"), &secret, &cs);
        assert_ne!(v3, x);
        let mut unsigned = fairness(Binding::Signed("tableX"), &secret, &cs, true);
        assert!(check(&unsigned, &v3).is_ok());
        unsigned.scheme = SCHEME_V2.into();
        assert!(check(&unsigned, &v3)
            .unwrap_err()
            .to_string()
            .contains("give"));
    }
}
