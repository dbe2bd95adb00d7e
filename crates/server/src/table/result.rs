//! A finished game's result as the store records it: the outcome and who
//! played each seat. Used when a game ends and by the start-up repair.

use crate::store::{SeatKind, StoredSeat};
use game::Seat;

/// A finished game's result as the store records it (for its ratings):
/// the outcome, and who played each seat (a person by identity and
/// origin, a bot by level). `None` if the outcome does not serialize.
pub(crate) fn result_of(
    game: &str,
    seats: &[StoredSeat],
    social: &crate::store::Social,
    public: bool,
    actions: usize,
    outcome: &game::Outcome,
) -> Option<crate::social::GameResult> {
    use crate::social::Rated;
    let json = serde_json::to_string(outcome).ok()?;
    let rated = (0..outcome.places.len())
        .map(|i| {
            let seat = Seat::new(i);
            match seats.get(i).map(|s| &s.kind) {
                Some(SeatKind::Human { name, .. }) => match social.players.get(&seat) {
                    Some(id) => Rated::Person {
                        id: id.clone(),
                        name: name.clone().unwrap_or_default(),
                        origin: social.origins.get(&seat).cloned(),
                    },
                    None => Rated::Nobody,
                },
                Some(SeatKind::Bot(b)) => Rated::Bot(b.clone()),
                None => Rated::Bot("heuristic".to_string()),
            }
        })
        .collect();
    Some(crate::social::GameResult {
        game: game.to_string(),
        outcome: json,
        places: outcome.places.clone(),
        capped: outcome.capped,
        seats: rated,
        at: crate::clock::unix_now(),
        public,
        actions,
    })
}
