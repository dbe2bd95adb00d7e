"""PPO with an action mask, numpy only: the learned baseline of docs/lab/baselines.md.

    python examples/python/ppo.py dalmuti --players 5 --save ppo-dalmuti.npz
    python examples/python/ppo.py bigcheese --players 4 --save ppo-bigcheese.npz
    python examples/python/ppo.py dalmuti --quick        # a tiny run (seconds), for tests

One learner against ``--opponents`` bots (default ``heuristic``, the
baselines' field) in the other seats, ``--envs`` tables stepped at once by
``ratrace.VectorEnv``, table ``i`` seating the learner at seat ``i %
players`` so one policy learns every seat. Dalmuti plays single hands.

The policy is train_dalmuti.py's network (observation -> tanh hidden
layer -> logits over the action ids, illegal ids masked out of the
softmax), saved in the same format, so ``play_policy.py`` and ``python3
-m ratrace.bot play_policy.py:saved`` seat it at any table. The value is a
network of its own (one tanh hidden layer), trained beside it.

PPO as in Schulman et al. (2017): rollouts of ``--steps`` learner
decisions per table, advantages by GAE (gamma 1: a hand's return comes at
its end; lambda 0.95), then ``--epochs`` passes over the rollout in
minibatches, the clipped surrogate (0.2), the value loss (weight 0.5) and
an entropy bonus, Adam. A decision's reward is the learner's return when
its hand or game ends (1 for first place down to -1 for last).

It prints, every few updates, the return and first-place rate of the hands
that ended during the rollouts (which reads high: won hands are shorter,
so they end more often in a window), and the time. The baselines measure
the saved policy with ``ratrace tournament``, not with these figures.
Deterministic given ``--seed`` (and the machine's numpy/BLAS).
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys
import time

import numpy as np

import ratrace

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from train_dalmuti import Adam, Policy, policy_terms  # noqa: E402  (the network, its terms, the optimiser)


class Value:
    """obs -> tanh hidden layer -> one number."""

    def __init__(self, n_obs: int, hidden: int, rng: np.random.Generator):
        self.params = {
            "u1": (rng.standard_normal((n_obs, hidden)) / math.sqrt(n_obs)).astype(np.float32),
            "c1": np.zeros(hidden, np.float32),
            "u2": np.zeros(hidden, np.float32),
            "c2": np.zeros(1, np.float32),
        }

    def __call__(self, obs):
        p = self.params
        h = np.tanh(obs @ p["u1"] + p["c1"])
        return h @ p["u2"] + p["c2"], h

    def grads(self, obs, h, dv):
        """The gradients of a loss whose derivative by each value is `dv`."""
        p = self.params
        dh = np.outer(dv, p["u2"]) * (1 - h * h)
        return {"u2": h.T @ dv, "c2": np.array([dv.sum()], np.float32), "u1": obs.T @ dh, "c1": dh.sum(axis=0)}


def ppo_step(p, value, x, m, a, logp_old, adv, ret, args):
    """One minibatch: the PPO loss (clipped surrogate, value loss, entropy
    bonus; the advantages normalized within the minibatch), its gradients
    by every parameter of the policy `p` and of `value`, the share of
    decisions whose ratio was clipped, and each row's entropy."""
    b, n_act = m.shape
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    h, rows, cols, pik, logpik, entropy, chosen, logp = policy_terms(p, x, m, a)
    ratio = np.exp(logp - logp_old)
    surrogate = np.minimum(ratio * adv, np.clip(ratio, 1 - args.clip, 1 + args.clip) * adv)
    # the clipped surrogate passes a gradient only where the ratio is
    # inside the clip, or outside it on the losing side
    active = ~(((adv > 0) & (ratio > 1 + args.clip)) | ((adv < 0) & (ratio < 1 - args.clip)))
    coef = (ratio * adv * active).astype(pik.dtype)
    dzk = (pik - chosen) * coef[rows] + args.entropy * pik * (logpik + entropy[rows])
    dz = np.zeros((b, n_act), pik.dtype)  # float32 in training
    dz[rows, cols] = dzk / b
    dh = (dz @ p["w2"].T) * (1 - h * h)
    grads = {"w2": h.T @ dz, "b2": dz.sum(axis=0), "w1": x.T @ dh, "b1": dh.sum(axis=0)}
    v, hv = value(x)
    grads.update(value.grads(x, hv, args.vf * (v - ret) / b))
    loss = float(-surrogate.mean() - args.entropy * entropy.mean() + 0.5 * args.vf * ((v - ret) ** 2).mean())
    return loss, grads, 1 - active.mean(), entropy


def make_env(args) -> ratrace.VectorEnv:
    env = ratrace.VectorEnv(
        args.game, args.envs, players=args.players, options=args.options,
        opponents=args.opponents, seed=args.seed,
    )
    for i in range(args.envs):
        env.set_seat(i, i % args.players)
    env.reset(np.random.default_rng(args.seed).integers(0, 2**63, args.envs, dtype=np.int64))
    return env


