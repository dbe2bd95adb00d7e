"""What the speed work in _aec.py and gym.py must keep: the stock
order-enforcing wrapper's errors and last() (its attribute hops were
replaced), Gymnasium's check_env in both seat modes, and copies handed out
(the arrays are read through views made once). PettingZoo's api_test and
seed_test are in test_envs.py."""

import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from ratrace.pettingzoo import bigcheese_v0, dalmuti_v0  # noqa: E402


@pytest.mark.parametrize("name", ["agents", "num_agents", "agent_selection", "rewards", "terminations", "truncations", "infos"])
def test_pettingzoo_attributes_before_reset_raise(name):
    env = dalmuti_v0.env()
    with pytest.raises(AttributeError, match="before reset"):
        getattr(env, name)
    env.reset(seed=1)
    getattr(env, name)


def test_pettingzoo_last_matches_the_raw_env():
    env = dalmuti_v0.env()
    with pytest.raises(AttributeError):
        env.last()
    env.reset(seed=2)
    for agent in env.agent_iter(2000):
        obs, reward, term, trunc, info = env.last()
        assert agent == env.unwrapped.agent_selection
        raw = env.unwrapped.last()
        assert np.array_equal(obs["observation"], raw[0]["observation"])
        assert np.array_equal(obs["action_mask"], raw[0]["action_mask"])
        assert (reward, term, trunc) == raw[1:4]
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert sum(env.unwrapped._cumulative_rewards.values()) == pytest.approx(0.0)


@pytest.mark.parametrize("env_id", ["ratrace/Dalmuti-v0", "ratrace/BigCheese-v0"])
@pytest.mark.parametrize("seat", [0, None])
def test_gymnasium_check_env_and_a_game(env_id, seat):
    env = gymnasium.make(env_id, opponents="heuristic", seat=seat)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=7)
    assert info["seat"] == env.unwrapped.seat == int(env.unwrapped._vec.seats[0])
    total = 0.0
    for _ in range(10_000):
        legal = np.flatnonzero(info["action_mask"])
        assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"].astype(bool))
        obs, reward, terminated, truncated, info = env.step(int(legal[0]))
        total += reward
        if terminated or truncated:
            break
    assert terminated
    inner = env.unwrapped
    assert total == pytest.approx(float(inner._vec.rewards[0, inner.seat]))
    assert total != 0.0
    # The arrays handed out are copies: stepping on does not change them.
    last, kept = obs, obs.copy()
    obs, info = env.reset(seed=8)
    assert np.array_equal(last, kept)
    # An illegal action ends the episode with illegal_reward, nothing played.
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)


@pytest.mark.parametrize("env_id", ["ratrace/Dalmuti-v0", "ratrace/BigCheese-v0"])
@pytest.mark.parametrize("mode", ["NEXT_STEP", "SAME_STEP", "DISABLED"])
def test_gymnasium_vector_envs_never_hand_out_an_empty_mask(env_id, mode):
    # What CleanRL-style loops do: sample each table's action from its
    # mask, through many episode ends, in every autoreset mode.
    from gymnasium.vector import AutoresetMode

    kwargs = {"options": {"hands": 1}} if "Dalmuti" in env_id else {}
    envs = gymnasium.make_vec(
        env_id,
        num_envs=4,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": AutoresetMode[mode]},
        opponents="random",
        **kwargs,
    )
    _, info = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    ends = steps = 0
    while ends < 60:
        masks = info["action_mask"]
        assert masks.shape == (4, envs.single_action_space.n)
        assert (masks.sum(axis=1) >= 1).all(), f"an empty mask after {ends} episode ends"
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, _, term, trunc, info = envs.step(actions)
        done = term | trunc
        ends += int(done.sum())
        steps += 1
        if mode == "DISABLED" and done.any():
            _, fresh = envs.reset(options={"reset_mask": done})
            info["action_mask"] = np.where(done[:, None], fresh["action_mask"], info["action_mask"])
        assert steps < 20_000
    envs.close()


def test_the_single_env_mask_at_the_end_allows_one_placeholder_id():
    env = gymnasium.make("ratrace/Dalmuti-v0", opponents="random", options={"hands": 1})
    _, info = env.reset(seed=5)
    done = False
    while not done:
        _, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = term or trunc
    assert info["action_mask"].tolist() == [1] + [0] * (len(info["action_mask"]) - 1)
    assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"].astype(bool))
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
