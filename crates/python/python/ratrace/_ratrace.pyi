"""Type stubs for the extension module (crates/python/src)."""

from typing import Any, Callable, Mapping, Sequence, overload

import numpy as np
import numpy.typing as npt

__version__: str

Options = Mapping[str, Any] | str | None
Seed = int | str | None
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]

class IllegalAction(ValueError):
    """An action the rules refuse; the message names the rule."""

class SetupError(ValueError):
    """A game, bot or environment that cannot be set up."""

class RecordError(ValueError):
    """A record that cannot be read or replayed."""

class Game:
    """One game of ``bigcheese`` or ``dalmuti``: (rules version, options, seed, actions)."""

    def __init__(
        self, name: str, players: int | None = None, options: Options = None, seed: Seed = None
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def rules_version(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def options(self) -> dict[str, str]: ...
    @property
    def seed(self) -> str: ...
    @property
    def to_move(self) -> int | None:
        """Whose turn as the table may know it (None during D7's secret decision)."""
    @property
    def actor(self) -> int | None:
        """Who must act, secret decisions included (for referees and environments)."""
    @property
    def is_over(self) -> bool: ...
    @property
    def outcome(self) -> dict[str, Any] | None: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    def legal_actions(self) -> list[str]: ...
    def legal_ids(self) -> list[int]: ...
    def action_text(self, id: int) -> str | None: ...
    def action_id(self, action: str) -> int: ...
    def apply(self, action: str, seat: int | None = None) -> None: ...
    def apply_id(self, id: int, seat: int | None = None) -> None: ...
    def view(self, seat: int) -> dict[str, Any]: ...
    def public_view(self) -> dict[str, Any]: ...
    def render(self, seat: int | None = None) -> str: ...
    def events(self, seat: int | None = None, start: int = 0) -> list[dict[str, Any]]: ...
    def observation(
        self, seat: int, out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]: ...
    @overload
    def action_mask(self, seat: int | None = None, out: npt.NDArray[np.int8] | None = None) -> npt.NDArray[np.int8]: ...
    @overload
    def action_mask(self, out: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]: ...
    def information_state(self, seat: int) -> str:
        """The seat's events and own actions so far, in order (perfect recall)."""
    def information_state_size(self, steps: int) -> int: ...
    def information_state_tensor(
        self, seat: int, steps: int, out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]: ...
    def returns(self) -> list[float]:
        """Each seat's return once the game is over; ValueError before."""
    def clone(self) -> Game: ...
    def record(self) -> str: ...
    def save(self, path: str) -> None: ...
    @staticmethod
    def open(path: str) -> Game: ...
    @staticmethod
    def load(record: str) -> Game: ...
    def resample(self, seat: int, seed: int) -> Game: ...
    def __len__(self) -> int: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...

class Bot:
    """A ladder bot (``random``, ``heuristic``, ``strong``, ``search:1000``, ...),
    or a Python policy ``policy(obs, mask) -> action id``."""

    def __init__(self, spec: str | Policy, seed: int = 0) -> None: ...
    @property
    def spec(self) -> str: ...
    def act(self, game: Game, seat: int | None = None) -> str: ...
    def evaluate(
        self, game: Game, seat: int | None = None
    ) -> list[tuple[str, float, int]] | None: ...

class VectorEnv:
    """N tables stepped in Rust; arrays refreshed in place by reset and step."""

    def __init__(
        self,
        game: str,
        num_envs: int,
        players: int | None = None,
        options: Options = None,
        opponents: str | Policy | None = None,
        seat: int = 0,
        seed: int = 0,
        threads: int | None = None,
        autoreset: bool = True,
        max_actions: int = 100_000,
        teacher: str | None = None,
    ) -> None: ...
    def reset(
        self,
        seeds: Sequence[int] | npt.NDArray[np.integer],
        indices: Sequence[int] | npt.NDArray[np.integer] | None = None,
    ) -> None: ...
    def step(self, actions: Sequence[int] | npt.NDArray[np.integer]) -> None: ...
    def set_seat(self, table: int, seat: int) -> None: ...
    def sample_actions(self) -> npt.NDArray[np.int64]: ...
    def render(self, table: int, seat: int | None = None) -> str: ...
    @property
    def threads(self) -> int:
        """Threads stepping the tables, the caller's included (1 below 64 tables)."""
    @property
    def num_envs(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observations(self) -> npt.NDArray[np.float32]: ...
    @property
    def action_masks(self) -> npt.NDArray[np.int8]: ...
    @property
    def rewards(self) -> npt.NDArray[np.float32]: ...
    @property
    def terminated(self) -> npt.NDArray[np.bool_]: ...
    @property
    def truncated(self) -> npt.NDArray[np.bool_]: ...
    @property
    def to_move(self) -> npt.NDArray[np.int64]: ...
    @property
    def seats(self) -> npt.NDArray[np.int64]: ...
    @property
    def teacher_actions(self) -> npt.NDArray[np.int64]:
        """The teacher bot's action id for each table's decision at hand (-1: none)."""
    @property
    def teacher_policies(self) -> npt.NDArray[np.float32]:
        """(N, num_actions) with a teacher, (N, 0) without: the share of the
        teacher search's root visits per action id (1 at its choice when no
        search made it; all 0 when no decision)."""

def games() -> list[str]: ...
def observe(
    game: str,
    view: str | Mapping[str, Any],
    players: int | None = None,
    options: Options = None,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]: ...
def view_actions(
    game: str,
    view: str | Mapping[str, Any],
    players: int | None = None,
    options: Options = None,
) -> dict[int, str]: ...
def verify(record: str, key: str | None = None) -> dict[str, Any]: ...
def simulate(
    game: str,
    games: int,
    bots: Sequence[str] | None = None,
    players: int | None = None,
    options: Options = None,
    seed: int = 0,
    threads: int | None = None,
    max_actions: int = 100_000,
    rotate: bool = False,
) -> dict[str, Any]: ...
def tournament(
    game: str,
    candidate: str | None = None,
    field: str | None = None,
    bots: Sequence[str] | None = None,
    players: int | None = None,
    options: Options = None,
    deals: int | None = None,
    games: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    max_actions: int = 100_000,
    sprt: str | None = None,
) -> dict[str, Any]: ...
def lab(
    game: str,
    variants: Sequence[str] | None = None,
    presets: Sequence[str] | None = None,
    players: int | None = None,
    options: Options = None,
    deals: int = 200,
    seed: int = 0,
    threads: int | None = None,
    bots: Sequence[str] | None = None,
    max_actions: int = 100_000,
    out: str | None = None,
) -> dict[str, Any]: ...
