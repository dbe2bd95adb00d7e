"""Gymnasium single-agent environments: one learner seat, ladder bots in
the others, stepped inside Rust.

    import gymnasium, ratrace
    env = gymnasium.make("ratrace/Dalmuti-v0", players=4, opponents="heuristic")

The observation is the learner's float32 vector (layout in docs/python.md);
the legal actions are ``info["action_mask"]`` (int8, one per action id) and
``env.unwrapped.action_masks()`` (bool, for maskable learners). An action
the rules refuse ends the episode with ``illegal_reward`` (default -1, the
worst return) and ``info["illegal_action"] = True``, and changes nothing
in the game, so random exploration never crashes. The reward is the
learner's return at the end (1 for first place down to -1 for last) and 0
before; a game stopped by the length cap is truncated with reward 0.

At the end of an episode no decision is pending, yet Gymnasium's vector
envs (``gymnasium.make_vec``, ``SyncVectorEnv``, ``AsyncVectorEnv``) in
their default next-step autoreset mode hand the terminal step's
``info["action_mask"]`` to the policy, which then chooses an action the
next ``step`` ignores (it resets). So the end-of-episode mask is never all
zero: it allows action id 0 alone, a placeholder that is never played.
Sampling from it works, and a masked softmax puts all its weight there
(log-probability 0: no gradient from the discarded step). In same-step
mode the mask is the new episode's; ``step`` after the end without a reset
raises ``ResetNeeded``.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from . import VectorEnv
from ._checks import action_id, one_hand_by_default

IDS = {"bigcheese": "ratrace/BigCheese-v0", "dalmuti": "ratrace/Dalmuti-v0"}


class RatraceEnv(gymnasium.Env):
    """One learner against ``opponents`` in the other seats: a bot spec
    (``random``, ``heuristic``, ``strong``, ``search:200``...) or a Python
    policy ``policy(obs, mask) -> action id``, called with each
    opponent's own observation and mask (a frozen copy of the learner,
    say). For Dalmuti an episode is one hand unless ``options`` set
    ``hands``."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        game: str = "dalmuti",
        players: int | None = None,
        options=None,
        opponents="heuristic",
        seat: int | None = 0,
        illegal_reward: float = -1.0,
        max_actions: int = 100_000,
        render_mode: str | None = None,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not offered: these environments render"
                f" text, as 'ansi' (returned) or 'human' (printed), or None"
            )
        self._vec = VectorEnv(
            game,
            1,
            players=players,
            options=one_hand_by_default(game, options),
            opponents=opponents,
            seat=0 if seat is None else seat,
            autoreset=False,
            max_actions=max_actions,
        )
        self._random_seat = seat is None
        self.game_name = game
        self.players = self._vec.players
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (self._vec.observation_size,), np.float32)
        self.action_space = spaces.Discrete(self._vec.num_actions)
        self._actions = np.zeros(1, dtype=np.int64)
        self._over = True
        # The vector env refreshes these arrays in place: read them through
        # views made once rather than through its getters at every step.
        self._obs = self._vec.observations[0]
        self._mask = self._vec.action_masks[0]
        self._rewards = self._vec.rewards[0]
        self._terminated = self._vec.terminated
        self._truncated = self._vec.truncated
        self._n_actions = self._vec.num_actions
        self._seat = int(self._vec.seats[0])
        # The mask shown once the episode is over (see the module doc).
        self._end_mask = np.zeros(self._n_actions, dtype=np.int8)
        self._end_mask[0] = 1

    @property
    def seat(self) -> int:
        """The learner's seat this episode."""
        return self._seat

    def _current_mask(self) -> np.ndarray:
        return self._end_mask if self._over else self._mask

    def _info(self):
        return {"action_mask": self._current_mask().copy(), "seat": self._seat}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (for maskable policies);
        once the episode is over, id 0 alone (a placeholder, never played)."""
        return self._current_mask().astype(bool)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if self._random_seat:
            self._vec.set_seat(0, int(self.np_random.integers(self.players)))
        self._vec.reset([int(self.np_random.integers(2**63))])
        self._seat = int(self._vec.seats[0])
        self._over = False
        return self._obs.copy(), self._info()

    def step(self, action):
        if self._over:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset() first")
        action = action_id(action)
        if not (0 <= action < self._n_actions) or not self._mask[action]:
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs.copy(), self.illegal_reward, True, False, info
        self._actions[0] = action
        self._vec.step(self._actions)
        reward = float(self._rewards[self._seat])
        terminated, truncated = bool(self._terminated[0]), bool(self._truncated[0])
        self._over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._obs.copy(), reward, terminated, truncated, self._info()

    def render(self):
        if self.render_mode is None:
            return None
        text = self._vec.render(0, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def register() -> None:
    """Registers ``ratrace/BigCheese-v0`` and ``ratrace/Dalmuti-v0``."""
    from gymnasium.envs.registration import register as gym_register, registry

    for game, env_id in IDS.items():
        if env_id not in registry:
            gym_register(
                id=env_id,
                entry_point="ratrace.gym:RatraceEnv",
                kwargs={"game": game},
                disable_env_checker=False,
            )
