//! The server's one error enum, for HTTP and the WebSocket alike: each
//! variant has one machine-readable code (the `code` of an HTTP answer's
//! `{error:{code, message}}` and of a WebSocket `error` message), an HTTP
//! status, and the WebSocket close code for when it ends a connection.
//!
//! Internal causes (storage, a task that went away) are logged with
//! `tracing` and answered with a generic message: their text never reaches
//! a client.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// Why a request or a WebSocket message was refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The request is malformed or asks for something impossible.
    #[error("{0}")]
    BadInput(String),
    /// No such table.
    #[error("no such table")]
    UnknownTable,
    /// No rated player has this id.
    #[error("no rated player has this id")]
    UnknownPlayer,
    /// Two rated players share this short id.
    #[error("two players share this id: it names neither")]
    AmbiguousPlayer,
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
    /// there (several processes serve one site), or, if it cannot be,
    /// refused for a retry.
    #[error("the table is served by another server process: try again")]
    Elsewhere(crate::store::Node),
    /// A WebSocket message that is not JSON, of an unknown type, too large,
    /// or out of order.
    #[error("{0}")]
    BadMessage(String),
    /// The seat token does not belong to a seat of this table.
    #[error("{0}")]
    BadToken(String),
    /// It is not this seat's decision.
    #[error("{0}")]
    NotYourTurn(String),
    /// The action was chosen on an older position (`seq`): nothing was
    /// applied.
    #[error("{0}")]
    Stale(String),
    /// The rules forbid the action, or its text is no action of the game:
    /// the engine's own error, whose message names the rule.
    #[error("{0}")]
    Illegal(Box<dyn std::error::Error + Send + Sync>),
    /// The game is over: no action is taken.
    #[error("the game is over")]
    GameOver,
    /// A spectator tried to act.
    #[error("spectators cannot act")]
    NotSeated,
    /// The seat's person conceded: a stand-in plays it to the end.
    #[error("you conceded this game: a bot plays your seat to its end")]
    Conceded,
    /// The server has too much of this work waiting: try again later.
    #[error("{0}")]
    Busy(String),
    /// The game ended without an outcome (abandoned): what it cannot have
    /// (an analysis, a rematch) is said.
    #[error("this game was abandoned before its end: {0}")]
    Abandoned(&'static str),
    /// The identity already holds a quick-pairing ticket that waits.
    #[error("you are already waiting for a game: cancel that wait first")]
    AlreadyWaiting,
    /// No such quick-pairing ticket (never made, cancelled, expired, or
    /// lost to a restart: join again).
    #[error("no such pairing ticket: it was cancelled, expired, or lost to a restart")]
    UnknownTicket,
    /// No such shared-replay room (never made, closed when idle, or lost
    /// to a restart).
    #[error("no such room: it was closed, or lost to a restart")]
    UnknownRoom,
    /// No such tournament.
    #[error("no such tournament")]
    UnknownTournament,
    /// Nobody who ever held a seat here has this id.
    #[error("nobody who has played here has this id")]
    UnknownPerson,
    /// A follow, block or invitation that cannot be made now (a cap
    /// reached, the person offline or not followed): the reason is said.
    #[error("{0}")]
    Refused(String),
}

