"""Measure weights files as train.py does, on deals of your choosing.

    python training/evaluate.py dalmuti A.safetensors B.safetensors --seed 777

Each network plays greedily alone against the game's field (`strong`) on
the same deals, seats rotated table by table, and the line gives its
first places with a Wilson 95% interval. train.py's own rounds are all
measured on one set of deals (its `EVAL_SEED`); other seeds give
independent deals, so a network picked by its training curve is not
also judged on the deals it was picked on.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path


def trainer():
    spec = importlib.util.spec_from_file_location("train", Path(__file__).with_name("train.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv=None) -> int:
    t = trainer()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=sorted(t.GAMES))
    ap.add_argument("weights", type=Path, nargs="+")
    ap.add_argument("--seed", type=int, default=t.EVAL_SEED, help="the deals")
    ap.add_argument("--games", type=int, default=5120)
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args(argv)
    t.EVAL_SEED = args.seed
    for path in args.weights:
        e = t.evaluate(t.Net.load(path), args.game, args.games, args.threads)
        print(f"{path}: {100 * e['rate']:.2f}% [{100 * e['low']:.2f}, {100 * e['high']:.2f}] "
              f"first places of {e['games']} against {t.GAMES[args.game]['field']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
