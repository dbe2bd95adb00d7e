//! Passkeys that keep a person's identity (migration 12): one row per
//! WebAuthn credential, with the person's id, their identity key and the
//! credential as webauthn-rs keeps it (JSON). Signing in with a passkey
//! on another device gives that device the identity key, which is why
//! the key is kept here at all: it is the identity (the server is sent it
//! with every "my" request anyway), and a person without a passkey has
//! none kept. A person holds at most a capped number of passkeys, checked
//! in the statement that inserts one.

/// A stored passkey.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PasskeyRow {
    /// The credential id (base64url), as the authenticator gives it.
    pub id: String,
    /// The person's whole id (the hash of their identity key).
    pub player: String,
    /// Their identity key, handed to a device that signs in.
    pub identity_key: String,
    /// The credential (webauthn-rs's `Passkey`, as JSON).
    pub passkey: String,
    /// Unix seconds it was added.
    pub created_at: i64,
    /// Unix seconds it last signed someone in.
    pub used_at: Option<i64>,
}
