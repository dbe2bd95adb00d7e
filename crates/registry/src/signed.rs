//! The server's signature of a table's commitment (`ratrace-fair/3`), so
//! that a record shows the server itself made its commitment, before the
//! game, and not whoever wrote the record afterwards.
//!
//! When it creates a table the server signs, with its Ed25519 key
//! (`ed25519-dalek`), the bytes
//!
//! ```text
//! field("ratrace-fair/3 commitment") field(table id) field(SHA-256(secret))
//! field(x) = u32(length of x) || x        u32 = 4 bytes big-endian
//! ```
//!
//! and the record carries the signature and the public key. Ed25519
//! signatures are deterministic, so the server need not store them: the
//! same key gives the same signature whenever it is made. A signature
//! proves something only against a key the checker trusts (the server's,
//! as `GET /api/key` or `ratrace serve --print-key` give it, or as the
//! browser kept it from the table page): a key carried by the record
//! alone could be anyone's.

use crate::fair::{hex, parse_hex32, FairError};
use ed25519_dalek::{Signer as _, SigningKey, Verifier as _, VerifyingKey};
use game::Fairness;

/// The tag hashed first into what is signed: a signature made for any
/// other purpose is never a commitment's.
const TAG: &[u8] = b"ratrace-fair/3 commitment";

/// The bytes a commitment's signature covers.
fn message(table: &str, commitment: &[u8; 32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(TAG.len() + table.len() + 44);
    for part in [TAG, table.as_bytes(), commitment.as_slice()] {
        out.extend_from_slice(&(part.len() as u32).to_be_bytes());
        out.extend_from_slice(part);
    }
    out
}

/// A server's signing key.
pub struct Key(SigningKey);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Key").field(&self.public_hex()).finish()
    }
}

impl Key {
    /// The key whose secret is `bytes` (as the server keeps it).
    pub fn from_secret(bytes: &[u8; 32]) -> Key {
        Key(SigningKey::from_bytes(bytes))
    }

    /// A fresh secret: 32 bytes from the thread's CSPRNG.
    pub fn new_secret() -> [u8; 32] {
        crate::fair::new_secret()
    }

    /// The public key, as 64 hex digits.
    pub fn public_hex(&self) -> String {
        hex(self.0.verifying_key().as_bytes())
    }

    /// The public key's bytes.
    pub fn public(&self) -> [u8; 32] {
        self.0.verifying_key().to_bytes()
    }

    /// Signs `fairness` (a version-3 section of table `table`): sets its
    /// `key` and `signature`. Any other version, or a section whose
    /// commitment is not 64 hex digits, is left as it is.
    pub fn sign(&self, fairness: &mut Fairness) {
        if fairness.scheme != crate::fair::SCHEME {
            return;
        }
        let (Some(table), Ok(commitment)) = (
            fairness.table.as_deref(),
            parse_hex32("the commitment", &fairness.commitment),
        ) else {
            return;
        };
        let signature = self.0.sign(&message(table, &commitment));
        fairness.key = Some(self.public_hex());
        fairness.signature = Some(hex(&signature.to_bytes()));
    }
}

/// Who signed a section whose signature checks out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Signer {
    /// A key the checker trusts (its hex).
    Trusted(String),
    /// A key nobody said to trust (its hex): the signature is sound, but
    /// proves nothing about who made it.
    Untrusted(String),
}

/// Why a section's signature does not check out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignError {
    /// A version-3 section without its key or signature.
    #[error(
        "the record's commitment is not signed (no `key` and `signature` in its fairness section)"
    )]
    Unsigned,
    /// A key or signature that is not hex of the right length.
    #[error("the record's {what} is not {digits} hex digits")]
    Unreadable {
        /// `key` or `signature`.
        what: &'static str,
        /// How many digits it must have.
        digits: usize,
    },
    /// A key that is no Ed25519 public key.
    #[error("the record's key {0} is not an Ed25519 public key")]
    BadKey(String),
    /// The signature is not the key's on this table's commitment.
    #[error("the signature is not key {key}'s on table {table}'s commitment {commitment}")]
    Forged {
        /// The key it claims.
        key: String,
        /// The table.
        table: String,
        /// The commitment.
        commitment: String,
    },
}

