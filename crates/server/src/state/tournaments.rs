//! A tournament for people as one document, and the rules that read it:
//! who may enter, when it starts, which tables each kind makes next, and
//! the standings. Plain data with no IO, no clock (the caller passes the
//! time) and no global RNG (its draws come from its own secret seed), so
//! every rule is tested here without a server; the director
//! (`tournaments/director.rs`) loads a document, records its tables'
//! results, asks [`Tournament::advance`] for the next tables, makes them
//! and saves it back (`store/tournaments.rs`, compared on its version).
//!
//! The kinds (docs/server.md, "Tournaments"):
//! - **arena**: a time window; whoever is free is seated again at once,
//!   with the longest waiters, preferring people they did not just play
//!   (bots fill a short table after [`ARENA_FILL_MS`]); points per place,
//!   and a seat its stand-in played scores nothing (no farming by
//!   letting tables run themselves);
//! - **Swiss**: fixed rounds; round 1 drawn, the next ones by standing;
//! - **duplicate**: as Swiss, but every table of a round plays the same
//!   deal (the same secret, [`Tournament::deal_secret`]) with the seats
//!   rotated, and a seat scores against those who held the same seat, so
//!   the same cards, at the other tables: one point per seat it beat, half
//!   per tie, as matchpoints in duplicate bridge.

use crate::error::Error;
use crate::tournament_wire::{
    StandingLine, TournamentKind, TournamentStatus, TournamentSummary, TournamentTable,
    TournamentView, TournamentYou,
};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Entrants at most (people and bots).
pub const MAX_ENTRANTS: usize = 64;
/// Bot entrants at most.
pub const MAX_BOT_ENTRANTS: usize = 32;
/// Tables a tournament makes at most (an arena stops seating there).
pub const MAX_TABLES: usize = 400;
/// Rounds of a Swiss or duplicate.
pub const ROUNDS: std::ops::RangeInclusive<u32> = 1..=12;
/// An arena's length, minutes.
pub const MINUTES: std::ops::RangeInclusive<u32> = 1..=180;
/// The furthest a start may be set, seconds from now.
pub const MAX_START_IN_S: u32 = 86_400;
/// The newest tables a view lists (the standings count them all).
pub const VIEW_TABLES: usize = 100;
/// An arena player alone (fewer free than a table seats) waits this long
/// for people before bots fill the table.
pub const ARENA_FILL_MS: i64 = 15_000;

/// Someone entered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    /// A person's identity (the hash of their key).
    pub player: Option<String>,
    /// A bot entrant's level.
    pub bot: Option<String>,
    /// The name in the standings.
    pub name: String,
    /// Where a person joined from ([`crate::social::origin`], a hash):
    /// their seats carry it, so people from one origin never rate each
    /// other, as at any table.
    #[serde(default)]
    pub origin: Option<String>,
    /// Left: seated nowhere new (a live table keeps the seat, its stand-in
    /// plays it).
    pub left: bool,
    /// Unix milliseconds since they are free (an arena seats the longest
    /// waiters first).
    pub free_since_ms: i64,
}

/// How a table ended, as the tournament counts it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Each seat's place (concessions last, as the ratings count them).
    pub places: Vec<u8>,
    /// Per seat: a person's seat played mostly by the stand-in.
    pub stand_in: Vec<bool>,
    /// Ended without a result (abandoned): counts for nobody.
    pub void: bool,
}

/// One of its tables.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Played {
    /// The table's id.
    pub id: String,
    /// The round (an arena: its tables' count).
    pub round: u32,
    /// The entrant at each seat; `None`: a bot filling the seat.
    pub seats: Vec<Option<usize>>,
    /// The table exists (planned tables are made by the director, which
    /// makes a planned one again after a crash).
    pub made: bool,
    /// Its result, once over.
    pub result: Option<Outcome>,
}

