//! Seats changing hands: a person joins, a rematch's person arrives with
//! their contribution, the creator fills a seat with a bot; and the game
//! starts once every seat is taken.

use super::*;
use crate::ids::{new_token, sha256_hex};
use crate::store::SeatTaking;
use game::Seat;

impl<G: Roster> Table<G> {
    /// A person takes seat `seat` (or the first free one) under `name`:
    /// stored first, then the seat, its token and the table's published
    /// commitment (the person's browser keeps it beside their
    /// contribution).
    pub(super) async fn join(
        &mut self,
        seat: Option<Seat>,
        name: String,
        key: Option<String>,
        contribution: Option<[u8; 32]>,
        player: Option<String>,
        origin: String,
    ) -> Result<(Seat, String, String), Error> {
        if self.play.finished {
            return Err(Error::SeatTaken("the game is over".to_string()));
        }
        if let Some(hash) = &self.setup.access.invite_hash {
            if key.as_deref().map(sha256_hex).as_ref() != Some(hash) {
                return Err(Error::Forbidden(
                    "this table is private: join it through its invite link".to_string(),
                ));
            }
        }
        let seat = self.free_seat(seat)?;
        let token = new_token();
        let hash = sha256_hex(&token);
        let contribution = contribution.filter(|_| self.play.fair.is_some());
        let (n, h, p, o) = (name.clone(), hash.clone(), player.clone(), origin.clone());
        let taken = self
            .ledger
            .write(move |store, id, epoch| {
                store.take_seat_as(SeatTaking {
                    contribution,
                    player: p,
                    origin: Some(o),
                    ..SeatTaking::person(id, seat, &n, &h, epoch)
                })
            })
            .await?;
        if !taken {
            return Err(Error::SeatTaken(format!("{seat} is not a free seat")));
        }
        self.seating.taken(seat, name, hash, player, origin);
        if let (Some(fair), Some(c)) = (self.play.fair.as_mut(), contribution) {
            fair.contributions.insert(seat, c);
        }
        self.start_if_ready();
        Ok((seat, token, self.play.seed_hash.clone()))
    }

    /// The person `player` (their identity's hash) back at the seat they
    /// hold, from another device: stored first, then the seat's new token.
    pub(super) async fn reclaim(&mut self, player: &str) -> Result<(Seat, String), Error> {
        if self.play.finished {
            return Err(Error::GameOver);
        }
        let none = || Error::Forbidden("this identity holds no seat at this table".to_string());
        let seat = self.seating.seat_of_player(player).ok_or_else(none)?;
        let token = new_token();
        let hash = sha256_hex(&token);
        let (p, h) = (player.to_string(), hash.clone());
        let changed = self
            .ledger
            .write(move |store, id, epoch| store.retoken(id, seat, &p, &h, epoch))
            .await?;
        if !changed {
            return Err(none());
        }
        self.seating.retoken(seat, hash);
        tracing::info!(table = %self.setup.id, seat = %seat, "a person came back from another device");
        Ok((seat, token))
    }

    /// The seat asked for if it is free, else the first free one.
    fn free_seat(&self, seat: Option<Seat>) -> Result<Seat, Error> {
        match seat {
            Some(seat) => match self.seating.is_open(seat) {
                None => Err(Error::BadInput(format!("this table has no seat {seat}"))),
                Some(true) => Ok(seat),
                Some(false) => Err(Error::SeatTaken(format!("{seat} is not a free seat"))),
            },
            None => self
                .seating
                .first_open()
                .ok_or_else(|| Error::SeatTaken("no seat is free".to_string())),
        }
    }

    /// A seated person arrives at a rematch with their contribution to its
    /// fair deal: it is stored, and the last one starts the game. Whether
    /// anything changed for the table.
    pub(super) async fn arrive(&mut self, seat: Seat, contribution: [u8; 32]) -> bool {
        let missing = self
            .play
            .fair
            .as_ref()
            .is_some_and(|f| !f.contributions.contains_key(&seat));
        if !self.awaiting_contributions() || !missing {
            return false;
        }
        let added = self
            .ledger
            .write(move |store, id, epoch| store.contribute(id, seat, contribution, epoch))
            .await;
        match added {
            Ok(true) => {}
            Ok(false) => return false,
            Err(e) => {
                if !self.ledger.fenced() {
                    tracing::error!(table = %self.setup.id, "storing a contribution failed: {e}");
                }
                return false;
            }
        }
        if let Some(fair) = self.play.fair.as_mut() {
            fair.contributions.insert(seat, contribution);
        }
        self.start_if_ready();
        true
    }

    /// Once every human seat is taken the game starts: a fair-deal table
    /// derives its seed from the secret and every contribution now, and
    /// deals from it.
    pub(super) fn start_if_ready(&mut self) {
        if self.waiting_for_players() {
            return;
        }
        if !self.play.deal_fair(self.setup.players, &self.setup.id) {
            // The placeholder deal must never be played: the table stops.
            self.play.abandon();
            return;
        }
        self.clock.turn_begins();
        self.open_quiet_window();
        self.start_programs();
    }

    /// The creator gives a seat whose human never came to a bot, once the
    /// seat has been free for `fill_after`.
    pub(super) async fn fill(&mut self, seat: Seat, creator: &str, bot: &str) -> Result<(), Error> {
        if self.setup.access.creator_hash.as_deref() != Some(sha256_hex(creator).as_str()) {
            return Err(Error::Forbidden(
                "only the table's creator may fill a seat".to_string(),
            ));
        }
        if self.play.finished {
            return Err(Error::SeatTaken("the game is over".to_string()));
        }
        match self.seating.is_open(seat) {
            Some(true) => {}
            Some(false) => return Err(Error::SeatTaken(format!("{seat} is not a free seat"))),
            None => return Err(Error::BadInput(format!("this table has no seat {seat}"))),
        }
        let waited = crate::clock::unix_now().saturating_sub(self.setup.created_at);
        let after = self.ctx.limits.fill_after.as_secs() as i64;
        if waited < after {
            return Err(Error::RateLimited {
                retry_after: (after - waited) as u64,
                message: format!(
                    "a seat can be given to a bot {after} s after the table was created"
                ),
            });
        }
        let made = self.fill_bot(bot)?;
        let b = bot.to_string();
        let filled = self
            .ledger
            .write(move |store, id, epoch| store.fill_seat(id, seat, &b, epoch))
            .await?;
        if !filled {
            return Err(Error::SeatTaken(format!("{seat} is not a free seat")));
        }
        self.seating.filled(seat, bot);
        self.bots.set(seat, made);
        self.start_if_ready();
        Ok(())
    }

    /// The bot a fill gives a seat: a built-in level made now, or `None`
    /// for a bot program (it starts, and takes its process slot, at its
    /// first decision), refused now if it could not run.
    fn fill_bot(&self, bot: &str) -> Result<Option<Box<dyn Bot<G>>>, Error> {
        let external = &self.ctx.external;
        crate::extbots::server_bot::<G>(bot, external)?;
        if !external.offers_for(G::NAME, bot) {
            return G::bot(bot, rand::random())
                .map(Some)
                .map_err(|e| Error::BadInput(e.to_string()));
        }
        // A bot program plays only while a person is at its table: one
        // seat of a person must stay.
        if self.seating.persons() <= 1 {
            return Err(Error::BadInput(
                "bot programs play only at a table with a person: give the last person's \
                 seat to a built-in level"
                    .to_string(),
            ));
        }
        let owner = self.setup.access.owner.clone().unwrap_or_default();
        external.check(1, &owner, &self.ctx.metrics)?;
        Ok(None)
    }
}
