//! Server-wide limits: every resource an outside client can use has one.
//! Plain data at the bottom of the server: every layer reads it.

use std::time::Duration;

/// Messages per second a connection may send before it is refused.
pub const RATE_LIMIT: u32 = 20;
/// Messages per second after which the connection is closed.
pub const RATE_CLOSE: u32 = 100;

/// Server-wide limits: every resource an outside client can use has one.
/// `ratrace serve --help` sets each; the defaults suit a small public
/// server on two cores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Frames per second a WebSocket may send (every kind counts); more
    /// are refused with `rate_limited`.
    pub rate_limit: u32,
    /// Frames per second after which a WebSocket is closed.
    pub rate_close: u32,
    /// Open TCP connections in all (WebSockets included); more are closed
    /// at once.
    pub max_connections: usize,
    /// Open TCP connections per client address (an IPv6 /56 counts as one
    /// address); 0 = no cap (behind a proxy that hides addresses).
    pub max_connections_per_ip: usize,
    /// The kernel send buffer of each connection, in bytes (the kernel
    /// doubles it): with the outbox, what a reader that stops reading can
    /// hold up before it is closed.
    pub send_buffer: usize,
    /// Messages a WebSocket's outbox holds before the connection counts
    /// as too slow and is closed.
    pub outbox_messages: usize,
    /// Bytes a WebSocket's outbox holds (queued, and the message being
    /// written until it reached the kernel) before the connection counts
    /// as too slow and is closed.
    pub outbox_bytes: usize,
    /// Bytes the outboxes of one client address's WebSockets hold
    /// together; a connection that would pass it is closed as too slow.
    /// 0 = no cap (behind a proxy that hides addresses).
    pub outbox_bytes_per_ip: usize,
    /// `resync` asks one connection may make at once, then one per
    /// `resync_every_s` (each builds a whole state).
    pub resync_burst: u32,
    /// See `resync_burst`.
    pub resync_every_s: u32,
    /// `resync` asks one client address may make at once, at every table
    /// and from every connection together, then one per second.
    pub resync_burst_per_ip: u32,
    /// WebSocket compression (permessage-deflate), when the client offers it.
    pub ws_compression: WsCompression,
    /// Time to send a request's headers, and the longest idle keep-alive.
    pub header_timeout: Duration,
    /// Time to send a request's body.
    pub body_timeout: Duration,
    /// Time from a WebSocket's upgrade to its `hello`.
    pub hello_timeout: Duration,
    /// Longest silence from a WebSocket client (the web client pings
    /// every 25 s).
    pub idle_timeout: Duration,
    /// Tables an address may create: burst, then one per this many
    /// seconds.
    pub create_burst: u32,
    /// See `create_burst`.
    pub create_every_s: u32,
    /// Seat joins per address: burst.
    pub join_burst: u32,
    /// Seat joins per address: one per this many seconds after the burst.
    pub join_every_s: u32,
    /// Record checks (`POST /api/verify`) per address: burst.
    pub verify_burst: u32,
    /// Record checks per address: one per this many seconds after the
    /// burst.
    pub verify_every_s: u32,
    /// Record downloads per address (each replays a whole game): burst.
    pub record_burst: u32,
    /// Record downloads per address: one per this many seconds after the
    /// burst.
    pub record_every_s: u32,
    /// Unfinished tables in all.
    pub max_live_tables: usize,
    /// Unfinished tables created by one address.
    pub max_live_tables_per_ip: usize,
    /// A table nobody is connected to leaves memory after this long
    /// without activity (it is loaded again on demand).
    pub evict_after: Duration,
    /// An unfinished table without any action or join for this long ends
    /// as `abandoned` (its record is kept).
    pub abandon_after: Duration,
    /// A table that never started (no action yet: a seat nobody came to)
    /// ends as `abandoned` after this long without a join, so tables
    /// nobody uses cannot fill the live-table caps.
    pub unstarted_after: Duration,
    /// Most hands a Dalmuti session may have.
    pub max_hands: u32,
    /// Most actions a table's game may have (it then ends as abandoned),
    /// and a record sent to be checked.
    pub max_actions: usize,
    /// Smallest bot delay of a table with no human seat.
    pub min_bot_delay_ms: u64,
    /// Bot decisions computed at once, server-wide (the rest wait their
    /// turn), so bots never take every core from the people.
    pub bot_threads: usize,
    /// The turn timer of public tables unless the creator sets one.
    pub public_turn_timer_ms: u64,
    /// How long a human seat must stay empty before the table's creator
    /// may give it to a bot.
    pub fill_after: Duration,
    /// D7 at a table with people: the holder of both Jesters' decision
    /// takes effect this long after the deal, whoever holds them (fair
    /// timing, docs/rules/dalmuti.md).
    pub revolution_window_ms: u64,
    /// Post-game analyses one address may start ([`analysis`]): burst.
    pub analysis_burst: u32,
    /// Analyses started per address: one per this many seconds after the
    /// burst.
    pub analysis_every_s: u32,
    /// Analyses waiting for the one that runs, server-wide; more are
    /// refused as `busy`.
    pub analysis_queue: usize,
    /// Worker threads of the analysis that runs (1 or 2: play stays
    /// responsive).
    pub analysis_threads: usize,
    /// MCTS iterations per decision of an analysis; 0 = the game's
    /// default (`analysis::analyze::Config::for_game`).
    pub analysis_search: u32,
    /// Paired rollouts per candidate of an analysis; 0 = the game's
    /// default.
    pub analysis_rollouts: u32,
    /// Largest analysis stored, in bytes of JSON (the candidates are
    /// dropped first to fit).
    pub analysis_max_bytes: usize,
    /// People waiting in one quick-pairing pool (one per preset); more
    /// are refused as `busy`.
    pub pairing_pool_size: usize,
    /// Pairing tickets one client address holds at once (waiting, or
    /// seated and not yet picked up).
    pub pairing_tickets_per_ip: usize,
    /// Pairing tickets held in all (waiting, or seated and not yet picked
    /// up); more are refused as `busy`.
    pub pairing_tickets: usize,
    /// A waiting pairing ticket not asked about for this long is dropped
    /// (its page was closed): the client asks every second.
    pub pairing_heartbeat: Duration,
}

