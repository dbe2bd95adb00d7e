"""Evaluation without autoreset: a fixed set of deals played through a
``VectorEnv`` smaller than the set, each finished table dealt its next
deal with ``reset(seeds, indices=...)``, the others stepping on; a
finished table steps as a no-op until then. The result of a deal does not
depend on the batch it was played in."""

import numpy as np
import pytest

import ratrace

OPTIONS = {"hands": 1}


def last_legal(obs, masks):
    """A deterministic policy that plays: the highest legal id."""
    return (masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1)).astype(np.int64)


def evaluate(deals, num_envs, policy=last_legal, threads=None):
    """The learner's return for each deal, playing seat 0 against the
    heuristic bot: {deal: return}. Every step's actions are checked legal
    (or -1 on a finished table) before they are played."""
    env = ratrace.VectorEnv(
        "dalmuti", num_envs, players=4, options=OPTIONS, opponents="heuristic",
        seat=0, autoreset=False, threads=threads,
    )
    deals = list(deals)
    first = deals[:num_envs]
    env.reset(first)
    playing = np.array(first + [None] * (num_envs - len(first)), dtype=object)
    live = np.arange(num_envs) < len(first)
    upcoming = len(first)
    results = {}
    steps = 0
    while live.any():
        actions = policy(env.observations, env.action_masks)
        actions[~live | (env.to_move < 0)] = -1
        rows = np.flatnonzero(actions >= 0)
        # not a single illegal step: each id is allowed by its table's mask
        assert env.action_masks[rows, actions[rows]].all()
        env.step(actions)
        steps += 1
        done = np.flatnonzero((env.terminated | env.truncated) & live)
        for i in done:
            results[playing[i]] = float(env.rewards[i, env.seats[i]])
        k = min(len(done), len(deals) - upcoming)
        if k:
            env.reset(deals[upcoming : upcoming + k], indices=done[:k])
            playing[done[:k]] = deals[upcoming : upcoming + k]
            upcoming += k
        live[done[k:]] = False
    assert steps < 10_000
    return results


def test_4096_fixed_deals_in_1024_tables_without_an_illegal_step():
    deals = [1_000 + 7 * d for d in range(4096)]
    results = evaluate(deals, 1024)
    assert sorted(results) == deals
    # places 1 to 4 give 1, 1/3, -1/3, -1: each is reached
    places = [int(np.argmin(np.abs(v - np.array([1, 1 / 3, -1 / 3, -1])))) for v in results.values()]
    assert sorted(set(places)) == [0, 1, 2, 3]
    # the same deals in batches of another size, on one thread: the same
    # result for each deal (its game depends on its seed alone)
    assert evaluate(deals[:600], 100, threads=1) == {d: results[d] for d in deals[:600]}


def test_a_finished_table_steps_as_a_no_op_until_it_is_reset():
    env = ratrace.VectorEnv(
        "dalmuti", 3, players=4, options=OPTIONS, opponents="random", autoreset=False, seed=5, threads=1,
    )
    ended = np.zeros(3, dtype=bool)
    for _ in range(10_000):
        actions = env.sample_actions()
        assert ((actions == -1) == ended).all()
        env.step(actions)
        now = env.terminated | env.truncated
        assert (now >= ended).all(), "an end flag was cleared without a reset"
        newly = now & ~ended
        assert (env.rewards[~newly] == 0).all(), "a reward outside the step that ends"
        ended = now
        if ended[0] and not ended.all():
            before = [a.copy() for a in (env.observations[0], env.rewards[0])]
            # any id is taken for a finished table, and ignored
            ids = env.sample_actions()
            ids[0] = 12345
            env.step(ids)
            ended = env.terminated | env.truncated
            assert np.array_equal(env.observations[0], before[0])
            assert not env.rewards[0].any()
            assert env.terminated[0] or env.truncated[0]
            assert not env.action_masks[0].any() and env.to_move[0] == -1
        if ended.all():
            break
    assert ended.all()
    # a reset of one table: a fresh deal there, the others as they were
    obs = env.observations.copy()
    env.reset([77], indices=[1])
    assert not env.terminated[1] and env.action_masks[1].any() and env.to_move[1] == env.seats[1]
    assert env.terminated[0] or env.truncated[0]
    assert np.array_equal(env.observations[[0, 2]], obs[[0, 2]])
    fresh = ratrace.VectorEnv("dalmuti", 1, players=4, options=OPTIONS, opponents="random", autoreset=False)
    fresh.reset([77])
    assert np.array_equal(env.observations[1], fresh.observations[0])


def test_a_bad_reset_is_refused_and_deals_nothing():
    env = ratrace.VectorEnv("dalmuti", 4, players=4, options=OPTIONS, opponents="random", autoreset=False, seed=2)
    before = env.observations.copy(), env.action_masks.copy()
    cases = [
        (([1, 2], [0, 0]), "listed twice"),
        (([1], [4]), "indices are integers from 0 to 3"),
        (([1], [-1]), "indices are integers from 0 to 3"),
        (([1, 2], [0]), "1 tables|seeds must be a 1-d array of 1"),
        (([1], 2), "indices must be a list"),
        (([1], [0.5]), "integers"),
    ]
    for (seeds, indices), message in cases:
        with pytest.raises(ValueError, match=message):
            env.reset(seeds, indices=indices)
        assert np.array_equal(before[0], env.observations)
        assert np.array_equal(before[1], env.action_masks)
    # indices=None is every table, as before
    env.reset([9, 9, 9, 9], indices=None)
    assert np.array_equal(env.observations[0], env.observations[3])
