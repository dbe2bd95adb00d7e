//! The table's seats: who sits where (a person by name, token and
//! identity, or a bot), who conceded, who made their own decisions, and
//! who is connected or away.
//!
//! Why a part of its own: a seat's kind, its person's concession and its
//! presence decide together how the seat is played now ([`Player`]); the
//! rest of the table asks here rather than reading the stored rows.

use super::audience::Audience;
use super::result::Acted;
use crate::protocol::SeatStatus;
use crate::store::{SeatKind, Social, StoredFair, StoredSeat};
use game::Seat;
use tokio::time::Instant;

/// How a seat is played right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Player {
    Bot,
    Human,
}

/// See the module docs.
pub(super) struct Seating {
    seats: Vec<StoredSeat>,
    /// Rematch links and the seats' identities, origins and concessions.
    pub(super) social: Social,
    /// Per seat, over the whole game: its decisions, and how many of them
    /// its own player made (the rest a stand-in's), from the stored
    /// actions and then each commit. Whether a person took part is
    /// judged from these.
    acted: Vec<Acted>,
    /// Per seat: since when no client is connected for it.
    absent_since: [Option<Instant>; Seat::MAX],
    /// Since when no person at the table is connected (its bot programs
    /// stop `PROGRAMS_GRACE` later); `None` while one is.
    alone_since: Option<Instant>,
}

impl Seating {
    /// Stored seats, every one absent since `now`.
    pub(super) fn new(seats: Vec<StoredSeat>, social: Social, acted: Vec<Acted>) -> Seating {
        let now = Instant::now();
        Seating {
            seats,
            social,
            acted,
            absent_since: [Some(now); Seat::MAX],
            alone_since: Some(now),
        }
    }

    /// The stored seats.
    pub(super) fn seats(&self) -> &[StoredSeat] {
        &self.seats
    }

    pub(super) fn acted(&self) -> &[Acted] {
        &self.acted
    }

    /// The seat's kind, if the table has it.
    pub(super) fn kind(&self, seat: Seat) -> Option<&SeatKind> {
        self.seats.get(seat.index()).map(|s| &s.kind)
    }

    /// How the seat is played now: a person's seat is a bot's once they
    /// conceded (its stand-in plays it).
    pub(super) fn player(&self, seat: Seat) -> Player {
        match self.kind(seat) {
            Some(SeatKind::Human { .. }) if self.conceded(seat) => Player::Bot,
            Some(SeatKind::Human { .. }) => Player::Human,
            Some(SeatKind::Bot(_)) | None => Player::Bot,
        }
    }

    /// Whether the seat's person conceded.
    pub(super) fn conceded(&self, seat: Seat) -> bool {
        self.social.conceded.contains_key(&seat)
    }

    /// The seat's person conceded when `at` actions had been played.
    pub(super) fn concede(&mut self, seat: Seat, at: u64) {
        self.social.conceded.insert(seat, at);
    }

    /// Whether a person seated at the table (and playing: not conceded)
    /// is connected now, at a seat other than `except`.
    pub(super) fn person_connected(&self, audience: &Audience, except: Option<Seat>) -> bool {
        audience.iter().any(|s| {
            s.seat
                .is_some_and(|seat| Some(seat) != except && self.player(seat) == Player::Human)
        })
    }

    /// Whether any seat is a person's.
    pub(super) fn has_humans(&self) -> bool {
        self.persons() > 0
    }

