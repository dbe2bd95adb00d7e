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


def test_ppo_trains_saves_a_policy_the_bot_program_plays_and_its_gradients_are_right(tmp_path):
    """examples/python/ppo.py: a quick run of each game saves a policy in
    train_dalmuti.py's format, which play_policy.py's `saved` (what
    `python3 -m ratrace.bot play_policy.py:saved` serves) plays through a
    whole game; and the analytic gradients of its loss match central
    differences."""
    import types

    import numpy as np

    sys.path.insert(0, str(EXAMPLES))
    try:
        import ppo
    finally:
        sys.path.remove(str(EXAMPLES))
    for game, players in (("dalmuti", 5), ("bigcheese", 4)):
        weights = tmp_path / f"{game}.npz"
        done = subprocess.run(
            [sys.executable, str(EXAMPLES / "ppo.py"), game, "--quick", "--save", str(weights)],
            capture_output=True, text=True, timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "update    2" in done.stdout and "training:" in done.stdout, done.stdout
        probe = ratrace.Game(game, players, {"hands": 1} if game == "dalmuti" else None, 0)
        with np.load(weights) as f:
            assert f["w1"].shape == (probe.observation_size, 64)
            assert f["w2"].shape == (64, probe.num_actions)
        # the saved policy plays every decision of a seat, legally (as
        # `python3 -m ratrace.bot play_policy.py:saved` serves it)
        sys.path.insert(0, str(EXAMPLES))
        try:
            import play_policy
        finally:
            sys.path.remove(str(EXAMPLES))
        g = ratrace.Game(game, players, {"hands": 1} if game == "dalmuti" else None, 5)
        os.environ["RATRACE_POLICY"] = str(weights)
        play_policy._SAVED.clear()
        try:
            while not g.is_over:
                if g.actor == 0:
                    action = play_policy.saved(g.observation(0), g.action_mask())
                    g.apply_id(action)
                else:
                    g.apply(ratrace.Bot("heuristic", seed=1).act(g))
        finally:
            del os.environ["RATRACE_POLICY"]

    # the gradients, against central differences in float64
    rng = np.random.default_rng(4)
    venv = ratrace.VectorEnv("dalmuti", 24, players=4, options={"hands": 1}, opponents="random", seed=2)
    x, m = venv.observations.astype(np.float64), venv.action_masks.copy()
    policy = ppo.Policy(x.shape[1], m.shape[1], 8, rng)
    policy.params["w2"] = rng.standard_normal(policy.params["w2"].shape) * 0.5
    value = ppo.Value(x.shape[1], 8, rng)
    value.params["u2"] = rng.standard_normal(8) * 0.5
    for params in (policy.params, value.params):
        for k in params:
            params[k] = params[k].astype(np.float64)
    a = np.array([rng.choice(np.flatnonzero(row)) for row in m])
    *_, logp = ppo.policy_terms(policy.params, x, m, a)
    logp_old = logp + rng.normal(0, 0.3, len(a))  # some ratios past the clip
    adv, ret = rng.standard_normal(len(a)), rng.standard_normal(len(a))
    args = types.SimpleNamespace(clip=0.2, entropy=0.3, vf=0.5)
    _, grads, clipped, _ = ppo.ppo_step(policy.params, value, x, m, a, logp_old, adv, ret, args)
    assert 0 < clipped < 1
    checked = 0
    for params, key in ((policy.params, "w1"), (policy.params, "w2"), (policy.params, "b2"),
                        (value.params, "u1"), (value.params, "u2"), (value.params, "c2")):
        flat = params[key].reshape(-1)
        for i in rng.choice(flat.size, size=min(4, flat.size), replace=False):
            old = flat[i]
            flat[i] = old + 1e-4
            up = ppo.ppo_step(policy.params, value, x, m, a, logp_old, adv, ret, args)[0]
            flat[i] = old - 1e-4
            down = ppo.ppo_step(policy.params, value, x, m, a, logp_old, adv, ret, args)[0]
            flat[i] = old
            numeric = (up - down) / 2e-4
            analytic = grads[key].reshape(-1)[i]
            assert abs(numeric - analytic) <= 1e-7 + 1e-4 * abs(numeric), (key, i, numeric, analytic)
            checked += 1
    assert checked >= 20
