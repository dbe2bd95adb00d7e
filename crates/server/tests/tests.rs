//! Server integration tests: real servers on 127.0.0.1:0, a real WebSocket
//! client, a real SQLite file.

/// docs/bot-protocol.md's shell lines (shared with the CLI's tests).
#[path = "../../extbot/tests/common/protocol_doc.rs"]
mod protocol_doc;

mod it {
    mod analysis;
    mod bad_input;
    mod cluster;
    mod deflate;
    mod engine;
    mod extbots;
    mod friends;
    mod i18n;
    mod layers;
    mod leak;
    mod ops;
    mod outside;
    mod pairing;
    mod passkeys;
    mod play;
    mod probe;
    mod profile;
    mod restart;
    mod rooms;
    mod schemas;
    mod security;
    mod social;
    mod tournaments;
    mod tutorial;
    mod util;
    mod web;
}
