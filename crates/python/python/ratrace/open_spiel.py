"""OpenSpiel games: ``python_ratrace_bigcheese`` and ``python_ratrace_dalmuti``.

    import pyspiel
    import ratrace.open_spiel

    ratrace.open_spiel.register()
    game = pyspiel.load_game("python_ratrace_dalmuti", {"players": 5, "options": "hands=1"})

Game parameters (all optional):

- ``players``: the number of seats (Big Cheese 3-6, default 4; Dalmuti
  3-13, default 5).
- ``options``: the rules options as ``"key=value,key=value"`` text, as
  ``ratrace.Game`` takes them; ``key:value`` pairs separated by spaces or
  semicolons also do, for pyspiel's string form, which cannot hold ``=``
  or ``,`` in a value: ``"python_ratrace_bigcheese(options=chips:5 dice:d6)"``.
  For Dalmuti, ``hands`` defaults to 1 here (one hand, not the engine's
  20-hand session) unless the options set it.
- ``seed``: seeds the game's own generator (Python ``random.Random``);
  each new initial state takes the next 64-bit number from it as its
  ``ratrace.Game`` seed, which fixes every shuffle and die of that
  game. The same seed gives the same sequence of games, so runs are
  reproducible. ``-1``: seeded from the operating system. Default 0.
- ``max_actions``: the length cap (default 20,000, far above what play
  reaches: at most about 180 actions for a 5-player hand of Dalmuti, 500
  for a 6-player game of Big Cheese). A game that reaches it ends there,
  every return 0, as ratrace's runners cap games (ruling B17). It is the
  game's ``max_game_length``.

- ``chance_seeds``: 0 (the default) or a number K of deals. With K > 0
  the game opens with an explicit chance node of K equally likely
  outcomes, each a seed drawn once from ``seed`` when the game is made:
  the game is then the card game over those K deals, a finite tree that
  tabular methods (CFR) and exact best responses can walk whole. Use it
  with a small game: Dalmuti's research deck (``ranks``, ``jesters``,
  D17), one hand.

Without ``chance_seeds`` the chance mode is ``SAMPLED_STOCHASTIC``: the
deal and the dice come from the state's seed inside the engine, so there
are no chance nodes;
``current_player()`` is the real actor (OpenSpiel is the referee, so it
also names who owes Dalmuti's secret revolution decision, D7).
Utilities are ``GENERAL_SUM`` (1 for first place down to -1 for last,
linear in the place; tied places make the sum non-zero), rewards at the
end only.

Observations: the observation tensor is ``Game.observation(seat)`` (the
float32 layout in docs/python.md), the observation string
``Game.render(seat)``: what the seat sees now. The information state
(perfect recall) is ``Game.information_state(seat)`` as a string: every
event the seat saw and every action it took, in order. Its tensor is
``Game.information_state_tensor(seat, max_actions)``, offered when
``max_actions`` is at most 256 (its length grows with it: set
``max_actions`` to the longest game of the variant).
``resample_from_infostate`` draws a full state consistent with a seat's
view (``Game.resample``), the determinizer ISMCTS needs; such a state has
no history, so no information state.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel

from . import Game
from ._checks import one_hand_by_default

# name: (OpenSpiel short name, long name, min players, max players, default players)
_GAMES = {
    "bigcheese": ("python_ratrace_bigcheese", "ratrace: The Big Cheese", 3, 6, 4),
    "dalmuti": ("python_ratrace_dalmuti", "ratrace: The Great Dalmuti", 3, 13, 5),
}
_MAX_ACTIONS = 20_000
# The longest game for which the information-state tensor is offered
# (its length is about max_actions x (actions + observation)).
_TENSOR_STEPS = 256
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


def _options_text(name: str, options: str) -> str:
    """The options for ``ratrace.Game``: ``key=value`` pairs, or ``key:value``
    (pyspiel's ``name(param=value)`` strings cannot hold ``=`` or ``,`` in a
    value), separated by commas, semicolons or spaces. Dalmuti plays one
    hand unless told."""
    pairs = []
    for part in options.replace(";", ",").replace(" ", ",").split(","):
        part = part.strip()
        if not part:
            continue
        if "=" not in part and ":" in part:
            part = part.replace(":", "=", 1)
        pairs.append(part)
    return one_hand_by_default(name, ",".join(pairs))


def _game_type(name: str, explicit_chance: bool = False, tensor: bool = False) -> pyspiel.GameType:
    """The game type; a game made with ``chance_seeds`` has explicit chance,
    and one short enough (``max_actions``) offers information-state
    tensors."""
    short, long, low, high, players = _GAMES[name]
    mode = pyspiel.GameType.ChanceMode
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=mode.EXPLICIT_STOCHASTIC if explicit_chance else mode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": players,
            "options": "",
            "seed": 0,
            "max_actions": _MAX_ACTIONS,
            "chance_seeds": 0,
        },
    )


class _Setup:
    """What every state of one game shares: the rules, the seat count, the
    cap and the generator of seeds. States hold it by reference (a
    clone shares it), so OpenSpiel's deep copy skips it."""

    __slots__ = ("name", "players", "options", "max_actions", "rng", "deals")

    def __init__(self, name, players, options, max_actions, seed, chance_seeds=0):
        self.name = name
        self.players = players
        self.options = options
        self.max_actions = max_actions
        self.rng = random.Random(None if seed < 0 else seed)
        # the seeds of the explicit chance node's outcomes (none: sampled)
        self.deals = [self.rng.getrandbits(64) for _ in range(chance_seeds)]

    def __deepcopy__(self, memo):
        return self

    def __copy__(self):
        return self


