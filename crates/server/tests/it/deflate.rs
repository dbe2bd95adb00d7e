//! WebSocket compression (permessage-deflate, RFC 7692) through a real
//! server, with a client written out here over TCP so that the frames on
//! the wire can be read bit by bit: the extension is agreed when offered
//! (each message alone by default, or with a context per connection),
//! the server's messages come compressed and inflate to the protocol's
//! JSON, a client's compressed message is understood, a message in
//! fragments is put together under the cap, and a compressed bomb is
//! closed before it is inflated past the message cap.

use super::util::*;
use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress};
use serde_json::{json, Value};
use server::{Limits, WsCompression};
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// What the browsers offer.
const OFFER: &str = "permessage-deflate; client_max_window_bits";

/// A WebSocket client over a bare TCP stream: the handshake with an
/// optional extension offer, masked frames out, frames in with their
/// RSV1 (compressed) bit.
struct Raw {
    tcp: TcpStream,
    /// The table (a spectator's hello shows a private table's key).
    table: String,
    /// The server's `Sec-WebSocket-Extensions` answer, if any.
    agreed: Option<String>,
    /// The inflater for the server's messages (kept across messages only
    /// if the server keeps its context).
    inflate: Decompress,
}

/// One frame as read: opcode, RSV1, payload (unmasked).
struct Frame {
    opcode: u8,
    compressed: bool,
    payload: Vec<u8>,
}

