//! The WebSocket messages, as serde enums tagged by `type` (docs/server.md).
//!
//! Messages are plain data so that the wire format is read in one place;
//! the table task fills [`StateMsg`] and [`UpdateMsg`] from views only,
//! never from the full game state.
//!
//! A connection gets the whole state once, on `hello` (and again when it
//! asks with `resync`); after that each change is an `update` with the
//! new events and a JSON Patch of the view (rebuilding and sending every
//! seat's whole state was where the server spent its time).
//! Each carries the table's revision `rev`, one more than the last one
//! sent, so a client that missed a message knows and asks for `resync`.

use game::{Outcome, Seat};
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The largest message a client may send, in bytes.
pub const MAX_MESSAGE: usize = 4096;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// The first message: a seat token, or none to spectate.
    Hello {
        /// The seat token from `join`.
        #[serde(default)]
        token: Option<String>,
        /// The client's language (only echoed in logs for now).
        #[serde(default)]
        lang: Option<String>,
        /// The person's contribution to a rematch's fair deal (64 hex
        /// digits), made by their browser: a rematch starts once every
        /// seated person has sent one. Ignored elsewhere.
        #[serde(default)]
        contribution: Option<String>,
        /// A private table's invite key: a spectator (no token) needs it
        /// to watch.
        #[serde(default)]
        key: Option<String>,
    },
    /// Say something in the table's chat: `text` (cleaned, at most 200
    /// characters) or an `emote` code, not both.
    Chat {
        /// Words.
        #[serde(default)]
        text: Option<String>,
        /// One of the emote codes (`crate::social::EMOTES`).
        #[serde(default)]
        emote: Option<String>,
    },
    /// Take an action for the connection's seat.
    Act {
        /// The number of actions the client has seen.
        seq: u64,
        /// The action in text notation.
        action: String,
    },
    /// Send the whole state again (the client missed an update, or is
    /// unsure of what it has).
    Resync,
    /// The connection's person concedes the game: a stand-in bot plays
    /// their seat from now on, to the end, and the result rates them below
    /// everyone who did not concede. It cannot be taken back.
    Concede,
    /// Keep-alive.
    Ping,
}

/// A seat as every client sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SeatStatus {
    /// The seat.
    pub seat: Seat,
    /// The display name (humans who joined) or the bot name.
    pub name: Option<String>,
    /// `human` or `bot`.
    pub kind: &'static str,
    /// The bot name for bot seats.
    pub bot: Option<String>,
    /// A ladder bot's level on this game's ladder, 1 for the weakest (the
    /// order is measured per game: docs/lab/claims/README.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Whether a person has joined this seat.
    pub taken: bool,
    /// Whether a client is connected for this seat (bots: always).
    pub connected: bool,
    /// Whether the seat's person conceded: a stand-in plays it now.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub conceded: bool,
    /// The short id of the seat's person, if they sat with an identity
    /// (their profile's, the one they are followed and blocked by).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

/// What a `state` and an `update` both carry: the position's small
/// fields whole, and the events this connection has not had yet.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Snapshot {
    /// Actions applied so far.
    pub seq: u64,
    /// The legal actions, only for the seat to move.
    pub legal: Vec<String>,
    /// Whose decision it is, as far as this connection may know.
    pub to_move: Option<Seat>,
    /// Index (in this connection's visible log) of the first event of
    /// `log`.
    pub log_from: usize,
    /// New events this connection may see: the game's typed events as
    /// JSON objects, `{"kind":"bid","seat":"P1","amount":3}`, each encoded
    /// once from the engine's event. Clients render them per kind and
    /// language.
    #[schemars(with = "Vec<serde_json::Value>")]
    pub log: Vec<Box<serde_json::value::RawValue>>,
    /// Whether the game is over (by the rules, or abandoned).
    pub over: bool,
    /// Whether the game was abandoned: nobody played it for a long time.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub abandoned: bool,
    /// Whether the game has started (every human seat is taken); before,
    /// every connection sees the public table, no hand.
    pub started: bool,
    /// The result, once over (absent before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// The seed, only once the game is over (absent before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// A fair-deal table's server secret, only once the game is over: its
    /// hash is `seed_hash`, and with the players' contributions it gives
    /// the seed (docs/server.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

