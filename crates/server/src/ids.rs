//! Identifiers and secrets: table ids, tokens, their hashes, and the
//! site's signing key. Neutral ground: the lobby, the tables and the
//! store all make or check them.

pub use registry::fair::sha256_hex;

/// Whether `id` could be a table id (cheap check before any lookup).
pub fn valid_id(id: &str) -> bool {
    (1..=32).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A new table id: 10 url-safe random characters.
pub fn new_id() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    (0..10)
        .map(|_| ALPHABET[rand::random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// A new secret (seat token, invite key, creator token): 32 random bytes,
/// hex.
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The site's signing key (Ed25519, `registry::signed`), derived from the
/// site's secret under a tag of its own: every process of a site signs
/// with the same key, and a database copied elsewhere keeps it.
pub fn signing_key(site_secret: &str) -> registry::signed::Key {
    use sha2::Digest;
    let bytes: [u8; 32] = sha2::Sha256::new()
        .chain_update(b"ratrace signing key\n")
        .chain_update(site_secret.as_bytes())
        .finalize()
        .into();
    registry::signed::Key::from_secret(&bytes)
}
