"""Every message of random games validates against docs/protocol/.

`ratrace simulate` plays 200 games of each game over option sets that
between them take every value of every rules option, every seat played
by schema_bot.py: a bot program that checks each line it is sent (start,
events, every act with its view, end, quit) against GAME/to-bot.json,
every legal action against GAME/action.json and each answer against
from-bot.json, with the `jsonschema` package. The schemas are generated
from the Rust types (crates/extbot/src/schema.rs); this holds them
against what the engine really writes.

It needs the `ratrace` binary: RATRACE_BIN, or target/debug/ratrace
(`cargo build -p cli`), as the project's test command builds it first.
"""

import collections
import json
import os
import pathlib
import subprocess
import sys

import pytest
from ratrace_bin import ratrace_bin
from jsonschema import Draft202012Validator

ROOT = pathlib.Path(__file__).resolve().parents[3]
PROTOCOL = ROOT / "docs" / "protocol"
BOT = pathlib.Path(__file__).resolve().parent / "schema_bot.py"

# (players, options, games): every value of every option appears at least
# once; the games add up to 200 per game.
SETS = {
    "bigcheese": [
        (3, [], 30),
        (4, [], 20),
        (5, ["dice=d6"], 20),
        (6, ["dice=best-of-two", "specials=off"], 20),
        (4, ["dice=best-of-two", "chips=12"], 15),
        (3, ["dice=half-of-n"], 20),
        (5, ["dice=half-of-n", "exact=on", "target=100", "veto=before-bid"], 15),
        (6, ["dice=no-dice", "final_tie=chance"], 20),
        (4, ["dice=no-dice", "specials=off", "chips=3", "target=20"], 15),
        (3, ["exact=on", "veto=before-bid", "final_tie=chance"], 25),
    ],
    "dalmuti": [
        (4, ["hands=1"], 40),
        (13, ["hands=1"], 10),
        (8, ["hands=1", "single_hand=points"], 20),
        (5, ["hands=3", "market=on"], 25),
        (9, ["hands=3", "black_market=on", "settling_hand=on", "benevolent_rulers=on",
             "the_elected=on"], 15),
        (4, ["hands=2", "auto_revolution=on", "standard_deck=on"], 25),
        (6, ["hands=3", "joins=2"], 20),
        (3, ["hands=4", "joins=2,3", "market=on"], 15),
        (7, ["hands=6", "target=4"], 20),
        (5, [], 10),
    ],
}

# What the games must have shown for the check to mean something: every
# message type, and every kind of decision.
MESSAGES = {"start", "event", "act", "end", "quit"}
DECISIONS = {
    "bigcheese": {"bid", "pass", "veto", "keep", "reroll"},
    "dalmuti": {"pass", "play", "give", "revolution", "no-revolution", "market", "no-market",
                "seat-new"},
}


def validator(path):
    schema = json.loads((PROTOCOL / path).read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def play(game, tmp_path):
    """Plays the game's option sets; the problems and the counts checked."""
    log = tmp_path / (game + ".log")
    env = dict(os.environ, RATRACE_SCHEMA_LOG=str(log))
    for i, (players, options, games) in enumerate(SETS[game]):
        args = [ratrace_bin(), "simulate", game, "--players", str(players), "--games", str(games),
                "--bots", "cmd:%s %s" % (sys.executable, BOT), "--seed", str(i),
                "--threads", "2", "--bot-time", "20000", "--json"]
        for o in options:
            args += ["--option", o]
        done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=900)
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert "strikes" not in report, (options, report["strikes"])
    problems, counts = [], collections.Counter()
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if "problem" in record:
            problems.append(record)
        else:
            counts.update(record["counts"])
    return problems, counts


@pytest.mark.parametrize("game", ["bigcheese", "dalmuti"])
def test_every_message_of_200_games_validates(game, tmp_path):
    problems, counts = play(game, tmp_path)
    assert problems == [], "%d problems, first: %s" % (len(problems), problems[:3])
    assert counts["%s start" % game] >= 200 * 3, counts
    assert counts["%s end" % game] == counts["%s start" % game]
    for m in MESSAGES:
        assert counts["%s %s" % (game, m)] > 0, m
    legal = {k.split()[-1] for k in counts if k.startswith(game + " legal ")}
    assert legal == DECISIONS[game], legal
    sys.stderr.write("\n%s: %s\n" % (game, json.dumps(dict(sorted(counts.items())))))


def test_the_schemas_refuse_wrong_messages():
    bc, dal = validator("bigcheese/to-bot.json"), validator("dalmuti/to-bot.json")
    bc_action, dal_action = validator("bigcheese/action.json"), validator("dalmuti/action.json")
    answers = validator("from-bot.json")
    start = {"type": "start", "protocol": 1, "game": "bigcheese", "rules_version": "bigcheese/3",
             "options": {"dice": "polyhedral", "specials": "on", "exact": "off", "target": "auto",
                         "chips": "10", "veto": "any-turn", "final_tie": "shared"},
             "players": 4, "seat": "P2",
             "time": {"move_ms": 1000, "game_ms": None}, "match": {"game": 1}}
    assert bc.is_valid(start)
    for key, bad in [("protocol", 2), ("game", "dalmuti"), ("seat", "P0"), ("seat", 2),
                     ("players", 0), ("options", dict(start["options"], veto=True)),
                     ("options", dict(start["options"], veto="never")),
                     ("options", dict(start["options"], chips="ten")),
                     ("options", {"veto": "any-turn"})]:
        assert not bc.is_valid(dict(start, **{key: bad})), (key, bad)
    assert not bc.is_valid({k: v for k, v in start.items() if k != "time"})
    assert not bc.is_valid({"type": "act", "id": 1, "view": {"seat": "P1"}, "legal": ["pass"],
                            "time_ms": 5})
    assert not dal.is_valid({"type": "event", "event": {"kind": "no-such-kind"}})
    assert not dal.is_valid({"type": "end", "outcome": {"winners": ["P1"]}})
    assert dal.is_valid({"type": "quit"})
    for good in ["bid 3", "pass", "veto", "keep", "reroll", "reroll 1,1,2"]:
        assert bc_action.is_valid(good), good
    for bad in ["bid", "bid 0", "reroll 7", "play 3x7", "Pass"]:
        assert not bc_action.is_valid(bad), bad
    for good in ["pass", "play 2x7+J", "play 12", "play 2xJ", "give 1 3", "give J",
                 "market P5 4", "market P5", "revolution", "no-market", "seat-new above"]:
        assert dal_action.is_valid(good), good
    for bad in ["play 3xJ", "play 13", "give 1 2 3", "market 5 4", "seat-new left", "bid 3"]:
        assert not dal_action.is_valid(bad), bad
    assert answers.is_valid({"type": "action", "id": 3, "action": "pass", "why": "x"})
    for bad in [{"type": "action", "action": "pass"}, {"type": "action", "id": 0, "action": "x"},
                {"type": "ready", "name": "x", "protocol": 2}, {"type": "move", "id": 1}]:
        assert not answers.is_valid(bad), bad
