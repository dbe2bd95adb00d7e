//! Duplicate play: one deal (the game seed: shuffles, seating draw, dice)
//! played once per seating of a lineup of bots, so that in a comparison
//! every bot met the same cards and dice from every seat.
//!
//! The tournament and the lab both run games through [`Match`], which
//! seats and seeds the bots and plays through the one bot game loop,
//! [`crate::playout::play_out`]. A *deal* is an index; its seed is derived
//! from the match seed and the index alone, and rotation `r` moves every
//! bot `r` seats on, so a result never depends on the thread count or on
//! the order in which threads finish: [`run`] hands the deals back in the
//! order asked for.
//!
//! The k-th die rolled in a game comes from the same place in the deal's
//! random stream in every rotation; when play differs, the same rolls may
//! land in different auctions. That is as "duplicate" as dice can be.

use crate::playout::{play_out_at, Table, Think};
use crate::Error;
use bots::Roster;
use game::{Game, Seat};
use serde::{Deserialize, Serialize};

/// One game of a duplicate deal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The deal's index in the match.
    pub deal: u64,
    /// The rotation: every bot sat this many seats on from the lineup.
    pub rotation: usize,
    /// The entrant (index into [`Match::entrants`]) in each seat, for every
    /// seat that played (Dalmuti joins can add seats).
    pub seating: Vec<usize>,
    /// Finishing place per seat, 1 = first; tied seats share a place.
    pub places: Vec<u8>,
    /// Final score per seat.
    pub scores: Vec<i64>,
    /// The seats that won (empty when capped).
    pub winners: Vec<usize>,
    /// Actions played.
    pub actions: u64,
    /// Stopped by the length cap (B17): nobody won.
    pub capped: bool,
    /// Per seat, how long its bot thought. Wall-clock time: it varies
    /// from run to run, so it is kept out of every reproducible figure.
    #[serde(default)]
    pub think: Vec<Think>,
    /// Strikes of bot programs (seat, reason); absent from the JSON when
    /// there were none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strikes: Vec<(usize, String)>,
    /// Per seat of a bot program, its decisions and its stand-in's; absent
    /// from the JSON without bot programs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stand_in: Vec<crate::strikes::StandIn>,
}

impl GameResult {
    /// The share of the win that went to `seat`: 1, 1/k for a k-way shared
    /// win, else 0.
    pub fn win_share(&self, seat: usize) -> f64 {
        if self.winners.contains(&seat) {
            1.0 / self.winners.len() as f64
        } else {
            0.0
        }
    }

    /// Whether a seat of `entrant` won (alone or sharing the win).
    pub fn won_by(&self, entrant: usize) -> bool {
        self.winners
            .iter()
            .any(|&w| self.seating.get(w) == Some(&entrant))
    }
}

/// A lineup of bots playing duplicate deals.
#[derive(Clone, Debug)]
pub struct Match<G: Game> {
    /// Rules options.
    pub options: G::Options,
    /// Seats at the start.
    pub players: usize,
    /// The distinct bots, as bot specs (`name`, `name:N`, `name:Nms`).
    pub entrants: Vec<String>,
    /// The entrant in each seat in rotation 0 (`players` long).
    pub lineup: Vec<usize>,
    /// The match seed: deal `i` is played on `derive_seed(seed, i)`.
    pub seed: u64,
    /// Actions after which a game is stopped with no winner (B17).
    pub max_actions: u64,
    /// The limits bot programs (`cmd:` bots) play under.
    pub limits: extbot::Limits,
}

impl<G: Roster> Match<G> {
    /// Checks the entrants, the lineup and the options; the error says
    /// what is wrong.
    pub fn validate(&self) -> Result<(), Error> {
        if self.entrants.is_empty() {
            return Err(Error::Config("no bots given".into()));
        }
        for e in &self.entrants {
            extbot::check::<G>(e).map_err(Error::Bot)?;
        }
        if self.lineup.len() != self.players {
            return Err(Error::Config(format!(
                "the lineup has {} bots for {} seats",
                self.lineup.len(),
                self.players
            )));
        }
        if let Some(bad) = self.lineup.iter().find(|&&e| e >= self.entrants.len()) {
            return Err(Error::Config(format!(
                "lineup names entrant {bad}, which does not exist"
            )));
        }
        G::new(&self.options, self.players, self.seed)?;
        Ok(())
    }

    /// Rotations per deal: one per seat, so every bot of the lineup sits in
    /// every seat once.
    pub fn rotations(&self) -> usize {
        self.players
    }

    /// The seed of deal `deal`.
    pub fn deal_seed(&self, deal: u64) -> u64 {
        crate::derive_seed(self.seed, deal)
    }