class _Seed:
    """A state's seed, drawn from the game's generator the first time it
    is needed. OpenSpiel clones a Python state by making a new initial
    state and deep-copying the original's attributes over it, so a state
    that is only a clone's shell never draws one and the sequence of
    games a seed gives does not depend on how often states were cloned."""

    __slots__ = ("setup", "value")

    def __init__(self, setup, value=None):
        self.setup = setup
        self.value = value

    def get(self) -> int:
        if self.value is None:
            self.value = self.setup.rng.getrandbits(64)
        return self.value

    def __deepcopy__(self, memo):
        # The copy and the original must play the same game.
        return _Seed(self.setup, self.get())


class RatraceGame(pyspiel.Game):
    """One of the ratrace games in OpenSpiel (see the module docs)."""

    ratrace_name = ""

    def __init__(self, params=None):
        name = self.ratrace_name
        game_type = _game_type(name)
        params = dict(params or {})
        spec = game_type.parameter_specification
        players = int(params.get("players", spec["players"]))
        options = _options_text(name, str(params.get("options", spec["options"])))
        seed = int(params.get("seed", spec["seed"]))
        max_actions = int(params.get("max_actions", spec["max_actions"]))
        chance_seeds = int(params.get("chance_seeds", spec["chance_seeds"]))
        if max_actions < 1:
            raise ValueError("max_actions must be at least 1")
        if not 0 <= chance_seeds <= 1_000_000:
            raise ValueError("chance_seeds must be 0 (sampled chance) or a number of deals up to 1000000")
        probe = Game(name, players, options, 0)  # refuses bad players or options
        if probe.max_players != players:
            raise ValueError(
                "an OpenSpiel game has a fixed number of players: Dalmuti's joins "
                "(D13) are not offered here (use the PettingZoo or vector env)"
            )
        game_type = _game_type(name, chance_seeds > 0, max_actions <= _TENSOR_STEPS)
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_actions,
            max_chance_outcomes=chance_seeds,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=max_actions,
        )
        super().__init__(game_type, info, params)
        self._setup = _Setup(name, players, options, max_actions, seed, chance_seeds)
        self.observation_size = probe.observation_size
        self.information_state_size = (
            probe.information_state_size(max_actions) if max_actions <= _TENSOR_STEPS else 0
        )

    def new_initial_state(self):
        """A new game, its seed the next one the game's generator gives."""
        return RatraceState(self, self._setup)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer: the seat's vector and text (see the module docs)."""
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "ratrace observers show one seat's view (public information and that seat's "
                f"private information); not {iig_obs_type}"
            )
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return InformationStateObserver(self.information_state_size, self._setup.max_actions)
        return RatraceObserver(self.observation_size)


class BigCheeseGame(RatraceGame):
    ratrace_name = "bigcheese"


class DalmutiGame(RatraceGame):
    ratrace_name = "dalmuti"


