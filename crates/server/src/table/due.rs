//! When the table next has something to do by itself: a bot's decision,
//! a secret decision's window closing, its bot programs stopping, or
//! leaving memory.

use super::seating::Player;
use super::*;
use tokio::time::Instant;

/// The times the table's task wakes by itself (`None`: not by this).
pub(super) struct Due {
    /// A bot acts for the seat to move.
    pub(super) bot: Option<Instant>,
    /// The secret decision's window closes.
    pub(super) window: Option<Instant>,
    /// The table leaves memory.
    pub(super) idle: Option<Instant>,
    /// The bot programs stop, nobody being at the table.
    pub(super) programs: Option<Instant>,
}

/// How long an unattended (tournament) table waits for a person who is
/// not connected before their stand-in plays.
pub(crate) const ARRIVAL_GRACE: Duration = Duration::from_secs(15);

impl<G: Roster> Table<G> {
    /// When the table next wakes by itself.
    pub(super) fn due(&self) -> Due {
        Due {
            bot: self.deadline(),
            window: self.clock.window_closes(),
            idle: self.idle_deadline(),
            programs: self.programs_deadline(),
        }
    }

    /// When this table may leave memory: nobody connected, nothing in
    /// progress, and no activity for `evict_after`.
    fn idle_deadline(&self) -> Option<Instant> {
        if self.setup.config.unattended && !self.play.finished {
            return None;
        }
        (self.audience.is_empty() && !self.bots.thinking() && !self.clock.window_open())
            .then(|| self.clock.idle_after(self.ctx.limits.evict_after))
    }

    /// When the table's running bot programs stop: [`PROGRAMS_GRACE`]
    /// after the last person left, unless one of them is deciding (then
    /// once it has).
    fn programs_deadline(&self) -> Option<Instant> {
        let since = self.seating.alone_since()?;
        (self.bots.programs_running() && !self.bots.thinking()).then(|| since + PROGRAMS_GRACE)
    }

    /// When a bot should next act for the seat to move, if ever. Nothing
    /// moves while nobody is connected (an all-bot table plays only while
    /// watched, so an unwatched table costs nothing) but at an unattended
    /// (tournament) table, while a bot is thinking, or once a held secret
    /// decision is in.
    fn deadline(&self) -> Option<Instant> {
        if self.play.finished
            || self.waiting_for_players()
            || (self.audience.is_empty() && !self.setup.config.unattended)
            || self.bots.thinking()
            || self.clock.holding()
        {
            return None;
        }
        let mover = self.play.game.to_move()?;
        // A table no person watches from a seat plays at the server's
        // minimum bot speed, whatever its own delay (an unwatched table
        // must stay cheap): a seat filled with a bot, or a human who joined
        // and never came, must not turn a table into a bot-against-bot
        // loop at full speed.
        let person_here = self.seating.person_connected(&self.audience, None);
        let delay_ms = if person_here {
            self.setup.config.bot_delay_ms
        } else {
            self.setup
                .config
                .bot_delay_ms
                .max(self.ctx.limits.min_bot_delay_ms)
        };
        let delay = Duration::from_millis(delay_ms);
        let turn_started = self.clock.turn_started();
        match self.seating.player(mover) {
            // A bot program decides only for people at the table: at a
            // table they have all left, its seat waits (no stand-in
            // plays it either).
            Player::Bot if self.program_of(mover).is_some() && !person_here => None,
            Player::Bot => Some(turn_started + delay),
            Player::Human => {
                // The stand-in plays for a person who is away only on a
                // timer: the table's turn timer, or, while another person
                // at the table is connected and waits for them, three bot
                // delays. Spectators waiting make nothing move. At an
                // unattended (tournament) table the table never waits
                // for someone away longer than ARRIVAL_GRACE: they are
                // seated there by the tournament and may take a moment
                // to arrive, but a no-show must not stall a round.
                let waited_for = self.seating.person_connected(&self.audience, Some(mover));
                let unattended = self.setup.config.unattended;
                let grace = if unattended {
                    (delay * 3).max(ARRIVAL_GRACE)
                } else {
                    delay * 3
                };
                let absent = self
                    .seating
                    .absent_since(mover)
                    .filter(|_| waited_for || unattended)
                    .map(|since| (since + grace).max(turn_started + delay));
                let timer = self
                    .setup
                    .config
                    .turn_timer_ms
                    .map(|t| turn_started + Duration::from_millis(t));
                match (absent, timer) {
                    (Some(a), Some(t)) => Some(a.min(t)),
                    (a, t) => a.or(t),
                }
            }
        }
    }
}
