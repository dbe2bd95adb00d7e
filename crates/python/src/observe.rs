//! `ratrace.observe(game, view)`: the observation and legal-action mask of
//! a seat's view given as JSON, as a bot program of the `ratrace-bot/1`
//! protocol receives it, so a policy trained on the environments' arrays
//! can play as a program (`ratrace.bot`).
//!
//! The rules crates' views are written to JSON but not read back, so the
//! view is read here into mirror structs of the same shape (the cards,
//! seats, plays and outcomes read themselves), then turned into the
//! engine's view. From there the encoding is the engines' own: a state
//! rebuilt from the view ([`game::Game::sample_from_view`], the hidden
//! rest drawn at random) encoded by [`Tensor::write_obs`], which reads
//! only what the view shows: the vector is the one the environments give
//! that seat. The rules options are taken from the caller when given (a
//! program gets them in its `start` message) and otherwise from the
//! view's `options` object.

use game::{GameOptions, Outcome, Seat, Tensor};
use rand::SeedableRng;
use serde::Deserialize;
use serde_json::Value;

/// What one observation call returns: the vector, the mask, and the
/// legal actions as (id, text) (empty unless the decision is the seat's).
pub(crate) type Observed = (Vec<f32>, Vec<u8>, Vec<(usize, String)>);

/// The observation and mask of `view` (JSON text) for game `name`, sized
/// for `players` at the start (default: the view's seats) and `options`
/// (default: the view's own).
pub(crate) fn observe(
    name: &str,
    view: &str,
    players: Option<usize>,
    options: Option<&[(String, String)]>,
) -> Result<Observed, String> {
    let value: Value =
        serde_json::from_str(view).map_err(|e| format!("the view is not JSON: {e}"))?;
    match name {
        "dalmuti" => {
            let options = options_for::<dalmuti::Dalmuti>(&value, options, "off")?;
            let view = dalmuti_view(value, options)?;
            let players = players.unwrap_or(view.public.players);
            Ok(encode::<dalmuti::Dalmuti>(
                &view, view.seat, &options, players,
            ))
        }
        "bigcheese" => {
            let options = options_for::<bigcheese::BigCheese>(&value, options, "auto")?;
            let view = bigcheese_view(value, options)?;
            let players = players.unwrap_or(view.public.seats.len());
            Ok(encode::<bigcheese::BigCheese>(
                &view, view.me, &options, players,
            ))
        }
        _ => Err(registry::unknown_game(name)),
    }
}

/// The engines' encoding of a view, for `seat`; the mask is all 0 unless
/// the decision is `seat`'s.
fn encode<G: Tensor>(view: &G::View, seat: Seat, options: &G::Options, players: usize) -> Observed {
    let state = G::sample_from_view(view, &mut rand::rngs::SmallRng::seed_from_u64(0));
    let mut obs = vec![0.0; G::obs_len(options, players)];
    state.write_obs(seat, &mut obs);
    let mut mask = vec![0; G::num_actions(options, players)];
    let mut actions = Vec::new();
    if state.to_move() == Some(seat) {
        let mut legal = Vec::new();
        state.write_mask(&mut legal, &mut mask);
        actions = legal
            .iter()
            .filter_map(|&a| Some((state.action_id(a)?, a.to_string())))
            .collect();
    }
    (obs, mask, actions)
}

/// The options: the caller's pairs, or the view's `public.options` object
/// read as pairs (true/false as on/off, null as `none_word`).
fn options_for<G: game::Game>(
    view: &Value,
    given: Option<&[(String, String)]>,
    none_word: &str,
) -> Result<G::Options, String> {
    let pairs: Vec<(String, String)> = match given {
        Some(pairs) => pairs.to_vec(),
        None => {
            let object = view
                .pointer("/public/options")
                .and_then(Value::as_object)
                .ok_or("the view has no public.options object: pass options=")?;
            object
                .iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    (k, Value::Bool(b)) => (k.to_string(), if *b { "on" } else { "off" }.into()),
                    (k, Value::Null) => (k.to_string(), none_word.to_string()),
                    (k, Value::String(s)) => (k.to_string(), s.clone()),
                    (k, v) => (k.to_string(), v.to_string()),
                })
                .collect()
        }
    };
    G::Options::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| format!("the options: {e}"))
}

fn read<T: for<'de> Deserialize<'de>>(value: Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| format!("not a view of this game: {e}"))
}