/// Reads a public key: exactly 64 hex digits.
pub fn parse_key(text: &str) -> Result<[u8; 32], FairError> {
    parse_hex32("a public key", text.trim())
}

/// Checks a version-3 section's signature of its table and commitment;
/// who signed it, trusted if its key is one of `trusted`.
pub fn check(f: &Fairness, trusted: &[[u8; 32]]) -> Result<Signer, SignError> {
    let (Some(key_text), Some(sig_text)) = (&f.key, &f.signature) else {
        return Err(SignError::Unsigned);
    };
    let key = parse_hex32("the key", key_text).map_err(|_| SignError::Unreadable {
        what: "key",
        digits: 64,
    })?;
    let sig = parse_hex64(sig_text).ok_or(SignError::Unreadable {
        what: "signature",
        digits: 128,
    })?;
    let table = f.table.clone().unwrap_or_default();
    let forged = || SignError::Forged {
        key: key_text.clone(),
        table: table.clone(),
        commitment: f.commitment.clone(),
    };
    let commitment = parse_hex32("the commitment", &f.commitment).map_err(|_| forged())?;
    let verifying =
        VerifyingKey::from_bytes(&key).map_err(|_| SignError::BadKey(key_text.clone()))?;
    let signature = ed25519_dalek::Signature::from_bytes(&sig);
    verifying
        .verify(&message(&table, &commitment), &signature)
        .map_err(|_| forged())?;
    let key_hex = hex(&key);
    Ok(if trusted.contains(&key) {
        Signer::Trusted(key_hex)
    } else {
        Signer::Untrusted(key_hex)
    })
}

/// 128 hex digits as 64 bytes.
fn parse_hex64(text: &str) -> Option<[u8; 64]> {
    let text = text.trim();
    if text.len() != 128 {
        return None;
    }
    let (a, b) = text.split_at(64);
    let (a, b) = (parse_hex32("", a).ok()?, parse_hex32("", b).ok()?);
    let mut out = [0u8; 64];
    out[..32].copy_from_slice(&a);
    out[32..].copy_from_slice(&b);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fair::{fairness, Binding};
    use std::collections::BTreeMap;

    fn section(table: &str) -> Fairness {
        fairness(Binding::Signed(table), &[7; 32], &BTreeMap::new(), true)
    }

    #[test]
    fn a_signed_commitment_checks_against_its_key_only() {
        let key = Key::from_secret(&[1; 32]);
        let other = Key::from_secret(&[2; 32]);
        let mut f = section("tbl");
        key.sign(&mut f);
        assert_eq!(f.key.as_deref(), Some(key.public_hex().as_str()));
        assert_eq!(
            check(&f, &[key.public()]),
            Ok(Signer::Trusted(key.public_hex()))
        );
        assert_eq!(
            check(&f, &[other.public()]),
            Ok(Signer::Untrusted(key.public_hex()))
        );
        // Deterministic: the same key signs the same bytes.
        let mut again = section("tbl");
        key.sign(&mut again);
        assert_eq!(again.signature, f.signature);
        // Another table, commitment or key: refused.
        let mut moved = f.clone();
        moved.table = Some("other".into());
        assert!(matches!(
            check(&moved, &[key.public()]),
            Err(SignError::Forged { .. })
        ));
        let mut recommitted = f.clone();
        recommitted.commitment = crate::fair::commitment(&[8; 32]);
        assert!(matches!(
            check(&recommitted, &[key.public()]),
            Err(SignError::Forged { .. })
        ));
        let mut rekeyed = f.clone();
        rekeyed.key = Some(other.public_hex());
        assert!(matches!(
            check(&rekeyed, &[other.public()]),
            Err(SignError::Forged { .. })
        ));
        let mut bare = f.clone();
        bare.signature = None;
        assert_eq!(check(&bare, &[key.public()]), Err(SignError::Unsigned));
        let mut garbage = f.clone();
        garbage.signature = Some("zz".into());
        assert!(matches!(
            check(&garbage, &[key.public()]),
            Err(SignError::Unreadable { .. })
        ));
    }

    #[test]
    fn only_a_version_3_section_is_signed() {
        let key = Key::from_secret(&[1; 32]);
        let mut v2 = fairness(Binding::Table("tbl"), &[7; 32], &BTreeMap::new(), true);
        key.sign(&mut v2);
        assert_eq!((v2.key, v2.signature), (None, None));
    }
}
