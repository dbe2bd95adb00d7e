//! The game at a table: its position, how many actions it has had, how it
//! ended, and its deal (the seed, the public commitment to it, and a fair
//! deal's secret and contributions).
//!
//! What is here is the table's own: only the table's task changes it, one
//! committed action at a time (`Table::commit`).

use crate::store::StoredFair;
use bots::Roster;
use game::Seat;

/// See the module docs.
pub(super) struct Play<G: Roster> {
    pub(super) game: G,
    /// The rules options, read once from the table's stored text.
    pub(super) options: G::Options,
    /// Actions applied so far.
    pub(super) seq: u64,
    /// The game is over (by the rules, by the length cap, or abandoned).
    pub(super) finished: bool,
    /// Ended by the store for inactivity (or the length cap), not by the
    /// rules.
    pub(super) abandoned: bool,
    /// The seed; a fair-deal table's is final once every human seat is
    /// taken (until then the game is a placeholder nobody sees).
    pub(super) seed: game::Seed,
    /// The public commitment to the seed.
    pub(super) seed_hash: String,
    pub(super) fair: Option<StoredFair>,
}

impl<G: Roster> Play<G> {
    /// Ends the game without an outcome (abandoned).
    pub(super) fn abandon(&mut self) {
        self.finished = true;
        self.abandoned = true;
    }

    /// The outcome bot programs hear at the end: none for an abandoned
    /// game.
    pub(super) fn final_outcome(&self) -> Option<game::Outcome> {
        if self.abandoned {
            None
        } else {
            self.game.outcome()
        }
    }

    /// The seed, once the game is over.
    pub(super) fn revealed_seed(&self) -> Option<String> {
        self.finished.then(|| self.seed.to_string())
    }

    /// A fair-deal table's secret, once the game is over.
    pub(super) fn revealed_secret(&self) -> Option<String> {
        self.fair
            .as_ref()
            .filter(|_| self.finished)
            .map(|f| registry::fair::hex(&f.secret))
    }

    /// The table's status as the lobby shows it (`waiting`: a person's
    /// seat is not taken, or a contribution is missing).
    pub(super) fn status(&self, waiting: bool) -> &'static str {
        if self.abandoned {
            "abandoned"
        } else if self.finished {
            "finished"
        } else if waiting {
            "open"
        } else {
            "playing"
        }
    }

    /// A fair-deal table not started yet deals from its secret and every
    /// contribution now. False if it cannot (then the table must stop:
    /// the placeholder deal must never be played).
    pub(super) fn deal_fair(&mut self, players: usize, table: &str) -> bool {
        let Some(fair) = &self.fair else {
            return true;
        };
        if self.seq != 0 {
            return true;
        }
        let seed = fair.seed();
        match G::new_seeded(&self.options, players, &seed) {
            Ok(mut game) => {
                game.set_logging(true);
                self.game = game;
                self.seed = seed;
                tracing::debug!(table = %table, "dealt from the secret and {} contributions",
                    fair.contributions.len());
                true
            }
            Err(_) => {
                // Cannot happen (the options were checked at creation).
                tracing::error!(table = %table, "the fair deal cannot start");
                false
            }
        }
    }

    /// The JSON text of the view `seat` may see (a spectator: the public
    /// view). Until the game has `started` nothing is dealt for real (a
    /// fair deal's seed does not exist yet): everyone sees the table.
    /// `public` is the public view's text when a broadcast has made it
    /// already (one encoding for every spectator).
    pub(super) fn view_json(
        &self,
        seat: Option<Seat>,
        started: bool,
        public: Option<&str>,
    ) -> String {
        // Room for a whole view at once: growing the buffer step by step
        // was a good part of the cost.
        let mut json = Vec::with_capacity(2048);
        let written = match seat {
            Some(seat) if started && seat.index() < self.game.players() => {
                serde_json::to_writer(&mut json, &self.game.view(seat))
            }
            _ => match public {
                Some(p) => return p.to_string(),
                None => serde_json::to_writer(&mut json, &self.game.public_view()),
            },
        };
        match written.map(|()| String::from_utf8(json)) {
            Ok(Ok(text)) => text,
            _ => {
                tracing::error!("a view does not serialize");
                "null".to_string()
            }
        }
    }
}
