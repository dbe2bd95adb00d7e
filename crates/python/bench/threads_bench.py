"""VectorEnv with threads=1 against threads=2, in the same run.

    python crates/python/bench/threads_bench.py [--rounds R] [--seconds S]

For each game (Dalmuti, one hand, 4 seats; Big Cheese, 4 seats) and each
table count (256, 1,024), in self-play and against heuristic bots, two
vector envs that differ only in ``threads`` are stepped with the random
legal actions ``sample_actions`` draws in Rust (outside the timing). The
rounds alternate between the two, so a busy machine slows both alike;
each round times ``step`` for about ``--seconds`` (default 0.3), and the
figures are the medians over ``--rounds`` rounds (default 7) of
table-steps per second, with their ratio. The goal: threads=2 at least
1.6x threads=1 at 1,024 tables on two idle cores. The load average is
printed before and after: other work on the machine lowers the ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import ratrace

CASES = [
    ("dalmuti", {"hands": 1}, None),
    ("bigcheese", None, None),
    ("dalmuti", {"hands": 1}, "heuristic"),
    ("bigcheese", None, "heuristic"),
]
GOAL = 1.6


def rate(env: ratrace.VectorEnv, seconds: float) -> float:
    """Table-steps per second of `step` alone, over about `seconds`."""
    steps, in_step = 0, 0.0
    while in_step < seconds:
        actions = env.sample_actions()
        t = time.perf_counter()
        env.step(actions)
        in_step += time.perf_counter() - t
        steps += env.num_envs
    return steps / in_step


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7, help="rounds per case (default 7)")
    ap.add_argument("--seconds", type=float, default=0.3, help="timed stepping per round (default 0.3)")
    args = ap.parse_args(argv)
    print(f"cores: {os.cpu_count()}, load average before: {load()}")
    print(f"{'case':44} {'threads=1':>12} {'threads=2':>12} {'ratio':>6}")
    for game, options, opponents in CASES:
        for n in (256, 1024):
            envs = {
                t: ratrace.VectorEnv(game, n, players=4, options=options, opponents=opponents, seed=1, threads=t)
                for t in (1, 2)
            }
            assert envs[2].threads == 2 and envs[1].threads == 1
            for env in envs.values():
                rate(env, args.seconds / 3)  # warm up
            rates = {1: [], 2: []}
            for _ in range(args.rounds):
                for t, env in envs.items():
                    rates[t].append(rate(env, args.seconds))
            one, two = statistics.median(rates[1]), statistics.median(rates[2])
            label = f"{game}, {n} tables, {'self-play' if opponents is None else opponents + ' bots'}"
            verdict = ""
            if n == 1024:
                verdict = " met" if two >= GOAL * one else f" below {GOAL}x"
            print(f"{label:44} {one / 1e6:10.2f} M {two / 1e6:10.2f} M {two / one:5.2f}x{verdict}")
    print(f"load average after: {load()}  (table-steps per second, medians of {args.rounds} rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