/// The complete state one connection may see.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct StateMsg {
    /// The table id.
    pub table: String,
    /// The connection's seat; `None` for a spectator.
    pub seat: Option<Seat>,
    /// The table's revision: each later `update` is one more.
    pub rev: u64,
    /// The seat's view (spectators: the public view), already JSON text:
    /// it is encoded once, straight from the engine's view. Its schema is
    /// the game's: docs/protocol/GAME/view.json.
    #[schemars(with = "serde_json::Value")]
    pub view: Box<serde_json::value::RawValue>,
    /// The position's small fields, and every event from the first.
    #[serde(flatten)]
    pub now: Snapshot,
    /// The public commitment: hex SHA-256 of a fair-deal table's secret
    /// (of an older table's seed's decimal text).
    pub seed_hash: String,
    /// Every seat.
    pub seats: Vec<SeatStatus>,
    /// With a turn timer, while a person is to move: the milliseconds
    /// left before a bot plays for them. During a secret decision (D7),
    /// for everyone and whoever decides: the milliseconds left before it
    /// lands, while its window is open. Updates do not carry it: a new
    /// decision (a new `seq`) starts the whole timer, so a client counts
    /// from there, and from this field after a reload.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_left_ms: Option<u64>,
}

/// What changed since the message with revision `rev - 1`: the small
/// fields whole, the view as a patch, only the new events.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct UpdateMsg {
    /// The table's revision: one more than the previous `state` or
    /// `update` this connection got; otherwise it missed one and sends
    /// `resync`.
    pub rev: u64,
    /// The RFC 6902 JSON Patch that turns the previous view into the new
    /// one (`[]` when it did not change).
    #[schemars(with = "Vec<serde_json::Value>")]
    pub patch: Box<serde_json::value::RawValue>,
    /// The position's small fields, and the new events.
    #[serde(flatten)]
    pub now: Snapshot,
    /// Every seat, only when something other than who is connected
    /// changed (a join, a seat given to a bot).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<Vec<SeatStatus>>,
}

/// A table's public description: `GET /api/tables/{id}`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TableInfo {
    /// The table id.
    pub id: String,
    /// The game's name.
    pub game: &'static str,
    /// How many players it seats.
    pub players: usize,
    /// The rules options, `key` → `value` text.
    pub options: std::collections::BTreeMap<String, String>,
    /// Every seat.
    pub seats: Vec<SeatStatus>,
    /// Actions applied so far.
    pub seq: u64,
    /// `open` (a seat is free), `playing`, `finished` or `abandoned`.
    pub status: &'static str,
    /// Listed in the lobby, and anyone may take a free seat.
    pub public: bool,
    /// The public commitment to the seed.
    pub seed_hash: String,
    /// The seed, once the game is over.
    pub seed: Option<String>,
    /// A fair-deal table's server secret, once the game is over.
    pub secret: Option<String>,
    /// Whether the seed is a fair deal (the players' contributions too).
    pub fair: bool,
    /// A tutorial table ("Learn to play"): its deal is the game's fixed,
    /// published one (`tutorial` in `/api/games`), it is never rated, and
    /// the page coaches the person through it.
    pub tutorial: bool,
    /// How long bots wait before acting, milliseconds.
    pub bot_delay_ms: u64,
    /// The turn timer, milliseconds, if any.
    pub turn_timer_ms: Option<u64>,
    /// When the table was made, Unix seconds.
    pub created_at: i64,
    /// Seconds until the creator may give a free seat to a bot.
    pub fill_in_s: i64,
    /// The tournament the table belongs to (`/tournament/{id}`), if any.
    pub tournament: Option<String>,
}