/// A tournament, whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tournament {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: TournamentKind,
    /// The quick-pairing preset its tables play.
    pub preset: String,
    /// The preset's game.
    pub game: String,
    /// Seats at each table.
    pub players: usize,
    /// The level of the bots that fill seats.
    pub bot: String,
    /// Bots' delay at its tables, milliseconds (`None`: the lobby's).
    pub bot_delay_ms: Option<u64>,
    /// Swiss and duplicate rounds.
    pub rounds: u32,
    /// An arena's minutes.
    pub minutes: u32,
    /// Its creator's identity (`None`: the operator).
    pub creator: Option<String>,
    /// The address it was made from (its cap on live tournaments).
    pub owner: String,
    /// Its secret seed, hex: the draws and the duplicate deals come from
    /// it. Never served.
    pub seed: String,
    /// Unix milliseconds.
    pub created_ms: i64,
    /// When it starts (or started).
    pub starts_ms: i64,
    /// An arena's end.
    pub ends_ms: Option<i64>,
    /// Where it stands.
    pub status: TournamentStatus,
    /// The round being played.
    pub round: u32,
    /// Why it was called off, or how it ended.
    pub note: Option<String>,
    /// Who entered, in order.
    pub entrants: Vec<Entrant>,
    /// Its tables, in order.
    pub tables: Vec<Played>,
}

/// What the shared state holds for the director: its bell (rung by a
/// change a person made, so a start or a join is acted on at once) and
/// whether it runs.
#[derive(Debug, Default)]
pub struct Director {
    /// Rung by a change.
    pub wake: tokio::sync::Notify,
    /// Set once the director runs.
    pub started: std::sync::atomic::AtomicBool,
}

/// One entrant's standing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Standing {
    /// Points.
    pub points: f64,
    /// Tables over (void ones left out).
    pub tables: usize,
    /// First places.
    pub firsts: usize,
    /// Tables their stand-in played.
    pub stand_ins: usize,
}

