"""Random rollouts from Python through pyspiel, in steps per second:
``python_ratrace_dalmuti`` (a Python game over the Rust engine) against
OpenSpiel's C++ ``hearts``, the same loop for both, in one run.

    python crates/python/bench/open_spiel_bench.py [--seconds 5] [--players 4]

A step is one applied action, chance outcomes included (hearts deals
through chance nodes; ratrace's games have none). The loop is the usual
one: new initial state, then until terminal: sample a chance outcome or
apply a uniformly random legal action.
"""

from __future__ import annotations

import argparse
import random
import time

import pyspiel

import ratrace.open_spiel


def rollouts(game, seconds: float, rng: random.Random):
    """Plays random games for about `seconds`; returns (games, steps, elapsed)."""
    games = steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                action = rng.choices(outcomes, probs)[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
        games += 1
    return games, steps, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per game (default 5)")
    parser.add_argument("--players", type=int, default=4, help="Dalmuti seats (hearts has 4)")
    parser.add_argument("--options", default="hands=1", help="Dalmuti options (default hands=1)")
    args = parser.parse_args()

    ratrace.open_spiel.register()
    games = [
        ("python_ratrace_dalmuti", pyspiel.load_game(
            "python_ratrace_dalmuti", {"players": args.players, "options": args.options})),
        ("hearts", pyspiel.load_game("hearts")),
    ]
    rates = {}
    for name, game in games:
        rollouts(game, min(0.5, args.seconds), random.Random(1))  # warm up
        n, steps, dt = rollouts(game, args.seconds, random.Random(0))
        rates[name] = steps / dt
        print(f"{name:24} {n:7d} games {steps:9d} steps {dt:6.2f} s "
              f"{steps / dt:12,.0f} steps/s {n / dt:9,.1f} games/s {steps / n:7.1f} steps/game")
    ratio = rates["hearts"] / rates["python_ratrace_dalmuti"]
    print(f"hearts / ratrace: {ratio:.2f}x (goal: at most 2x)")


if __name__ == "__main__":
    main()