impl Raw {
    async fn connect(addr: SocketAddr, id: &str, offer: Option<&str>) -> Raw {
        let mut tcp = TcpStream::connect(addr).await.unwrap();
        let offer = offer
            .map(|o| format!("Sec-WebSocket-Extensions: {o}\r\n"))
            .unwrap_or_default();
        let request = format!(
            "GET /ws/{id} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{offer}\r\n"
        );
        tcp.write_all(request.as_bytes()).await.unwrap();
        // The answer's head, byte by byte (frames may follow it at once).
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            let mut b = [0u8; 1];
            tcp.read_exact(&mut b).await.unwrap();
            head.push(b[0]);
        }
        let head = String::from_utf8(head).unwrap();
        assert!(head.starts_with("HTTP/1.1 101"), "{head}");
        let agreed = head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("sec-websocket-extensions")
                .then(|| v.trim().to_string())
        });
        Raw {
            tcp,
            table: id.to_string(),
            agreed,
            inflate: Decompress::new(false),
        }
    }

    /// Sends one masked frame (`rsv1`: its payload is compressed).
    async fn send_frame(&mut self, opcode: u8, rsv1: bool, payload: &[u8]) {
        self.send_piece(true, opcode, rsv1, payload).await;
    }

    /// Sends one masked frame, the last of its message if `fin`.
    async fn send_piece(&mut self, fin: bool, opcode: u8, rsv1: bool, payload: &[u8]) {
        let fin = if fin { 0x80 } else { 0 };
        let mut f = vec![fin | if rsv1 { 0x40 } else { 0 } | opcode];
        match payload.len() {
            n if n < 126 => f.push(0x80 | n as u8),
            n if n < 65536 => {
                f.push(0x80 | 126);
                f.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                f.push(0x80 | 127);
                f.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        let mask = [0x12, 0x34, 0x56, 0x78];
        f.extend_from_slice(&mask);
        f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.tcp.write_all(&f).await.unwrap();
    }

    async fn send_json(&mut self, v: Value) {
        self.send_frame(1, false, v.to_string().as_bytes()).await;
    }

    /// The next frame, or `None` once the server closed the TCP stream.
    async fn frame(&mut self) -> Option<Frame> {
        let read = async {
            let mut h = [0u8; 2];
            self.tcp.read_exact(&mut h).await.ok()?;
            let len = match h[1] & 0x7f {
                126 => {
                    let mut b = [0u8; 2];
                    self.tcp.read_exact(&mut b).await.ok()?;
                    u64::from(u16::from_be_bytes(b))
                }
                127 => {
                    let mut b = [0u8; 8];
                    self.tcp.read_exact(&mut b).await.ok()?;
                    u64::from_be_bytes(b)
                }
                n => u64::from(n),
            };
            assert_eq!(h[1] & 0x80, 0, "a server's frames are not masked");
            let mut payload = vec![0u8; usize::try_from(len).unwrap()];
            self.tcp.read_exact(&mut payload).await.ok()?;
            Some(Frame {
                opcode: h[0] & 0x0f,
                compressed: h[0] & 0x40 != 0,
                payload,
            })
        };
        tokio::time::timeout(TIMEOUT, read)
            .await
            .expect("no frame in time")
    }

    /// The next text message as JSON, inflated if it came compressed;
    /// and whether it did.
    async fn message(&mut self) -> (Value, bool) {
        let f = self.frame().await.expect("a message");
        assert_eq!(f.opcode, 1, "a text message");
        let text = if f.compressed {
            let keeps = self
                .agreed
                .as_deref()
                .is_some_and(|a| !a.contains("server_no_context_takeover"));
            if !keeps {
                self.inflate = Decompress::new(false);
            }
            inflate(&mut self.inflate, &f.payload)
        } else {
            f.payload
        };
        (serde_json::from_slice(&text).unwrap(), f.compressed)
    }
}

/// Inflates one message (RFC 7692: the sync flush's tail comes back).
fn inflate(d: &mut Decompress, payload: &[u8]) -> Vec<u8> {
    let mut input = payload.to_vec();
    input.extend_from_slice(&[0, 0, 0xff, 0xff]);
    let mut out = Vec::with_capacity(64 * 1024);
    let before = d.total_in();
    while d.total_in() - before < input.len() as u64 {
        let at = (d.total_in() - before) as usize;
        out.reserve(64 * 1024);
        d.decompress_vec(&input[at..], &mut out, FlushDecompress::Sync)
            .unwrap();
    }
    out
}

/// Deflates one message alone, as a client does (the sync flush's tail
/// removed), within the 512-byte window the server asks clients for
/// (`client_max_window_bits=9`).
fn deflate(text: &[u8]) -> Vec<u8> {
    let mut c = Compress::new_with_window_bits(Compression::best(), false, 9);
    let mut out = Vec::with_capacity(text.len() / 2 + 64);
    c.compress_vec(text, &mut out, FlushCompress::Sync).unwrap();
    while c.total_in() < text.len() as u64 {
        out.reserve(4096);
        let at = c.total_in() as usize;
        c.compress_vec(&text[at..], &mut out, FlushCompress::Sync)
            .unwrap();
    }
    assert!(out.ends_with(&[0, 0, 0xff, 0xff]));
    out.truncate(out.len() - 4);
    out
}

async fn server_with(compression: WsCompression) -> (Server, String) {
    let limits = Limits {
        ws_compression: compression,
        ..Limits::unlimited()
    };
    let server = start_on(fresh_store().await, limits).await;
    let id = create(
        server.addr,
        // (public: its raw clients watch without the invite key)
        json!({"game": "dalmuti", "players": 4, "bot_delay_ms": 0, "public": true,
               "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]}),
    )
    .await;
    (server, id)
}

/// Says hello with P1's token (or as a spectator) and reads messages
/// until `n` have come: how many came compressed, and the last.
async fn hello_and_read(raw: &mut Raw, token: Option<&str>, n: usize) -> (usize, Value) {
    let key = token.is_none().then(|| key_of(&raw.table)).flatten();
    raw.send_json(json!({"type": "hello", "token": token, "key": key}))
        .await;
    let (mut compressed, mut last) = (0, Value::Null);
    for _ in 0..n {
        let (m, c) = raw.message().await;
        compressed += usize::from(c);
        last = m;
    }
    (compressed, last)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_offer_is_agreed_and_each_message_is_compressed_alone_by_default() {
    let (server, id) = server_with(WsCompression::Message).await;
    let token = join(server.addr, &id, "P1").await;
    let mut raw = Raw::connect(server.addr, &id, Some(OFFER)).await;
    let agreed = raw.agreed.clone().expect("the extension is agreed");
    assert!(agreed.starts_with("permessage-deflate"), "{agreed}");
    assert!(agreed.contains("server_no_context_takeover"), "{agreed}");
    assert!(agreed.contains("client_no_context_takeover"), "{agreed}");
    assert!(agreed.contains("client_max_window_bits=9"), "{agreed}");
    // The whole state (and what follows) comes compressed, and inflates to
    // the protocol's JSON.
    raw.send_json(json!({"type": "hello", "token": token}))
        .await;
    let (state, compressed) = loop {
        let (m, c) = raw.message().await;
        if m["type"] == "state" {
            break (m, c);
        }
    };
    assert_eq!(state["seat"], "P1");
    assert!(compressed, "a whole state is compressed");
    // A client's own compressed message is understood: a compressed
    // resync gets the whole state again.
    raw.send_frame(1, true, &deflate(br#"{"type":"resync"}"#))
        .await;
    loop {
        let (m, _) = raw.message().await;
        if m["type"] == "state" {
            assert_eq!(m["seat"], "P1");
            break;
        }
        assert_ne!(m["type"], "error", "{m}");
    }
    // A small message (a pong) goes as it is.
    raw.send_json(json!({"type": "ping"})).await;
    loop {
        let f = raw.frame().await.unwrap();
        if !f.compressed && f.payload == br#"{"type":"pong"}"# {
            break;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_context_per_connection_messages_refer_to_earlier_ones() {
    let (server, id) = server_with(WsCompression::Context).await;
    let mut raw = Raw::connect(server.addr, &id, Some(OFFER)).await;
    let agreed = raw.agreed.clone().expect("the extension is agreed");
    assert!(!agreed.contains("server_no_context_takeover"), "{agreed}");
    // Two whole states in a row: the second, the same text, costs a few
    // bytes once the first is in the context.
    raw.send_json(json!({"type": "hello"})).await;
    let first = raw.frame().await.unwrap();
    assert!(first.compressed);
    let text = inflate(&mut raw.inflate, &first.payload);
    raw.send_json(json!({"type": "resync"})).await;
    let second = raw.frame().await.unwrap();
    let again = inflate(&mut raw.inflate, &second.payload);
    assert_eq!(
        text, again,
        "nothing moved at a table without a seated person"
    );
    assert!(
        second.payload.len() * 4 < first.payload.len(),
        "{} then {} bytes",
        first.payload.len(),
        second.payload.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_an_offer_or_when_off_frames_go_as_they_are() {
    let (server, id) = server_with(WsCompression::Message).await;
    let mut raw = Raw::connect(server.addr, &id, None).await;
    assert_eq!(raw.agreed, None);
    let (compressed, state) = hello_and_read(&mut raw, None, 1).await;
    assert_eq!((compressed, state["type"].as_str()), (0, Some("state")));

    let (server, id) = server_with(WsCompression::Off).await;
    let mut raw = Raw::connect(server.addr, &id, Some(OFFER)).await;
    assert_eq!(raw.agreed, None, "declined");
    let (compressed, state) = hello_and_read(&mut raw, None, 1).await;
    assert_eq!((compressed, state["type"].as_str()), (0, Some("state")));
    // A compressed frame that was never agreed is a protocol error.
    raw.send_frame(1, true, &deflate(br#"{"type":"ping"}"#))
        .await;
    let close = loop {
        let f = raw.frame().await.expect("a close frame");
        if f.opcode == 8 {
            break f;
        }
    };
    assert_eq!(
        u16::from_be_bytes([close.payload[0], close.payload[1]]),
        1002
    );
}

/// The attack: a few kilobytes that inflate to a megabyte. The server
/// closes with 1009 before holding more than the message cap, and goes on
/// serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compressed_bomb_is_closed_before_it_is_inflated_past_the_cap() {
    for mode in [WsCompression::Message, WsCompression::Context] {
        let (server, id) = server_with(mode).await;
        let mut raw = Raw::connect(server.addr, &id, Some(OFFER)).await;
        hello_and_read(&mut raw, None, 1).await;
        let bomb = deflate(&vec![b' '; 1 << 20]);
        assert!(bomb.len() < 8 * 1024, "{} bytes", bomb.len());
        raw.send_frame(1, true, &bomb).await;
        let close = loop {
            match raw.frame().await {
                Some(f) if f.opcode == 8 => break f,
                Some(_) => {}
                None => panic!("closed without a close frame"),
            }
        };
        let code = u16::from_be_bytes([close.payload[0], close.payload[1]]);
        assert_eq!(code, 1009, "{mode:?}");
        // Others are still served.
        let mut other = Raw::connect(server.addr, &id, Some(OFFER)).await;
        let (_, state) = hello_and_read(&mut other, None, 1).await;
        assert_eq!(state["type"], "state");
    }
}

/// The next close frame's code and reason, skipping other frames.
async fn close_of(raw: &mut Raw) -> (u16, String) {
    loop {
        match raw.frame().await {
            Some(f) if f.opcode == 8 => {
                let code = u16::from_be_bytes([f.payload[0], f.payload[1]]);
                return (code, String::from_utf8_lossy(&f.payload[2..]).into_owned());
            }
            Some(_) => {}
            None => panic!("closed without a close frame"),
        }
    }
}

/// A message in fragments is put together (compressed or not); a
/// continuation with nothing to continue is a protocol error (1002); and
/// fragments past 64 KiB in all are closed with 1009, each fragment
/// having counted as a frame.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fragments_are_put_together_under_the_cap() {
    let (server, id) = server_with(WsCompression::Message).await;
    let mut raw = Raw::connect(server.addr, &id, Some(OFFER)).await;
    raw.send_piece(false, 1, false, br#"{"type":"#).await;
    raw.send_piece(true, 0, false, br#""hello"}"#).await;
    let (state, _) = raw.message().await;
    assert_eq!(state["type"], "state", "{state}");
    // A compressed message in two fragments: RSV1 on the first only.
    let whole = deflate(br#"{"type":"resync"}"#);
    let (a, b) = whole.split_at(whole.len() / 2);
    raw.send_piece(false, 1, true, a).await;
    raw.send_piece(true, 0, false, b).await;
    loop {
        let (m, _) = raw.message().await;
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "state" {
            break;
        }
    }
    raw.send_piece(true, 0, false, b"stray").await;
    assert_eq!(close_of(&mut raw).await.0, 1002);

    let mut big = Raw::connect(server.addr, &id, Some(OFFER)).await;
    hello_and_read(&mut big, None, 1).await;
    big.send_piece(false, 1, false, &[b' '; 40 * 1024]).await;
    big.send_piece(false, 0, false, &[b' '; 20 * 1024]).await;
    big.send_piece(true, 0, false, &[b' '; 20 * 1024]).await;
    let (code, reason) = close_of(&mut big).await;
    assert_eq!(
        (code, reason.as_str()),
        (1009, "message too big (at most 64 KiB)")
    );
}

/// Every close frame the server sends from now on, its TCP stream read to
/// the end: the client answers the first close with its own, as a client
/// must, and nothing more may come after that but the end.
async fn all_closes(raw: &mut Raw) -> Vec<u16> {
    let mut closes = Vec::new();
    while let Some(f) = raw.frame().await {
        if f.opcode == 8 {
            let code = u16::from_be_bytes([f.payload[0], f.payload[1]]);
            if closes.is_empty() {
                raw.send_frame(8, false, &f.payload[..2]).await;
            }
            closes.push(code);
        }
    }
    closes
}

/// A message that does not inflate, a garbled deflate stream or a
/// compressed continuation after a plain first fragment, is closed with
/// exactly one close frame (the codec's 1011), never a second one after
/// it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_compressed_message_gets_one_close_frame() {
    let (server, id) = server_with(WsCompression::Message).await;
    // Garbage flagged as compressed.
    let mut raw = Raw::connect(server.addr, &id, Some(OFFER)).await;
    hello_and_read(&mut raw, None, 1).await;
    raw.send_frame(1, true, &[0xff; 8]).await;
    assert_eq!(all_closes(&mut raw).await, vec![1011], "one close");
    // A plain first fragment, then a continuation with RSV1 set.
    let mut raw = Raw::connect(server.addr, &id, Some(OFFER)).await;
    hello_and_read(&mut raw, None, 1).await;
    raw.send_piece(false, 1, false, br#"{"type":"#).await;
    raw.send_piece(true, 0, true, &[0xff; 8]).await;
    let closes = all_closes(&mut raw).await;
    assert_eq!(closes.len(), 1, "one close: {closes:?}");
}

/// Offers the server cannot take as they are are declined or answered
/// within RFC 7692: never a window parameter without its value, never a
/// window the client did not allow, an unknown or repeated parameter
/// declined.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_deflate_answer_follows_rfc_7692() {
    let (server, id) = server_with(WsCompression::Message).await;
    // Every `*_window_bits` in an answer has a value from 8 to 15.
    let valued = |agreed: &str| {
        agreed.split(';').map(str::trim).all(|p| {
            !p.contains("window_bits")
                || p.split_once('=')
                    .and_then(|(_, v)| v.parse::<u8>().ok())
                    .is_some_and(|n| (8..=15).contains(&n))
        })
    };
    for declined in [
        "permessage-deflate; server_max_window_bits=8",
        "permessage-deflate; server_max_window_bits=0",
        "permessage-deflate; server_max_window_bits=16",
        "permessage-deflate; server_max_window_bits=010",
        "permessage-deflate; server_max_window_bits",
        "permessage-deflate; client_max_window_bits=16",
        "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
        "permessage-deflate; foo",
    ] {
        let mut raw = Raw::connect(server.addr, &id, Some(declined)).await;
        assert_eq!(raw.agreed, None, "{declined}: declined");
        let (_, last) = hello_and_read(&mut raw, None, 1).await;
        assert_eq!(last["type"], "state", "{declined}: and the game goes on");
    }
    // A client window of 8 bits: agreed without it (the client then uses
    // its default window), and the client's messages are understood.
    let mut raw = Raw::connect(
        server.addr,
        &id,
        Some("permessage-deflate; client_max_window_bits=8"),
    )
    .await;
    let agreed = raw.agreed.clone().expect("agreed");
    assert!(
        valued(&agreed) && !agreed.contains("client_max_window_bits"),
        "{agreed}"
    );
    hello_and_read(&mut raw, None, 1).await;
    raw.send_frame(1, true, &deflate(br#"{"type":"resync"}"#))
        .await;
    loop {
        let (m, _) = raw.message().await;
        if m["type"] == "state" {
            break;
        }
    }
    // A server window the client asks for is kept to, and said.
    let mut raw = Raw::connect(
        server.addr,
        &id,
        Some("permessage-deflate; server_max_window_bits=10"),
    )
    .await;
    let agreed = raw.agreed.clone().expect("agreed");
    assert!(
        valued(&agreed) && agreed.contains("server_max_window_bits=10"),
        "{agreed}"
    );
    raw.inflate = Decompress::new_with_window_bits(false, 10);
    let (compressed, last) = hello_and_read(&mut raw, None, 1).await;
    assert_eq!((compressed, &last["type"]), (1, &json!("state")));
    // Of several offers, the first the server can take.
    let raw = Raw::connect(
        server.addr,
        &id,
        Some("permessage-deflate; server_max_window_bits=8, permessage-deflate; client_max_window_bits"),
    )
    .await;
    let agreed = raw.agreed.clone().expect("agreed");
    assert!(
        valued(&agreed) && agreed.contains("client_max_window_bits=9"),
        "{agreed}"
    );
}
