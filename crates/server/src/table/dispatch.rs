//! What each command from the rest of the server does: each is handed to
//! the flow that handles it, and answered where it has an answer.

use super::outbox::MOVED;
use super::*;
use tokio::sync::oneshot;

impl<G: Roster> Table<G> {
    /// Dispatches a command to what handles it.
    pub(super) async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Hello {
                conn,
                token,
                contribution,
                key,
                out,
                reply,
            } => {
                self.hello(conn, token, contribution, key.as_deref(), out, reply)
                    .await
            }
            Command::Resync { conn } => self.send_state(conn),
            Command::Concede { conn } => self.concede(conn).await,
            Command::Leave { conn } => self.leave(conn),
            Command::Act { conn, seq, action } => self.act(conn, seq, &action).await,
            Command::Chat { conn, who, said } => self.chat(conn, who, said),
            Command::Join {
                seat,
                name,
                key,
                contribution,
                player,
                origin,
                reply,
            } => {
                let answer = self
                    .join(seat, name, key, contribution, player, origin)
                    .await;
                self.answer_seat_change(reply, answer);
            }
            Command::Reclaim { player, reply } => {
                let _ = reply.send(self.reclaim(&player).await);
            }
            Command::Fill {
                seat,
                creator,
                bot,
                reply,
            } => {
                let answer = self.fill(seat, &creator, &bot).await;
                self.answer_seat_change(reply, answer);
            }
            Command::Rematch {
                token,
                owner,
                reply,
            } => {
                let answer = self.rematch(&token, owner).await;
                let made = answer.is_ok();
                let _ = reply.send(answer);
                if made {
                    self.tell_rematch(None);
                }
            }
            Command::Info { reply } => {
                let _ = reply.send(self.info());
            }
            Command::Abandoned => self.abandon(),
            Command::Relinquish => {
                tracing::info!(table = %self.setup.id, "handed over");
                self.leave_memory(MOVED);
            }
        }
    }

    /// Answers a join or a fill; a seat that changed hands changes
    /// everyone's view.
    fn answer_seat_change<T>(
        &mut self,
        reply: oneshot::Sender<Result<T, Error>>,
        answer: Result<T, Error>,
    ) {
        let ok = answer.is_ok();
        let _ = reply.send(answer);
        if ok {
            self.broadcast();
        }
    }
}