/// A message to a client.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The whole state: the answer to `hello` and to `resync`.
    State(Box<StateMsg>),
    /// What changed since the previous `state` or `update`.
    Update(Box<UpdateMsg>),
    /// A refused message.
    Error {
        /// What went wrong, for programs: [`crate::error::Error::code`].
        code: &'static str,
        /// What went wrong, for people.
        message: String,
    },
    /// The answer to `ping`.
    Pong,
    /// Which seats are connected changed (someone joined, left or
    /// reconnected); the rest of the state did not.
    Presence {
        /// Every seat.
        seats: Vec<SeatStatus>,
    },
    /// Chat messages: on `hello`, the ones kept so far; then each new one
    /// as it is said. Only readers get them (the seated players; spectators
    /// too where the table lets them chat).
    Chat {
        /// Oldest first.
        messages: Vec<crate::social::ChatLine>,
        /// The kept messages sent after `hello` (they replace what a
        /// client showed), not a new one.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        history: bool,
    },
    /// This finished table has a rematch: go there. A seated player gets
    /// its seat and its own seat token there (the token it already holds),
    /// a spectator only the table.
    Rematch {
        /// The new table.
        table: String,
        /// The connection's seat at the new table.
        #[serde(skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// The seat token at the new table (its own, never another's).
        #[serde(skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        /// True when the rematch was just made, false when it is told to
        /// a connection that says `hello` afterwards: the web client
        /// moves its page only for a live one, so the finished table
        /// stays open to look at.
        live: bool,
    },
    /// A person's public decision was made by a stand-in bot: their turn
    /// timer ran out, or they were away (`away`). Never sent for a hidden
    /// decision (D7), whose holder it would name.
    StandIn {
        /// The person's seat.
        seat: Seat,
        /// They were away (disconnected), not out of time.
        away: bool,
    },
    /// Something for this connection only that is not an error.
    Notice {
        /// What happened, for programs (`held`: a secret decision is in
        /// and waits for its window to close).
        code: &'static str,
        /// What happened, for people.
        message: String,
    },
}

impl ServerMsg {
    /// The error message for `e`: its code and its words (an internal
    /// cause is logged here and never sent).
    pub fn error(e: crate::error::Error) -> ServerMsg {
        if let crate::error::Error::Internal(cause) = &e {
            tracing::error!("internal error: {cause}");
        }
        ServerMsg::Error {
            code: e.code(),
            message: e.to_string(),
        }
    }

    /// The JSON text sent on the wire.
    pub fn to_text(&self) -> String {
        // Serializing these plain structs cannot fail (string keys only).
        // Room for a typical message at once, rather than growing to it.
        let mut text = Vec::with_capacity(1024);
        match serde_json::to_writer(&mut text, self).map(|()| String::from_utf8(text)) {
            Ok(Ok(text)) => text,
            _ => r#"{"type":"error","code":"internal","message":"encoding failed"}"#.to_string(),
        }
    }
}

/// The body of `POST /api/pairing`: "Play now" with one of the declared
/// presets (`GET /api/games`, `pairing`). Also `Serialize`, for Rust
/// clients such as the pairing bench.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PairingRequest {
    /// The preset's id (`bigcheese-4`, ...).
    pub preset: String,
    /// The display name, cleaned as a join's is.
    pub name: String,
    /// The person's identity key (64 hex digits their browser keeps): one
    /// waiting ticket per identity.
    pub player: String,
    /// The bot level that fills the seats nobody came for (a name from
    /// the game's ladder; default: `heuristic`).
    #[serde(default)]
    pub bot: Option<String>,
    /// Seconds to wait for people before bots fill the rest (one of the
    /// declared choices, `pairing_waits_s`; default 20).
    #[serde(default)]
    pub wait_s: Option<u64>,
    /// The person's contribution to the fair deal (64 hex digits), as a
    /// join's.
    #[serde(default)]
    pub contribution: Option<String>,
}

/// Where a person is, as their followers see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Place {
    /// In the lobby.
    Lobby,
    /// At a public table (playing or watching).
    Table {
        /// The table's id.
        table: String,
        /// Its game.
        game: String,
    },
    /// At a private table: which one is not said.
    Private,
}

