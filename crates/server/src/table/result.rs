//! A finished game's result as the store records it: the outcome and who
//! played each seat. Used when a game ends and by the start-up repair.

use crate::store::{SeatKind, StoredSeat};
use game::Seat;
use std::collections::BTreeMap;

/// A seat's decisions, and how many of them a stand-in made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Decided {
    /// Decisions made by a bot for the seat.
    pub(crate) all: u64,
    /// Of those, made by a stand-in.
    pub(crate) stand_in: u64,
}

impl Decided {
    /// More than [`extbot::STAND_IN_LIMIT`] of the decisions were the
    /// stand-in's.
    pub(crate) fn mostly_stand_in(&self) -> bool {
        self.all > 0 && self.stand_in as f64 / self.all as f64 > extbot::STAND_IN_LIMIT
    }
}

/// A seat's decisions over a whole game, and how many its own player
/// made (the others a stand-in's), as the stored actions say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Acted {
    /// Its decisions.
    pub(crate) all: u64,
    /// Of those, its own player's.
    pub(crate) own: u64,
}

impl Acted {
    /// Per seat (at least `seats`), from a table's stored actions.
    pub(crate) fn of(actions: &[crate::store::StoredAction], seats: usize) -> Vec<Acted> {
        let mut out = vec![Acted::default(); seats];
        for a in actions {
            let i = a.seat.index();
            if out.len() <= i {
                out.resize(i + 1, Acted::default());
            }
            out[i].all += 1;
            out[i].own += u64::from(!a.stand_in);
        }
        out
    }

    /// Whether its player took part: made
    /// [`crate::social::ENGAGED_DECISIONS`] decisions themselves, or all
    /// of the seat's if it had fewer.
    pub(crate) fn engaged(&self) -> bool {
        self.own >= self.all.min(crate::social::ENGAGED_DECISIONS)
    }
}

/// A finished game's result as the store records it (for its ratings):
/// the outcome, and who played each seat (a person by identity and
/// origin, a bot by level). `None` if the outcome does not serialize.
///
/// A bot program's seat whose decisions were mostly a stand-in's
/// (`decided`, see [`Decided`]) is credited to the stand-in, the
/// heuristic bot: a program that hung is neither credited with its
/// stand-in's win nor rated as if it had played. A person's seat keeps
/// its person whoever played while they were away: otherwise leaving a
/// lost game would save one's rating. A person who conceded is rated
/// below everyone who did not, whatever their stand-in made of the seat
/// ([`rated_places`]): conceding is never a way to dodge a loss, nor to
/// have a bot win for you. A person who conceded, or who made too few of
/// their seat's decisions themselves (`acted`, [`Acted::engaged`]: they
/// stood still and let the stand-in play), took no part: their seat
/// counts for nobody else's rating.
#[allow(clippy::too_many_arguments)]
pub(crate) fn result_of(
    game: &str,
    seats: &[StoredSeat],
    social: &crate::store::Social,
    public: bool,
    actions: usize,
    outcome: &game::Outcome,
    decided: &[Decided],
    acted: &[Acted],
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
                Some(SeatKind::Bot(_)) if decided.get(i).is_some_and(Decided::mostly_stand_in) => {
                    Rated::Bot("heuristic".to_string())
                }
                Some(SeatKind::Bot(b)) => Rated::Bot(b.clone()),
                None => Rated::Bot("heuristic".to_string()),
            }
        })
        .collect();
    let engaged = (0..outcome.places.len())
        .map(|i| {
            let person = matches!(seats.get(i).map(|s| &s.kind), Some(SeatKind::Human { .. }));
            let conceded = social.conceded.contains_key(&Seat::new(i));
            !person || (!conceded && acted.get(i).is_none_or(Acted::engaged))
        })
        .collect();
    Some(crate::social::GameResult {
        game: game.to_string(),
        outcome: json,
        places: rated_places(&outcome.places, &social.conceded),
        capped: outcome.capped,
        seats: rated,
        at: crate::clock::unix_now(),
        public,
        actions,
        engaged,
        // the caller marks a tutorial's result (the table's settings)
        tutorial: false,
    })
}

