//! The security suite, second part: each finding of the second outside
//! probe (S1..S11) as a regression test against a real server on
//! loopback, bounded in count and time like the first part
//! (`security.rs`).

use super::util::*;
use futures_util::SinkExt;
use serde_json::json;
use server::store::{SqliteStore, Store};
use server::Limits;
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

fn memory() -> Arc<dyn Store> {
    Arc::new(SqliteStore::in_memory().unwrap())
}

/// S1: a spectator that never reads is closed as too slow, and its socket
/// is really gone within seconds (the kernel's own list, not a gauge),
/// while the client still holds its end open and keeps asking for states.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kicked_reader_that_never_reads_loses_its_socket() {
    let limits = Limits {
        send_buffer: 4096,
        ..Limits::unlimited()
    };
    let server = start_on(memory(), limits).await;
    let seats = json!([{"kind":"bot"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]);
    let id = create(
        server.addr,
        json!({"game": "dalmuti", "players": 5, "options": {"hands": 100}, "seats": seats, "bot_delay_ms": 0}),
    )
    .await;
    assert_eq!(server_sockets(server.addr.port()), 0);
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(2048).unwrap();
    let tcp = socket.connect(server.addr).await.unwrap();
    let (mut slow, _) = tokio_tungstenite::client_async(
        format!("ws://{}/ws/{id}", server.addr),
        tokio_tungstenite::MaybeTlsStream::Plain(tcp),
    )
    .await
    .unwrap();
    slow.send(Message::Text(json!({"type": "hello"}).to_string().into()))
        .await
        .unwrap();
    // Resyncs at 18 a second, never reading an answer; the bots' actions
    // add their updates.
    let start = tokio::time::Instant::now();
    let mut seen_open = false;
    let mut gone = None;
    while start.elapsed() < Duration::from_secs(25) {
        let open = server_sockets(server.addr.port());
        seen_open |= open > 0;
        if seen_open && open == 0 {
            gone = Some(start.elapsed());
            break;
        }
        let resync = Message::Text(json!({"type": "resync"}).to_string().into());
        // Once the server has reset the connection, sending fails: the
        // client keeps its end all the same.
        let _ = tokio::time::timeout(Duration::from_millis(50), slow.send(resync)).await;
        tokio::time::sleep(Duration::from_millis(55)).await;
    }
    assert!(seen_open, "the connection was never open");
    let gone = gone.expect("the kicked connection's socket is still open after 25 s");
    assert!(gone < Duration::from_secs(20), "{gone:?}");
    drop(slow);
}
