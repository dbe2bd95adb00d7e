"""A policy trained by the example (examples/python/train_dalmuti.py)
plays through ``python -m ratrace.bot`` where bot programs play: a
``ratrace tournament`` that saves its games. Every action the program took is
the action the same policy picks from the Gymnasium-style observation and
mask of a ``Game`` dealt from the same seed: the program decides from its
seat's view exactly as the policy does inside the environments.

It needs the ``ratrace`` binary: RATRACE_BIN, or target/debug/ratrace.
"""

import json
import pathlib
import subprocess
import sys

import pytest
from ratrace_bin import ratrace_bin

import ratrace

ROOT = pathlib.Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "python"
sys.path.insert(0, str(EXAMPLES))


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """The example's quick training, saved: the weights and a module
    whose ``policy`` plays them (what the bot program serves)."""
    folder = tmp_path_factory.mktemp("policy")
    weights = folder / "policy.npz"
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_dalmuti.py"), "--quick", "--seed", "3",
         "--save", str(weights)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    module = folder / "served_policy.py"
    module.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(EXAMPLES)!r})\n"
        "import play_policy\n"
        f"policy = play_policy.load_policy({str(weights)!r})\n"
    )
    import play_policy

    return module, play_policy.load_policy(str(weights))


def program(module):
    return f"{sys.executable} -m ratrace.bot {module}:policy"


def check_record(record, policy, seats=None):
    """Every action of `record` by `seats` (default: all, the policy at
    each) is the policy's choice on a Game dealt from the record's seed;
    the number checked."""
    options = dict(record["options"])
    game = ratrace.Game("dalmuti", players=record["players"], options=options, seed=record["seed"])
    checked = 0
    for line in record["actions"]:
        seat_text, action = line.split(" ", 1)
        seat = int(seat_text[1:]) - 1
        assert game.actor == seat, (line, game.actor)
        if seats is None or seat in seats:
            chosen = game.action_text(policy(game.observation(seat), game.action_mask()))
            assert chosen == action, (checked, line, chosen)
            checked += 1
        game.apply(action, seat)
    assert game.is_over
    return checked


def test_the_trained_policy_plays_a_tournament_as_it_plays_the_game(trained, tmp_path):
    module, policy = trained
    saved = tmp_path / "games"
    bot = "cmd:" + program(module)
    done = subprocess.run(
        [ratrace_bin(), "tournament", "dalmuti", "--players", "4", "--option", "hands=1",
         "--candidate", bot, "--field", bot, "--deals", "2", "--threads", "1",
         "--save-games", str(saved), "--json", "--quiet"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert "strikes" not in report, report["strikes"]
    assert all(s["stand_in"] == 0 and s["decisions"] > 0 for s in report["stand_in"]), report["stand_in"]
    files = sorted(saved.glob("*.json"))
    assert len(files) == report["figures"]["games"] == 8
    assert sum(check_record(json.loads(f.read_text()), policy) for f in files) > 0
