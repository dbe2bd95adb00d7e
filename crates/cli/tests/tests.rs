//! Integration tests of the `ratrace` shell (one test binary, modules in
//! `it/`): the commands, the lab (and its duplicate-spread study) and the
//! tournament end to end, a real `ratrace serve` process killed and
//! restarted mid-game, one stopped with SIGTERM, three of them sharing one
//! database, `ratrace db copy`, and bot programs (`bot-check`, `play`,
//! tournaments).

/// docs/bot-protocol.md's shell lines (shared with the server's tests).
#[path = "../../extbot/tests/common/protocol_doc.rs"]
mod protocol_doc;

mod it {
    pub(crate) use commands::temp_dir;

    mod analyze;
    mod bots;
    mod commands;
    mod db_copy;
    mod lab;
    mod records;
    mod serve_kill;
    mod serve_term;
    mod spread;
    mod tournament;
}
