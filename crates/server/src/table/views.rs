//! What each connection is sent: its seat's view (a spectator the public
//! view), whole on `hello` and `resync`, as a patch on every change; and
//! the table's description for the lobby.

use super::audience::Sub;
use super::outbox::Kind;
use super::seating::{Player, Seating};
use super::*;
use crate::protocol::{SeatStatus, ServerMsg, Snapshot, StateMsg, TableInfo, UpdateMsg};
use game::Seat;
use serde_json::value::RawValue;

/// What every connection's message is made from at one moment: the game,
/// and whose concessions make a seat's decisions a stand-in's.
struct Scene<'a, G: Roster> {
    play: &'a Play<G>,
    seating: &'a Seating,
    /// Every person's seat is taken (and each contribution in): the game
    /// is dealt for real.
    started: bool,
}

impl<G: Roster> Scene<'_, G> {
    /// What every message to `sub` carries besides the view: whose
    /// decision it is, the legal actions (only its own), and the events it
    /// may see that it has not had yet.
    fn snapshot(&self, sub: &mut Sub) -> Snapshot {
        let (play, started) = (self.play, self.started);
        let mover = if play.finished {
            None
        } else {
            play.game.to_move()
        };
        // A seat whose person conceded is the stand-in's: its connection
        // watches, and is told no decision.
        let mine = sub.seat.is_some()
            && mover == sub.seat
            && !sub.seat.is_some_and(|s| self.seating.conceded(s));
        let to_move = if mine {
            mover
        } else if play.finished {
            None
        } else {
            play.game.public_to_move()
        };
        let mut legal = Vec::new();
        if mine && started {
            let mut list = Vec::new();
            play.game.legal_actions(&mut list);
            legal = list.iter().map(ToString::to_string).collect();
        }
        let log = if started { play.game.events() } else { &[] };
        if sub.log_pos > log.len() {
            sub.log_pos = 0;
            sub.log_sent = 0;
        }
        let log_from = sub.log_sent;
        let lines: Vec<Box<RawValue>> = log[sub.log_pos..]
            .iter()
            .filter(|e| e.visible_to(sub.seat))
            .filter_map(|e| {
                serde_json::value::to_raw_value(&e.event)
                    .inspect_err(|x| tracing::error!("event does not serialize: {x}"))
                    .ok()
            })
            .collect();
        sub.log_pos = log.len();
        sub.log_sent += lines.len();
        Snapshot {
            seq: play.seq,
            legal,
            to_move,
            log_from,
            log: lines,
            over: play.finished,
            abandoned: play.abandoned,
            started,
            outcome: play.game.outcome(),
            seed: play.revealed_seed(),
            secret: play.revealed_secret(),
        }
    }

    /// The view `sub` may see now, as JSON text (`public`: the public
    /// view's, when made already).
    fn view(&self, sub: &Sub, public: Option<&str>) -> String {
        self.play.view_json(sub.seat, self.started, public)
    }
}

impl<G: Roster> Table<G> {
    /// Every seat as clients see it, a ladder bot with its level.
    pub(super) fn seat_statuses(&self) -> Vec<SeatStatus> {
        let mut seats = self
            .seating
            .statuses(self.play.game.players(), &self.audience);
        for s in &mut seats {
            s.level = s
                .bot
                .as_deref()
                .and_then(|b| G::LEVELS.iter().find(|l| l.name == b).map(|l| l.level));
        }
        seats
    }

    /// The table's public description (`GET /api/tables/{id}`).
    pub(super) fn info(&self) -> TableInfo {
        let (setup, play) = (&self.setup, &self.play);
        TableInfo {
            id: setup.id.to_string(),
            game: G::NAME,
            players: setup.players,
            options: setup.options.clone(),
            seats: self.seat_statuses(),
            seq: play.seq,
            status: play.status(self.waiting_for_players()),
            public: setup.access.public,
            seed_hash: play.seed_hash.clone(),
            seed: play.revealed_seed(),
            secret: play.revealed_secret(),
            fair: play.fair.is_some(),
            tutorial: setup.config.tutorial,
            bot_delay_ms: setup.config.bot_delay_ms,
            turn_timer_ms: setup.config.turn_timer_ms,
            created_at: setup.created_at,
            fill_in_s: (setup.created_at + self.ctx.limits.fill_after.as_secs() as i64)
                .saturating_sub(crate::clock::unix_now())
                .max(0),
            tournament: setup
                .access
                .owner
                .as_deref()
                .and_then(|o| o.strip_prefix("tournament:"))
                .map(str::to_string),
        }
    }

