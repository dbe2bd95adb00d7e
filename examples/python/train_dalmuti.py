"""Train a small Dalmuti policy against the heuristic bot, with numpy only.

    python examples/python/train_dalmuti.py                # the full run (a few minutes)
    python examples/python/train_dalmuti.py --quick        # a tiny run (seconds)

The game: The Great Dalmuti for 4 players, one hand per episode
(``options={"hands": 1}``). The learner sits at one seat of every table,
``heuristic`` bots play the other three seats inside Rust, and
``ratrace.VectorEnv`` steps ``--envs`` tables at once (one learner decision
per table per step; autoreset deals a new hand when one ends). Table ``i``
seats the learner at seat ``i % 4`` (``VectorEnv.set_seat``), so the policy
learns every seat.

The policy: one hidden layer (tanh) and a softmax over the action ids,
illegal ids masked out. Its output layer starts at zero, so the untrained
policy picks uniformly among the legal actions. Training is REINFORCE with
a learned linear baseline (the value of the observation): the return of a
decision is the learner's return at the end of its hand (1 for first place,
1/3, -1/3, -1 for last), no discount; Adam, a small entropy bonus.

Evaluation plays ``--eval-games`` hands on fixed seeds (the same hands
before and after training), learner seats rotating as in training, with the
*sampled* policy (the policy as trained; ``--greedy`` evaluates the most
likely action instead), and prints the mean return and the win rate (first
place) with 95% intervals: normal for the mean, Wilson for the rate.

Deterministic given ``--seed`` (and the machine's numpy/BLAS).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

import ratrace

GAME = "dalmuti"
PLAYERS = 4
OPTIONS = {"hands": 1}
OPPONENTS = "heuristic"
EVAL_SEED = 20_261_127  # the evaluation hands, fixed whatever --seed is


class Policy:
    """obs -> tanh hidden layer -> logits over the action ids; plus a
    linear value baseline on the observation."""

    def __init__(self, n_obs: int, n_act: int, hidden: int, rng: np.random.Generator):
        self.params = {
            "w1": (rng.standard_normal((n_obs, hidden)) / math.sqrt(n_obs)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": np.zeros((hidden, n_act), np.float32),
            "b2": np.zeros(n_act, np.float32),
            "wv": np.zeros(n_obs, np.float32),
            "bv": np.zeros(1, np.float32),
        }

    def logits(self, obs, mask):
        p = self.params
        h = np.tanh(obs @ p["w1"] + p["b1"])
        z = h @ p["w2"] + p["b2"]
        return np.where(mask != 0, z, -np.inf), h

    def act(self, obs, mask, rng, greedy=False):
        z, _ = self.logits(obs, mask)
        if greedy:
            return z.argmax(axis=1)
        # Sample by inverse CDF: the first id whose cumulative probability
        # passes a uniform draw (illegal ids add nothing, so never chosen).
        z -= z.max(axis=1, keepdims=True)
        c = np.exp(z).cumsum(axis=1)
        u = rng.random((len(c), 1), dtype=np.float32) * c[:, -1:]
        return (c <= u).sum(axis=1)

    def save(self, path):
        np.savez(path, **self.params)

    def load(self, path):
        # a file without the baseline (ppo.py's: its value is a network of
        # its own) loads its policy, the baseline left at zero
        with np.load(path) as f:
            for k in self.params:
                if k in f:
                    self.params[k] = f[k].astype(np.float32)


class Adam:
    def __init__(self, params, lr, b1=0.9, b2=0.999, eps=1e-8):
        self.lr, self.b1, self.b2, self.eps, self.t = lr, b1, b2, eps, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params, grads):
        self.t += 1
        c1, c2 = 1 - self.b1**self.t, 1 - self.b2**self.t
        for k, g in grads.items():
            self.m[k] = self.b1 * self.m[k] + (1 - self.b1) * g
            self.v[k] = self.b2 * self.v[k] + (1 - self.b2) * g * g
            params[k] -= self.lr * (self.m[k] / c1) / (np.sqrt(self.v[k] / c2) + self.eps)


def policy_terms(p, x, m, a):
    """For rows `x` (masks `m`, actions `a`): the hidden layer, the legal
    entries (rows, cols, and where each row starts), their probabilities
    and log-probabilities, each row's entropy and its action's
    log-probability. Only legal entries are computed (a few per row)."""
    h = np.tanh(x @ p["w1"] + p["b1"])
    rows, cols = np.nonzero(m)
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    zk = (h @ p["w2"])[rows, cols] + p["b2"][cols]
    zk -= np.maximum.reduceat(zk, starts)[rows]
    ek = np.exp(zk)
    pik = ek / np.add.reduceat(ek, starts)[rows]
    logpik = np.log(np.maximum(pik, 1e-30))
    entropy = -np.add.reduceat(pik * logpik, starts)
    chosen = cols == a[rows]
    logp = np.zeros(len(x), pik.dtype)
    logp[rows[chosen]] = logpik[chosen]
    return h, rows, cols, pik, logpik, entropy, chosen, logp


def make_env(num_envs: int, seed: int) -> ratrace.VectorEnv:
    """`num_envs` tables, the learner at seat i % 4 of table i, dealt from
    seeds drawn from `seed`."""
    env = ratrace.VectorEnv(
        GAME, num_envs, players=PLAYERS, options=OPTIONS, opponents=OPPONENTS, seed=seed
    )
    for i in range(num_envs):
        env.set_seat(i, i % PLAYERS)
    env.reset(np.random.default_rng(seed).integers(0, 2**63, num_envs, dtype=np.int64))
    return env


def learner_rewards(env) -> np.ndarray:
    return env.rewards[np.arange(env.num_envs), env.seats]


def evaluate(policy: Policy, games: int, greedy: bool, seed: int = EVAL_SEED):
    """Returns of the first `games` hands played on the evaluation seeds."""
    n = min(games, 1000)
    per_table = -(-games // n)
    env = make_env(n, seed)
    rng = np.random.default_rng(seed + 1)
    results = np.full((n, per_table), np.nan, np.float32)
    counts = np.zeros(n, np.int64)
    rows = np.arange(n)
    while counts.min() < per_table:
        env.step(policy.act(env.observations, env.action_masks, rng, greedy))
        done = env.terminated | env.truncated
        keep = done & (counts < per_table)
        results[rows[keep], counts[keep]] = learner_rewards(env)[keep]
        counts += done
    return results.reshape(-1)[:games]


def summary(returns: np.ndarray) -> dict:
    n = len(returns)
    mean = float(returns.mean())
    half = 1.96 * float(returns.std(ddof=1)) / math.sqrt(n)
    wins = int((returns > 0.999).sum())
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    w = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return {
        "n": n,
        "mean": mean,
        "mean_ci": (mean - half, mean + half),
        "win": p,
        "win_ci": (centre - w, centre + w),
    }


def show(label: str, s: dict) -> str:
    return (
        f"{label}: mean return {s['mean']:+.3f} [{s['mean_ci'][0]:+.3f}, {s['mean_ci'][1]:+.3f}]"
        f"  win rate {100 * s['win']:.1f}% [{100 * s['win_ci'][0]:.1f}%, {100 * s['win_ci'][1]:.1f}%]"
        f"  ({s['n']} hands)"
    )


def train(policy: Policy, args) -> None:
    env = make_env(args.envs, args.seed)
    rng = np.random.default_rng(args.seed + 1)
    opt = Adam(policy.params, args.lr)
    n, T = args.envs, args.steps
    n_obs, n_act = env.observation_size, env.num_actions
    obs = np.zeros((T, n, n_obs), np.float32)
    masks = np.zeros((T, n, n_act), np.int8)
    acts = np.zeros((T, n), np.int64)
    rews = np.zeros((T, n), np.float32)
    dones = np.zeros((T, n), bool)
    p = policy.params
    start = time.perf_counter()
    for update in range(1, args.updates + 1):
        for t in range(T):
            obs[t] = env.observations
            masks[t] = env.action_masks
            acts[t] = policy.act(obs[t], masks[t], rng)
            env.step(acts[t])
            rews[t] = learner_rewards(env)
            dones[t] = env.terminated | env.truncated
        # The return of each decision: the reward at the end of its hand;
        # decisions whose hand goes on past the rollout are left out.
        ret = np.full((T, n), np.nan, np.float32)
        g = np.full(n, np.nan, np.float32)
        for t in reversed(range(T)):
            g = np.where(dones[t], rews[t], g)
            ret[t] = g
        ok = ~np.isnan(ret)
        x, m, a, r = obs[ok], masks[ok], acts[ok], ret[ok]
        b = len(r)
        # Forward, on the legal entries only (a few per row; `rows` sorted).
        h, rows, cols, pik, logpik, entropy, chosen, _ = policy_terms(p, x, m, a)
        v = x @ p["wv"] + p["bv"]
        adv = r - v
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        # Gradient of -(adv * log pi(a)) - entropy_coef * H(pi), per logit.
        dzk = (pik - chosen) * adv[rows] + args.entropy * pik * (logpik + entropy[rows])
        dz = np.zeros((b, n_act), np.float32)
        dz[rows, cols] = dzk / b
        dh = (dz @ p["w2"].T) * (1 - h * h)
        dv = (v - r) / b
        grads = {
            "w2": h.T @ dz,
            "b2": dz.sum(axis=0),
            "w1": x.T @ dh,
            "b1": dh.sum(axis=0),
            "wv": x.T @ dv,
            "bv": np.array([dv.sum()], np.float32),
        }
        opt.step(p, {k: g.astype(np.float32) for k, g in grads.items()})
        if update % args.log_every == 0 or update == args.updates:
            ended = rews[dones]
            print(
                f"update {update:4d}  hands {len(ended):6d}  mean return {ended.mean():+.3f}"
                f"  win rate {100 * (ended > 0.999).mean():5.1f}%  entropy {entropy.mean():.2f}"
                f"  {time.perf_counter() - start:6.1f}s",
                flush=True,
            )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--updates", type=int, default=200, help="policy updates (default 200)")
    ap.add_argument("--envs", type=int, default=512, help="tables stepped together (default 512)")
    ap.add_argument("--steps", type=int, default=64, help="learner steps per table per update (default 64)")
    ap.add_argument("--hidden", type=int, default=64, help="hidden units (default 64)")
    ap.add_argument("--lr", type=float, default=3e-3, help="Adam step size (default 3e-3)")
    ap.add_argument("--entropy", type=float, default=0.01, help="entropy bonus (default 0.01)")
    ap.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    ap.add_argument("--eval-games", type=int, default=20_000, help="evaluation hands (default 20000)")
    ap.add_argument("--greedy", action="store_true", help="evaluate the most likely action, not a sample")
    ap.add_argument("--log-every", type=int, default=25)
    ap.add_argument("--save", help="write the trained weights to this .npz")
    ap.add_argument("--load", help="start from the weights in this .npz")
    ap.add_argument("--quick", action="store_true", help="a tiny run, for tests")
    args = ap.parse_args(argv)
    if args.quick:
        args.updates, args.envs, args.steps = 3, 64, 32
        args.eval_games, args.log_every = 256, 1

    probe = ratrace.Game(GAME, players=PLAYERS, options=OPTIONS, seed=0)
    policy = Policy(probe.observation_size, probe.num_actions, args.hidden, np.random.default_rng(args.seed))
    if args.load:
        policy.load(args.load)
    mode = "greedy" if args.greedy else "sampled"
    print(
        f"{GAME}, {PLAYERS} players, {OPTIONS}, learner vs 3 {OPPONENTS} bots;"
        f" {args.envs} tables x {args.steps} steps x {args.updates} updates, seed {args.seed}"
    )
    t0 = time.perf_counter()
    before = summary(evaluate(policy, args.eval_games, args.greedy))
    print(show(f"before ({mode})", before), flush=True)
    t1 = time.perf_counter()
    train(policy, args)
    t2 = time.perf_counter()
    after = summary(evaluate(policy, args.eval_games, args.greedy))
    print(show(f"after  ({mode})", after))
    t3 = time.perf_counter()
    if args.save:
        policy.save(args.save)
    apart = before["mean_ci"][1] < after["mean_ci"][0] and before["win_ci"][1] < after["win_ci"][0]
    print(f"intervals apart (after above before): {'yes' if apart else 'no'}")
    print(f"time: training {t2 - t1:.1f}s, evaluation {t1 - t0 + t3 - t2:.1f}s, total {t3 - t0:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
