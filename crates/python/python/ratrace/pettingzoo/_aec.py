"""The PettingZoo AEC environment shared by ``bigcheese_v0`` and ``dalmuti_v0``.

One ``ratrace.Game`` is the referee. Observations are
``{"observation": float32 vector, "action_mask": int8 vector}``; the layout
and the action ids are documented in docs/python.md. Only the agent to act
has a non-zero mask. Rewards come once, at the end: each seat's return
(1 for first place down to -1 for last; 0 for all when the length cap
stops a game, which is then a truncation).

Agents are ``player_0`` ... in seat order. ``agent_selection`` is whoever
must act, a secret Dalmuti revolution decision (D7) included: the
environment is the referee. What each agent observes never shows it.
"""

from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .. import Game
from .._checks import action_id


class RatraceAECEnv(AECEnv):
    """A table of ``players`` seats playing one game of ``game``."""

    metadata = {"render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options=None,
        render_mode: str | None = None,
        max_actions: int = 100_000,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not offered: these environments render"
                f" text, as 'ansi' (returned) or 'human' (printed), or None"
            )
        probe = Game(game, players=players, options=options, seed=0)
        self._game_name = game
        self._options = probe.options
        self._players = probe.players
        self._max_actions = max_actions
        self.metadata = dict(self.metadata, name=f"{game}_v0")
        self.render_mode = render_mode
        n_obs, n_act = probe.observation_size, probe.num_actions
        # Dalmuti newcomers join between hands (D13): they are possible
        # agents from the start and join `agents` when they are seated.
        self.possible_agents = [f"player_{i}" for i in range(probe.max_players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (n_obs,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n_act) for a in self.possible_agents}
        self._mask = np.zeros(n_act, dtype=np.int8)
        self._no_mask = np.zeros(n_act, dtype=np.int8)
        self._seeds = random.Random()
        self.game: Game | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seeds = random.Random(seed)
            # Every possible agent's spaces, newcomers who join later (D13)
            # included: a caller seeds only `agents` after reset, so two
            # environments reset with one seed sample alike for everyone.
            spaces_seeds = random.Random(f"spaces {seed}")
            for agent in self.possible_agents:
                self.action_spaces[agent].seed(spaces_seeds.getrandbits(63))
                self.observation_spaces[agent].seed(spaces_seeds.getrandbits(63))
        self.game = Game(
            self._game_name,
            players=self._players,
            options=self._options,
            seed=self._seeds.getrandbits(64),
        )
        self.agents = self.possible_agents[: self._players]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.game.actor]
        self.game.action_mask(self._mask)

    def observe(self, agent):
        seat = self._index[agent]
        game = self.game
        mask = self._mask.copy() if seat == game.actor else self._no_mask.copy()
        return {"observation": game.observation(seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        game.apply_id(action_id(action))
        if game.players > len(self.agents):
            self._seat_newcomers(game.players)
        self._cumulative_rewards[agent] = 0.0
        if game.is_over:
            returns = game.returns()
            for a, r in zip(self.agents, returns):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
        elif len(game) >= self._max_actions:
            for a in self.agents:
                self.truncations[a] = True
            self._accumulate_rewards()
        else:
            # Rewards are all 0 until the end: nothing to accumulate.
            self.agent_selection = self.agents[game.actor]
            game.action_mask(self._mask)
        if self.render_mode == "human":
            self.render()

    def _seat_newcomers(self, players):
        for agent in self.possible_agents[len(self.agents) : players]:
            self.agents.append(agent)
            self.rewards[agent] = 0.0
            self._cumulative_rewards[agent] = 0.0
            self.terminations[agent] = False
            self.truncations[agent] = False
            self.infos[agent] = {}

    def render(self):
        if self.render_mode is None:
            return None
        text = self.game.render() if self.game is not None else ""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def _after_reset(name):
    """A property reading the env's `name`, refused before reset as the
    stock wrapper refuses it."""

    def get(self):
        if self._has_reset:
            return getattr(self.env, name)
        raise AttributeError(f"{name} cannot be accessed before reset")

    return property(get)


class _OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks, minus
    its cost: the stock wrapper reaches every attribute of the env through
    two ``__getattr__`` calls, about ten times a turn (``last()`` alone
    reads five). Here the attributes a loop reads each turn are properties
    and ``last()`` runs on the env itself, each behind the same "before
    reset" check."""

    def _check(self, name):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return self.env

    agents = _after_reset("agents")
    agent_selection = _after_reset("agent_selection")
    rewards = _after_reset("rewards")
    terminations = _after_reset("terminations")
    truncations = _after_reset("truncations")
    infos = _after_reset("infos")

    @property
    def num_agents(self):
        return len(self._check("num_agents").agents)

    @property
    def _cumulative_rewards(self):
        return self.env._cumulative_rewards

    def last(self, observe: bool = True):
        return self._check("agent_selection").last(observe)


def make_env(game: str, **kwargs):
    """The wrapped environment, as PettingZoo's ``env()`` functions give:
    order enforced (no step before reset, no peeking at attributes)."""
    return _OrderEnforcingWrapper(RatraceAECEnv(game, **kwargs))
