"""ratrace: The Big Cheese and The Great Dalmuti at engine speed.

The engines, bots and statistics are ratrace's Rust crates; this package is
their Python face:

- ``Game``: one game (rules version, options, seed, actions), with text and
  integer actions, views as dicts, observation tensors and action masks as
  numpy arrays, events, records, cloning and determinization (``resample``).
- ``Bot``: a bot from the ladder (``random``, ``heuristic``, ``strong``,
  ``search:1000``), acting from one seat's view only.
- ``simulate``, ``tournament``, ``lab``: bot games in bulk, as the CLI plays them.
- ``observe``, ``view_actions``: a seat's observation, mask and legal ids
  from its view as JSON, as a bot program gets it; ``ratrace.bot`` serves
  a policy ``policy(obs, mask) -> action id`` as a ``ratrace-bot/1``
  program (``python3 -m ratrace.bot my_policy.py:policy``).
- ``VectorEnv``: many tables stepped in Rust, writing numpy arrays in place.
- ``ratrace.pettingzoo``, ``ratrace.gym``, ``ratrace.open_spiel``: the
  frameworks' environments.

See docs/python.md for the observation layouts and action spaces.
"""

from . import _ratrace
from ._ratrace import (
    Bot,
    Game,
    IllegalAction,
    RecordError,
    SetupError,
    VectorEnv,
    games,
    lab,
    observe,
    verify,
    view_actions,
)
from ._ratrace import __version__

__all__ = [
    "Bot",
    "Game",
    "IllegalAction",
    "RecordError",
    "SetupError",
    "VectorEnv",
    "games",
    "lab",
    "observe",
    "simulate",
    "tournament",
    "verify",
    "view_actions",
]


def tournament(game, candidate=None, field=None, bots=None, *args, **kwargs):
    """A duplicate tournament, as ``ratrace tournament`` plays it (the
    arguments and report of the extension's ``tournament``). A bot may be
    a Python policy ``policy(obs, mask) -> action id`` defined at the top
    level of a module or file: it plays as the bot program
    ``python -m ratrace.bot`` serving it (``ratrace.bot.program``)."""
    from .bot import as_bot_name

    if bots is not None:
        bots = [as_bot_name(b) for b in bots]
    return _ratrace.tournament(game, as_bot_name(candidate), as_bot_name(field), bots, *args, **kwargs)


def simulate(game, games, bots=None, *args, **kwargs):
    """Bot games in bulk, as ``ratrace simulate`` plays them (the arguments
    and summary of the extension's ``simulate``); a bot may be a Python
    policy, as in ``tournament``."""
    from .bot import as_bot_name

    if bots is not None:
        bots = [as_bot_name(b) for b in bots]
    return _ratrace.simulate(game, games, bots, *args, **kwargs)


#: The submodules, imported on first use as attributes (``ratrace.bot``
#: after ``import ratrace``), not at import: ``python -m ratrace.bot``
#: runs the module as ``__main__``, which an import by the package first
#: would make a second copy of.
_SUBMODULES = ("bot", "gym", "open_spiel", "pettingzoo")


def __getattr__(name):
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module 'ratrace' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_SUBMODULES))


def _register_gymnasium() -> None:
    """Registers the Gymnasium environments when Gymnasium is installed, so
    ``gymnasium.make("ratrace/Dalmuti-v0")`` works after ``import ratrace``."""
    import importlib.util

    if importlib.util.find_spec("gymnasium") is None:
        return
    try:
        from .gym import register

        register()
    except ImportError:  # a Gymnasium too old for these environments
        pass

_register_gymnasium()