    /// How many seats are people's.
    pub(super) fn persons(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| matches!(s.kind, SeatKind::Human { .. }))
            .count()
    }

    /// Whether `s` is a person's seat nobody has joined yet.
    fn open(s: &StoredSeat) -> bool {
        matches!(
            &s.kind,
            SeatKind::Human {
                token_hash: None,
                ..
            }
        )
    }

    /// Whether some person's seat is not joined yet.
    pub(super) fn any_open(&self) -> bool {
        self.seats.iter().any(Self::open)
    }

    /// Whether `seat` is a person's seat nobody has joined: `None` if the
    /// table has no such seat.
    pub(super) fn is_open(&self, seat: Seat) -> Option<bool> {
        self.seats.get(seat.index()).map(Self::open)
    }

    /// The first person's seat nobody has joined.
    pub(super) fn first_open(&self) -> Option<Seat> {
        self.seats.iter().find(|s| Self::open(s)).map(|s| s.seat)
    }

    /// Whether a person's seat lacks its contribution to `fair`.
    pub(super) fn lacks_contribution(&self, fair: &StoredFair) -> bool {
        self.seats.iter().any(|s| {
            matches!(s.kind, SeatKind::Human { .. }) && !fair.contributions.contains_key(&s.seat)
        })
    }

    /// The person's seat whose token hashes to `hash`.
    pub(super) fn seat_of_token_hash(&self, hash: &str) -> Option<Seat> {
        self.seats
            .iter()
            .find(|s| matches!(&s.kind, SeatKind::Human { token_hash: Some(h), .. } if *h == hash))
            .map(|s| s.seat)
    }

    /// The taken seat of the person whose identity is `player`.
    pub(super) fn seat_of_player(&self, player: &str) -> Option<Seat> {
        self.social
            .players
            .iter()
            .find(|(seat, p)| {
                p.as_str() == player
                    && matches!(
                        self.kind(**seat),
                        Some(SeatKind::Human {
                            token_hash: Some(_),
                            ..
                        })
                    )
            })
            .map(|(seat, _)| *seat)
    }

    /// The person's seat opens with a new token (`token_hash`) now.
    pub(super) fn retoken(&mut self, seat: Seat, token_hash: String) {
        if let Some(SeatKind::Human { token_hash: h, .. }) =
            self.seats.get_mut(seat.index()).map(|s| &mut s.kind)
        {
            *h = Some(token_hash);
        }
    }

    /// The name of a person's seat.
    pub(super) fn name(&self, seat: Seat) -> Option<String> {
        match self.kind(seat) {
            Some(SeatKind::Human { name, .. }) => name.clone(),
            _ => None,
        }
    }

    /// A person took `seat` (stored): its name and token, their identity
    /// and where they joined from.
    pub(super) fn taken(
        &mut self,
        seat: Seat,
        name: String,
        token_hash: String,
        player: Option<String>,
        origin: String,
    ) {
        self.seats[seat.index()].kind = SeatKind::Human {
            name: Some(name),
            token_hash: Some(token_hash),
        };
        if let Some(p) = player {
            self.social.players.insert(seat, p);
        }
        self.social.origins.insert(seat, origin);
    }

    /// A bot took `seat` (stored).
    pub(super) fn filled(&mut self, seat: Seat, bot: &str) {
        self.seats[seat.index()].kind = SeatKind::Bot(bot.to_string());
    }

    /// Counts a committed decision of `seat` (its own player's, or a
    /// stand-in's).
    pub(super) fn count_decision(&mut self, seat: Seat, stand_in: bool) {
        let i = seat.index();
        if self.acted.len() <= i {
            self.acted.resize(i + 1, Acted::default());
        }
        self.acted[i].all += 1;
        self.acted[i].own += u64::from(!stand_in);
    }

    /// Since when the seat has had no connection (`None`: it has one).
    pub(super) fn absent_since(&self, seat: Seat) -> Option<Instant> {
        self.absent_since[seat.index()]
    }

    /// Since when no person at the table has been connected.
    pub(super) fn alone_since(&self) -> Option<Instant> {
        self.alone_since
    }

    /// Brings presence up to `audience`: which seats are connected, and
    /// whether a person is. Whether any seat's presence changed.
    pub(super) fn update_presence(&mut self, audience: &Audience) -> bool {
        let now = Instant::now();
        let mut changed = false;
        for i in 0..Seat::MAX {
            let connected = audience.connected(Seat::new(i));
            let was = self.absent_since[i].is_none();
            if connected {
                self.absent_since[i] = None;
            } else if was {
                self.absent_since[i] = Some(now);
            }
            changed |= was != connected;
        }
        if self.person_connected(audience, None) {
            self.alone_since = None;
        } else if self.alone_since.is_none() {
            self.alone_since = Some(now);
        }
        changed
    }

    /// Every seat as clients see it: at least `players` (a Dalmuti
    /// session grows), a seat the table does not list yet played by the
    /// heuristic bot.
    pub(super) fn statuses(&self, players: usize, audience: &Audience) -> Vec<SeatStatus> {
        let bot = |name: &str| SeatStatus {
            seat: Seat::new(0),
            name: Some(name.to_string()),
            kind: "bot",
            bot: Some(name.to_string()),
            level: None,
            taken: true,
            connected: true,
            conceded: false,
            player: None,
        };
        (0..self.seats.len().max(players))
            .map(|i| {
                let seat = Seat::new(i);
                match self.kind(seat) {
                    Some(SeatKind::Human { name, token_hash }) => SeatStatus {
                        seat,
                        name: name.clone(),
                        kind: "human",
                        bot: None,
                        level: None,
                        taken: token_hash.is_some(),
                        connected: audience.connected(seat),
                        conceded: self.conceded(seat),
                        player: self
                            .social
                            .players
                            .get(&seat)
                            .map(|p| crate::store::short_id(p)),
                    },
                    Some(SeatKind::Bot(b)) => SeatStatus { seat, ..bot(b) },
                    None => SeatStatus {
                        seat,
                        ..bot("heuristic")
                    },
                }
            })
            .collect()
    }
}