/// The places the ratings use: those who did not concede keep their
/// order among themselves; those who did come after them all, the earlier
/// concession lower. Tied seats share a place, and a place is one more
/// than the number of seats strictly ahead (the rules' own convention).
pub(crate) fn rated_places(places: &[u8], conceded: &BTreeMap<Seat, u64>) -> Vec<u8> {
    if conceded.is_empty() {
        return places.to_vec();
    }
    // Lower is better: (conceded, then later concession first, then place).
    let key = |i: usize| match conceded.get(&Seat::new(i)) {
        None => (0, 0, places[i]),
        Some(&at) => (1, u64::MAX - at, 0),
    };
    (0..places.len())
        .map(|i| {
            let ahead = (0..places.len()).filter(|&j| key(j) < key(i)).count();
            u8::try_from(ahead + 1).unwrap_or(u8::MAX)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::social::Rated;

    fn seat(i: usize, kind: SeatKind) -> StoredSeat {
        StoredSeat {
            seat: Seat::new(i),
            kind,
        }
    }

    #[test]
    fn those_who_conceded_are_rated_last_the_earlier_lower() {
        let none = BTreeMap::new();
        assert_eq!(rated_places(&[2, 1, 3, 2], &none), vec![2, 1, 3, 2]);
        // The winner conceded: the others move up, in their order.
        let one = BTreeMap::from([(Seat::new(1), 7)]);
        assert_eq!(rated_places(&[2, 1, 3, 2], &one), vec![1, 4, 3, 1]);
        // Two concessions: the earlier one is last.
        let two = BTreeMap::from([(Seat::new(0), 9), (Seat::new(2), 3)]);
        assert_eq!(rated_places(&[1, 2, 3, 4], &two), vec![3, 1, 4, 2]);
        // Conceding at the same point shares a place.
        let same = BTreeMap::from([(Seat::new(0), 5), (Seat::new(1), 5)]);
        assert_eq!(rated_places(&[1, 2, 3], &same), vec![2, 2, 1]);
    }

    #[test]
    fn a_conceded_seat_keeps_its_person_and_is_rated_last() {
        let seats = [
            seat(
                0,
                SeatKind::Human {
                    name: Some("Ann".into()),
                    token_hash: Some("h".into()),
                },
            ),
            seat(1, SeatKind::Bot("heuristic".into())),
        ];
        let outcome = game::Outcome {
            places: vec![1, 2],
            scores: vec![5, 0],
            winners: vec![Seat::new(0)],
            capped: false,
        };
        let social = crate::store::Social {
            players: BTreeMap::from([(Seat::new(0), "ann".to_string())]),
            conceded: BTreeMap::from([(Seat::new(0), 4)]),
            ..Default::default()
        };
        let r = result_of("dalmuti", &seats, &social, true, 9, &outcome, &[], &[]).unwrap();
        assert!(matches!(&r.seats[0], Rated::Person { id, .. } if id == "ann"));
        assert_eq!(r.places, vec![2, 1]);
        // The game's own outcome is kept as it was played.
        assert_eq!(r.outcome, serde_json::to_string(&outcome).unwrap());
    }

    /// A person who conceded, or let the stand-in make their seat's first
    /// decisions, took no part; one who played a few did.
    #[test]
    fn who_took_part_is_read_from_the_stored_actions() {
        let human = |i| {
            seat(
                i,
                SeatKind::Human {
                    name: Some("p".into()),
                    token_hash: Some("h".into()),
                },
            )
        };
        let seats = [
            human(0),
            human(1),
            human(2),
            seat(3, SeatKind::Bot("random".into())),
        ];
        let act = |seat: usize, stand_in: bool| crate::store::StoredAction {
            seq: 0,
            seat: Seat::new(seat),
            action: "pass".into(),
            stand_in,
        };
        // P1 plays; P2 leaves it all to the stand-in; P3 plays, then
        // concedes; the bot's seat is a bot's.
        let mut actions = Vec::new();
        for _ in 0..5 {
            actions.extend([act(0, false), act(1, true), act(2, false), act(3, false)]);
        }
        let acted = Acted::of(&actions, 4);
        assert_eq!(acted[1], Acted { all: 5, own: 0 });
        let outcome = game::Outcome {
            places: vec![1, 2, 3, 4],
            scores: vec![0; 4],
            winners: vec![Seat::new(0)],
            capped: false,
        };
        let social = crate::store::Social {
            conceded: BTreeMap::from([(Seat::new(2), 12)]),
            ..Default::default()
        };
        let r = result_of("dalmuti", &seats, &social, true, 20, &outcome, &[], &acted).unwrap();
        assert_eq!(r.engaged, vec![true, false, false, true]);
        // A seat with fewer decisions than the bar took part if it made
        // them all.
        assert!(Acted { all: 2, own: 2 }.engaged());
        assert!(!Acted { all: 9, own: 2 }.engaged());
    }

    #[test]
    fn a_program_seat_mostly_played_by_its_stand_in_is_credited_to_it() {
        let seats = [
            seat(0, SeatKind::Bot("prog".into())),
            seat(1, SeatKind::Bot("prog".into())),
        ];
        let outcome = game::Outcome {
            places: vec![1, 2],
            scores: vec![1, 0],
            winners: vec![Seat::new(0)],
            capped: false,
        };
        let decided = [
            Decided {
                all: 100,
                stand_in: 6,
            },
            Decided {
                all: 100,
                stand_in: 5,
            },
        ];
        let social = crate::store::Social::default();
        let r = result_of(
            "dalmuti",
            &seats,
            &social,
            true,
            100,
            &outcome,
            &decided,
            &[],
        )
        .unwrap();
        assert_eq!(
            r.seats[0],
            Rated::Bot("heuristic".into()),
            "6% is over the limit"
        );
        assert_eq!(r.seats[1], Rated::Bot("prog".into()), "5% is not");
        let r = result_of("dalmuti", &seats, &social, true, 100, &outcome, &[], &[]).unwrap();
        assert_eq!(
            r.seats[0],
            Rated::Bot("prog".into()),
            "nothing known: its credit"
        );
    }
}