    /// The entrant in `seat` in rotation `rotation`. Seats beyond the
    /// starting table (joins) take the lineup cyclically, unrotated.
    pub fn entrant(&self, rotation: usize, seat: usize) -> usize {
        let n = self.players;
        if seat < n {
            self.lineup[(seat + n - rotation % n) % n]
        } else {
            self.lineup[seat % n]
        }
    }

    /// Plays deal `deal` in rotation `rotation`, timing the bots.
    pub fn play(&self, deal: u64, rotation: usize) -> Result<GameResult, Error> {
        self.play_at(&mut Table::new(), deal, rotation)
    }

    /// [`Match::play`] at a worker's `table`, reusing its bots (the result
    /// is the same).
    pub fn play_at(
        &self,
        table: &mut Table<G>,
        deal: u64,
        rotation: usize,
    ) -> Result<GameResult, Error> {
        self.play_recorded(table, deal, rotation, false)
            .map(|(result, _)| result)
    }

    /// [`Match::play_at`], and with `record` the game's record too (the
    /// deal's seed, every action, the outcome), which replays to the same
    /// result. Playing the same deal and rotation again gives the same
    /// record: every bot's seed comes from the deal and the seat.
    pub fn play_recorded(
        &self,
        table: &mut Table<G>,
        deal: u64,
        rotation: usize,
        record: bool,
    ) -> Result<(GameResult, Option<game::Record>), Error> {
        let seed = self.deal_seed(deal);
        let mut game = G::new(&self.options, self.players, seed)?;
        table.record(record);
        let bot_seed = crate::derive_seed(seed, 1 + rotation as u64);
        let name = |seat: usize| &self.entrants[self.entrant(rotation, seat)];
        let played = play_out_at(
            table,
            &mut game,
            self.max_actions,
            true,
            |seat| {
                (
                    name(seat).as_str(),
                    crate::derive_seed(bot_seed, seat as u64),
                )
            },
            |seat, seed| extbot::bot_with::<G>(name(seat), seed, &self.limits).map_err(Error::Bot),
            |seat, action, e| {
                format!(
                    "bot {} chose an illegal action `{action}` in deal {deal} rotation {rotation}: {e}",
                    name(seat)
                )
            },
        )?;
        let outcome = played.outcome;
        // Every seat that played, bots or not (a seat that joined at the
        // end may never have moved).
        let seats = played.think.len().max(outcome.places.len());
        let saved = record.then(|| {
            crate::records::record_of::<G>(
                &self.options,
                self.players,
                seed,
                (0..seats).map(|s| name(s).clone()).collect(),
                table.take_actions(),
                outcome.clone(),
            )
        });
        let mut think = played.think;
        think.resize(seats, Think::default());
        let result = GameResult {
            deal,
            rotation,
            seating: (0..seats).map(|s| self.entrant(rotation, s)).collect(),
            places: outcome.places,
            scores: outcome.scores,
            winners: outcome.winners.iter().map(|s: &Seat| s.index()).collect(),
            actions: played.actions,
            capped: outcome.capped,
            think,
            strikes: played.strikes,
            stand_in: played.stand_in,
        };
        Ok((result, saved))
    }
}

