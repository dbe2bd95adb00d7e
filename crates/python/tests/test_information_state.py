"""Information states: ``Game.information_state`` is perfect recall and
shows a seat only what it saw; the tensor tells exactly the histories the
text tells apart; OpenSpiel's chance node over a set of deals; and
OpenSpiel's tabular CFR on Dalmuti's research deck (D17), whose NashConv
falls over the iterations."""

import random
import re

import numpy as np
import pytest

import ratrace

SMALL = [
    # 6 cards, 2 each, no Jesters: taxes pay a whole hand (D8)
    ("dalmuti", 3, "hands=1,ranks=3,jesters=off"),
    # 12 cards with the Jesters, 3 each: revolutions may be offered (D7)
    ("dalmuti", 4, "hands=1,ranks=4"),
    # two hands: the second's taxes follow from the first
    ("dalmuti", 3, "hands=2,ranks=4,jesters=off"),
]


def random_histories(name, players, options, games, rng):
    """Every (game, seat) along `games` random playouts, one game copy
    per state."""
    for _ in range(games):
        g = ratrace.Game(name, players, options, rng.getrandbits(64))
        yield g.clone()
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            yield g.clone()


@pytest.mark.parametrize("name, players, options", SMALL + [("bigcheese", 3, "")])
def test_the_text_grows_by_what_the_seat_saw_and_did(name, players, options):
    rng = random.Random(7)
    games = 3 if name == "bigcheese" else 20
    before = None
    for g in random_histories(name, players, options, games, rng):
        texts = [g.information_state(s) for s in range(players)]
        for s, text in enumerate(texts):
            lines = text.split("\n")
            assert lines[0] == f"seat P{s + 1}"
            # every event the seat may see, in order, and nothing else but
            # its own actions
            # (but the seating draw's cards: a deck of their own, D3)
            seen = [e["text"] for e in g.events(s) if not e["kind"].startswith("seating-")]
            assert [x for x in lines[1:] if not x.startswith("you: ")] == seen
            # its own actions, as the record has them
            mine = [a.split(" ", 1)[1] for a in _actions(g) if a.startswith(f"P{s + 1} ")]
            assert [x[5:] for x in lines[1:] if x.startswith("you: ")] == mine
        if before is not None and len(g) > 0:
            # perfect recall: a state's text extends its parent's
            for s in range(players):
                if before[0] == g.seed and len(g) == before[1] + 1:
                    assert texts[s].startswith(before[2][s])
        before = (g.seed, len(g), texts)


def _actions(g):
    import json

    return json.loads(g.record())["actions"]


@pytest.mark.parametrize("name, players, options", SMALL)
def test_the_tensor_tells_apart_exactly_what_the_text_does(name, players, options):
    rng = random.Random(11)
    steps = 64
    probe = ratrace.Game(name, players, options, 0)
    size = probe.information_state_size(steps)
    assert size == probe.observation_size + steps * (probe.num_actions + probe.observation_size)
    by_text, by_tensor = {}, {}
    out = np.zeros(size, np.float32)
    for g in random_histories(name, players, options, 60, rng):
        for s in range(players):
            # the vector names seats by where they sit, as observations do:
            # compare it with the text whose seats are renamed in the order
            # they first appear
            text = renamed(g.information_state(s))
            t = g.information_state_tensor(s, steps, out=out).tobytes()
            assert by_text.setdefault(text, t) == t, f"one information state, two tensors:\n{text}"
            assert by_tensor.setdefault(t, text) == text, f"two information states, one tensor:\n{text}"
    # the playouts met the same information state from different deals
    assert len(by_text) > 100


def renamed(text):
    """`text` with the seats P1, P2, ... renamed S1, S2, ... in the order
    they first appear, and the scores listed by the new names."""
    names = {}
    text = re.sub(r"\bP\d+\b", lambda m: names.setdefault(m.group(0), f"S{len(names) + 1}"), text)
    # lists in seat-number order (the scores at a hand's end) follow the names
    return re.sub(r"scores ([^\n]*)", lambda m: "scores " + ", ".join(sorted(m.group(1).split(", "))), text)