/// `GET /api/me/friends`: the people the asker follows, where each is,
/// the people they block, and the invitations waiting for them.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct FriendsView {
    /// The asker's short id (the one others follow them by).
    pub player: String,
    /// The people they follow, newest first.
    pub follows: Vec<Friend>,
    /// The people they block, newest first.
    pub blocks: Vec<Friend>,
    /// Invitations to tables, oldest first.
    pub invites: Vec<InviteOut>,
}

/// A person followed or blocked.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Friend {
    /// Their short id.
    pub player: String,
    /// The name they last played under.
    pub name: String,
    /// Where they are, if online (never said to someone they block).
    pub place: Option<Place>,
}

/// An invitation waiting.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct InviteOut {
    /// Its id (`DELETE /api/me/invites/{id}` dismisses it).
    pub id: String,
    /// The sender's short id.
    pub from: String,
    /// The name they sent it under.
    pub from_name: String,
    /// The table's game.
    pub game: String,
    /// The link that opens the table.
    pub link: String,
    /// Seconds until it expires.
    pub expires_in_s: u64,
}

/// The body of `POST /api/me/invites`: invite a person one follows to a
/// table.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InviteRequest {
    /// The short id of the person invited.
    pub to: String,
    /// The table.
    pub table: String,
    /// The table's invite key, for a private table.
    #[serde(default)]
    pub key: Option<String>,
    /// The name to send it under.
    pub name: String,
}

/// A shared replay's room, as `GET /api/rooms/{room}` answers it: the
/// table whose replay it is, the step its leader shows, who is in and
/// what was said.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RoomView {
    /// The finished table.
    pub table: String,
    /// The step shown (0: the deal; n: after the n-th action).
    pub step: u32,
    /// Bumped by every change (a long poll waits for a newer one).
    pub rev: u64,
    /// The member who moves the replay.
    pub leader: String,
    /// The members whose pages asked in the last minute (and the leader).
    pub members: Vec<RoomMember>,
    /// The newest chat lines, oldest first.
    pub lines: Vec<RoomLine>,
}

/// A member of a room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RoomMember {
    /// Their id in the room.
    pub member: String,
    /// The name they joined under.
    pub name: String,
}

/// A line of a room's chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct RoomLine {
    /// Who said it.
    pub member: String,
    /// Their name.
    pub name: String,
    /// What they said.
    pub text: String,
    /// Unix seconds.
    pub at: i64,
}

/// `POST /api/rooms` and `POST /api/rooms/{room}/join`: the member made
/// and the room.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct RoomTicket {
    /// The room's id (its link is `/replay/{table}?room={room}`).
    pub room: String,
    /// The new member's id.
    pub member: String,
    /// The member's secret: it moves the replay (as leader) and speaks.
    pub secret: String,
    /// The room now.
    pub view: RoomView,
}

/// The body of `POST /api/rooms`: a room on a finished table's replay.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoomOpen {
    /// The finished table.
    pub table: String,
    /// The step to start at.
    #[serde(default)]
    pub step: u32,
    /// The table's key, for a private table.
    #[serde(default)]
    pub key: Option<String>,
    /// The leader's name.
    pub name: String,
}

/// The body of `POST /api/rooms/{room}/join`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoomJoin {
    /// The member's name.
    pub name: String,
}

/// The body of `POST /api/rooms/{room}/act`: one of `step` (the leader
/// shows it), `lead` (the leader hands over to that member) or `say` (a
/// member's chat line).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoomAct {
    /// The member's secret.
    pub secret: String,
    /// The step to show.
    #[serde(default)]
    pub step: Option<u32>,
    /// The member to hand the lead to.
    #[serde(default)]
    pub lead: Option<String>,
    /// A chat line.
    #[serde(default)]
    pub say: Option<String>,
}

