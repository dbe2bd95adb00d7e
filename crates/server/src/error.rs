//! The server's one error enum, mapped to HTTP statuses and a JSON body
//! `{error:{code, message}}`.
//!
//! Internal causes (storage, a task that went away) are logged with
//! `tracing` and answered with a generic message: their text never reaches
//! a client.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// Why an HTTP request was refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The request is malformed or asks for something impossible.
    #[error("{0}")]
    BadInput(String),
    /// No such table.
    #[error("no such table")]
    UnknownTable,
    /// The seat is taken, or no human seat is free.
    #[error("{0}")]
    SeatTaken(String),
    /// The game is not over yet.
    #[error("the game is not over yet")]
    NotOver,
    /// The request body is too large.
    #[error("the request is too large")]
    TooLarge,
    /// Too many requests, or a cap is reached: try again after
    /// `retry_after` seconds (sent as `Retry-After`).
    #[error("{message}")]
    RateLimited {
        /// Seconds to wait.
        retry_after: u64,
        /// What was refused.
        message: String,
    },
    /// The request was not sent in time.
    #[error("the request took too long to arrive")]
    Timeout,
    /// Only the table's creator may do that.
    #[error("{0}")]
    Forbidden(String),
    /// The server failed; the cause is logged, not sent.
    #[error("internal error")]
    Internal(String),
    /// Another live process owns the table: the request is forwarded
    /// there (issue 9), or, if it cannot be, refused for a retry.
    #[error("the table is served by another server process: try again")]
    Elsewhere(crate::store::Node),
}

impl Error {
    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            Error::BadInput(_) => StatusCode::BAD_REQUEST,
            Error::UnknownTable => StatusCode::NOT_FOUND,
            Error::SeatTaken(_) | Error::NotOver => StatusCode::CONFLICT,
            Error::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Error::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            Error::Timeout => StatusCode::REQUEST_TIMEOUT,
            Error::Forbidden(_) => StatusCode::FORBIDDEN,
            Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            Error::Elsewhere(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Error::BadInput(_) => "bad_input",
            Error::UnknownTable => "unknown_table",
            Error::SeatTaken(_) => "seat_taken",
            Error::NotOver => "not_over",
            Error::TooLarge => "too_large",
            Error::RateLimited { .. } => "rate_limited",
            Error::Timeout => "timeout",
            Error::Forbidden(_) => "forbidden",
            Error::Internal(_) => "internal",
            Error::Elsewhere(_) => "try_again",
        }
    }
}

impl Error {
    /// A refusal by a quota: `wait` until a token is back.
    pub fn quota(what: &str, wait: std::time::Duration) -> Error {
        let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        Error::RateLimited {
            retry_after: secs.max(1),
            message: format!(
                "too many {what} from your address: try again in {} s",
                secs.max(1)
            ),
        }
    }
}

impl From<crate::store::StoreError> for Error {
    fn from(e: crate::store::StoreError) -> Error {
        Error::Internal(e.to_string())
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        if let Error::Internal(cause) = &self {
            tracing::error!("internal error: {cause}");
        }
        let body = serde_json::json!({
            "error": { "code": self.code(), "message": self.to_string() }
        });
        let mut response = (self.status(), axum::Json(body)).into_response();
        let retry_after = match &self {
            Error::RateLimited { retry_after, .. } => Some(*retry_after.max(&1)),
            Error::Elsewhere(_) => Some(1),
            _ => None,
        };
        if let Some(secs) = retry_after {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(secs),
            );
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_causes_stay_inside() {
        let e = Error::Internal("disk on fire at /secret/path".to_string());
        assert_eq!(e.to_string(), "internal error");
        assert_eq!(e.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(Error::UnknownTable.status(), StatusCode::NOT_FOUND);
        assert_eq!(Error::TooLarge.status(), StatusCode::PAYLOAD_TOO_LARGE);
    }
}