impl Tournament {
    /// The status as stored beside the document.
    pub fn status_text(&self) -> &'static str {
        match self.status {
            TournamentStatus::Open => "open",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
        }
    }

    /// The entrant `player` is, if any.
    pub fn entrant_of(&self, player: &str) -> Option<usize> {
        self.entrants
            .iter()
            .position(|e| e.player.as_deref() == Some(player))
    }

    /// The live table (made or planned, not over) entrant `e` sits at.
    pub fn live_table_of(&self, e: usize) -> Option<&Played> {
        self.tables
            .iter()
            .find(|t| t.result.is_none() && t.seats.contains(&Some(e)))
    }

    /// Person `player` enters under `name` (again, if they had left; a
    /// new name if they are in). Swiss and duplicate take entrants until
    /// they start, an arena until its end.
    pub fn join(
        &mut self,
        player: &str,
        name: String,
        origin: Option<String>,
        now: i64,
    ) -> Result<(), Error> {
        let closed = match self.status {
            TournamentStatus::Open => false,
            TournamentStatus::Running => {
                self.kind != TournamentKind::Arena || self.ends_ms.is_some_and(|end| now >= end)
            }
            TournamentStatus::Finished => true,
        };
        if closed {
            return Err(Error::Refused(
                "this tournament takes no more entrants".to_string(),
            ));
        }
        if let Some(e) = self.entrant_of(player) {
            let entrant = &mut self.entrants[e];
            entrant.name = name;
            entrant.origin = origin;
            if entrant.left {
                entrant.left = false;
                entrant.free_since_ms = now;
            }
            return Ok(());
        }
        if self.entrants.len() >= MAX_ENTRANTS {
            return Err(Error::Refused(format!(
                "this tournament is full ({MAX_ENTRANTS} entrants)"
            )));
        }
        self.entrants.push(Entrant {
            player: Some(player.to_string()),
            bot: None,
            name,
            origin,
            left: false,
            free_since_ms: now,
        });
        Ok(())
    }

    /// Person `player` leaves: seated nowhere new from now on.
    pub fn leave(&mut self, player: &str) -> Result<(), Error> {
        let e = self
            .entrant_of(player)
            .ok_or_else(|| Error::Refused("you are not in this tournament".to_string()))?;
        self.entrants[e].left = true;
        Ok(())
    }

    /// Its creator starts it now, rather than at the set time.
    pub fn start_now(&mut self, player: Option<&str>, now: i64) -> Result<(), Error> {
        if self.creator.as_deref() != player || player.is_none() {
            return Err(Error::Forbidden(
                "only the tournament's creator may start it".to_string(),
            ));
        }
        if self.status != TournamentStatus::Open {
            return Err(Error::Refused("this tournament has started".to_string()));
        }
        self.starts_ms = self.starts_ms.min(now);
        Ok(())
    }

    /// A table's result is in; its entrants are free from `now`.
    pub fn record(&mut self, table: usize, outcome: Outcome, now: i64) {
        let Some(t) = self.tables.get_mut(table) else {
            return;
        };
        t.result = Some(outcome);
        for e in t.seats.clone().into_iter().flatten() {
            if let Some(entrant) = self.entrants.get_mut(e) {
                entrant.free_since_ms = now;
            }
        }
    }

    /// Moves it on at `now`: starts it when due, ends it when done, and
    /// plans the tables to make next (their indexes in `tables`).
    pub fn advance(&mut self, now: i64) -> Vec<usize> {
        if self.status == TournamentStatus::Open {
            if now < self.starts_ms {
                return Vec::new();
            }
            self.begin(now);
        }
        if self.status != TournamentStatus::Running {
            return Vec::new();
        }
        match self.kind {
            TournamentKind::Arena => self.arena(now),
            TournamentKind::Swiss | TournamentKind::Duplicate => self.next_round(),
        }
    }

    fn begin(&mut self, now: i64) {
        let active = self.entrants.iter().filter(|e| !e.left).count();
        let least = match self.kind {
            // a duplicate compares tables: it needs at least two
            TournamentKind::Duplicate => self.players + 1,
            _ => 2,
        };
        if active < least {
            self.status = TournamentStatus::Finished;
            self.note = Some(format!(
                "called off: {active} entrants, fewer than the {least} it needs"
            ));
            return;
        }
        self.status = TournamentStatus::Running;
        self.starts_ms = now;
        if self.kind == TournamentKind::Arena {
            self.ends_ms = Some(now + i64::from(self.minutes) * 60_000);
        }
        for e in &mut self.entrants {
            e.free_since_ms = now;
        }
    }

    /// A draw from the tournament's seed: the same for the same
    /// tournament, round and entrant, unknown beforehand to anyone else.
    fn draw(&self, round: u32, e: usize) -> u64 {
        let digest = Sha256::new()
            .chain_update(b"ratrace-tournament-draw")
            .chain_update(self.seed.as_bytes())
            .chain_update(round.to_le_bytes())
            .chain_update((e as u64).to_le_bytes())
            .finalize();
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        u64::from_le_bytes(first)
    }

    /// The secret every table of duplicate round `round` deals from.
    pub fn deal_secret(&self, round: u32) -> [u8; 32] {
        Sha256::new()
            .chain_update(b"ratrace-tournament-deal")
            .chain_update(self.seed.as_bytes())
            .chain_update(self.id.as_bytes())
            .chain_update(round.to_le_bytes())
            .finalize()
            .into()
    }

    /// Adds a planned table; its index.
    fn plan(&mut self, round: u32, seats: Vec<Option<usize>>) -> usize {
        let id = format!("{}-{}", self.id, self.tables.len() + 1);
        self.tables.push(Played {
            id,
            round,
            seats,
            made: false,
            result: None,
        });
        self.tables.len() - 1
    }

    /// The entrants at `e`'s latest table, `e` left out.
    fn last_mates(&self, e: usize) -> Vec<usize> {
        self.tables
            .iter()
            .rev()
            .find(|t| t.seats.contains(&Some(e)))
            .map(|t| {
                t.seats
                    .iter()
                    .flatten()
                    .copied()
                    .filter(|&m| m != e)
                    .collect()
            })
            .unwrap_or_default()
    }

    fn arena(&mut self, now: i64) -> Vec<usize> {
        let over = self.ends_ms.is_some_and(|end| now >= end) || self.tables.len() >= MAX_TABLES;
        if over {
            if self.tables.iter().all(|t| t.result.is_some()) {
                self.status = TournamentStatus::Finished;
            }
            return Vec::new();
        }
        let n = self.players;
        let wave = self.tables.len() as u32;
        let mut free: Vec<usize> = (0..self.entrants.len())
            .filter(|&e| !self.entrants[e].left && self.live_table_of(e).is_none())
            .collect();
        free.sort_by_key(|&e| (self.entrants[e].free_since_ms, self.draw(wave, e)));
        // With people entered, every table holds one: bots never play
        // among themselves for points.
        let people = self.entrants.iter().any(|e| e.player.is_some());
        let mut out = Vec::new();
        while let Some(lead_at) = free
            .iter()
            .position(|&e| !people || self.entrants[e].player.is_some())
        {
            let lead = free.remove(lead_at);
            let last = self.last_mates(lead);
            // the longest waiters join them, those they just played last
            let mut others = free.clone();
            others.sort_by_key(|m| last.contains(m));
            let group: Vec<usize> = others.into_iter().take(n - 1).collect();
            let waited = now - self.entrants[lead].free_since_ms;
            if group.len() < n - 1 && waited < ARENA_FILL_MS {
                break;
            }
            free.retain(|m| !group.contains(m));
            let mut seats: Vec<Option<usize>> =
                std::iter::once(lead).chain(group).map(Some).collect();
            seats.resize(n, None);
            // the seats drawn, so that nobody always opens
            let round = self.tables.len() as u32 + 1;
            seats.sort_by_key(|s| s.map_or(u64::MAX, |e| self.draw(round, e)));
            out.push(self.plan(round, seats));
        }
        out
    }

    fn next_round(&mut self) -> Vec<usize> {
        if self.tables.iter().any(|t| t.result.is_none()) {
            return Vec::new();
        }
        if self.round >= self.rounds {
            self.status = TournamentStatus::Finished;
            return Vec::new();
        }
        let standings = self.standings();
        let round = self.round + 1;
        let mut order: Vec<usize> = (0..self.entrants.len())
            .filter(|&e| !self.entrants[e].left)
            .collect();
        if order.len() < 2 {
            self.status = TournamentStatus::Finished;
            self.note = Some("ended early: fewer than 2 entrants left".to_string());
            return Vec::new();
        }
        self.round = round;
        order.sort_by(|&a, &b| {
            let by_points = if round == 1 {
                std::cmp::Ordering::Equal
            } else {
                standings[b].points.total_cmp(&standings[a].points)
            };
            by_points.then(self.draw(round, a).cmp(&self.draw(round, b)))
        });
        let n = self.players;
        let groups: Vec<Vec<usize>> = order.chunks(n).map(<[usize]>::to_vec).collect();
        let mut out = Vec::new();
        for (t, group) in groups.into_iter().enumerate() {
            // rotated by table and round: the same seat (at a duplicate,
            // the same cards) goes to someone else at each table
            let mut seats = vec![None; n];
            for (i, e) in group.into_iter().enumerate() {
                seats[(i + t + round as usize - 1) % n] = Some(e);
            }
            out.push(self.plan(round, seats));
        }
        out
    }

    /// Each entrant's standing (by entrant index).
    pub fn standings(&self) -> Vec<Standing> {
        let mut out = vec![Standing::default(); self.entrants.len()];
        for t in &self.tables {
            let Some(r) = &t.result else { continue };
            if r.void {
                continue;
            }
            for (s, e) in t.seats.iter().enumerate() {
                let Some(e) = *e else { continue };
                let place = r.places.get(s).copied().unwrap_or(u8::MAX);
                let stand_in = r.stand_in.get(s).copied().unwrap_or(false);
                let st = &mut out[e];
                st.tables += 1;
                st.firsts += usize::from(place == 1);
                st.stand_ins += usize::from(stand_in);
                st.points += match self.kind {
                    TournamentKind::Arena if stand_in => 0.0,
                    TournamentKind::Arena | TournamentKind::Swiss => {
                        t.seats.len().saturating_sub(usize::from(place)) as f64
                    }
                    TournamentKind::Duplicate => self.matchpoints(t, s, place),
                };
            }
        }
        out
    }

    /// Duplicate: what seat `s` with `place` at table `t` scores against
    /// the same seat at the round's other tables (1 per seat it beat,
    /// half per tie).
    fn matchpoints(&self, t: &Played, s: usize, place: u8) -> f64 {
        self.tables
            .iter()
            .filter(|o| o.round == t.round && o.id != t.id)
            .filter_map(|o| o.result.as_ref().filter(|r| !r.void))
            .filter_map(|r| r.places.get(s).copied())
            .map(|other| match place.cmp(&other) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            })
            .sum()
    }

    /// What the lobby lists.
    pub fn summary(&self) -> TournamentSummary {
        TournamentSummary {
            id: self.id.clone(),
            name: self.name.clone(),
            kind: self.kind,
            preset: self.preset.clone(),
            game: self.game.clone(),
            status: self.status,
            entrants: self.entrants.iter().filter(|e| !e.left).count(),
            starts_ms: self.starts_ms,
        }
    }

    /// What anyone sees; `me` (an identity) adds their own part.
    pub fn view(&self, me: Option<&str>) -> TournamentView {
        let standings = self.standings();
        let mut order: Vec<usize> = (0..self.entrants.len()).collect();
        order.sort_by(|&a, &b| {
            standings[b]
                .points
                .total_cmp(&standings[a].points)
                .then(standings[b].firsts.cmp(&standings[a].firsts))
                .then(a.cmp(&b))
        });
        let mut lines: Vec<StandingLine> = Vec::with_capacity(order.len());
        for (i, &e) in order.iter().enumerate() {
            let st = standings[e];
            let place = match lines.last() {
                Some(prev) if prev.points == st.points => prev.place,
                _ => i + 1,
            };
            let entrant = &self.entrants[e];
            lines.push(StandingLine {
                place,
                name: entrant.name.clone(),
                short: entrant.player.as_ref().map(|p| short(p)),
                bot: entrant.bot.clone(),
                points: st.points,
                tables: st.tables,
                firsts: st.firsts,
                stand_ins: st.stand_ins,
                left: entrant.left,
            });
        }
        let tables = self
            .tables
            .iter()
            .rev()
            .filter(|t| t.made)
            .take(VIEW_TABLES)
            .map(|t| TournamentTable {
                id: t.id.clone(),
                round: t.round,
                seats: t
                    .seats
                    .iter()
                    .map(|s| match s {
                        Some(e) => self.entrants[*e].name.clone(),
                        None => format!("{} bot", self.bot),
                    })
                    .collect(),
                places: t
                    .result
                    .as_ref()
                    .filter(|r| !r.void)
                    .map(|r| r.places.clone()),
                stand_in: t
                    .result
                    .as_ref()
                    .map(|r| r.stand_in.clone())
                    .unwrap_or_default(),
                void: t.result.as_ref().is_some_and(|r| r.void),
            })
            .collect();
        let you = me.map(|p| {
            let e = self.entrant_of(p);
            TournamentYou {
                entered: e.is_some_and(|e| !self.entrants[e].left),
                creator: self.creator.as_deref() == Some(p),
                table: e
                    .and_then(|e| self.live_table_of(e))
                    .filter(|t| t.made)
                    .map(|t| t.id.clone()),
            }
        });
        TournamentView {
            summary: self.summary(),
            players: self.players,
            rounds: if self.kind == TournamentKind::Arena {
                0
            } else {
                self.rounds
            },
            round: self.round,
            ends_ms: self.ends_ms,
            note: self.note.clone(),
            standings: lines,
            tables,
            you,
        }
    }
}

/// A person's short id (their profile's address).
fn short(player: &str) -> String {
    player.chars().take(crate::store::SHORT_ID).collect()
}

#[cfg(test)]
mod tests;