/// A quick-pairing ticket as `POST /api/pairing` and
/// `GET /api/pairing/{ticket}` answer it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PairingTicket {
    /// The ticket: a secret that gives its holder the seat once seated.
    pub ticket: String,
    /// The preset waited for.
    pub preset: String,
    /// Where the wait stands.
    #[serde(flatten)]
    pub status: PairingStatus,
}

/// Where a pairing ticket stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum PairingStatus {
    /// In the pool.
    Waiting {
        /// People in the pool now, this one included.
        here: usize,
        /// Seats at the table the pool fills.
        players: usize,
        /// How long this ticket has waited, in milliseconds.
        waited_ms: u64,
        /// Milliseconds until bots fill the free seats (the pool's longest
        /// waiter decides).
        bots_in_ms: u64,
    },
    /// A table is being made for this ticket's group.
    Seating,
    /// Seated: the table, the seat and its token (as a join answers).
    Seated {
        /// The table's id.
        table: String,
        /// The seat.
        seat: Seat,
        /// The seat's token.
        token: String,
        /// The table's published commitment (`seed_hash`).
        commitment: String,
        /// The site's signing key (`GET /api/key`).
        key: String,
    },
    /// No table could be made (the cause is in `message`): join again.
    Failed {
        /// Why, for people.
        message: String,
    },
}

/// Which way a type crosses the wire: read by the server, or written.
enum Way {
    Read,
    Written,
}

/// One committed file: `path`, its title and description, the schema
/// of `T` as the server reads or writes it.
fn schema_file<T: JsonSchema>(
    path: &str,
    title: &str,
    description: &str,
    way: Way,
) -> (String, serde_json::Value) {
    let settings = match way {
        Way::Read => SchemaSettings::draft2020_12().for_deserialize(),
        Way::Written => SchemaSettings::draft2020_12().for_serialize(),
    };
    let mut rest = settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    let rest = rest.as_object_mut().expect("a root schema is an object");
    let mut out = serde_json::Map::new();
    if let Some(s) = rest.remove("$schema") {
        out.insert("$schema".into(), s);
    }
    rest.remove("title");
    rest.remove("description");
    out.insert("title".into(), title.into());
    out.insert("description".into(), description.into());
    out.append(rest);
    (path.to_string(), serde_json::Value::Object(out))
}

/// The JSON Schemas of the browser protocol, generated from the types
/// above, as they are committed under `docs/protocol/web/` (path, schema):
/// what a client sends on the WebSocket (`from-client.json`, as the server
/// reads it), what the server sends (`to-client.json`), and a table's
/// description (`table.json`, `GET /api/tables/{id}`). The test
/// `web_schemas_are_up_to_date` keeps the files current; the browser tests
/// check every frame the page receives against `to-client.json`.
pub fn schemas() -> Vec<(String, serde_json::Value)> {
    use Way::{Read, Written};
    let mut all = vec![
        schema_file::<ClientMsg>(
            "web/from-client.json",
            "ratrace web: a message from the client",
            "What a browser (or any client) sends on a table's WebSocket, `GET /ws/{id}`; \
             see docs/server.md, \"WebSocket\".",
            Read,
        ),
        schema_file::<ServerMsg>(
            "web/to-client.json",
            "ratrace web: a message to the client",
            "What the server sends on a table's WebSocket: a `state`, then `update`s, and \
             the rest; a view's own schema is the game's (docs/protocol/GAME/view.json).",
            Written,
        ),
        schema_file::<TableInfo>(
            "web/table.json",
            "ratrace web: a table's description",
            "`GET /api/tables/{id}`.",
            Written,
        ),
        schema_file::<PairingTicket>(
            "web/pairing.json",
            "ratrace web: a quick-pairing ticket",
            "`POST /api/pairing` and `GET /api/pairing/{ticket}`; see docs/server.md, \
             \"Quick pairing\".",
            Written,
        ),
        schema_file::<FriendsView>(
            "web/friends.json",
            "ratrace web: friends, their presence and invitations",
            "`GET /api/me/friends`; see docs/server.md, \"Friends and presence\".",
            Written,
        ),
        schema_file::<InviteRequest>(
            "web/invite-request.json",
            "ratrace web: an invitation to a table",
            "The body of `POST /api/me/invites`.",
            Read,
        ),
        schema_file::<RoomView>(
            "web/room.json",
            "ratrace web: a shared replay's room",
            "`GET /api/rooms/{room}` and `POST /api/rooms/{room}/act`; see docs/server.md, \
             \"Shared replays\".",
            Written,
        ),
        schema_file::<RoomTicket>(
            "web/room-ticket.json",
            "ratrace web: a member of a shared replay's room",
            "`POST /api/rooms` and `POST /api/rooms/{room}/join`.",
            Written,
        ),
        schema_file::<RoomOpen>(
            "web/room-open.json",
            "ratrace web: a shared replay's room asked for",
            "The body of `POST /api/rooms`.",
            Read,
        ),
        schema_file::<RoomJoin>(
            "web/room-join.json",
            "ratrace web: joining a shared replay's room",
            "The body of `POST /api/rooms/{room}/join`.",
            Read,
        ),
        schema_file::<RoomAct>(
            "web/room-act.json",
            "ratrace web: what a room's member does",
            "The body of `POST /api/rooms/{room}/act`.",
            Read,
        ),
        schema_file::<PairingRequest>(
            "web/pairing-request.json",
            "ratrace web: a quick-pairing request",
            "The body of `POST /api/pairing`.",
            Read,
        ),
    ];
    all.extend(tournament_schemas());
    all
}

