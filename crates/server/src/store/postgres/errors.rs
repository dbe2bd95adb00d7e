//! Error texts of the PostgreSQL backend: tokio-postgres's and deadpool's
//! errors become [`StoreError::Postgres`] with their causes (the server's
//! message is in the cause), and a connection URL is shown without its
//! password. Kept apart so every other file of the backend, and the
//! connecting code in `mod.rs`, can use them without importing each other.

use crate::store::model::StoreError;

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        StoreError::Postgres(chain(&e))
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(e: deadpool_postgres::PoolError) -> StoreError {
        StoreError::Postgres(chain(&e))
    }
}

/// An error's text with its causes (tokio-postgres puts the server's
/// message in the cause).
pub(super) fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let more = c.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        cause = c.source();
    }
    text
}

/// A connection URL (or `key=value` string) fit for a log: its password,
/// if any, replaced by `***`.
pub(crate) fn redact(url: &str) -> String {
    let mut out = url.to_string();
    // scheme://user:password@host…
    if let Some(scheme) = out.find("://") {
        let start = scheme + 3;
        let rest = &out[start..];
        let authority = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
        if let Some(at) = authority.rfind('@') {
            if let Some(colon) = authority[..at].find(':') {
                out.replace_range(start + colon + 1..start + at, "***");
            }
        }
    }
    // password=… as a URL query parameter or a key=value pair.
    let mut from = 0;
    while let Some(found) = out[from..].to_ascii_lowercase().find("password") {
        let key_end = from + found + "password".len();
        let after = &out[key_end..];
        let Some(eq) = after.find(|c: char| !c.is_whitespace()) else {
            break;
        };
        if !after[eq..].starts_with('=') {
            from = key_end;
            continue;
        }
        let value_start = key_end + eq + 1;
        let value = &out[value_start..];
        let skip = value.len() - value.trim_start().len();
        let value = value.trim_start();
        let len = if let Some(quoted) = value.strip_prefix('\'') {
            let mut end = quoted.len();
            let mut escaped = false;
            for (i, c) in quoted.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '\'' => {
                        end = i + 1;
                        break;
                    }
                    _ => {}
                }
            }
            1 + end
        } else {
            value
                .find(|c: char| c.is_whitespace() || c == '&')
                .unwrap_or(value.len())
        };
        let start = value_start + skip;
        out.replace_range(start..start + len, "***");
        from = start + 3;
    }
    out
}