/// How the server compresses WebSocket messages (permessage-deflate, RFC
/// 7692) for a client that offers it (every browser does). Measured in
/// docs/server.md, "WebSocket compression".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WsCompression {
    /// Never: the offer is declined.
    Off,
    /// Each message alone (no context takeover either way): deflate state
    /// is borrowed from a pool shared by every connection for one message,
    /// so an idle connection costs none. About half the bytes.
    Message,
    /// The server keeps its deflate context for the whole connection, so a
    /// message refers to those before it: about a tenth of the bytes, for
    /// several hundred KiB of memory per connection.
    Context,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            rate_limit: RATE_LIMIT,
            rate_close: RATE_CLOSE,
            max_connections: 4096,
            max_connections_per_ip: 64,
            send_buffer: 128 * 1024,
            outbox_messages: 256,
            outbox_bytes: 1 << 20,
            outbox_bytes_per_ip: 8 << 20,
            resync_burst: 3,
            resync_every_s: 5,
            resync_burst_per_ip: 30,
            ws_compression: WsCompression::Message,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            hello_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            create_burst: 10,
            create_every_s: 6,
            join_burst: 30,
            join_every_s: 1,
            verify_burst: 10,
            verify_every_s: 5,
            record_burst: 30,
            record_every_s: 1,
            max_live_tables: 2000,
            max_live_tables_per_ip: 20,
            evict_after: Duration::from_secs(300),
            abandon_after: Duration::from_secs(7 * 24 * 3600),
            unstarted_after: Duration::from_secs(3600),
            max_hands: 100,
            max_actions: 20_000,
            min_bot_delay_ms: 200,
            bot_threads: 1,
            public_turn_timer_ms: 120_000,
            fill_after: Duration::from_secs(60),
            revolution_window_ms: 10_000,
            analysis_burst: 3,
            analysis_every_s: 120,
            analysis_queue: 8,
            analysis_threads: 1,
            analysis_search: 0,
            analysis_rollouts: 0,
            analysis_max_bytes: 4 << 20,
            pairing_pool_size: 100,
            pairing_tickets_per_ip: 4,
            pairing_tickets: 2000,
            pairing_heartbeat: Duration::from_secs(30),
        }
    }
}

impl Limits {
    /// Limits for tests and load generators that act faster than people
    /// from one address: no rate limits or quotas, the other bounds kept.
    pub fn unlimited() -> Limits {
        Limits {
            rate_limit: 1_000_000,
            rate_close: 1_000_000,
            max_connections_per_ip: 0,
            outbox_bytes_per_ip: 0,
            resync_burst: 1_000_000,
            resync_burst_per_ip: 1_000_000,
            create_burst: 1_000_000,
            join_burst: 1_000_000,
            verify_burst: 1_000_000,
            record_burst: 1_000_000,
            analysis_burst: 1_000_000,
            pairing_tickets_per_ip: 1_000_000,
            max_live_tables: 1_000_000,
            max_live_tables_per_ip: 1_000_000,
            min_bot_delay_ms: 0,
            bot_threads: 2,
            revolution_window_ms: 0,
            ..Limits::default()
        }
    }
}
