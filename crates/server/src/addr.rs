//! Where a client connects from, as quotas and caps count it: an IPv4
//! address, or an IPv6 /56. The accept loop (`net`) puts it on every
//! request; handlers take it as an extractor. Neutral ground: it imports
//! nothing of the server.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv6Addr};

/// The client address of a request, as the accept loop saw it (an IPv6
/// address is cut to its /56: one household's usual allocation, so a home
/// cannot count as 256 clients). Requests that did
/// not come through [`crate::run`] (a test driving the router directly) get the
/// unspecified address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientAddr(pub IpAddr);

impl ClientAddr {
    /// The key quotas and caps count by.
    pub fn of(ip: IpAddr) -> ClientAddr {
        match ip {
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => ClientAddr(IpAddr::V4(v4)),
                None => {
                    let s = v6.segments();
                    ClientAddr(IpAddr::V6(Ipv6Addr::new(
                        s[0],
                        s[1],
                        s[2],
                        s[3] & 0xff00,
                        0,
                        0,
                        0,
                        0,
                    )))
                }
            },
            v4 => ClientAddr(v4),
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(parts
            .extensions
            .get::<ClientAddr>()
            .copied()
            .unwrap_or(ClientAddr(IpAddr::from([0, 0, 0, 0]))))
    }
}
