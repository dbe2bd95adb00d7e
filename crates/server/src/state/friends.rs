//! Who is online and where, and the invitations waiting for each person:
//! a book in this process's memory, bounded in entries and in time.
//!
//! Presence is what a person's own pages report when they ask for their
//! friends (the lobby and the table page ask every few seconds), so it is
//! the asking that keeps it: a person not heard from for [`PRESENT_S`] is
//! offline. An invitation lives [`INVITE_TTL_S`] at most, each person
//! holds the newest [`INVITES_PER_PERSON`] (one per sender), and the book
//! holds at most [`MAX_INVITES`] in all. Neither is stored: a restart
//! forgets who was online (their next ask says it again) and the
//! invitations waiting, which are minutes old at most. With several
//! processes each keeps its own book, so a person is seen online by
//! followers asking the same process.

use crate::protocol::Place;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Seconds a person stays online after their pages last asked.
pub const PRESENT_S: u64 = 45;
/// The most people the book knows at once; past it, expired ones are
/// dropped, and while it is still full a newcomer is not recorded.
pub const MAX_PRESENT: usize = 100_000;
/// Seconds an invitation waits at most.
pub const INVITE_TTL_S: u64 = 600;
/// The most invitations waiting for one person (the newest kept).
pub const INVITES_PER_PERSON: usize = 5;
/// The most invitations waiting in all.
pub const MAX_INVITES: usize = 50_000;

/// An invitation to a table.
#[derive(Clone, Debug)]
pub struct Invite {
    /// Its id (to dismiss it).
    pub id: String,
    /// Who sent it (whole id).
    pub from: String,
    /// The name they sent it under.
    pub from_name: String,
    /// The table's game.
    pub game: String,
    /// The link that opens the table (with its key, for a private one).
    pub link: String,
    /// When it was sent.
    pub at: Instant,
}

/// Why an invitation was not taken.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// The book holds [`MAX_INVITES`].
    Full,
}

#[derive(Default)]
struct Book {
    /// Person (whole id) → when their pages last asked, and from where.
    seen: HashMap<String, (Instant, Place)>,
    /// Person invited (whole id) → their invitations, oldest first.
    invites: HashMap<String, VecDeque<Invite>>,
    /// Invitations in `invites`.
    count: usize,
}

/// See the module docs.
#[derive(Default)]
pub struct Friends {
    book: Mutex<Book>,
}

impl Book {
    /// Drops person `to`'s expired invitations.
    fn expire(&mut self, to: &str, now: Instant) {
        let ttl = Duration::from_secs(INVITE_TTL_S);
        let Some(list) = self.invites.get_mut(to) else {
            return;
        };
        let before = list.len();
        list.retain(|i| now.saturating_duration_since(i.at) < ttl);
        self.count -= before - list.len();
        if list.is_empty() {
            self.invites.remove(to);
        }
    }
}

impl Friends {
    fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Person `player`'s pages asked now, from `place`.
    pub fn seen(&self, player: &str, place: Place, now: Instant) {
        let mut book = self.book();
        if book.seen.len() >= MAX_PRESENT && !book.seen.contains_key(player) {
            let gone = Duration::from_secs(PRESENT_S);
            book.seen
                .retain(|_, (at, _)| now.saturating_duration_since(*at) < gone);
            if book.seen.len() >= MAX_PRESENT {
                return;
            }
        }
        book.seen.insert(player.to_string(), (now, place));
    }

    /// Where person `player` is, if online.
    pub fn place_of(&self, player: &str, now: Instant) -> Option<Place> {
        let book = self.book();
        let (at, place) = book.seen.get(player)?;
        (now.saturating_duration_since(*at) < Duration::from_secs(PRESENT_S)).then(|| place.clone())
    }

    /// The place person `player` last reported, online or not (to tell a
    /// new report from the same one).
    pub fn last_place(&self, player: &str) -> Option<Place> {
        self.book().seen.get(player).map(|(_, p)| p.clone())
    }

