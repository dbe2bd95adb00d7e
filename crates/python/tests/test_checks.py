"""Bad input from Python gets a clear error and changes nothing: action
ids given as floats, arrays of the wrong shape, negative counts and seeds,
seeds up to 2**64 - 1, bot programs given to ``Bot``, one-element action
arrays, render modes, returns before the end, perfect-recall observers;
and the package's metadata (version, URLs, the ``open-spiel`` extra)."""

import importlib.metadata

import numpy as np
import pytest

import ratrace


def not_overflow(excinfo):
    assert not isinstance(excinfo.value, OverflowError), excinfo.value


# ---------------------------------------------------------------- VectorEnv


def test_vector_step_refuses_non_integer_floats_and_wrong_shapes():
    env = ratrace.VectorEnv("dalmuti", 4, players=4, seed=1, threads=1)
    before = env.observations.copy(), env.action_masks.copy()
    legal = env.action_masks.argmax(1)
    with pytest.raises(ValueError, match="integers"):
        env.step(legal + 0.5)
    with pytest.raises(ValueError, match="shape"):
        env.step(legal.reshape(2, 2))
    with pytest.raises(ValueError, match="shape"):
        env.step(legal.reshape(4, 1))
    with pytest.raises(ValueError, match="shape"):
        env.step(list(legal[:3]))
    with pytest.raises(ValueError, match="booleans"):
        env.step(np.ones(4, dtype=bool))
    with pytest.raises(ValueError, match="integers"):
        env.step(["a", "b", "c", "d"])
    assert np.array_equal(before[0], env.observations)
    assert np.array_equal(before[1], env.action_masks)
    # Integral floats, lists, other integer dtypes are the same ids.
    twin = ratrace.VectorEnv("dalmuti", 4, players=4, seed=1, threads=1)
    env.step(legal.astype(np.float64))
    twin.step([int(a) for a in legal.astype(np.int32)])
    assert np.array_equal(env.observations, twin.observations)


def test_negative_numbers_are_a_clear_value_error():
    cases = [
        lambda: ratrace.VectorEnv("dalmuti", -1),
        lambda: ratrace.VectorEnv("dalmuti", 4, seed=-1),
        lambda: ratrace.VectorEnv("dalmuti", 4, threads=-2),
        lambda: ratrace.Game("dalmuti", players=-4),
        lambda: ratrace.Game("dalmuti", seed=-1),
        lambda: ratrace.Bot("random", seed=-1),
        lambda: ratrace.simulate("dalmuti", -5),
        lambda: ratrace.tournament("dalmuti", candidate="random", deals=-1),
        lambda: ratrace.Game("dalmuti").apply_id(-1),
        lambda: ratrace.Game("dalmuti").resample(0, -3),
    ]
    for case in cases:
        with pytest.raises(ValueError) as excinfo:
            case()
        not_overflow(excinfo)
    with pytest.raises(ValueError, match="non-negative"):
        ratrace.VectorEnv("dalmuti", -1)
    with pytest.raises(ValueError, match="below 2\\*\\*64"):
        ratrace.VectorEnv("dalmuti", 4, seed=2**64)


def test_vector_reset_takes_every_64_bit_seed_as_game_does():
    top = 2**64 - 1
    env = ratrace.VectorEnv("dalmuti", 3, players=4, threads=1)
    env.reset([top, 2**63, 5])
    for i, seed in enumerate([top, 2**63, 5]):
        game = ratrace.Game("dalmuti", players=4, seed=seed)
        assert np.array_equal(env.observations[i], game.observation(game.actor))
    env.reset(np.array([top, 2**63, 5], dtype=np.uint64))
    game = ratrace.Game("dalmuti", players=4, seed=top)
    assert np.array_equal(env.observations[0], game.observation(game.actor))
    before = env.observations.copy()
    for bad in ([-1, 0, 0], [2**64, 0, 0], [1.5, 0, 0], [1, 2]):
        with pytest.raises(ValueError) as excinfo:
            env.reset(bad)
        not_overflow(excinfo)
    assert np.array_equal(before, env.observations)


# ---------------------------------------------------------------- Bot, Game


