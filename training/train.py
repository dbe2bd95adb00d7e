"""Train the `learned` bot's policy network for one game, with numpy only.

    python training/train.py dalmuti                   # the full run
    python training/train.py bigcheese
    python training/train.py dalmuti --smoke           # seconds: checks the pipeline

Method: imitation of the `search` bot with DAgger (Ross, Gordon and
Bagnell 2011), the first step of expert iteration (Anthony, Tian and
Barber 2017). Each round plays `--envs` self-play tables through
`ratrace.VectorEnv` with `teacher="search"`: at every decision the env
also reports the action the search bot would take from that seat's view
(`teacher_actions`). The first round plays the teacher's actions; later
rounds play the network's own sampled action at a share `1 - beta` of the
decisions, so the data covers the positions the network itself reaches,
and every decision is labelled with the teacher's choice. After each round
the network is fitted to all the data so far (masked softmax
cross-entropy: illegal ids never get probability), and evaluated greedily
against the `strong` bots on fixed deals, seats rotated. Why this and not
PPO from scratch: the reward comes once per game, after 20 to 100
decisions shared by 4 or 5 players, and a 2-core machine with numpy gives
a few thousand gradient steps an hour; a search teacher gives a label at
every decision, and is already the strongest bot the project has.

The network: observation -> 256 -> 256 -> one logit per action id, ReLU
between layers, the form `bots::net` reads in Rust. It is written as
`crates/bots/weights/<game>.safetensors` (format `ratrace-mlp/1`), with the
training curve beside it (`<game>.curve.json`).

Deterministic given `--seed` (and the machine's numpy/BLAS): the teacher
runs on fixed iteration budgets, every deal comes from the seed.
"""

from __future__ import annotations

import argparse
import json
import math
import struct
import sys
import time
from pathlib import Path

import numpy as np

import ratrace

# One table size per game: the network's input and output sizes depend on it.
GAMES = {
    "dalmuti": {"players": 5, "options": {"hands": 1}, "field": "strong"},
    "bigcheese": {"players": 4, "options": {}, "field": "strong"},
}
EVAL_SEED = 20_261_128  # the evaluation deals, whatever --seed is
FORMAT = "ratrace-mlp/1"


