"""Reading actions and seeds given from Python, with clear errors.

The environments take an action id as a Python int, a numpy integer, or a
numpy array holding exactly one integer (what a batched policy returns for
one table); ``VectorEnv`` takes one id per table, one seed per table and
table indices.
Anything else is refused here with a message naming what was expected,
before any table moves: a float is never truncated into an id, a wrong
shape is never flattened into the right number of values.

Also here, as the environments' one reading of options: Dalmuti plays a
single hand unless the options say otherwise.
"""

from __future__ import annotations

import numbers

import numpy as np


def action_id(action) -> int:
    """One action id: an int, a numpy integer, or an integer array of one
    element (any shape: ``np.array(3)``, ``np.array([3])``). An integral
    float (``3.0``) is taken; any other value raises ``TypeError``."""
    if isinstance(action, (bool, np.bool_)):
        raise TypeError(f"an action id is an integer, not {action!r}")
    if isinstance(action, numbers.Integral):
        return int(action)
    if isinstance(action, np.ndarray):
        if action.size != 1:
            raise TypeError(
                f"an action id is one integer; got an array of shape {action.shape}"
            )
        return action_id(action.reshape(-1)[0])
    if isinstance(action, numbers.Real) and float(action).is_integer():
        return int(action)
    raise TypeError(f"an action id is an integer, not {action!r}")


def _integers(values, n: int, what: str, per: str) -> np.ndarray:
    """``values`` as a 1-d numpy array of ``n`` integers: an integer array
    as given, anything else (a list, say) as Python ints in an object
    array, so no value is rounded through a float on the way."""
    if isinstance(values, np.ndarray):
        array = values
    else:
        try:
            array = np.array(values, dtype=object)
        except (TypeError, ValueError) as e:
            raise ValueError(f"{what} must be a list or 1-d array of {n} integers: {e}") from None
    if array.shape != (n,):
        raise ValueError(
            f"{what} must be a 1-d array of {n} integers (one {per}); got shape {array.shape}"
        )
    kind = array.dtype.kind
    if kind == "b":
        raise ValueError(f"{what} must be integers, not booleans")
    if kind in "iu":
        return array
    if kind not in "fO":
        raise ValueError(f"{what} must be integers, not an array of {array.dtype}")
    out = []
    for v in array.tolist():
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise ValueError(f"{what} must be integers; got {v!r}")
        if not isinstance(v, numbers.Integral):
            if not float(v).is_integer():
                raise ValueError(f"{what} must be integers; got {v!r}, which is not one")
            v = int(v)
        out.append(v)
    return np.array(out, dtype=object)


def _bounded(values, n, what, per, low, high, dtype) -> np.ndarray:
    array = _integers(values, n, what, per)
    if array.size:
        lo, hi = min(array.tolist()), max(array.tolist())
        if lo < low or hi > high:
            bad = lo if lo < low else hi
            raise ValueError(f"{what} are integers from {low} to {high}; got {bad}")
    if array.dtype.kind == "O":
        array = np.array(array.tolist(), dtype=dtype)
    return np.ascontiguousarray(array, dtype=dtype)


def action_ids(values, n: int) -> np.ndarray:
    """One action id per table, as a contiguous int64 array; ids out of
    the action space are kept (the step refuses them as illegal, naming
    the table)."""
    return _bounded(values, n, "actions", "action id per table", -(2**63), 2**63 - 1, np.int64)


def seeds(values, n: int) -> np.ndarray:
    """One seed per table, each in ``0 .. 2**64 - 1``, as a contiguous
    uint64 array."""
    return _bounded(values, n, "seeds", "seed per table", 0, 2**64 - 1, np.uint64)


def indices(values, n: int) -> np.ndarray:
    """Table indices, each in ``0 .. n - 1``, as a contiguous int64 array
    (a list or a 1-d array; repeats are refused by the reset itself)."""
    try:
        k = len(values)
    except TypeError:
        raise ValueError(f"indices must be a list or 1-d array of table indices, not {values!r}") from None
    return _bounded(values, k, "indices", "table index each", 0, n - 1, np.int64)


def one_hand_by_default(game: str, options):
    """Dalmuti's options (a dict, ``key=value,...`` text or None) with
    ``hands=1`` unless they set ``hands``: an episode is one hand in the
    Gymnasium and OpenSpiel games (a 20-hand session, the engine's
    default, is over 400 learner steps). Other games' options as given."""
    if game != "dalmuti":
        return options
    if options is None:
        return {"hands": 1}
    if isinstance(options, str):
        keys = {p.split("=", 1)[0].strip() for p in options.split(",") if p.strip()}
        return options if "hands" in keys else ",".join(p for p in ("hands=1", options) if p.strip())
    return options if "hands" in options else {"hands": 1, **options}