def train(policy: Policy, value: Value, args) -> None:
    env = make_env(args)
    rng = np.random.default_rng(args.seed + 1)
    params = {**policy.params, **value.params}
    opt = Adam(params, args.lr)
    n, T = args.envs, args.steps
    n_obs, n_act = env.observation_size, env.num_actions
    obs = np.zeros((T, n, n_obs), np.float32)
    masks = np.zeros((T, n, n_act), np.int8)
    acts = np.zeros((T, n), np.int64)
    logp_old = np.zeros((T, n), np.float32)
    vals = np.zeros((T + 1, n), np.float32)
    rews = np.zeros((T, n), np.float32)
    dones = np.zeros((T, n), bool)
    p = policy.params
    rows_n = np.arange(n)
    start = time.perf_counter()
    for update in range(1, args.updates + 1):
        for t in range(T):
            obs[t] = env.observations
            masks[t] = env.action_masks
            acts[t] = policy.act(obs[t], masks[t], rng)
            *_, logp_old[t] = policy_terms(p, obs[t], masks[t], acts[t])
            vals[t] = value(obs[t])[0]
            env.step(acts[t])
            rews[t] = env.rewards[rows_n, env.seats]
            dones[t] = env.terminated | env.truncated
        vals[T] = value(env.observations)[0]
        # GAE, gamma 1: a hand's value is cut where it ends
        adv = np.zeros((T, n), np.float32)
        last = np.zeros(n, np.float32)
        for t in reversed(range(T)):
            live = ~dones[t]
            delta = rews[t] + vals[t + 1] * live - vals[t]
            last = delta + args.lam * live * last
            adv[t] = last
        ret = adv + vals[:T]
        X, M, A = obs.reshape(T * n, n_obs), masks.reshape(T * n, n_act), acts.reshape(-1)
        LP, ADV, RET = logp_old.reshape(-1), adv.reshape(-1), ret.reshape(-1)
        clipped = 0.0
        for _ in range(args.epochs):
            order = rng.permutation(T * n)
            for k in range(0, T * n, args.minibatch):
                idx = np.sort(order[k : k + args.minibatch])
                loss, grads, out, entropy = ppo_step(
                    p, value, X[idx], M[idx], A[idx], LP[idx], ADV[idx], RET[idx], args
                )
                clipped += out
                opt.step(params, {k2: g.astype(np.float32) for k2, g in grads.items()})
        if update % args.log_every == 0 or update == args.updates:
            ended = rews[dones]
            steps = args.epochs * -(-T * n // args.minibatch)
            print(
                f"update {update:4d}  ended {len(ended):6d}  return {ended.mean():+.3f}"
                f"  first {100 * (ended > 0.999).mean():5.1f}%  entropy {entropy.mean():.2f}"
                f"  clipped {100 * clipped / steps:4.1f}%  {time.perf_counter() - start:7.1f}s",
                flush=True,
            )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game", choices=["bigcheese", "dalmuti"])
    ap.add_argument("--players", type=int, help="seats (default: the game's default)")
    ap.add_argument("--opponents", default="heuristic", help="the other seats' bot (default heuristic)")
    ap.add_argument("--updates", type=int, default=120, help="PPO updates (default 120)")
    ap.add_argument("--envs", type=int, default=256, help="tables stepped together (default 256)")
    ap.add_argument("--steps", type=int, default=64, help="learner decisions per table per update (default 64)")
    ap.add_argument("--epochs", type=int, default=4, help="passes over each rollout (default 4)")
    ap.add_argument("--minibatch", type=int, default=2048, help="decisions per gradient step (default 2048)")
    ap.add_argument("--hidden", type=int, default=64, help="hidden units of each network (default 64)")
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam step size (default 1e-3)")
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--lam", type=float, default=0.95, help="GAE lambda (default 0.95)")
    ap.add_argument("--vf", type=float, default=0.5, help="value loss weight (default 0.5)")
    ap.add_argument("--entropy", type=float, default=0.01, help="entropy bonus (default 0.01)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--log-every", type=int, default=10)
    ap.add_argument("--save", help="write the policy to this .npz (train_dalmuti.py's format)")
    ap.add_argument("--quick", action="store_true", help="a tiny run, for tests")
    args = ap.parse_args(argv)
    if args.quick:
        args.updates, args.envs, args.steps, args.minibatch, args.log_every = 2, 32, 16, 256, 1
    args.options = {"hands": 1} if args.game == "dalmuti" else {}
    probe = ratrace.Game(args.game, players=args.players, options=args.options, seed=0)
    args.players = probe.players
    rng = np.random.default_rng(args.seed)
    policy = Policy(probe.observation_size, probe.num_actions, args.hidden, rng)
    value = Value(probe.observation_size, args.hidden, rng)
    print(
        f"PPO: {args.game}, {args.players} players, {args.options}, learner vs {args.players - 1}"
        f" {args.opponents}; {args.envs} tables x {args.steps} steps x {args.updates} updates,"
        f" {args.epochs} epochs of {args.minibatch}, seed {args.seed}",
        flush=True,
    )
    t0 = time.perf_counter()
    train(policy, value, args)
    print(f"training: {time.perf_counter() - t0:.1f}s")
    if args.save:
        policy.save(args.save)
        print(f"saved the policy in {args.save}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
