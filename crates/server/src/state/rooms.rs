//! Shared replays ("watch together"): rooms in this process's memory, each
//! a finished table's replay at one step that its leader moves for every
//! member, with a short chat. A room holds nothing secret (the table's
//! record is fetched by each member with their own link), only the step,
//! who leads, who is in and what was said; so it is kept in memory,
//! bounded in rooms, members, lines and time, and a restart forgets it.
//!
//! Each room has a revision that every change bumps and a watch channel
//! that rings on it: a member's long poll waits on its own room's
//! channel only, so a step wakes that room's members and nobody else.

use crate::addr::ClientAddr;
use crate::protocol::{RoomLine, RoomMember, RoomView};
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The most rooms at once.
pub const MAX_ROOMS: usize = 1_000;
/// The most rooms one address keeps open.
pub const ROOMS_PER_ADDR: usize = 5;
/// The most members of a room.
pub const MAX_MEMBERS: usize = 50;
/// Chat lines a room keeps (the newest).
pub const LINES_KEPT: usize = 50;
/// A room nobody asked about for this long is closed.
pub const IDLE_S: u64 = 3_600;
/// A member whose page has not asked for this long is out of the list
/// (they come back with their next ask).
pub const MEMBER_GONE_S: u64 = 60;
/// The highest step a room may show (a game has fewer actions).
pub const MAX_STEP: u32 = 1_000_000;

/// Why a room refused.
#[derive(Debug, PartialEq, Eq)]
pub enum RoomError {
    /// No such room (never made, closed, or lost to a restart).
    Unknown,
    /// The member secret is not one of the room's, or not the leader's.
    NotAllowed(&'static str),
    /// A cap is reached: the text says which.
    Full(&'static str),
}

struct Member {
    id: String,
    secret: String,
    name: String,
    seen: Instant,
}

struct Room {
    table: String,
    step: u32,
    rev: u64,
    leader: String,
    members: Vec<Member>,
    lines: VecDeque<RoomLine>,
    touched: Instant,
    creator: ClientAddr,
    bell: watch::Sender<u64>,
}

impl Room {
    fn changed(&mut self) {
        self.rev += 1;
        self.bell.send_replace(self.rev);
    }

    fn member(&self, secret: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.secret == secret)
    }

    fn view(&self, now: Instant) -> RoomView {
        let gone = Duration::from_secs(MEMBER_GONE_S);
        RoomView {
            table: self.table.clone(),
            step: self.step,
            rev: self.rev,
            leader: self.leader.clone(),
            members: self
                .members
                .iter()
                .filter(|m| m.id == self.leader || now.saturating_duration_since(m.seen) < gone)
                .map(|m| RoomMember {
                    member: m.id.clone(),
                    name: m.name.clone(),
                })
                .collect(),
            lines: self.lines.iter().cloned().collect(),
        }
    }
}

/// See the module docs.
#[derive(Default)]
pub struct Rooms {
    rooms: Mutex<HashMap<String, Room>>,
}

/// A member made: their id (public) and secret (theirs alone).
#[derive(Debug)]
pub struct Made {
    /// The room.
    pub room: String,
    /// The member's id, as the room lists them.
    pub member: String,
    /// What proves it is them.
    pub secret: String,
}

impl Rooms {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Room>> {
        self.rooms.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Opens a room on table `table` at `step`, its creator (`name`) its
    /// leader.
    pub fn open(
        &self,
        table: String,
        step: u32,
        name: String,
        addr: ClientAddr,
        now: Instant,
    ) -> Result<Made, RoomError> {
        let mut rooms = self.lock();
        let idle = Duration::from_secs(IDLE_S);
        rooms.retain(|_, r| now.saturating_duration_since(r.touched) < idle);
        if rooms.len() >= MAX_ROOMS {
            return Err(RoomError::Full("too many rooms are open: try again later"));
        }
        if rooms.values().filter(|r| r.creator == addr).count() >= ROOMS_PER_ADDR {
            return Err(RoomError::Full(
                "your address has opened as many rooms as it may",
            ));
        }
        let room = crate::ids::new_id();
        let member = crate::ids::new_id();
        let secret = crate::ids::new_token();
        let (bell, _) = watch::channel(0);
        rooms.insert(
            room.clone(),
            Room {
                table,
                step: step.min(MAX_STEP),
                rev: 0,
                leader: member.clone(),
                members: vec![Member {
                    id: member.clone(),
                    secret: secret.clone(),
                    name,
                    seen: now,
                }],
                lines: VecDeque::new(),
                touched: now,
                creator: addr,
                bell,
            },
        );
        Ok(Made {
            room,
            member,
            secret,
        })
    }

