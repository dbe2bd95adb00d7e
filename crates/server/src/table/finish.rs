//! A game's end: its result and ratings, the seed revealed, the rematch.

use super::*;

impl<G: Roster> Table<G> {
    /// Tells every connection (or only `only`) that this table has a
    /// rematch: a seated one with its own seat token (the new table's seat
    /// takes the same token), a spectator only the table.
    pub(super) fn tell_rematch(&mut self, only: Option<u64>) {
        let Some(id) = self.social.rematch.clone() else {
            return;
        };
        self.send_all(|sub| {
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
        let hash = sha256_hex(token);
        let seat = self
            .seats
            .iter()
            .find(|s| matches!(&s.kind, SeatKind::Human { token_hash: Some(h), .. } if *h == hash))
            .map(|s| s.seat)
            .ok_or_else(|| {
                Error::Forbidden("only a player seated at this table may ask for a rematch".into())
            })?;
        if self.abandoned {
            return Err(Error::Abandoned("create a new table instead of a rematch"));
        }
        if !self.finished {
            return Err(Error::NotOver);
        }
        let answer = |id: String| Rematched {
            id,
            seat,
            token: token.to_string(),
        };
        if let Some(id) = &self.social.rematch {
            return Ok(answer(id.clone()));
        }
        let id = crate::ids::new_id();
        let fair = StoredFair::new(&id);
        let stored = StoredTable {
            id,
            game: G::NAME.to_string(),
            rules_version: G::RULES_VERSION.to_string(),
            players: self.players,
            options: self.options.clone(),
            seed: fair.seed(),
            seed_hash: registry::fair::commitment(&fair.secret),
            fair: Some(fair),
            config: self.config,
            created_at: crate::clock::unix_now(),
            finished_at: None,
            seats: self.seats.clone(),
            actions: Vec::new(),
            access: Access {
                owner: Some(owner),
                ..self.access.clone()
            },
            social: crate::store::Social {
                rematch_of: Some(self.id.clone()),
                players: self.social.players.clone(),
                // The same people, from where they joined: they rate each
                // other at the rematch as they did at the table.
                origins: self.social.origins.clone(),
                ..Default::default()
            },
        };
        let external = Arc::clone(&self.ctx.external);
        external.check(
            external_seats(G::NAME, &stored.seats, &external),
            stored.access.owner.as_deref().unwrap_or_default(),
            &self.metrics,
        )?;
        let store = Arc::clone(&self.store);
        let (copy, node) = (stored.clone(), self.node.to_string());
        let made = tokio::task::spawn_blocking(move || store.create_table(&copy, &node))
            .await
            .map_err(|e| Error::Internal(e.to_string()))?;
        let epoch = match made {
            Ok(epoch) => epoch,
            Err(e) => {
                // The store links one rematch per table: if another
                // process made it first, that one is the rematch.
                let store = Arc::clone(&self.store);
                let id = self.id.clone();
                if let Ok(Ok(Some(t))) = tokio::task::spawn_blocking(move || store.load(&id)).await
                {
                    if let Some(r) = t.social.rematch {
                        self.social.rematch = Some(r.clone());
                        return Ok(answer(r));
                    }
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
        tracing::info!(table = %self.id, rematch = %id, "rematch");
        self.social.rematch = Some(id.clone());
        Ok(answer(id))
    }

    /// Records the game's result and moves its people's ratings, off this
    /// task: the store records it once, whoever asks again.
    pub(super) fn record_result(&mut self) {
        let Some(outcome) = self.game.outcome() else {
            return;
        };
        if self.abandoned {
            return;
        }
        let Some(result) = result_of(
            G::NAME,
            &self.seats,
            &self.social,
            self.access.public,
            self.seq as usize,
            &outcome,
            &self.decided,
            &self.acted,
        ) else {
            return;
        };
        for (i, d) in self.decided.iter().enumerate() {
            if d.mostly_stand_in()
                && matches!(self.seats.get(i).map(|s| &s.kind), Some(SeatKind::Bot(_)))
            {
                tracing::warn!(table = %self.id, seat = %Seat::new(i), stand_in = d.stand_in, decisions = d.all,
                    "a bot program's stand-in made most of its decisions: the result credits the stand-in");
                self.metrics.stand_in_seat();
            }
        }
        self.social.result = Some(result.outcome.clone());
        let (store, id) = (Arc::clone(&self.store), self.id.clone());
        tokio::task::spawn_blocking(move || {
            if let Err(e) = store.record_result(&id, &result) {
                tracing::error!(table = %id, "recording the result failed: {e}");
            }
        });
    }

    /// A fair-deal table's secret, once the game is over.
    pub(super) fn revealed_secret(&self) -> Option<String> {
        self.fair
            .as_ref()
            .filter(|_| self.finished)
            .map(|f| registry::fair::hex(&f.secret))
    }
}