    /// Adds an invitation for `to`, replacing one from the same sender;
    /// past [`INVITES_PER_PERSON`] the oldest goes.
    pub fn invite(&self, to: &str, invite: Invite, now: Instant) -> Result<(), Refused> {
        let mut book = self.book();
        book.expire(to, now);
        let list = book.invites.entry(to.to_string()).or_default();
        let before = list.len();
        list.retain(|i| i.from != invite.from);
        let mut dropped = before - list.len();
        while list.len() >= INVITES_PER_PERSON {
            list.pop_front();
            dropped += 1;
        }
        let room = book.count - dropped < MAX_INVITES;
        book.count -= dropped;
        if !room {
            if book.invites.get(to).is_some_and(VecDeque::is_empty) {
                book.invites.remove(to);
            }
            return Err(Refused::Full);
        }
        book.invites
            .get_mut(to)
            .expect("made above")
            .push_back(invite);
        book.count += 1;
        Ok(())
    }

    /// Person `to`'s invitations, oldest first.
    pub fn invites_for(&self, to: &str, now: Instant) -> Vec<Invite> {
        let mut book = self.book();
        book.expire(to, now);
        book.invites
            .get(to)
            .map(|l| l.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Drops person `to`'s invitations that `keep` refuses; how many went.
    pub fn drop_invites(&self, to: &str, keep: impl Fn(&Invite) -> bool) -> usize {
        let mut book = self.book();
        let Some(list) = book.invites.get_mut(to) else {
            return 0;
        };
        let before = list.len();
        list.retain(|i| keep(i));
        let gone = before - list.len();
        if list.is_empty() {
            book.invites.remove(to);
        }
        book.count -= gone;
        gone
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invite(id: &str, from: &str, at: Instant) -> Invite {
        Invite {
            id: id.into(),
            from: from.into(),
            from_name: from.into(),
            game: "dalmuti".into(),
            link: "/t/x".into(),
            at,
        }
    }

    #[test]
    fn a_person_is_online_while_their_pages_ask() {
        let f = Friends::default();
        let t0 = Instant::now();
        assert_eq!(f.place_of("a", t0), None);
        f.seen("a", Place::Lobby, t0);
        assert_eq!(
            f.place_of("a", t0 + Duration::from_secs(10)),
            Some(Place::Lobby)
        );
        assert_eq!(f.place_of("a", t0 + Duration::from_secs(PRESENT_S)), None);
        assert_eq!(f.last_place("a"), Some(Place::Lobby));
    }

    #[test]
    fn invitations_are_one_per_sender_the_newest_few_and_expire() {
        let f = Friends::default();
        let t0 = Instant::now();
        f.invite("b", invite("1", "a", t0), t0).unwrap();
        f.invite("b", invite("2", "a", t0), t0).unwrap();
        let ids = |now| {
            f.invites_for("b", now)
                .into_iter()
                .map(|i| i.id)
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(t0), ["2"], "one per sender: the newest");
        for k in 0..INVITES_PER_PERSON {
            f.invite("b", invite(&format!("x{k}"), &format!("s{k}"), t0), t0)
                .unwrap();
        }
        let now = ids(t0);
        assert_eq!(now.len(), INVITES_PER_PERSON);
        assert!(!now.contains(&"2".to_string()), "the oldest went");
        assert_eq!(f.book().count, INVITES_PER_PERSON);
        assert_eq!(f.drop_invites("b", |i| i.from != "s0"), 1);
        assert_eq!(f.book().count, INVITES_PER_PERSON - 1);
        assert!(ids(t0 + Duration::from_secs(INVITE_TTL_S)).is_empty());
        assert_eq!(f.book().count, 0, "expired ones are counted out");
    }

    #[test]
    fn the_book_refuses_past_its_cap() {
        let f = Friends::default();
        let t0 = Instant::now();
        f.book().count = MAX_INVITES;
        assert_eq!(f.invite("b", invite("1", "a", t0), t0), Err(Refused::Full));
        assert!(f.invites_for("b", t0).is_empty());
        assert_eq!(f.book().count, MAX_INVITES);
    }
}
