"""The environments: PettingZoo AEC (its api_test, seed_test and
performance_benchmark), Gymnasium (registration, determinism, illegal
actions; check_env is in test_frameworks.py), and the batched VectorEnv (arrays equal to a Game's, determinism,
bad input refused without moving any table, bots, truncation)."""

import numpy as np
import pytest

import ratrace

GAMES = ["bigcheese", "dalmuti"]


# ---------------------------------------------------------------- PettingZoo


@pytest.fixture(params=GAMES)
def aec_module(request):
    from ratrace.pettingzoo import bigcheese_v0, dalmuti_v0

    return {"bigcheese": bigcheese_v0, "dalmuti": dalmuti_v0}[request.param]


def test_pettingzoo_api_test(aec_module):
    from pettingzoo.test import api_test

    api_test(aec_module.env(players=4), num_cycles=300, verbose_progress=False)


def test_pettingzoo_seed_test(aec_module):
    from pettingzoo.test import seed_test

    seed_test(lambda: aec_module.env(players=4), num_cycles=200)


def test_pettingzoo_performance_benchmark_runs(aec_module, capsys):
    from pettingzoo.test import performance_benchmark

    performance_benchmark(aec_module.env(players=4))
    out = capsys.readouterr().out
    turns = float(out.split(" turns per second")[0].split()[-1])
    # a figure, not a goal (speed goals live in crates/python/bench)
    assert turns > 0


def test_pettingzoo_plays_whole_games_with_returns_at_the_end(aec_module):
    env = aec_module.env(players=3)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(100_000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() >= 1
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert sorted(totals.values())[-1] == 1.0
    assert min(totals.values()) < 1.0


def test_pettingzoo_only_the_actor_has_a_mask():
    from ratrace.pettingzoo import dalmuti_v0

    env = dalmuti_v0.raw_env(players=4)
    env.reset(seed=1)
    actor = env.agent_selection
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == actor)


# ---------------------------------------------------------------- Gymnasium


def test_gymnasium_episode_against_bots_and_illegal_actions():
    import gymnasium

    env = gymnasium.make("ratrace/Dalmuti-v0", players=4, opponents="random", options={"hands": 1})
    obs, info = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    rng = np.random.default_rng(1)
    total, steps, done = 0.0, 0, False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        assert legal.size and env.unwrapped.action_masks()[legal].all()
        obs, reward, term, trunc, info = env.step(int(rng.choice(legal)))
        total += reward
        steps += 1
        done = term or trunc
    assert steps > 0 and -1.0 <= total <= 1.0
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
    # an illegal action ends the episode with the worst reward; no crash
    obs, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, term, trunc, info = env.step(illegal)
    assert term and reward == -1.0 and info["illegal_action"]


def test_gymnasium_reset_is_deterministic_per_seed():
    import gymnasium

    a = gymnasium.make("ratrace/BigCheese-v0", opponents="heuristic")
    b = gymnasium.make("ratrace/BigCheese-v0", opponents="heuristic")
    oa, _ = a.reset(seed=9)
    ob, _ = b.reset(seed=9)
    assert np.array_equal(oa, ob)
    for _ in range(20):
        act = int(np.flatnonzero(a.unwrapped.action_masks())[0])
        ra = a.step(act)
        rb = b.step(act)
        assert np.array_equal(ra[0], rb[0]) and ra[1:4] == rb[1:4]
        if ra[2] or ra[3]:
            break


def test_a_gymnasium_dalmuti_episode_is_one_hand_unless_the_options_say():
    import gymnasium

    # observation row 9 is the hand number over the hands of the session
    for options, hands in [(None, 1), ({"market": "on"}, 1), ("market=on", 1), ({"hands": 4}, 4), ("hands=4", 4)]:
        env = gymnasium.make("ratrace/Dalmuti-v0", players=4, options=options)
        obs, _ = env.reset(seed=1)
        assert obs[9] == pytest.approx(1 / hands), options


# ---------------------------------------------------------------- VectorEnv


@pytest.mark.parametrize("name", GAMES)
def test_vector_arrays_equal_a_games_own(name):
    env = ratrace.VectorEnv(name, 4, players=4, seed=1, threads=1)
    seeds = [11, 12, 13, 14]
    env.reset(seeds)
    games = [ratrace.Game(name, players=4, seed=s) for s in seeds]
    assert env.observations.shape == (4, games[0].observation_size)
    assert env.action_masks.shape == (4, games[0].num_actions)
    assert env.observations.dtype == np.float32 and env.action_masks.dtype == np.int8
    assert env.terminated.dtype == np.bool_ and env.rewards.shape == (4, 4)
    rng = np.random.default_rng(2)
    for _ in range(60):
        for i, g in enumerate(games):
            assert env.to_move[i] == g.actor
            assert np.array_equal(env.observations[i], g.observation(g.actor))
            assert np.array_equal(env.action_masks[i], g.action_mask())
        actions = [int(rng.choice(np.flatnonzero(m))) for m in env.action_masks]
        env.step(np.array(actions))
        for g, a in zip(games, actions):
            g.apply_id(a)
        assert not env.terminated.any()