    /// A new member of `room`, named `name`.
    pub fn join(&self, room: &str, name: String, now: Instant) -> Result<Made, RoomError> {
        let mut rooms = self.lock();
        let r = rooms.get_mut(room).ok_or(RoomError::Unknown)?;
        let gone = Duration::from_secs(MEMBER_GONE_S);
        let leader = r.leader.clone();
        r.members
            .retain(|m| m.id == leader || now.saturating_duration_since(m.seen) < gone);
        if r.members.len() >= MAX_MEMBERS {
            return Err(RoomError::Full("the room is full"));
        }
        let made = Made {
            room: room.to_string(),
            member: crate::ids::new_id(),
            secret: crate::ids::new_token(),
        };
        r.members.push(Member {
            id: made.member.clone(),
            secret: made.secret.clone(),
            name,
            seen: now,
        });
        r.touched = now;
        r.changed();
        Ok(made)
    }

    /// The room now, and its bell; the member with `secret`, if any, is
    /// seen now (kept in the list).
    pub fn see(
        &self,
        room: &str,
        secret: Option<&str>,
        now: Instant,
    ) -> Result<(RoomView, watch::Receiver<u64>), RoomError> {
        let mut rooms = self.lock();
        let r = rooms.get_mut(room).ok_or(RoomError::Unknown)?;
        r.touched = now;
        if let Some(m) = secret.and_then(|s| r.members.iter_mut().find(|m| m.secret == s)) {
            m.seen = now;
        }
        Ok((r.view(now), r.bell.subscribe()))
    }

    /// The leader (`secret`) shows `step` to everyone.
    pub fn step(
        &self,
        room: &str,
        secret: &str,
        step: u32,
        now: Instant,
    ) -> Result<RoomView, RoomError> {
        self.as_leader(room, secret, now, |r| {
            let step = step.min(MAX_STEP);
            if r.step != step {
                r.step = step;
                r.changed();
            }
        })
    }

    /// The leader (`secret`) hands the lead to member `to`.
    pub fn hand_over(
        &self,
        room: &str,
        secret: &str,
        to: &str,
        now: Instant,
    ) -> Result<RoomView, RoomError> {
        let mut rooms = self.lock();
        let r = rooms.get_mut(room).ok_or(RoomError::Unknown)?;
        if !r.members.iter().any(|m| m.id == to) {
            return Err(RoomError::NotAllowed("no such member in this room"));
        }
        drop(rooms);
        self.as_leader(room, secret, now, |r| {
            r.leader = to.to_string();
            r.changed();
        })
    }

    fn as_leader(
        &self,
        room: &str,
        secret: &str,
        now: Instant,
        change: impl FnOnce(&mut Room),
    ) -> Result<RoomView, RoomError> {
        let mut rooms = self.lock();
        let r = rooms.get_mut(room).ok_or(RoomError::Unknown)?;
        match r.member(secret) {
            Some(m) if m.id == r.leader => {}
            Some(_) => {
                return Err(RoomError::NotAllowed(
                    "only the room's leader moves the replay",
                ))
            }
            None => return Err(RoomError::NotAllowed("you are not a member of this room")),
        }
        r.touched = now;
        change(r);
        Ok(r.view(now))
    }

