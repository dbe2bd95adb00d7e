//! What compressing the server's WebSocket messages costs the server, per
//! message, in each `--ws-compression` mode: 40 consecutive messages of a
//! real Dalmuti game as one seat got them (a whole state, then updates;
//! `benches/messages.jsonl`), sent through the server's own WebSocket
//! options into an in-memory pipe whose far end is drained. Bytes per
//! mode are in docs/server.md ("WebSocket compression"), from
//! scripts/ws-deflate.py against a real server.
// criterion's macros write undocumented functions.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use futures_util::SinkExt;
use server::WsCompression;
use tokio::io::AsyncReadExt;
use yawc::{Frame, Role, WebSocket};

const MESSAGES: &str = include_str!("messages.jsonl");

fn send(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let messages: Vec<String> = MESSAGES.lines().map(str::to_string).collect();
    let mut group = c.benchmark_group("ws_send");
    group.throughput(Throughput::Elements(messages.len() as u64));
    let modes = [
        ("off", WsCompression::Off, None),
        (
            "message",
            WsCompression::Message,
            Some("permessage-deflate; server_no_context_takeover; client_no_context_takeover"),
        ),
        (
            "context",
            WsCompression::Context,
            Some("permessage-deflate; client_no_context_takeover"),
        ),
    ];
    for (name, mode, agreed) in modes {
        let (near, mut far) = tokio::io::duplex(1 << 20);
        let mut ws = rt.block_on(async {
            tokio::spawn(async move {
                let mut buf = vec![0u8; 1 << 16];
                while far.read(&mut buf).await.is_ok_and(|n| n > 0) {}
            });
            WebSocket::from_stream_with_extensions(
                near,
                Role::Server,
                agreed,
                server::ws::options(mode),
            )
            .unwrap()
        });
        group.bench_function(name, |b| {
            b.iter(|| {
                rt.block_on(async {
                    for m in &messages {
                        ws.feed(Frame::text(m.clone())).await.unwrap();
                    }
                    ws.flush().await.unwrap();
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, send);
criterion_main!(benches);
