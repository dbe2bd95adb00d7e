"""The training example (examples/python/train_dalmuti.py) runs end to end.

Quick mode trains for three tiny updates, too few to learn reliably, so
this checks that it runs and prints its figures, not that it learns (the
full run's figures are in examples/python/README.md)."""

import json
import os
import pathlib
import re
import subprocess
import sys

import ratrace

EXAMPLES = pathlib.Path(__file__).resolve().parents[3] / "examples" / "python"
EXAMPLE = EXAMPLES / "train_dalmuti.py"
FIGURES = re.compile(
    r"mean return ([+-]\d\.\d{3}) \[([+-]\d\.\d{3}), ([+-]\d\.\d{3})\]"
    r"  win rate (\d+\.\d)% \[(\d+\.\d)%, (\d+\.\d)%\]  \((\d+) hands\)"
)


def run(*args):
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--quick", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_example_trains_and_prints_its_figures(tmp_path):
    weights = tmp_path / "policy.npz"
    out = run("--seed", "3", "--save", str(weights))
    lines = {k: line for line in out.splitlines() for k in ("before", "after") if line.startswith(k)}
    assert set(lines) == {"before", "after"}, out
    for line in lines.values():
        m = FIGURES.search(line)
        assert m, line
        mean, lo, hi, win, wlo, whi, hands = m.groups()
        assert float(lo) <= float(mean) <= float(hi)
        assert -1 <= float(lo) and float(hi) <= 1
        assert float(wlo) <= float(win) <= float(whi)
        assert int(hands) == 256
    assert re.search(r"time: training \d+\.\ds", out)
    assert "update    3" in out
    assert weights.exists()
    # The saved policy sits at the tables (examples/python/play_policy.py).
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "play_policy.py"), str(weights), "--hands", "24"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "Bot(policy) vs 3 heuristic",
        "random learner vs 3 x policy",
    ], done.stdout
    for line in lines:
        m = FIGURES.search(line)
        assert m and int(m.group(7)) == 24, line
    # ... and as a bot program (what --program's command line enters in a
    # tournament): it answers the protocol with the policy's choices.
    game = ratrace.Game("dalmuti", players=4, options={"hands": 1}, seed=9)
    start = {"type": "start", "protocol": 1, "game": "dalmuti", "options": game.options,
             "players": 4, "seat": "P1", "time": {"move_ms": 1000, "game_ms": None}, "match": {"game": 1}}
    act = {"type": "act", "id": 1, "view": game.view(game.actor), "legal": game.legal_actions(), "time_ms": 1000}
    done = subprocess.run(
        [sys.executable, "-m", "ratrace.bot", f"{EXAMPLES / 'play_policy.py'}:saved"],
        input="\n".join(json.dumps(m) for m in (start, act, {"type": "quit"})) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "RATRACE_POLICY": str(weights)},
    )
    assert done.returncode == 0, done.stderr
    ready, answer = (json.loads(line) for line in done.stdout.splitlines())
    assert ready["type"] == "ready" and answer["id"] == 1 and answer["action"] in act["legal"]


def test_the_example_is_deterministic_given_its_seed():
    first, second = run("--seed", "5"), run("--seed", "5")
    # The timings differ; the figures must not.
    timing = re.compile(r"\s+\d+\.\ds$")

    def figures(out):
        return [
            timing.sub("", line)
            for line in out.splitlines()
            if line.startswith(("before", "after", "update"))
        ]

    assert figures(first) == figures(second)
    assert len(figures(first)) == 5