/// Plays `deals` on `threads` threads and hands each deal's games to
/// `on_deal` in the order of `deals`, on the calling thread. `on_deal`
/// returns false to stop early (the deals still in flight are dropped).
/// `on_game` is called on the calling thread for every finished game, in
/// completion order (for a progress bar).
pub fn run<G: Roster>(
    m: &Match<G>,
    deals: &[u64],
    threads: usize,
    on_game: impl FnMut(),
    mut on_deal: impl FnMut(Vec<GameResult>) -> Result<bool, Error>,
) -> Result<(), Error> {
    let r = m.rotations();
    crate::pool::ordered_with(
        deals.len() * r,
        r,
        threads,
        Table::new,
        |table, t| m.play_at(table, deals[t / r], t % r),
        on_game,
        |_, games| on_deal(games),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dalmuti_match(entrants: &[&str], lineup: Vec<usize>) -> Match<dalmuti::Dalmuti> {
        let mut options = dalmuti::Options::default();
        game::GameOptions::set(&mut options, "hands", "1").unwrap();
        Match {
            options,
            players: lineup.len(),
            entrants: entrants.iter().map(|s| s.to_string()).collect(),
            lineup,
            seed: 7,
            max_actions: 100_000,
            limits: extbot::Limits::default(),
        }
    }

    #[test]
    fn rotations_move_every_bot_through_every_seat() {
        let m = dalmuti_match(&["heuristic", "random"], vec![0, 1, 1, 1]);
        for seat in 0..4 {
            let mut seen: Vec<usize> = (0..4).map(|r| m.entrant(r, seat)).collect();
            seen.sort();
            assert_eq!(seen, vec![0, 1, 1, 1]);
        }
        let mut heuristic_seats: Vec<usize> = (0..4)
            .map(|r| (0..4).find(|&s| m.entrant(r, s) == 0).unwrap())
            .collect();
        heuristic_seats.sort();
        assert_eq!(heuristic_seats, vec![0, 1, 2, 3]);
    }

    #[test]
    fn same_deal_same_cards_and_results_whatever_the_threads() {
        let m = dalmuti_match(&["heuristic", "random"], vec![0, 1, 1, 1, 1]);
        m.validate().unwrap();
        let deals: Vec<u64> = (0..6).collect();
        let collect = |threads| {
            let mut out: Vec<Vec<GameResult>> = Vec::new();
            let mut games = 0;
            run(
                &m,
                &deals,
                threads,
                || games += 1,
                |d| {
                    out.push(d);
                    Ok(true)
                },
            )
            .unwrap();
            assert_eq!(games, 30);
            // Thinking times are wall-clock, the rest must not vary.
            for d in &mut out {
                for g in d.iter_mut() {
                    assert_eq!(g.think.len(), g.seating.len());
                    g.think.clear();
                }
            }
            out
        };
        let one = collect(1);
        assert_eq!(one, collect(3));
        assert_eq!(one.len(), 6);
        for (i, d) in one.iter().enumerate() {
            assert_eq!(d.len(), 5);
            assert!(d.iter().all(|g| g.deal == i as u64));
        }
        // The deal is the seed: the same seat gets the same role card draw,
        // so a rotation changes who plays, not what is dealt.
        let a = dalmuti::Dalmuti::new(&m.options, 5, m.deal_seed(3)).unwrap();
        let b = dalmuti::Dalmuti::new(&m.options, 5, m.deal_seed(3)).unwrap();
        assert_eq!(
            a.view(Seat::new(0)).to_string(),
            b.view(Seat::new(0)).to_string()
        );
    }

    #[test]
    fn stopping_early_hands_back_a_prefix() {
        let m = dalmuti_match(&["random"], vec![0, 0, 0]);
        let deals: Vec<u64> = (0..20).collect();
        let mut got = Vec::new();
        run(
            &m,
            &deals,
            2,
            || {},
            |d| {
                got.push(d[0].deal);
                Ok(got.len() < 4)
            },
        )
        .unwrap();
        assert_eq!(got, vec![0, 1, 2, 3]);
    }

    /// A recorded game is the same game as an unrecorded one, its record
    /// replays to its result, and a fresh table records it again alike.
    fn recorded_games_replay<G: Roster>(m: &Match<G>) {
        let mut table = Table::new();
        for (deal, rotation) in [(0, 0), (3, 1), (5, 2)] {
            let (plain, none) = m.play_recorded(&mut table, deal, rotation, false).unwrap();
            assert!(none.is_none());
            let (result, record) = m.play_recorded(&mut table, deal, rotation, true).unwrap();
            let record = record.unwrap();
            assert_eq!(
                (&plain.places, plain.actions),
                (&result.places, result.actions)
            );
            assert_eq!(record.actions.len() as u64, result.actions);
            let replayed = record.replay::<G>(false, |_, _, _| {}).unwrap();
            assert_eq!(replayed.outcome().unwrap().places, result.places);
            let (_, again) = m
                .play_recorded(&mut Table::new(), deal, rotation, true)
                .unwrap();
            assert_eq!(again.unwrap(), record, "deal {deal} rotation {rotation}");
        }
    }

    #[test]
    fn a_recorded_game_replays_to_its_result() {
        recorded_games_replay(&dalmuti_match(&["heuristic", "random"], vec![0, 1, 1, 1]));
        let bigcheese = Match::<bigcheese::BigCheese> {
            options: Default::default(),
            players: 4,
            entrants: vec!["random".into(), "strong".into()],
            lineup: vec![1, 0, 0, 0],
            seed: 3,
            max_actions: 100_000,
            limits: extbot::Limits::default(),
        };
        recorded_games_replay(&bigcheese);
    }

    #[test]
    fn a_bad_lineup_is_refused() {
        let m = dalmuti_match(&["heuristic", "nosuch"], vec![0, 1, 1]);
        assert!(m.validate().unwrap_err().to_string().contains("nosuch"));
        let m = dalmuti_match(&["heuristic"], vec![0, 1, 0]);
        assert!(m.validate().is_err());
    }
}
