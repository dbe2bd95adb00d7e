//! Passkeys' ceremonies in progress: between the challenge a browser is
//! given and the credential it sends back, the server keeps the
//! ceremony's state (webauthn-rs's, which must not reach the client), in
//! memory, for [`CEREMONY_S`] at most and [`MAX_CEREMONIES`] at once. A
//! ceremony is taken once: a replayed answer finds nothing.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use webauthn_rs::prelude::{DiscoverableAuthentication, PasskeyRegistration};

/// Seconds a ceremony waits for its answer.
pub const CEREMONY_S: u64 = 300;
/// The most ceremonies in progress at once.
pub const MAX_CEREMONIES: usize = 10_000;

/// Why `--passkey-origin` cannot be the site's.
#[derive(Debug, thiserror::Error)]
#[error("--passkey-origin {origin}: {why}")]
pub struct BadOrigin {
    /// The origin given.
    pub origin: String,
    /// What is wrong with it.
    pub why: String,
}

/// The site as WebAuthn knows it, for `origin` (the operator's
/// `--passkey-origin`): its host is the relying party; a `localhost`
/// origin allows any port (tests and development).
pub fn site(origin: &str) -> Result<webauthn_rs::Webauthn, BadOrigin> {
    let bad = |why: String| BadOrigin {
        origin: origin.to_string(),
        why,
    };
    let url = webauthn_rs::prelude::Url::parse(origin).map_err(|e| bad(e.to_string()))?;
    let host = url
        .host_str()
        .ok_or_else(|| bad("no host".into()))?
        .to_string();
    webauthn_rs::WebauthnBuilder::new(&host, &url)
        .map_err(|e| bad(e.to_string()))?
        .rp_name("ratrace")
        .allow_any_port(host == "localhost")
        .build()
        .map_err(|e| bad(e.to_string()))
}

/// A ceremony's state.
pub enum Ceremony {
    /// Adding a passkey to an identity: whose, its key, and the state.
    Register {
        /// The person's whole id.
        player: String,
        /// Their identity key.
        key: String,
        /// webauthn-rs's state.
        state: Box<PasskeyRegistration>,
    },
    /// Signing in with any passkey of this site.
    Login(Box<DiscoverableAuthentication>),
}

/// See the module docs.
#[derive(Default)]
pub struct Ceremonies {
    book: Mutex<HashMap<String, (Instant, Ceremony)>>,
}

impl Ceremonies {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Instant, Ceremony)>> {
        self.book.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Keeps `ceremony`; its id, or `None` while [`MAX_CEREMONIES`] wait.
    pub fn put(&self, ceremony: Ceremony, now: Instant) -> Option<String> {
        let mut book = self.lock();
        let ttl = Duration::from_secs(CEREMONY_S);
        if book.len() >= MAX_CEREMONIES {
            book.retain(|_, (at, _)| now.saturating_duration_since(*at) < ttl);
            if book.len() >= MAX_CEREMONIES {
                return None;
            }
        }
        let id = crate::ids::new_token();
        book.insert(id.clone(), (now, ceremony));
        Some(id)
    }

    /// Takes ceremony `id` (once), if it is still waiting.
    pub fn take(&self, id: &str, now: Instant) -> Option<Ceremony> {
        let (at, ceremony) = self.lock().remove(id)?;
        (now.saturating_duration_since(at) < Duration::from_secs(CEREMONY_S)).then_some(ceremony)
    }
}
