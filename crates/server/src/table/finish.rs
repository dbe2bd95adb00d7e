//! A game's end: its result and ratings, and the rematch.

use super::outbox::Kind;
use super::*;
use crate::ids::sha256_hex;
use crate::protocol::ServerMsg;
use crate::store::StoredFair;
use game::Seat;

impl<G: Roster> Table<G> {
    /// Tells every connection (or only `only`) that this table has a
    /// rematch: a seated one with its own seat token (the new table's seat
    /// takes the same token), a spectator only the table.
    pub(super) fn tell_rematch(&mut self, only: Option<u64>) {
        let Some(id) = self.seating.social.rematch.clone() else {
            return;
        };
        self.send_all_as(Kind::Other, |sub| {
            if only.is_some_and(|c| c != sub.conn) {
                return None;
            }
            Some(
                ServerMsg::Rematch {
                    table: id.clone(),
                    seat: sub.token.as_ref().and(sub.seat),
                    token: sub.token.clone(),
                    live: only.is_none(),
                }
                .to_text(),
            )
        });
    }

    /// A rematch of this finished table: the same game, options, settings
    /// and access; every seat as it was (a person's seat keeps them, with
    /// the token they hold; a bot's keeps its bot); a new server secret and
    /// its commitment. Only a seated player may ask, and asking again gives
    /// the same table.
    pub(super) async fn rematch(&mut self, token: &str, owner: String) -> Result<Rematched, Error> {
        let seat = self
            .seating
            .seat_of_token_hash(&sha256_hex(token))
            .ok_or_else(|| {
                Error::Forbidden("only a player seated at this table may ask for a rematch".into())
            })?;
        if self.play.abandoned {
            return Err(Error::Abandoned("create a new table instead of a rematch"));
        }
        if !self.play.finished {
            return Err(Error::NotOver);
        }
        let answer = |id: String| Rematched {
            id,
            seat,
            token: token.to_string(),
        };
        if let Some(id) = &self.seating.social.rematch {
            return Ok(answer(id.clone()));
        }
        let stored = self.rematch_table(owner);
        let external = &self.ctx.external;
        external.check(
            external_seats(G::NAME, &stored.seats, external),
            stored.access.owner.as_deref().unwrap_or_default(),
            &self.ctx.metrics,
        )?;
        let (store, copy, node) = (
            Arc::clone(self.ledger.store()),
            stored.clone(),
            self.ledger.node().to_string(),
        );
        let made = tokio::task::spawn_blocking(move || store.create_table(&copy, &node))
            .await
            .map_err(|e| Error::Internal(e.to_string()))?;
        let epoch = match made {
            Ok(epoch) => epoch,
            Err(e) => {
                // The store links one rematch per table: if another
                // process made it first, that one is the rematch.
                if let Some(r) = self.ledger.load().await.and_then(|t| t.social.rematch) {
                    self.seating.social.rematch = Some(r.clone());
                    return Ok(answer(r));
                }
                return Err(Error::Internal(e.to_string()));
            }
        };
        let id = stored.id.clone();
        let handle = spawn(stored, self.ctx.clone(), epoch)?;
        self.ctx
            .registry
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id.clone(), handle);
        self.ctx.metrics.table_created();
        tracing::info!(table = %self.setup.id, rematch = %id, "rematch");
        self.seating.social.rematch = Some(id.clone());
        Ok(answer(id))
    }

    /// The rematch of this table as the store will keep it, made for
    /// `owner`.
    fn rematch_table(&self, owner: String) -> StoredTable {
        let id = crate::ids::new_id();
        let fair = StoredFair::new(&id);
        let social = &self.seating.social;
        StoredTable {
            id,
            game: G::NAME.to_string(),
            rules_version: G::RULES_VERSION.to_string(),
            players: self.setup.players,
            options: self.setup.options.clone(),
            seed: fair.seed(),
            seed_hash: registry::fair::commitment(&fair.secret),
            fair: Some(fair),
            // the rematch of a tutorial is a game like any other: a fair
            // deal, rated
            config: TableConfig {
                tutorial: false,
                unattended: false,
                ..self.setup.config
            },
            created_at: crate::clock::unix_now(),
            finished_at: None,
            seats: self.seating.seats().to_vec(),
            actions: Vec::new(),
            access: Access {
                owner: Some(owner),
                ..self.setup.access.clone()
            },
            social: crate::store::Social {
                rematch_of: Some(self.setup.id.to_string()),
                players: social.players.clone(),
                // The same people, from where they joined: they rate each
                // other at the rematch as they did at the table.
                origins: social.origins.clone(),
                ..Default::default()
            },
        }
    }

    /// Records the game's result and moves its people's ratings, off this
    /// task: the store records it once, whoever asks again.
    pub(super) fn record_result(&mut self) {
        let Some(outcome) = self.play.game.outcome() else {
            return;
        };
        if self.play.abandoned {
            return;
        }
        let decided = self.bots.decided();
        let Some(mut result) = result_of(
            G::NAME,
            self.seating.seats(),
            &self.seating.social,
            self.setup.access.public,
            self.play.seq as usize,
            &outcome,
            decided,
            self.seating.acted(),
        ) else {
            return;
        };
        result.tutorial = self.setup.config.tutorial;
        for (i, d) in decided.iter().enumerate() {
            let seat = Seat::new(i);
            if d.mostly_stand_in() && matches!(self.seating.kind(seat), Some(SeatKind::Bot(_))) {
                tracing::warn!(table = %self.setup.id, seat = %seat, stand_in = d.stand_in, decisions = d.all,
                    "a bot program's stand-in made most of its decisions: the result credits the stand-in");
                self.ctx.metrics.stand_in_seat();
            }
        }
        self.seating.social.result = Some(result.outcome.clone());
        self.ledger.record_result(result);
    }
}