class RatraceState(pyspiel.State):
    """A state: a ``ratrace.Game`` as the referee holds it.

    Its Python attributes are what OpenSpiel copies on ``clone()``: the
    shared setup, the seed, the game (``Game.__deepcopy__`` clones it in
    Rust), the cached actor and the number of actions played (which the
    length cap counts, in resampled worlds too)."""

    def __init__(self, game, setup=None, table=None, played=0):
        super().__init__(game)
        self._setup = setup if setup is not None else game._setup
        self._seed = _Seed(self._setup)
        if table is not None:
            self._set_table(table, played)
        elif self._setup.deals:
            # the explicit chance node: which of the K deals is played
            self._seed = None
            self._g = None
            self._n = 0
            self._cur = _CHANCE

    def _set_table(self, table, played=0):
        self._g = table
        self._seed = None
        self._n = played
        self._cur = _TERMINAL if table.is_over or played >= self._setup.max_actions else table.actor

    def __getattr__(self, attr):
        # `_g`, `_cur` and `_n` are made on first use (see `_Seed`).
        if attr in ("_g", "_cur", "_n") and "_seed" in self.__dict__ and self._seed is not None:
            s = self._setup
            self._set_table(Game(s.name, s.players, s.options, self._seed.get()))
            return self.__dict__[attr]
        raise AttributeError(attr)

    @property
    def table(self) -> Game:
        """The underlying ``ratrace.Game`` (the referee's: it knows all)."""
        return self._g

    def current_player(self):
        return self._cur

    def is_terminal(self):
        return self._cur == _TERMINAL

    # Called from Python, these three answer without the round trip
    # through pyspiel's C++ trampoline (which calls back into Python
    # several times per question); C++ callers get the same answers from
    # `current_player`, `is_terminal` and `_legal_actions`.
    def is_chance_node(self):
        # only the opening deal with chance_seeds; otherwise the dice and
        # shuffles are inside the engine
        return self._cur == _CHANCE

    def chance_outcomes(self):
        """The K deals of ``chance_seeds``, equally likely (at the chance node)."""
        if self._cur != _CHANCE:
            return []
        k = len(self._setup.deals)
        return [(i, 1.0 / k) for i in range(k)]

    def is_player_node(self):
        return self._cur >= 0

    def legal_actions(self, player=None):
        cur = self._cur
        if cur == _TERMINAL:
            return []
        if cur == _CHANCE:
            return list(range(len(self._setup.deals))) if player in (None, _CHANCE) else []
        if player is not None and player != cur:
            if player < 0:
                raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
            return []
        ids = self._g.legal_ids()
        ids.sort()
        return ids

    def _legal_actions(self, player):
        if player != self._cur:
            return []
        if player == _CHANCE:
            return list(range(len(self._setup.deals)))
        ids = self._g.legal_ids()
        ids.sort()  # OpenSpiel wants them ascending
        return ids

    def _apply_action(self, action):
        if self._cur == _CHANCE:
            s = self._setup
            self._set_table(Game(s.name, s.players, s.options, s.deals[action]))
            return
        g = self._g
        g.apply_id(action)
        self._n += 1
        actor = g.actor
        if actor is None or self._n >= self._setup.max_actions:
            self._cur = _TERMINAL  # over, or capped (every return 0)
        else:
            self._cur = actor

    def _action_to_string(self, player, action):
        if player == _CHANCE:
            return f"deal {action}"
        text = self._g.action_text(action)
        return text if text is not None else f"action {action}"

    def returns(self):
        if self._cur == _CHANCE:
            return [0.0] * self._setup.players
        # OpenSpiel's convention: 0 for everyone before the end (and for a
        # game the length cap stopped); ratrace's Game has no returns then.
        return self._g.returns() if self._g.is_over else [0.0] * self._setup.players

    def rewards(self):
        return self.returns() if self._cur == _TERMINAL else [0.0] * self._setup.players

    def resample_from_infostate(self, player_id, probability_sampler):
        """A full state consistent with what ``player_id`` sees: the hidden
        rest (other hands, the deck, dice to come) drawn with a seed from
        ``probability_sampler`` (a callable giving floats in [0, 1), as
        OpenSpiel passes it). The new state has no OpenSpiel history."""
        seed = int(probability_sampler() * 2.0**53)
        table = self._g.resample(int(player_id), seed)
        return RatraceState(self.get_game(), self._setup, table, self._n)

    def information_state_string(self, player=None):
        """``Game.information_state(player)`` (the actor by default)."""
        return _info_string(self, self._cur if player is None else player)

    def __str__(self):
        if self._cur == _CHANCE:
            return f"a deal to draw, 1 of {len(self._setup.deals)}"
        g = self._g
        lines = [str(g)]
        for seat in range(self._setup.players):
            hand = [x for x in g.render(seat).splitlines() if x.startswith("your hand")]
            if hand:
                lines.append(f"seat {seat} {hand[0][5:]}")
        return "\n".join(lines)


class RatraceObserver:
    """One seat's observation (PyObserver interface of OpenSpiel's
    observation.py): ``tensor`` is ``Game.observation(seat)``, the string
    ``Game.render(seat)``."""

    def __init__(self, size):
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        state._g.observation(player, out=self.tensor)

    def string_from(self, state, player):
        return state._g.render(player)


def _info_string(state, player):
    if state._cur == _CHANCE:
        return f"seat P{player + 1}"  # nothing seen yet
    return state._g.information_state(player)


class InformationStateObserver:
    """One seat's information state (perfect recall): the string is
    ``Game.information_state(seat)``, the tensor
    ``Game.information_state_tensor(seat, max_actions)`` (offered when
    ``max_actions`` is small enough; see the module docs)."""

    def __init__(self, size, steps):
        self.steps = steps
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state": self.tensor}

    def set_from(self, state, player):
        if not self.tensor.size:
            raise ValueError(
                f"information-state tensors are offered for max_actions up to {_TENSOR_STEPS} "
                f"(this game has {self.steps}): make the game with a smaller max_actions"
            )
        if state._cur == _CHANCE:
            self.tensor.fill(0.0)
        else:
            state._g.information_state_tensor(player, self.steps, out=self.tensor)

    def string_from(self, state, player):
        return _info_string(state, player)


_REGISTERED = False


def register() -> None:
    """Registers ``python_ratrace_bigcheese`` and ``python_ratrace_dalmuti``
    with pyspiel (once; later calls do nothing)."""
    global _REGISTERED
    if _REGISTERED:
        return
    names = set(pyspiel.registered_names())
    for name, cls in (("bigcheese", BigCheeseGame), ("dalmuti", DalmutiGame)):
        if _GAMES[name][0] not in names:
            pyspiel.register_game(_game_type(name), cls)
    _REGISTERED = True
