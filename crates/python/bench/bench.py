"""Throughput of ratrace's Python environments, against the goals.

    python crates/python/bench/bench.py [--seconds S]

Measures, in one run:

- PettingZoo: ``pettingzoo.test.performance_benchmark`` (random legal
  actions, 5 s each, fixed by PettingZoo) on ``dalmuti_v0.env()`` and
  ``bigcheese_v0.env()``, and on a PettingZoo classic env as a baseline:
  the first of its card games that runs here (they need ``pip install
  pygame rlcard``, which the test environment leaves out), else a non-card
  classic one, else none;
- ``ratrace.VectorEnv`` with 1,024 tables in self-play, random legal actions
  drawn in numpy from the masks: table-steps per second of ``step`` alone
  and of the whole loop (the draw included), threads=1 and threads=2, and
  the rate the numpy draw alone would allow (``num_envs x num_actions``
  random floats per step: the whole loop's limit when it is the slower),
  and the loop with the actions drawn in Rust (``sample_actions``);
- Gymnasium ``ratrace/Dalmuti-v0`` and ``ratrace/BigCheese-v0`` with
  ``heuristic`` opponents: learner steps per second with random legal
  actions (from ``info["action_mask"]``), through ``gymnasium.make`` (its
  wrappers included) and through ``.unwrapped``.

``--seconds`` sets the length of each of our own measurements (default 3).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import random
import re
import sys
import time
import warnings

import numpy as np

import ratrace

GOALS = {"pettingzoo": 50_000, "vector": 1_000_000, "gymnasium": 100_000}
BASELINES = [
    "leduc_holdem_v4",
    "texas_holdem_v4",
    "texas_holdem_no_limit_v6",
    "hanabi_v5",
    "rps_v2",
    "tictactoe_v3",
    "connect_four_v3",
]


def pettingzoo_rate(make) -> float:
    """Turns per second from PettingZoo's own benchmark (which prints)."""
    from pettingzoo.test import performance_benchmark

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        performance_benchmark(make())
    found = re.search(r"([0-9.eE+]+) turns per second", out.getvalue())
    if not found:
        raise RuntimeError(f"no 'turns per second' in: {out.getvalue()!r}")
    return float(found.group(1))


def pettingzoo_rows():
    from ratrace.pettingzoo import bigcheese_v0, dalmuti_v0

    rows = [
        ("PettingZoo", "ratrace dalmuti_v0.env()", pettingzoo_rate(dalmuti_v0.env), "turns/s", GOALS["pettingzoo"]),
        ("PettingZoo", "ratrace bigcheese_v0.env()", pettingzoo_rate(bigcheese_v0.env), "turns/s", GOALS["pettingzoo"]),
    ]
    skipped = []
    for name in BASELINES:
        try:
            module = importlib.import_module(f"pettingzoo.classic.{name}")
            module.env()
        except Exception as e:  # a missing optional dependency
            skipped.append(f"{name} ({type(e).__name__}: {str(e).splitlines()[0][:60]})")
            continue
        rows.append(("PettingZoo", f"baseline pettingzoo.classic.{name}", pettingzoo_rate(module.env), "turns/s", None))
        break
    else:
        rows.append(("PettingZoo", "baseline: none of pettingzoo.classic runs here", None, "turns/s", None))
    return rows, skipped


def vector_rows(seconds: float):
    rows = []
    for game in ("dalmuti", "bigcheese"):
        for threads in (1, 2):
            env = ratrace.VectorEnv(game, 1024, seed=0, threads=threads)
            rng = np.random.default_rng(0)
            masks = env.action_masks
            noise = np.empty(masks.shape, np.float32)
            actions = np.empty(env.num_envs, np.int64)
            steps, in_step = 0, 0.0
            start = time.perf_counter()
            while True:
                rng.random(dtype=np.float32, out=noise)
                noise += masks  # legal ids score 1..2, illegal 0..1
                np.argmax(noise, axis=1, out=actions)
                t = time.perf_counter()
                env.step(actions)
                in_step += time.perf_counter() - t
                steps += env.num_envs
                if t - start > seconds:
                    break
            total = time.perf_counter() - start
            label = f"VectorEnv {game}, 1024 tables, threads={threads}"
            rows.append(("Vector", label + ": step()", steps / in_step, "table-steps/s", GOALS["vector"]))
            rows.append(("Vector", label + ": whole loop", steps / total, "table-steps/s", GOALS["vector"]))
            rows.append(("Vector", label + ": the draw alone", steps / (total - in_step), "table-steps/s", None))
            # The same with the random legal actions drawn in Rust.
            steps = 0
            start = time.perf_counter()
            while time.perf_counter() - start <= seconds:
                env.step(env.sample_actions())
                steps += env.num_envs
            total = time.perf_counter() - start
            rows.append(("Vector", label + ": loop with sample_actions()", steps / total, "table-steps/s", GOALS["vector"]))
    return rows


def gym_rate(env, seconds: float) -> float:
    pick = random.Random(0)
    obs, info = env.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while True:
        for _ in range(1000):
            legal = info["action_mask"].nonzero()[0]
            obs, reward, terminated, truncated, info = env.step(legal[pick.randrange(len(legal))])
            if terminated or truncated:
                obs, info = env.reset()
        steps += 1000
        elapsed = time.perf_counter() - start
        if elapsed > seconds:
            return steps / elapsed


def gym_rows(seconds: float):
    import gymnasium

    rows = []
    for env_id in ("ratrace/Dalmuti-v0", "ratrace/BigCheese-v0"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            made = gymnasium.make(env_id, opponents="heuristic")
            rows.append(("Gymnasium", f"{env_id} heuristic, gymnasium.make", gym_rate(made, seconds), "agent steps/s", GOALS["gymnasium"]))
            made = gymnasium.make(env_id, opponents="heuristic")
            rows.append(("Gymnasium", f"{env_id} heuristic, .unwrapped", gym_rate(made.unwrapped, seconds), "agent steps/s", GOALS["gymnasium"]))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of each of our measurements (default 3)")
    args = ap.parse_args(argv)

    pz, skipped = pettingzoo_rows()
    rows = pz + vector_rows(args.seconds) + gym_rows(args.seconds)
    width = max(len(r[1]) for r in rows)
    print(f"{'':10} {'environment':{width}} {'measured':>12}  {'goal':>10}  unit")
    for section, label, value, unit, goal in rows:
        measured = "n/a" if value is None else f"{value:,.0f}"
        target = "" if goal is None else f">= {goal:,}"
        verdict = "" if goal is None or value is None else ("met" if value >= goal else "MISSED")
        print(f"{section:10} {label:{width}} {measured:>12}  {target:>10}  {unit} {verdict}")
    if skipped:
        print("PettingZoo baselines that do not run here: " + "; ".join(skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
