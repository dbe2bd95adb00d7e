//! Request bodies and metering shared by the lobby's handlers: every body
//! is read by [`JsonBody`] (size and shape checked, one error form), and
//! whatever costs the server something lasting is metered per address.

use crate::addr::ClientAddr;
use crate::error::Error;
use crate::quota::Kind;
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::Json;
use serde::de::DeserializeOwned;

/// Largest body of an ordinary API request.
pub(super) const BODY_LIMIT: usize = 16 * 1024;

/// Largest record accepted by `POST /api/verify`.
pub(super) const RECORD_LIMIT: usize = 4 * 1024 * 1024;

/// A JSON body whose rejections are answered as [`Error`]s.
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned> FromRequest<AppState> for JsonBody<T> {
    type Rejection = Error;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Error> {
        let read = Json::<T>::from_request(req, state);
        match tokio::time::timeout(state.limits().body_timeout, read).await {
            Ok(Ok(Json(v))) => Ok(JsonBody(v)),
            Ok(Err(r)) => Err(rejection(r)),
            Err(_) => Err(Error::Timeout),
        }
    }
}

/// Takes a token of `kind` for `addr`, or refuses with `Retry-After`.
pub(crate) fn meter(
    state: &AppState,
    kind: Kind,
    addr: ClientAddr,
    what: &str,
) -> Result<(), Error> {
    state
        .take_quota(kind, addr)
        .map_err(|wait| Error::quota(what, wait))
}

/// Runs blocking store work off the async threads; a task that panicked
/// is an internal error.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, crate::store::StoreError> + Send + 'static,
) -> Result<T, Error> {
    Ok(tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| Error::Internal(e.to_string()))??)
}

pub(super) fn rejection(r: JsonRejection) -> Error {
    if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
        Error::TooLarge
    } else {
        Error::BadInput(r.body_text())
    }
}
