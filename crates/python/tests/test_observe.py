"""``ratrace.observe``: the observation and mask of a view given as JSON
(as a ``ratrace-bot/1`` program receives it) equal the environments' own
for that seat, in both games and under options that change the layout;
and ``python -m ratrace.bot`` serves a policy as a program that answers
as the policy does on the game itself."""

import json
import pathlib
import random
import subprocess
import sys

import numpy as np
import pytest

import ratrace
import ratrace.bot

CASES = [
    ("dalmuti", 4, {"hands": 1}),
    ("dalmuti", 4, {"hands": 4, "joins": "2,3", "market": True}),
    ("dalmuti", 6, {"hands": 2, "auto_revolution": True, "black_market": True}),
    ("bigcheese", 4, None),
    ("bigcheese", 3, {"dice": "half-of-n", "veto": "before-bid", "final_tie": "chance"}),
    ("bigcheese", 5, {"dice": "best-of-two", "exact": True, "specials": False}),
]


def policy(obs, mask):
    """Deterministic, and sensitive to every value of the observation."""
    legal = np.flatnonzero(mask)
    key = int(np.round(obs * np.arange(1, len(obs) + 1)).sum())
    return int(legal[key % len(legal)])


@pytest.mark.parametrize("name, players, options", CASES)
def test_observe_of_a_view_is_the_seats_observation(name, players, options):
    checked = 0
    for seed in range(3):
        game = ratrace.Game(name, players=players, options=options, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(game) < 600:
            actor = game.actor
            if rng.random() < 0.3:
                for seat in range(game.players):
                    view = json.dumps(game.view(seat))
                    obs, mask = ratrace.observe(name, view, players=players, options=game.options)
                    assert obs.dtype == np.float32 and mask.dtype == np.int8
                    assert np.array_equal(obs, game.observation(seat)), (seat, len(game))
                    expected = game.action_mask() if seat == actor else np.zeros_like(mask)
                    assert np.array_equal(mask, expected), (seat, len(game))
                    checked += 1
                # the view's own options, and a dict view, give the same
                obs2, mask2 = ratrace.observe(name, game.view(actor), players=players)
                assert np.array_equal(obs2, game.observation(actor))
                actions = ratrace.view_actions(name, game.view(actor), players=players)
                assert actions == {game.action_id(a): a for a in game.legal_actions()}
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 50


def test_observe_refuses_what_is_not_a_view():
    with pytest.raises(ValueError, match="not JSON"):
        ratrace.observe("dalmuti", "{nope")
    with pytest.raises(ValueError, match="not a view"):
        ratrace.observe("dalmuti", {"public": {"options": {}}})
    game = ratrace.Game("bigcheese", seed=1)
    with pytest.raises(ValueError, match="not a view"):
        ratrace.observe("dalmuti", game.view(0), options={})
    with pytest.raises(ValueError, match="unknown game"):
        ratrace.observe("chess", game.view(0))


def drive(name, players, options, seed, proc):
    """Plays one game, asking the program for every decision; returns how
    many answers matched the policy called on the game itself."""
    game = ratrace.Game(name, players=players, options=options, seed=seed)
    send = lambda m: (proc.stdin.write(json.dumps(m) + "\n"), proc.stdin.flush())  # noqa: E731
    send({"type": "start", "protocol": 1, "game": name, "options": game.options,
          "players": players, "seat": "P1", "time": {"move_ms": 1000, "game_ms": None},
          "match": {"game": seed + 1}})
    ready = json.loads(proc.stdout.readline())
    assert ready["type"] == "ready" and ready["protocol"] == 1
    n = 0
    while not game.is_over and len(game) < 300:
        actor = game.actor
        n += 1
        send({"type": "act", "id": n, "view": game.view(actor), "legal": game.legal_actions(), "time_ms": 1000})
        answer = json.loads(proc.stdout.readline())
        expected = game.action_text(policy(game.observation(actor), game.action_mask()))
        assert answer == {"type": "action", "id": n, "action": expected}
        game.apply(answer["action"])
    return n


def test_the_policy_program_answers_as_the_policy():
    proc = subprocess.Popen(
        [sys.executable, "-m", "ratrace.bot", f"{pathlib.Path(__file__).resolve()}:policy"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        answered = sum(drive(name, players, options, seed, proc)
                       for seed, (name, players, options) in enumerate(CASES[:4]))
        proc.stdin.write(json.dumps({"type": "quit"}) + "\n")
        proc.stdin.flush()
        assert proc.wait(timeout=10) == 0
    finally:
        proc.kill()
    assert answered > 100


def logged_policy(obs, mask):
    """`policy`, noting each call in the file `$POLICY_LOG` names."""
    import os

    with open(os.environ["POLICY_LOG"], "a") as log:
        log.write("call\n")
    return policy(obs, mask)


def test_a_policy_plays_a_tournament_as_a_program(tmp_path, monkeypatch):
    log = tmp_path / "calls"
    monkeypatch.setenv("POLICY_LOG", str(log))
    args = dict(field="heuristic", players=4, options={"hands": 1}, deals=2, threads=1)
    report = ratrace.tournament("dalmuti", candidate=logged_policy, **args)
    entrants = report["figures"]["entrants"]
    assert entrants[0]["bot"] == ratrace.bot.program(logged_policy)
    assert "ratrace.bot" in entrants[0]["bot"] and entrants[0]["seat_games"] == 8
    # the program decided (the stand-in, heuristic, would not call it)
    calls = log.read_text().count("call")
    assert calls > 20
    stand_in = ratrace.tournament("dalmuti", candidate="heuristic", **args)
    assert report["figures"]["seats"] != stand_in["figures"]["seats"]
    summary = ratrace.simulate("bigcheese", 4, bots=[logged_policy, "random"], players=4, threads=1)
    assert log.read_text().count("call") > calls and summary
