"""Seat a policy saved by train_dalmuti.py at ratrace's tables.

    python examples/python/train_dalmuti.py --save policy.npz
    python examples/python/play_policy.py policy.npz [--hands 400]

The saved weights become a plain function ``policy(obs, mask) -> action
id`` (the most likely legal action), which the package seats wherever its
ladder bots sit:

- ``ratrace.Bot(policy)`` at one seat of a ``ratrace.Game``, against three
  ``heuristic`` bots, the policy's seat rotating hand by hand: its win
  rate and mean return, as the training example reports them;
- ``VectorEnv(..., opponents=policy)``: three copies of the policy as the
  opponents of a uniformly random learner (the learner's return: what a
  self-play loop against a frozen policy would train on).

Each hand is one 4-player hand of Dalmuti (``options={"hands": 1}``),
dealt from fixed seeds, so a run is repeatable.

The same policy enters ``ratrace tournament`` (and ``play``, and a
``serve`` table) as a bot program: ``saved`` below is the policy of the
weights named by the ``RATRACE_POLICY`` environment variable, served by
``python3 -m ratrace.bot``; ``--program`` prints the command line.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shlex
import sys

import numpy as np

import ratrace

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import train_dalmuti as td  # noqa: E402  (the Policy class and the game's setup)

SEED = 20_261_128


def load_policy(path: str):
    """The greedy policy of the weights in `path`, as a function."""
    probe = ratrace.Game(td.GAME, players=td.PLAYERS, options=td.OPTIONS, seed=0)
    with np.load(path) as f:
        hidden = f["w1"].shape[1]
    net = td.Policy(probe.observation_size, probe.num_actions, hidden, np.random.default_rng(0))
    net.load(path)

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        z, _ = net.logits(obs[None, :], mask[None, :])
        return int(z[0].argmax())

    return policy


_SAVED = []


def saved(obs: np.ndarray, mask: np.ndarray) -> int:
    """The policy of the weights in ``$RATRACE_POLICY``, loaded at the first
    call: the function ``python3 -m ratrace.bot play_policy.py:saved``
    serves."""
    if not _SAVED:
        _SAVED.append(load_policy(os.environ["RATRACE_POLICY"]))
    return _SAVED[0](obs, mask)


def as_bot(policy, hands: int) -> np.ndarray:
    """The policy's returns as ``Bot(policy)`` against heuristic bots."""
    me = ratrace.Bot(policy)
    returns = []
    for h in range(hands):
        seat = h % td.PLAYERS
        game = ratrace.Game(td.GAME, players=td.PLAYERS, options=td.OPTIONS, seed=SEED + h)
        others = {s: ratrace.Bot("heuristic", seed=SEED + 10 * h + s) for s in range(td.PLAYERS)}
        while not game.is_over:
            actor = game.actor
            game.apply((me if actor == seat else others[actor]).act(game))
        returns.append(game.returns()[seat])
    return np.array(returns, np.float32)


def as_opponents(policy, hands: int) -> np.ndarray:
    """A random learner's returns against three copies of the policy."""
    env = ratrace.VectorEnv(
        td.GAME, 16, players=td.PLAYERS, options=td.OPTIONS, opponents=policy, seed=SEED
    )
    returns = []
    while len(returns) < hands:
        env.step(env.sample_actions())
        done = env.terminated | env.truncated
        returns.extend(env.rewards[np.arange(env.num_envs), env.seats][done].tolist())
    return np.array(returns[:hands], np.float32)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("weights", help="the .npz train_dalmuti.py --save wrote")
    ap.add_argument("--hands", type=int, default=400, help="hands per table kind (default 400)")
    ap.add_argument("--program", action="store_true", help="print the tournament command line too")
    args = ap.parse_args(argv)
    policy = load_policy(args.weights)
    print(td.show("Bot(policy) vs 3 heuristic", td.summary(as_bot(policy, args.hands))))
    print(td.show("random learner vs 3 x policy", td.summary(as_opponents(policy, args.hands))))
    if args.program:
        me = pathlib.Path(__file__).resolve()
        weights = pathlib.Path(args.weights).resolve()
        program = f"{shlex.quote(sys.executable)} -m ratrace.bot {shlex.quote(str(me))}:saved"
        print(
            f"RATRACE_POLICY={shlex.quote(str(weights))} ratrace tournament {td.GAME}"
            f" --players {td.PLAYERS} --option hands=1 --candidate {shlex.quote('cmd:' + program)}"
            " --field heuristic --deals 100"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
