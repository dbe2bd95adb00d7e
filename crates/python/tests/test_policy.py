"""A Python policy ``policy(obs, mask) -> action id`` plays where ladder
bots play: as ``Bot(policy)``, and as the opponents of ``VectorEnv`` and
the Gymnasium environments, deciding from its seat's view only. The same
policy makes the same moves there as when it is called by hand on a
``Game`` dealt from the same seed; its errors reach the caller."""

import numpy as np
import pytest

import ratrace

GAMES = [("dalmuti", {"hands": 1}), ("bigcheese", None)]


def policy(obs, mask):
    """Deterministic, and depends on the whole observation: any
    difference in the vector it is given changes its choices."""
    assert obs.dtype == np.float32 and mask.dtype == np.int8
    legal = np.flatnonzero(mask)
    key = int(np.round(obs * np.arange(1, len(obs) + 1)).sum())
    return int(legal[key % len(legal)])


@pytest.mark.parametrize("name, options", GAMES)
def test_a_policy_as_opponents_plays_as_it_does_on_a_game(name, options):
    rng = np.random.default_rng(0)
    ends = 0
    for seed in (21, 22, 23):
        env = ratrace.VectorEnv(
            name, 1, players=4, options=options, opponents=policy, seat=1, autoreset=False, max_actions=300
        )
        env.reset([seed])
        game = ratrace.Game(name, players=4, options=options, seed=seed)
        while True:
            # the other seats: the policy, called by hand on the referee's game
            while not game.is_over and game.actor != 1 and len(game) < 300:
                game.apply_id(policy(game.observation(game.actor), game.action_mask()))
            assert np.array_equal(env.observations[0], game.observation(1))
            if env.terminated[0] or env.truncated[0]:
                assert game.is_over or len(game) >= 300
                ends += 1
                break
            assert np.array_equal(env.action_masks[0], game.action_mask())
            action = int(rng.choice(np.flatnonzero(env.action_masks[0])))
            env.step([action])
            game.apply_id(action, 1)
    assert ends == 3


@pytest.mark.parametrize("name, options", GAMES)
def test_bot_of_a_policy_acts_as_the_policy(name, options):
    bot = ratrace.Bot(policy)
    assert bot.spec == "python" and bot.evaluate(ratrace.Game(name, players=4)) is None
    game = ratrace.Game(name, players=4, options=options, seed=5)
    for _ in range(60):
        if game.is_over:
            break
        expected = game.action_text(policy(game.observation(game.actor), game.action_mask()))
        action = bot.act(game)
        assert action == expected
        game.apply(action)
    other = (game.actor + 1) % 4 if not game.is_over else 0
    if not game.is_over:
        with pytest.raises(ratrace.IllegalAction, match="no decision"):
            bot.act(game, seat=other)


def test_a_policy_sits_at_the_gymnasium_tables():
    gymnasium = pytest.importorskip("gymnasium")
    env = gymnasium.make("ratrace/Dalmuti-v0", players=4, opponents=policy, options={"hands": 1})
    obs, info = env.reset(seed=4)
    done = False
    while not done:
        obs, reward, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = term or trunc
    assert term and min(abs(reward - r) for r in (-1.0, -1 / 3, 1 / 3, 1.0)) < 1e-6


def test_a_failing_policy_is_reported():
    def broken(obs, mask):
        raise RuntimeError("policy bug")

    def illegal(obs, mask):
        return int(np.flatnonzero(mask == 0)[0])

    with pytest.raises(RuntimeError, match="policy bug"):
        env = ratrace.VectorEnv("dalmuti", 2, players=4, opponents=broken, seat=3)
        for _ in range(50):
            env.step(env.sample_actions())
    with pytest.raises(ValueError, match="does not allow"):
        env = ratrace.VectorEnv("bigcheese", 2, players=4, opponents=illegal, seat=3, seed=2)
        for _ in range(50):
            env.step(env.sample_actions())
    with pytest.raises(ValueError, match="does not allow"):
        ratrace.Bot(illegal).act(ratrace.Game("dalmuti", players=4, seed=1))
    with pytest.raises(TypeError, match="callable"):
        ratrace.Bot(5)
    with pytest.raises(TypeError, match="opponents"):
        ratrace.VectorEnv("dalmuti", 2, opponents=5)
    with pytest.raises(TypeError, match="Bot\\(policy\\)"):
        ratrace.tournament("dalmuti", candidate=lambda obs, mask: 0, deals=1)
    with pytest.raises(TypeError, match="program"):
        ratrace._ratrace.tournament("dalmuti", candidate=policy, deals=1)


def test_the_submodules_are_attributes_after_import_ratrace_alone():
    import subprocess
    import sys

    code = (
        "import ratrace\n"
        "assert callable(ratrace.bot.program)\n"
        "assert ratrace.gym.RatraceEnv and ratrace.pettingzoo.dalmuti_v0.env\n"
        "assert 'bot' in dir(ratrace)\n"
        "try:\n"
        "    ratrace.nope\n"
        "except AttributeError as e:\n"
        "    assert \"no attribute 'nope'\" in str(e)\n"
        "else:\n"
        "    raise SystemExit('ratrace.nope did not fail')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