def test_a_bot_program_given_to_bot_says_where_programs_play():
    with pytest.raises(ratrace.SetupError, match="bot program.*tournament"):
        ratrace.Bot("cmd:python3 my_bot.py")


def test_returns_before_the_end_raise():
    game = ratrace.Game("dalmuti", players=4, seed=1)
    with pytest.raises(ValueError, match="not over"):
        game.returns()
    while not game.is_over:
        game.apply_id(game.legal_ids()[0])
    assert sorted(game.returns())[-1] == 1.0


def test_version_urls_and_the_open_spiel_extra():
    assert ratrace.__version__ == importlib.metadata.version("ratrace")
    meta = importlib.metadata.metadata("ratrace")
    urls = meta.get_all("Project-URL") or []
    assert any(u.lower().startswith("repository") for u in urls), urls
    assert "open-spiel" in (meta.get_all("Provides-Extra") or [])


# ---------------------------------------------------------------- environments


@pytest.mark.parametrize("env_id", ["ratrace/Dalmuti-v0", "ratrace/BigCheese-v0"])
def test_gymnasium_step_takes_a_one_element_array(env_id):
    gymnasium = pytest.importorskip("gymnasium")
    a = gymnasium.make(env_id, opponents="random")
    b = gymnasium.make(env_id, opponents="random")
    _, info = a.reset(seed=2)
    b.reset(seed=2)
    for _ in range(30):
        act = int(np.flatnonzero(info["action_mask"])[-1])
        ra = a.step(np.array([act]))
        rb = b.step(act)
        info = ra[4]
        assert np.array_equal(ra[0], rb[0]) and ra[1:4] == rb[1:4]
        if ra[2] or ra[3]:
            break
    a.reset(seed=3)
    with pytest.raises(TypeError, match="shape"):
        a.step(np.array([1, 2]))
    with pytest.raises(TypeError, match="integer"):
        a.step(1.5)


def test_render_modes_other_than_text_are_refused():
    gymnasium = pytest.importorskip("gymnasium")
    with pytest.raises(ValueError, match="rgb_array"):
        gymnasium.make("ratrace/Dalmuti-v0", render_mode="rgb_array").unwrapped
    from ratrace.gym import RatraceEnv

    with pytest.raises(ValueError, match="ansi"):
        RatraceEnv("dalmuti", render_mode="rgb_array")
    env = RatraceEnv("dalmuti", render_mode="ansi")
    env.reset(seed=1)
    assert isinstance(env.render(), str)
    pytest.importorskip("pettingzoo")
    from ratrace.pettingzoo import dalmuti_v0

    with pytest.raises(ValueError, match="rgb_array"):
        dalmuti_v0.env(render_mode="rgb_array")


def test_pettingzoo_seed_test_with_newcomers_joining():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import seed_test

    from ratrace.pettingzoo import dalmuti_v0

    options = {"hands": 4, "joins": "2,3"}
    env = dalmuti_v0.env(players=4, options=options)
    env.reset(seed=3)
    # the test does reach the hands where newcomers sit down
    for agent in env.agent_iter(100_000):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.unwrapped.game.players == 6
    seed_test(lambda: dalmuti_v0.env(players=4, options=options), num_cycles=1000)


def test_open_spiel_observers_say_what_they_cannot_give():
    pyspiel = pytest.importorskip("pyspiel")
    import ratrace.open_spiel as ros

    ros.register()
    game = pyspiel.load_game("python_ratrace_dalmuti")
    # perfect recall: the string always, the tensor only for short games
    assert game.get_type().provides_information_state_string
    assert not game.get_type().provides_information_state_tensor
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    with pytest.raises(ValueError, match="max_actions up to"):
        observer.set_from(game.new_initial_state(), 0)
    with pytest.raises(ValueError, match="one seat's view"):
        game.make_py_observer(pyspiel.IIGObservationType(public_info=False, perfect_recall=False))
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    assert observer is not None
    with pytest.raises(ValueError, match="chance_seeds"):
        pyspiel.load_game("python_ratrace_dalmuti", {"chance_seeds": -1})
