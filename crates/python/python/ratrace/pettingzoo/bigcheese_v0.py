"""PettingZoo AEC environment for bigcheese (see ratrace.pettingzoo._aec)."""

from ._aec import RatraceAECEnv, make_env


def env(**kwargs):
    """The wrapped environment: ``env(players=None, options=None, render_mode=None, max_actions=100_000)``."""
    return make_env("bigcheese", **kwargs)


def raw_env(**kwargs):
    """The environment without wrappers."""
    return RatraceAECEnv("bigcheese", **kwargs)