impl Error {
    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            Error::BadInput(_) => StatusCode::BAD_REQUEST,
            Error::UnknownTable | Error::UnknownPlayer => StatusCode::NOT_FOUND,
            Error::AmbiguousPlayer => StatusCode::CONFLICT,
            Error::SeatTaken(_) | Error::NotOver => StatusCode::CONFLICT,
            Error::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Error::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            Error::Timeout => StatusCode::REQUEST_TIMEOUT,
            Error::Forbidden(_) => StatusCode::FORBIDDEN,
            Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            Error::Elsewhere(_) => StatusCode::SERVICE_UNAVAILABLE,
            Error::BadMessage(_) => StatusCode::BAD_REQUEST,
            Error::BadToken(_) | Error::NotSeated => StatusCode::FORBIDDEN,
            Error::NotYourTurn(_) | Error::Stale(_) | Error::GameOver | Error::Conceded => {
                StatusCode::CONFLICT
            }
            Error::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Error::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            Error::Abandoned(_) | Error::AlreadyWaiting => StatusCode::CONFLICT,
            Error::UnknownTicket
            | Error::UnknownPerson
            | Error::UnknownRoom
            | Error::UnknownTournament => StatusCode::NOT_FOUND,
            Error::Refused(_) => StatusCode::CONFLICT,
        }
    }

    /// The machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Error::BadInput(_) => "bad_input",
            Error::UnknownTable => "unknown_table",
            Error::UnknownPlayer => "unknown_player",
            Error::AmbiguousPlayer => "ambiguous_player",
            Error::SeatTaken(_) => "seat_taken",
            Error::NotOver => "not_over",
            Error::TooLarge => "too_large",
            Error::RateLimited { .. } => "rate_limited",
            Error::Timeout => "timeout",
            Error::Forbidden(_) => "forbidden",
            Error::Internal(_) => "internal",
            Error::Elsewhere(_) => "try_again",
            Error::BadMessage(_) => "bad_message",
            Error::BadToken(_) => "bad_token",
            Error::NotYourTurn(_) => "not_your_turn",
            Error::Stale(_) => "stale",
            Error::Illegal(_) => "illegal",
            Error::GameOver => "game_over",
            Error::NotSeated => "not_seated",
            Error::Conceded => "conceded",
            Error::Busy(_) => "busy",
            Error::Abandoned(_) => "abandoned",
            Error::AlreadyWaiting => "already_waiting",
            Error::UnknownTicket => "unknown_ticket",
            Error::UnknownPerson => "unknown_person",
            Error::UnknownRoom => "unknown_room",
            Error::UnknownTournament => "unknown_tournament",
            Error::Refused(_) => "refused",
        }
    }

    /// The WebSocket close code when this error ends a connection: 1013
    /// (try again later) for a quota, 1012 (service restart: reconnect)
    /// for a table on the move, 1011 for a table that cannot be served,
    /// 1008 (policy) for the rest.
    pub fn close_code(&self) -> u16 {
        match self {
            Error::RateLimited { .. } | Error::Busy(_) => 1013,
            Error::Elsewhere(_) => 1012,
            Error::UnknownTable | Error::Internal(_) => 1011,
            _ => 1008,
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

/// An HTTP answer's body for a refusal: `{"error": {"code", "message"}}`.
#[derive(Debug, serde::Serialize)]
pub struct ErrorBody {
    /// What was refused.
    pub error: ErrorDetail,
}

/// See [`ErrorBody`].
#[derive(Debug, serde::Serialize)]
pub struct ErrorDetail {
    /// For programs: [`Error::code`].
    pub code: &'static str,
    /// For people.
    pub message: String,
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        if let Error::Internal(cause) = &self {
            tracing::error!("internal error: {cause}");
        }
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code(),
                message: self.to_string(),
            },
        };
        let mut response = (self.status(), axum::Json(body)).into_response();
        let retry_after = match &self {
            Error::RateLimited { retry_after, .. } => Some(*retry_after.max(&1)),
            Error::Elsewhere(_) => Some(1),
            Error::Busy(_) => Some(30),
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

    /// One vocabulary: every code is distinct, lowercase snake case, and
    /// known to the web client's translations.
    #[test]
    fn every_code_is_distinct_and_translated() {
        let all = [
            Error::BadInput(String::new()),
            Error::UnknownTable,
            Error::SeatTaken(String::new()),
            Error::NotOver,
            Error::TooLarge,
            Error::RateLimited {
                retry_after: 1,
                message: String::new(),
            },
            Error::Timeout,
            Error::Forbidden(String::new()),
            Error::Internal(String::new()),
            Error::BadMessage(String::new()),
            Error::BadToken(String::new()),
            Error::NotYourTurn(String::new()),
            Error::Stale(String::new()),
            Error::Illegal("".into()),
            Error::GameOver,
            Error::NotSeated,
            Error::Busy(String::new()),
            Error::Abandoned(""),
            Error::AlreadyWaiting,
            Error::UnknownTicket,
            Error::UnknownPlayer,
            Error::AmbiguousPlayer,
        ];
        let i18n = concat!(
            include_str!("../web/i18n-en.js"),
            include_str!("../web/i18n-it.js"),
            include_str!("../web/i18n-fr.js")
        );
        let mut seen = std::collections::HashSet::new();
        for e in &all {
            let code = e.code();
            assert!(seen.insert(code), "{code} twice");
            assert!(code.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
            let key = format!("'err.{code}'");
            assert_eq!(i18n.matches(&key).count(), 3, "{key} in en, it and fr");
            assert!((1000..5000).contains(&e.close_code()));
        }
        assert_eq!(Error::GameOver.status(), StatusCode::CONFLICT);
        assert_eq!(Error::Illegal("B5".into()).close_code(), 1008);
    }
}