/// The schemas of tournaments' requests and answers (docs/server.md,
/// "Tournaments").
fn tournament_schemas() -> Vec<(String, serde_json::Value)> {
    use Way::{Read, Written};
    vec![
        schema_file::<crate::tournament_wire::TournamentRequest>(
            "web/tournament-request.json",
            "ratrace web: a new tournament",
            "The body of `POST /api/tournaments`; see docs/server.md, \"Tournaments\".",
            Read,
        ),
        schema_file::<crate::tournament_wire::TournamentJoin>(
            "web/tournament-join.json",
            "ratrace web: entering a tournament",
            "The body of `POST /api/tournaments/{id}/join`.",
            Read,
        ),
        schema_file::<crate::tournament_wire::TournamentView>(
            "web/tournament.json",
            "ratrace web: a tournament",
            "`GET /api/tournaments/{id}`, and the answer to a join, leave or start: its \
             standings, tables and the asker's part.",
            Written,
        ),
        schema_file::<crate::tournament_wire::TournamentList>(
            "web/tournaments.json",
            "ratrace web: the tournaments listed",
            "`GET /api/tournaments`.",
            Written,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_parse_and_unknown_ones_do_not() {
        assert_eq!(
            serde_json::from_str::<ClientMsg>(r#"{"type":"act","seq":3,"action":"pass"}"#).unwrap(),
            ClientMsg::Act {
                seq: 3,
                action: "pass".to_string()
            }
        );
        assert_eq!(
            serde_json::from_str::<ClientMsg>(r#"{"type":"hello"}"#).unwrap(),
            ClientMsg::Hello {
                token: None,
                lang: None,
                contribution: None,
                key: None
            }
        );
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"shout"}"#).is_err());
        assert!(
            serde_json::from_str::<ClientMsg>(r#"{"type":"act","seq":-1,"action":"x"}"#).is_err()
        );
    }

    #[test]
    fn server_messages_are_tagged() {
        let e = ServerMsg::error(crate::error::Error::NotYourTurn("wait".into())).to_text();
        assert_eq!(
            e,
            r#"{"type":"error","code":"not_your_turn","message":"wait"}"#
        );
        assert_eq!(ServerMsg::Pong.to_text(), r#"{"type":"pong"}"#);
        assert_eq!(
            serde_json::from_str::<ClientMsg>(r#"{"type":"resync"}"#).unwrap(),
            ClientMsg::Resync
        );
    }
}