@pytest.mark.parametrize("threads", [1, 2])
def test_vector_env_is_deterministic_and_threads_do_not_change_it(threads):
    def run(threads):
        env = ratrace.VectorEnv("dalmuti", 128, players=4, seed=3, threads=threads, options={"hands": 1})
        rng = np.random.default_rng(0)
        ends, total = 0, np.zeros(4)
        for _ in range(300):
            masks = env.action_masks
            actions = (rng.random(masks.shape) * masks).argmax(1)
            env.step(actions)
            ends += int(env.terminated.sum())
            total += env.rewards.sum(0)
        return ends, total, env.observations.copy()

    a, b = run(1), run(threads)
    assert a[0] == b[0] and a[0] > 0
    assert np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2])


def test_vector_env_refuses_bad_input_and_moves_no_table():
    env = ratrace.VectorEnv("dalmuti", 8, players=4, seed=1)
    before = env.observations.copy(), env.action_masks.copy()
    legal = env.action_masks.argmax(1)
    bad = legal.copy()
    bad[5] = int(np.flatnonzero(env.action_masks[5] == 0)[0])
    with pytest.raises(ratrace.IllegalAction, match="table 5"):
        env.step(bad)
    with pytest.raises(ValueError, match="shape"):
        env.step(legal[:3])
    with pytest.raises(ratrace.IllegalAction):
        env.step(np.full(8, -1))
    with pytest.raises(ValueError):
        env.step("not actions")
    assert np.array_equal(before[0], env.observations)
    assert np.array_equal(before[1], env.action_masks)
    with pytest.raises(ValueError):
        env.reset([1, 2])
    with pytest.raises(ratrace.SetupError):
        ratrace.VectorEnv("dalmuti", 0)
    with pytest.raises(ratrace.SetupError):
        ratrace.VectorEnv("dalmuti", 4, opponents="nobody")
    with pytest.raises(ratrace.SetupError):
        ratrace.VectorEnv("dalmuti", 4, players=4, seat=4)


def test_vector_env_checks_actions_on_every_thread_and_names_the_first_bad_table():
    env = ratrace.VectorEnv("bigcheese", 256, players=4, seed=5, threads=2)
    assert env.threads == 2
    env.step(env.sample_actions())
    before = env.observations.copy(), env.action_masks.copy(), env.rewards.copy()
    bad = env.sample_actions()
    for table in (230, 37, 120):  # parts the workers and the caller check
        bad[table] = int(np.flatnonzero(env.action_masks[table] == 0)[0])
    with pytest.raises(ratrace.IllegalAction, match="table 37:"):
        env.step(bad)
    assert all(np.array_equal(x, y) for x, y in zip(before, (env.observations, env.action_masks, env.rewards)))
    env.step(env.sample_actions())
    assert not np.array_equal(before[0], env.observations)


def test_vector_env_with_bots_steps_only_the_learner():
    env = ratrace.VectorEnv(
        "dalmuti", 64, players=4, seed=2, opponents="heuristic", seat=2, options={"hands": 1}
    )
    rng = np.random.default_rng(3)
    finished, wins = 0, 0
    for _ in range(400):
        assert (env.to_move == 2).all() and (env.seats == 2).all()
        masks = env.action_masks
        env.step((rng.random(masks.shape) * masks).argmax(1))
        done = env.terminated
        finished += int(done.sum())
        wins += int((env.rewards[done, 2] == 1.0).sum())
        assert (env.rewards[~done] == 0).all()
    assert finished > 50 and 0 <= wins < finished


def test_vector_env_truncates_at_the_length_cap():
    env = ratrace.VectorEnv("bigcheese", 4, players=4, seed=1, max_actions=5)
    for _ in range(5):
        env.step(env.action_masks.argmax(1))
    assert env.truncated.all() and not env.terminated.any()
    assert (env.rewards == 0).all()
    # and dealt again
    env.step(env.action_masks.argmax(1))
    assert not env.truncated.any()