def test_information_states_refuse_what_they_cannot_give():
    g = ratrace.Game("dalmuti", 3, "hands=1,ranks=3,jesters=off", 1)
    while len(g) < 3:
        g.apply(g.legal_actions()[0])
    with pytest.raises(ValueError, match="more than the 2 steps"):
        g.information_state_tensor(0, 2)
    with pytest.raises(IndexError):
        g.information_state(3)
    # a vector too big to allocate is refused before any allocation, and
    # a size that would overflow is refused the same way
    for steps in (10**9, 2**63 - 1, 2**64 - 1):
        with pytest.raises(ValueError, match="suits small games"):
            g.information_state_size(steps)
        with pytest.raises(ValueError, match="suits small games"):
            g.information_state_tensor(0, steps)
    assert g.information_state_size(8) == len(g.information_state_tensor(0, 8))
    with pytest.raises(ValueError, match="no history"):
        g.resample(0, 5).information_state(0)
    # a loaded record has the same information states as the game it
    # records (the marks of its actions come from the load's one replay),
    # halfway and at the end, in both games
    again = ratrace.Game.load(g.record())
    for s in range(3):
        assert again.information_state(s) == g.information_state(s)
        assert np.array_equal(again.information_state_tensor(s, 8), g.information_state_tensor(s, 8))
    rng = np.random.default_rng(5)
    for seed in range(12):
        name, players, options = ("dalmuti", 4, "hands=2") if seed % 2 else ("bigcheese", 3, "")
        g = ratrace.Game(name, players, options, seed)
        while not g.is_over and len(g) < 400:
            legal = g.legal_actions()
            g.apply(legal[int(rng.integers(len(legal)))])
            if len(g) in (7, 400) or g.is_over:
                again = ratrace.Game.load(g.record())
                for s in range(players):
                    assert again.information_state(s) == g.information_state(s)


pyspiel = pytest.importorskip("pyspiel")

import ratrace.open_spiel as ros  # noqa: E402

ros.register()

CFR_GAME = {"players": 3, "options": "ranks=3,jesters=off", "chance_seeds": 6, "max_actions": 40}


def test_the_chance_node_deals_one_of_k_seeds():
    game = pyspiel.load_game("python_ratrace_dalmuti", CFR_GAME)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().provides_information_state_tensor
    assert game.max_chance_outcomes() == 6
    root = game.new_initial_state()
    assert root.is_chance_node() and root.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = root.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(6))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    hands = set()
    for a, _ in outcomes:
        child = root.child(a)
        assert not child.is_chance_node()
        hands.add(str(child))
        assert child.information_state_string(0).startswith("seat P1")
        assert len(child.information_state_tensor(0)) == game.information_state_tensor_size()
    assert len(hands) > 1, "the seeds deal different cards"
    # the same parameters: the same deals
    again = pyspiel.load_game("python_ratrace_dalmuti", CFR_GAME).new_initial_state()
    assert [str(again.child(a)) for a, _ in outcomes] == [str(root.child(a)) for a, _ in outcomes]
    # a long game offers no information-state tensor, and says why
    long = pyspiel.load_game("python_ratrace_dalmuti", {"players": 3})
    assert not long.get_type().provides_information_state_tensor
    obs = long.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    state = long.new_initial_state()
    assert obs.string_from(state, 0).startswith("seat P1")
    with pytest.raises(ValueError, match="max_actions up to 256"):
        obs.set_from(state, 0)


def test_cfr_on_the_research_deck_lowers_nash_conv():
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game("python_ratrace_dalmuti", CFR_GAME)
    solver = cfr.CFRSolver(game)
    conv = []
    for i in range(1, 31):
        solver.evaluate_and_update_policy()
        if i in (1, 10, 30):
            conv.append(exploitability.nash_conv(game, solver.average_policy()))
    print("NashConv after 1, 10, 30 iterations:", conv)
    assert conv[0] > 0.05, conv
    assert conv[1] < conv[0] and conv[2] < conv[1], conv
    assert conv[2] < 0.5 * conv[0], conv