    /// Member `secret` says `text` (already cleaned) at Unix second `at`.
    pub fn say(
        &self,
        room: &str,
        secret: &str,
        text: String,
        at: i64,
        now: Instant,
    ) -> Result<RoomView, RoomError> {
        let mut rooms = self.lock();
        let r = rooms.get_mut(room).ok_or(RoomError::Unknown)?;
        let m = r
            .member(secret)
            .ok_or(RoomError::NotAllowed("you are not a member of this room"))?;
        let line = RoomLine {
            member: m.id.clone(),
            name: m.name.clone(),
            text,
            at,
        };
        if r.lines.len() >= LINES_KEPT {
            r.lines.pop_front();
        }
        r.lines.push_back(line);
        r.touched = now;
        r.changed();
        Ok(r.view(now))
    }

    /// Rooms open (for tests and metrics).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no room is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    fn addr(n: u8) -> ClientAddr {
        ClientAddr(IpAddr::from([10, 0, 0, n]))
    }

    #[test]
    fn the_leader_moves_the_step_and_hands_over() {
        let rooms = Rooms::default();
        let t0 = Instant::now();
        let lead = rooms
            .open("tab".into(), 3, "Ann".into(), addr(1), t0)
            .unwrap();
        let bob = rooms.join(&lead.room, "Bob".into(), t0).unwrap();
        assert_eq!(
            rooms.step(&lead.room, &bob.secret, 9, t0),
            Err(RoomError::NotAllowed(
                "only the room's leader moves the replay"
            ))
        );
        let (before, bell) = rooms.see(&lead.room, None, t0).unwrap();
        let v = rooms.step(&lead.room, &lead.secret, 9, t0).unwrap();
        assert_eq!((v.step, v.rev), (9, before.rev + 1));
        assert!(bell.has_changed().unwrap(), "the room's bell rang");
        let v = rooms
            .hand_over(&lead.room, &lead.secret, &bob.member, t0)
            .unwrap();
        assert_eq!(v.leader, bob.member);
        assert!(
            rooms.step(&lead.room, &lead.secret, 1, t0).is_err(),
            "Ann leads no more"
        );
        assert_eq!(rooms.step(&lead.room, &bob.secret, 1, t0).unwrap().step, 1);
        assert_eq!(
            rooms.hand_over(&lead.room, &bob.secret, "nobody", t0),
            Err(RoomError::NotAllowed("no such member in this room"))
        );
    }

    #[test]
    fn rooms_members_and_lines_are_bounded() {
        let rooms = Rooms::default();
        let t0 = Instant::now();
        for _ in 0..ROOMS_PER_ADDR {
            rooms.open("t".into(), 0, "A".into(), addr(2), t0).unwrap();
        }
        assert!(matches!(
            rooms.open("t".into(), 0, "A".into(), addr(2), t0),
            Err(RoomError::Full(_))
        ));
        let r = rooms.open("t".into(), 0, "A".into(), addr(3), t0).unwrap();
        for k in 1..MAX_MEMBERS {
            rooms.join(&r.room, format!("m{k}"), t0).unwrap();
        }
        assert_eq!(
            rooms.join(&r.room, "late".into(), t0).unwrap_err(),
            RoomError::Full("the room is full")
        );
        // members not heard from leave the list, which makes room
        let later = t0 + Duration::from_secs(MEMBER_GONE_S);
        rooms.join(&r.room, "late".into(), later).unwrap();
        for k in 0..LINES_KEPT + 5 {
            rooms
                .say(&r.room, &r.secret, format!("line {k}"), 0, later)
                .unwrap();
        }
        let (v, _) = rooms.see(&r.room, None, later).unwrap();
        assert_eq!(v.lines.len(), LINES_KEPT);
        assert_eq!(v.lines[0].text, "line 5", "the oldest went");
        assert_eq!(v.members.len(), 2, "the leader and the late one");
        // idle rooms close when the next one opens
        let much_later = later + Duration::from_secs(IDLE_S);
        rooms
            .open("t".into(), 0, "A".into(), addr(4), much_later)
            .unwrap();
        assert_eq!(rooms.len(), 1);
        assert_eq!(
            rooms.see(&r.room, None, much_later).unwrap_err(),
            RoomError::Unknown
        );
    }
}