// ---------------------------------------------------------------- Dalmuti

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
enum DPhase {
    SeatNew,
    Revolution,
    GreaterTax,
    LesserTax,
    Market,
    MarketReturn,
    Play,
    Over,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
enum DKind {
    Tax,
    Market,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
enum DRevolution {
    None,
    Declared,
    Great,
}

#[derive(Deserialize)]
struct DTransfer {
    from: Seat,
    to: Seat,
    cards: dalmuti::Gift,
    kind: DKind,
}

#[derive(Deserialize)]
struct DExchange {
    from: Seat,
    to: Seat,
    cards: u8,
    kind: DKind,
}

#[derive(Deserialize)]
struct DTrick {
    play: dalmuti::Play,
    by: Seat,
}

#[derive(Deserialize)]
struct DPublic {
    players: usize,
    hand_number: u32,
    phase: DPhase,
    to_move: Option<Seat>,
    order: Vec<Seat>,
    roles: Vec<dalmuti::Role>,
    cards_left: Vec<u8>,
    played: Vec<dalmuti::Hand>,
    deck: dalmuti::Hand,
    scores: Vec<i64>,
    trick: Option<DTrick>,
    passed: Vec<Seat>,
    finished: Vec<Seat>,
    revolution_offered: bool,
    revolution_by: Option<Seat>,
    revolution: DRevolution,
    taxes: bool,
    exchanges: Vec<DExchange>,
    market_with: Option<Seat>,
    outcome: Option<Outcome>,
}

#[derive(Deserialize)]
struct DView {
    seat: Seat,
    hand: dalmuti::Hand,
    transfers: Vec<DTransfer>,
    pending_gift: Option<dalmuti::Gift>,
    revolution_offer: bool,
    public: DPublic,
}

fn kind(k: DKind) -> dalmuti::TransferKind {
    match k {
        DKind::Tax => dalmuti::TransferKind::Tax,
        DKind::Market => dalmuti::TransferKind::Market,
    }
}

fn dalmuti_view(value: Value, options: dalmuti::Options) -> Result<dalmuti::View, String> {
    use dalmuti::Phase;
    let v: DView = read(value)?;
    let p = v.public;
    let public = dalmuti::PublicView {
        options,
        players: p.players,
        hand_number: p.hand_number,
        phase: match p.phase {
            DPhase::SeatNew => Phase::SeatNew,
            DPhase::Revolution => Phase::Revolution,
            DPhase::GreaterTax => Phase::GreaterTax,
            DPhase::LesserTax => Phase::LesserTax,
            DPhase::Market => Phase::Market,
            DPhase::MarketReturn => Phase::MarketReturn,
            DPhase::Play => Phase::Play,
            DPhase::Over => Phase::Over,
        },
        to_move: p.to_move,
        order: p.order,
        roles: p.roles,
        cards_left: p.cards_left,
        played: p.played,
        deck: p.deck,
        scores: p.scores,
        trick: p.trick.map(|t| dalmuti::TrickView {
            play: t.play,
            by: t.by,
        }),
        passed: p.passed,
        finished: p.finished,
        revolution_offered: p.revolution_offered,
        revolution_by: p.revolution_by,
        revolution: match p.revolution {
            DRevolution::None => dalmuti::Revolution::None,
            DRevolution::Declared => dalmuti::Revolution::Declared,
            DRevolution::Great => dalmuti::Revolution::Great,
        },
        taxes: p.taxes,
        exchanges: p
            .exchanges
            .into_iter()
            .map(|e| dalmuti::Exchange {
                from: e.from,
                to: e.to,
                cards: e.cards,
                kind: kind(e.kind),
            })
            .collect(),
        market_with: p.market_with,
        outcome: p.outcome,
    };
    Ok(dalmuti::View {
        seat: v.seat,
        hand: v.hand,
        transfers: v
            .transfers
            .into_iter()
            .map(|t| dalmuti::Transfer {
                from: t.from,
                to: t.to,
                cards: t.cards,
                kind: kind(t.kind),
            })
            .collect(),
        pending_gift: v.pending_gift,
        revolution_offer: v.revolution_offer,
        public,
    })
}

// ---------------------------------------------------------------- The Big Cheese

use bigcheese::Card as BCard;

#[derive(Deserialize)]
struct BPlayer {
    seat: Seat,
    free: u8,
    projects: Vec<(BCard, u8)>,
    vetos: u8,
    cheeses: u8,
    score: u16,
    scored: u8,
    hired: u8,
}

#[derive(Deserialize)]
struct BAuction {
    card: BCard,
    leader: Seat,
    high: u8,
    bidder: Option<Seat>,
    passed: Vec<Seat>,
    bid: Vec<Seat>,
    turn: Seat,
}

#[derive(Deserialize)]
struct BRoll {
    owner: Seat,
    card: BCard,
    dice: Vec<u8>,
    payout: u16,
}

#[derive(Deserialize)]
struct BPublic {
    target: u16,
    top: Option<BCard>,
    deck_size: u8,
    discards: Vec<(BCard, u8)>,
    seats: Vec<BPlayer>,
    hired_total: u8,
    leader: Seat,
    auction: Option<BAuction>,
    roll: Option<BRoll>,
    to_resolve: Vec<(Seat, BCard)>,
    to_move: Option<Seat>,
    outcome: Option<Outcome>,
}

#[derive(Deserialize)]
struct BView {
    me: Seat,
    public: BPublic,
}

fn bigcheese_view(value: Value, options: bigcheese::Options) -> Result<bigcheese::View, String> {
    let v: BView = read(value)?;
    let p = v.public;
    Ok(bigcheese::View {
        me: v.me,
        public: bigcheese::PublicView {
            options,
            target: p.target,
            top: p.top,
            deck_size: p.deck_size,
            discards: p.discards,
            seats: p
                .seats
                .into_iter()
                .map(|s| bigcheese::PlayerView {
                    seat: s.seat,
                    free: s.free,
                    projects: s.projects,
                    vetos: s.vetos,
                    cheeses: s.cheeses,
                    score: s.score,
                    scored: s.scored,
                    hired: s.hired,
                })
                .collect(),
            hired_total: p.hired_total,
            leader: p.leader,
            auction: p.auction.map(|a| bigcheese::AuctionView {
                card: a.card,
                leader: a.leader,
                high: a.high,
                bidder: a.bidder,
                passed: a.passed,
                bid: a.bid,
                turn: a.turn,
            }),
            roll: p.roll.map(|r| bigcheese::RollView {
                owner: r.owner,
                card: r.card,
                dice: r.dice,
                payout: r.payout,
            }),
            to_resolve: p.to_resolve,
            to_move: p.to_move,
            outcome: p.outcome,
        },
    })
}

// ---------------------------------------------------------------- Python

use crate::args::{opt, Nat};
use pyo3::prelude::*;

/// `observe(game, view, players=None, options=None) -> (obs, mask)`: the
/// float32 observation and int8 mask of `view` (a dict, or JSON text as a
/// bot program receives it) for `game`; `players` is the seat count at
/// the start (it sizes the vectors; default: the view's), `options` the
/// rules options (default: the view's own).
#[pyfunction]
#[pyo3(name = "observe", signature = (game, view, players=None, options=None))]
pub(crate) fn observe_py<'py>(
    py: Python<'py>,
    game: &str,
    view: &Bound<'py, PyAny>,
    players: Option<Nat<usize>>,
    options: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let (text, pairs) = arguments(py, view, options)?;
    let players = opt(players);
    let (obs, mask, _) = py
        .detach(|| observe(game, &text, players, pairs.as_deref()))
        .map_err(pyo3::exceptions::PyValueError::new_err)?;
    Ok((
        crate::fill(py, None, &obs, "float32", None)?,
        crate::fill(py, None, &mask, "int8", Some("uint8"))?,
    ))
}

/// `view_actions(game, view, players=None, options=None) -> {id: text}`:
/// the legal actions of the view's seat, by action id, in the notation a
/// bot program answers with (empty when the decision is not the seat's).
#[pyfunction]
#[pyo3(signature = (game, view, players=None, options=None))]
pub(crate) fn view_actions<'py>(
    py: Python<'py>,
    game: &str,
    view: &Bound<'py, PyAny>,
    players: Option<Nat<usize>>,
    options: Option<&Bound<'py, PyAny>>,
) -> PyResult<std::collections::BTreeMap<usize, String>> {
    let (text, pairs) = arguments(py, view, options)?;
    let players = opt(players);
    let (_, _, actions) = py
        .detach(|| observe(game, &text, players, pairs.as_deref()))
        .map_err(pyo3::exceptions::PyValueError::new_err)?;
    Ok(actions.into_iter().collect())
}

/// Options as `key=value` pairs.
type Pairs = Vec<(String, String)>;

/// The view as JSON text and the options as pairs (`None`: the view's).
fn arguments(
    py: Python<'_>,
    view: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<(String, Option<Pairs>)> {
    let text: String = match view.extract::<String>() {
        Ok(text) => text,
        Err(_) => py
            .import("json")?
            .call_method1("dumps", (view,))?
            .extract()?,
    };
    let pairs = match options.filter(|o| !o.is_none()) {
        Some(o) => Some(crate::options_of(Some(o))?),
        None => None,
    };
    Ok((text, pairs))
}