@pytest.mark.parametrize("name", GAMES)
def test_vector_env_samples_legal_actions_reproducibly(name):
    def run():
        env = ratrace.VectorEnv(name, 32, players=4, seed=5, opponents=None)
        seen = []
        for _ in range(200):
            actions = env.sample_actions()
            assert actions.dtype == np.int64 and actions.shape == (32,)
            rows = np.arange(32)
            assert (env.action_masks[rows, actions] == 1).all()
            seen.append(actions.copy())
            env.step(actions)
        return np.array(seen)

    a, b = run(), run()
    assert np.array_equal(a, b)
    assert len(np.unique(a)) > 10


def test_newcomers_join_the_pettingzoo_env_and_the_vector_env():
    from pettingzoo.test import api_test

    from ratrace.pettingzoo import dalmuti_v0

    options = {"joins": "2,3", "hands": 3}
    env = dalmuti_v0.env(players=4, options=options)
    assert len(env.possible_agents) == 6
    env.reset(seed=1)
    assert len(env.agents) == 4
    rng = np.random.default_rng(0)
    for agent in env.agent_iter(100_000):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.unwrapped.game.players == 6
    api_test(dalmuti_v0.env(players=4, options=options), num_cycles=300, verbose_progress=False)

    vec = ratrace.VectorEnv("dalmuti", 8, players=4, options=options, opponents="random", seed=1)
    assert vec.players == 4 and vec.max_players == 6 and vec.rewards.shape == (8, 6)
    ends = 0
    for _ in range(2000):
        vec.step(vec.sample_actions())
        done = vec.terminated
        ends += int(done.sum())
        assert (vec.rewards[done].max(axis=1) == 1.0).all()
    assert ends > 0


def test_vector_env_threads_are_readable_and_uneven_parts_match_one_thread():
    assert ratrace.VectorEnv("dalmuti", 63, threads=2).threads == 1  # too few tables to share
    assert ratrace.VectorEnv("dalmuti", 64, threads=2).threads == 2
    assert ratrace.VectorEnv("dalmuti", 1).threads == 1

    def run(threads):
        env = ratrace.VectorEnv(
            "bigcheese", 130, players=4, seed=4, threads=threads, opponents="random", max_actions=40
        )
        for i in (0, 43, 44, 129):
            env.set_seat(i, 3)
        env.reset(np.arange(130) + 7)
        seen = [env.render(129, 3)]
        for _ in range(120):
            env.step(env.sample_actions())
            seen.append((env.observations.copy(), env.rewards.copy(), env.terminated.copy(), env.truncated.copy()))
        return env, seen

    one, a = run(1)
    three, b = run(3)
    assert three.threads == 3 and one.threads == 1
    assert (three.seats[[0, 43, 44, 129]] == 3).all() and three.seats[1] == 0
    assert a[0] == b[0]
    for x, y in zip(a[1:], b[1:]):
        assert all(np.array_equal(p, q) for p, q in zip(x, y))
    with pytest.raises(ValueError, match="table 130"):
        three.render(130)


@pytest.mark.parametrize("name", GAMES)
def test_vector_env_teacher_labels_each_decision_with_a_legal_action(name):
    def run(threads, teacher):
        env = ratrace.VectorEnv(name, 64, players=4, seed=5, threads=threads, teacher=teacher)
        rng = np.random.default_rng(1)
        labels, spread = [], []
        for _ in range(40):
            t, m, pol = env.teacher_actions, env.action_masks, env.teacher_policies
            labels.append(t.copy())
            if teacher is None:
                assert (t == -1).all()
                assert pol.shape == (64, 0)
            else:
                rows = np.arange(len(t))
                assert (t >= 0).all()  # self-play: every table has a decision
                assert (m[rows, t] == 1).all()
                # the policy: the search's visit shares, on legal ids only,
                # its choice the most visited, and spread where it searched
                assert pol.shape == m.shape and pol.dtype == np.float32
                assert np.allclose(pol.sum(axis=1), 1.0, atol=1e-5)
                assert (pol[m == 0] == 0).all()
                assert (pol[rows, t] == pol.max(axis=1)).all()
                spread.append(((pol > 0).sum(axis=1) > 1).sum())
            # Play off the teacher's line half the time.
            own = (rng.random(m.shape) * m).argmax(1)
            env.step(np.where(rng.random(len(t)) < 0.5, t, own) if teacher else own)
        if teacher is not None:
            assert sum(spread) > 100, spread
        return np.array(labels)

    a = run(1, "search:30")
    assert np.array_equal(a, run(2, "search:30"))
    run(1, None)


def test_vector_env_refuses_an_unknown_teacher():
    with pytest.raises(ratrace.SetupError, match="teacher"):
        ratrace.VectorEnv("dalmuti", 4, teacher="nosuch")