    /// The turn timer's time left for the person to move, if the table
    /// has a timer and a person is to move in a game under way. During a
    /// secret decision (D7) it is the same for everyone, whoever decides,
    /// and whatever the table's timer: the time left in the window after
    /// which the decision lands, if one is open, else nothing; a person's
    /// timer there would tell that a person holds the Jesters.
    fn turn_left_ms(&self) -> Option<u64> {
        if self.play.finished || self.waiting_for_players() {
            return None;
        }
        let mover = self.play.game.to_move()?;
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        if self.play.game.public_to_move().is_none() {
            let left = self.clock.window_closes()?;
            return Some(millis(
                left.saturating_duration_since(tokio::time::Instant::now()),
            ));
        }
        let timer = self.setup.config.turn_timer_ms?;
        if self.seating.player(mover) != Player::Human {
            return None;
        }
        Some(timer.saturating_sub(millis(self.clock.turn_started().elapsed())))
    }

    /// Sends `conn` its whole state (on `hello` and `resync`): the view
    /// and every event from the first; closes it if it is too slow to
    /// take it.
    pub(super) fn send_state(&mut self, conn: u64) {
        let seats = self.seat_statuses();
        let turn_left_ms = self.turn_left_ms();
        let (table, rev) = (self.setup.id.to_string(), self.audience.rev());
        let scene = Scene {
            play: &self.play,
            seating: &self.seating,
            started: !self.waiting_for_players(),
        };
        self.audience.send_made(conn, Kind::State, |sub| {
            sub.log_pos = 0;
            sub.log_sent = 0;
            sub.view = scene.view(sub, None);
            let now = scene.snapshot(sub);
            let view = RawValue::from_string(sub.view.clone()).unwrap_or_else(|e| {
                tracing::error!("view is not JSON: {e}");
                RawValue::NULL.to_owned()
            });
            ServerMsg::State(Box::new(StateMsg {
                table,
                seat: sub.seat,
                rev,
                view,
                now,
                seed_hash: scene.play.seed_hash.clone(),
                seats,
                turn_left_ms,
            }))
            .to_text()
        });
    }

    /// Sends every connection what changed for it: the new events, a
    /// patch of its view, the small fields whole. Closes connections whose
    /// outbox is full (too slow) and drops those already gone.
    pub(super) fn broadcast(&mut self) {
        let seats = self.seat_statuses();
        let (rev, seats_changed, sent_public) = self.audience.next_broadcast(&seats);
        let scene = Scene {
            play: &self.play,
            seating: &self.seating,
            started: !self.waiting_for_players(),
        };
        // Every seat's view holds the public view: its diff is made once
        // here and reused inside each seat's.
        let public =
            crate::patch::Shared::new(sent_public, scene.play.view_json(None, scene.started, None));
        let texts = self.audience.each_mut(|sub| {
            let view = scene.view(sub, Some(public.new_text()));
            let patch = crate::patch::diff_with(&sub.view, &view, Some(&public));
            let patch = match RawValue::from_string(patch) {
                Ok(patch) => {
                    sub.view = view;
                    patch
                }
                // Cannot happen (the texts are serde's); the client
                // keeps the view it has, and so does `sub.view`.
                Err(e) => {
                    tracing::error!("a patch is not JSON: {e}");
                    RawValue::from_string("[]".to_string()).expect("[] is JSON")
                }
            };
            ServerMsg::Update(Box::new(UpdateMsg {
                rev,
                patch,
                now: scene.snapshot(sub),
                seats: seats_changed.then(|| seats.clone()),
            }))
            .to_text()
        });
        self.audience.sent_public(public.into_new());
        let mut texts = texts.into_iter();
        self.send_all_as(Kind::Update, |_| texts.next());
    }

    /// Tells every connection that `seat`'s public decision was a
    /// stand-in's (`away`: its person is disconnected).
    pub(super) fn tell_stand_in(&mut self, seat: Seat, away: bool) {
        let text = ServerMsg::StandIn { seat, away }.to_text();
        self.send_all_as(Kind::Other, |_| Some(text.clone()));
    }
}