class Net:
    """A ReLU MLP; weights kept as [in, out] for `x @ w`."""

    def __init__(self, sizes: list[int], rng: np.random.Generator):
        self.w = []
        self.b = []
        for i, (a, c) in enumerate(zip(sizes, sizes[1:])):
            scale = math.sqrt(2.0 / a) if i < len(sizes) - 2 else 0.0
            self.w.append((rng.standard_normal((a, c)) * scale).astype(np.float32))
            self.b.append(np.zeros(c, np.float32))

    def params(self) -> list[np.ndarray]:
        return self.w + self.b

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        acts = [x]
        for i, (w, b) in enumerate(zip(self.w, self.b)):
            x = x @ w + b
            if i < len(self.w) - 1:
                x = np.maximum(x, 0.0)
            acts.append(x)
        return x, acts

    def logits(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        z, _ = self.forward(x)
        return np.where(mask != 0, z, np.float32(-1e9))

    def act(self, x, mask, rng=None) -> np.ndarray:
        """Greedy ids, or sampled from the softmax with `rng`."""
        z = self.logits(x, mask)
        if rng is None:
            return z.argmax(axis=1)
        z -= z.max(axis=1, keepdims=True)
        c = np.exp(z).cumsum(axis=1)
        u = rng.random((len(c), 1), dtype=np.float32) * c[:, -1:]
        return np.minimum((c <= u).sum(axis=1), z.shape[1] - 1)

    def grads(self, x, mask, target) -> tuple[float, list[np.ndarray]]:
        """Mean cross-entropy of the masked softmax against `target` (an
        action id per row, or a distribution over the ids per row), and
        its gradients (weights, then biases)."""
        z, acts = self.forward(x)
        z = np.where(mask != 0, z, np.float32(-1e9))
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        p = e / e.sum(axis=1, keepdims=True)
        n = len(x)
        rows = np.arange(n)
        if target.ndim == 2:
            loss = float(-(target * np.log(np.maximum(p, 1e-12))).sum(axis=1).mean())
            d = p - target
        else:
            loss = float(-np.log(np.maximum(p[rows, target], 1e-12)).mean())
            d = p
            d[rows, target] -= 1.0
        d /= n
        gw, gb = [None] * len(self.w), [None] * len(self.w)
        for i in reversed(range(len(self.w))):
            gw[i] = acts[i].T @ d
            gb[i] = d.sum(axis=0)
            if i:
                d = (d @ self.w[i].T) * (acts[i] > 0)
        return loss, gw + gb

    @classmethod
    def load(cls, path: Path) -> "Net":
        """A network written by `save` (to start a run from it)."""
        raw = path.read_bytes()
        n = struct.unpack("<Q", raw[:8])[0]
        header = json.loads(raw[8 : 8 + n])
        body = raw[8 + n :]
        net = cls.__new__(cls)
        net.w, net.b = [], []
        i = 0
        while f"policy.{i}.weight" in header:
            for name, out in ((f"policy.{i}.weight", net.w), (f"policy.{i}.bias", net.b)):
                h = header[name]
                lo, hi = h["data_offsets"]
                t = np.frombuffer(body[lo:hi], dtype="<f4").reshape(h["shape"])
                out.append(np.array(t.T if t.ndim == 2 else t, dtype=np.float32, order="C"))
            i += 1
        return net

    def save(self, path: Path, metadata: dict[str, str]) -> None:
        """The safetensors layout `bots::net` reads: tensors
        `policy.{i}.weight` [out, in] and `policy.{i}.bias` [out]."""
        header, blobs, offset = {}, [], 0
        for i, (w, b) in enumerate(zip(self.w, self.b)):
            for name, t in ((f"policy.{i}.weight", w.T), (f"policy.{i}.bias", b)):
                raw = np.ascontiguousarray(t, dtype="<f4").tobytes()
                header[name] = {
                    "dtype": "F32",
                    "shape": list(t.shape),
                    "data_offsets": [offset, offset + len(raw)],
                }
                blobs.append(raw)
                offset += len(raw)
        header["__metadata__"] = {"format": FORMAT, **metadata}
        text = json.dumps(header, separators=(",", ":")).encode()
        path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


class Adam:
    def __init__(self, params, lr):
        self.lr, self.t = lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, params, grads):
        self.t += 1
        c1, c2 = 1 - 0.9**self.t, 1 - 0.999**self.t
        for p, g, m, v in zip(params, grads, self.m, self.v):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= self.lr * (m / c1) / (np.sqrt(v / c2) + 1e-8)


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p, z = k / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def evaluate(net: Net, game: str, games: int, threads: int) -> dict:
    """First places of the greedy network alone against the field, on
    fixed deals (`EVAL_SEED`), seats rotated table by table."""
    g = GAMES[game]
    n = min(games, 512)
    per = -(-games // n)
    env = ratrace.VectorEnv(
        game, n, players=g["players"], options=g["options"], opponents=g["field"],
        seed=EVAL_SEED, threads=threads,
    )
    for i in range(n):
        env.set_seat(i, i % g["players"])
    env.reset(np.random.default_rng(EVAL_SEED).integers(0, 2**63, n, dtype=np.int64))
    firsts = np.zeros(n, np.int64)
    counts = np.zeros(n, np.int64)
    rows = np.arange(n)
    while counts.min() < per:
        env.step(net.act(env.observations, env.action_masks))
        done = env.terminated | env.truncated
        keep = done & (counts < per)
        won = env.rewards[rows, env.seats] > 0.999
        firsts += keep & won & env.terminated
        counts += done
    k, total = int(firsts.sum()), int(n * per)
    lo, hi = wilson(k, total)
    return {"games": total, "firsts": k, "rate": k / total, "low": lo, "high": hi}


def collect_all(envs, net, beta, steps, rng, soft=False):
    """`collect` on each env in turn, the data joined."""
    parts = [collect(e, net, beta, steps, rng, soft) for e in envs]
    return tuple(np.concatenate(p) for p in zip(*parts))


def collect(env, net, beta, steps, rng, soft=False):
    """`steps` self-play steps: the teacher's action with probability
    `beta`, else the network's sampled one; returns every decision with
    a choice: its observation, mask and the teacher's label (with `soft`,
    the teacher's policy: its search's visit shares)."""
    obs, masks, labels = [], [], []
    for _ in range(steps):
        o, m, t = env.observations, env.action_masks, env.teacher_actions
        # A forced move (one legal id) teaches nothing: left out.
        ok = (env.to_move >= 0) & (t >= 0) & ((m != 0).sum(axis=1) > 1)
        obs.append(o[ok].copy())
        masks.append(m[ok].astype(np.bool_))
        labels.append((env.teacher_policies if soft else t)[ok].copy())
        own = net.act(o, m, rng)
        pick = np.where(rng.random(len(t)) < beta, t, own)
        pick = np.where(t >= 0, pick, own)
        env.step(pick)
    return np.concatenate(obs), np.concatenate(masks), np.concatenate(labels)


def fit(net, opt, data, epochs, batch, rng) -> float:
    obs, masks, labels = data
    n = len(labels)
    losses = []
    for _ in range(epochs):
        order = rng.permutation(n)
        for s in range(0, n - batch + 1, batch):
            idx = order[s : s + batch]
            loss, g = net.grads(obs[idx], masks[idx], labels[idx])
            opt.step(net.params(), g)
            losses.append(loss)
    return float(np.mean(losses[-max(1, len(losses) // epochs) :])) if losses else float("nan")


def agreement(net, data) -> float:
    """The share of decisions where the network's greedy choice is the
    teacher's (its most visited action, with soft labels)."""
    obs, masks, labels = data
    if labels.ndim == 2:
        labels = labels.argmax(axis=1)
    return float((net.act(obs, masks) == labels).mean())


def positions(net: Net, game: str, games: int, seed: int) -> dict:
    """Decisions of the finished network for the Rust parity test
    (crates/bots/tests/it/learned.rs): `games` greedy self-play games from
    fixed seeds, played through `ratrace.Game`, each with its action ids
    and, at every decision with a choice whose best logit leads the next
    by at least 1e-3 (so that summing in another order cannot change
    the answer), the id numpy chose."""
    g = GAMES[game]
    out = []
    for k in range(games):
        table = ratrace.Game(game, g["players"], g["options"], seed + k)
        actions, decisions = [], []
        while not table.is_over and len(actions) < 5000:
            seat = table.actor
            mask = table.action_mask()
            z = net.logits(table.observation(seat)[None, :], mask[None, :])[0]
            best = int(z.argmax())
            if (mask != 0).sum() > 1:
                second = np.partition(z, -2)[-2]
                if z[best] - second >= 1e-3:
                    decisions.append([len(actions), best])
            table.apply_id(best, seat)
            actions.append(best)
        out.append({"seed": seed + k, "actions": actions, "decisions": decisions})
    return {"game": game, "players": g["players"], "options": g["options"], "games": out}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=sorted(GAMES))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=10, help="DAgger rounds with the teacher")
    ap.add_argument("--envs", type=int, default=128, help="self-play tables")
    ap.add_argument("--steps", type=int, default=200, help="steps per round")
    ap.add_argument("--epochs", type=int, default=4, help="passes over the data per round")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3, help="learning rate of the warm-up")
    ap.add_argument("--fine-lr", type=float, default=3e-4, help="learning rate with the teacher")
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--teacher", default="search")
    ap.add_argument("--pretrain", default="strong",
                    help="the cheap teacher of the warm-up rounds")
    ap.add_argument("--pretrain-rounds", type=int, default=6)
    ap.add_argument("--pretrain-steps", type=int, default=1000,
                    help="steps per warm-up round (on --pretrain-envs tables)")
    ap.add_argument("--pretrain-envs", type=int, default=256)
    ap.add_argument("--eval-games", type=int, default=2000)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", type=Path, default=None,
                    help="weights file (default crates/bots/weights/GAME.safetensors)")
    ap.add_argument("--init", type=Path, default=None,
                    help="start from this weights file (no warm-up rounds)")
    ap.add_argument("--fields", default=None,
                    help="comma-separated bots: the teacher's rounds are played by the "
                         "network alone against tables of each (its seat rotated), "
                         "not in self-play")
    ap.add_argument("--visits", action="store_true",
                    help="fit the teacher search's visit shares (expert iteration's "
                         "targets), not its choice alone")
    ap.add_argument("--smoke", action="store_true",
                    help="a run of seconds: tiny rounds, teacher search:20")
    args = ap.parse_args(argv)
    if args.smoke:
        args.rounds, args.envs, args.steps, args.epochs = 2, 8, 20, 1
        args.pretrain_rounds, args.pretrain_steps, args.pretrain_envs = 1, 20, 8
        args.teacher, args.eval_games, args.hidden, args.batch = "search:20", 40, 32, 32
    g = GAMES[args.game]
    out = args.out or Path(__file__).resolve().parent.parent / "crates/bots/weights" / f"{args.game}.safetensors"
    out.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    if args.fields:
        # The network's decisions against each field, on an equal share of
        # the tables; the teacher labels the network's seat only.
        fields = args.fields.split(",")
        share = max(1, args.envs // len(fields))
        envs = []
        for k, field in enumerate(fields):
            e = ratrace.VectorEnv(
                args.game, share, players=g["players"], options=g["options"],
                opponents=field, seed=args.seed + 100 + k, threads=args.threads,
                teacher=args.teacher,
            )
            for i in range(share):
                e.set_seat(i, (i + k) % g["players"])
            e.reset(np.random.default_rng(args.seed + 100 + k).integers(0, 2**63, share, dtype=np.int64))
            envs.append(e)
        env = envs[0]
    else:
        env = ratrace.VectorEnv(
            args.game, args.envs, players=g["players"], options=g["options"],
            seed=args.seed, threads=args.threads, teacher=args.teacher,
        )
        envs = [env]
    if args.init:
        net = Net.load(args.init)
        args.pretrain_rounds = 0
    else:
        net = Net([env.observation_size, args.hidden, args.hidden, env.num_actions], rng)
    opt = Adam(net.params(), args.lr)
    data = None
    start = time.perf_counter()
    curve = []

    def point(rnd, loss, agree):
        e = evaluate(net, args.game, args.eval_games, args.threads)
        row = {"round": rnd, "seconds": round(time.perf_counter() - start, 1),
               "samples": 0 if data is None else int(len(data[2])),
               "loss": loss, "agreement": agree, **e}
        curve.append(row)
        print(f"{rnd}: {row['seconds']:.0f} s, {row['samples']} samples, loss {loss:.3f}, "
              f"agrees with the teacher {100 * agree:.1f}%, vs {g['field']}: "
              f"{100 * e['rate']:.1f}% [{100 * e['low']:.1f}%, {100 * e['high']:.1f}%] "
              f"of {e['games']}", flush=True)

    point(0, float("nan"), float("nan"))
    # Warm-up: the same DAgger rounds with a cheap teacher and many more
    # decisions, each round fitted on its own data; the search rounds
    # then start from a network that already plays like `strong`.
    if args.pretrain_rounds:
        warm = ratrace.VectorEnv(
            args.game, args.pretrain_envs, players=g["players"], options=g["options"],
            seed=args.seed + 1, threads=args.threads, teacher=args.pretrain,
        )
        for rnd in range(1, args.pretrain_rounds + 1):
            beta = 1.0 if rnd == 1 else 0.5
            data = collect(warm, net, beta, args.pretrain_steps, rng)
            loss = fit(net, opt, data, 2, args.batch, rng)
            point(f"warm-up {rnd}", loss, float("nan"))
        data = None
    opt.lr = args.fine_lr
    for rnd in range(1, args.rounds + 1):
        beta = 1.0 if rnd == 1 else 0.5 ** (rnd - 1)
        new = collect_all(envs, net, beta, args.steps, rng, args.visits)
        agree = agreement(net, new) if rnd > 1 else float("nan")
        data = new if data is None else tuple(np.concatenate([a, b]) for a, b in zip(data, new))
        loss = fit(net, opt, data, args.epochs, args.batch, rng)
        point(rnd, loss, agree)
    meta = {
        "game": args.game,
        "players": str(g["players"]),
        "options": json.dumps(g["options"], sort_keys=True),
        "obs_len": str(env.observation_size),
        "num_actions": str(env.num_actions),
        "teacher": args.teacher,
        "seed": str(args.seed),
        "command": "python training/train.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "seconds": str(round(time.perf_counter() - start)),
    }
    net.save(out, meta)
    curve_path = out.with_suffix(".curve.json")
    curve_path.write_text(json.dumps({"meta": meta, "curve": curve}, indent=1) + "\n")
    pos_path = out.with_suffix(".positions.json")
    pos_path.write_text(json.dumps(positions(net, args.game, 4, EVAL_SEED)) + "\n")
    print(f"wrote {out} ({out.stat().st_size} bytes), {curve_path} and {pos_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
