"""A Python policy as a ``ratrace-bot/1`` program (docs/bot-protocol.md).

    python3 -m ratrace.bot my_policy.py:policy            # a file and a function in it
    python3 -m ratrace.bot my_package.module:policy       # or an importable module

or, from a script of your own, ``ratrace.bot.serve(policy)``. The policy
is a function ``policy(obs, mask) -> action id`` over the float32
observation and int8 mask the environments give a learner: the program
computes them from each ``act`` message's view (``ratrace.observe``, with
the ``start`` message's options and seat count) and answers with the
chosen action's text. So the program enters wherever bot programs do:

    ratrace tournament dalmuti --candidate cmd:"python3 -m ratrace.bot my_policy.py:policy"
    ratrace serve --bot mine="python3 -m ratrace.bot /abs/path/my_policy.py:policy"

An id the mask does not allow is answered with the first legal action
and noted on stderr (the program's log), so the game goes on; an
exception in the policy ends the program with its traceback on stderr.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import pathlib
import shlex
import sys
from typing import Callable, TextIO

from ._checks import action_id
from ._ratrace import observe, view_actions

Policy = Callable[..., int]


def serve(
    policy: Policy,
    name: str = "python policy",
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> None:
    """Speaks ``ratrace-bot/1`` on ``stdin``/``stdout`` (default: the
    process's) until ``quit`` or the end of input, choosing with
    ``policy``."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    game = players = options = None

    def send(message: dict) -> None:
        stdout.write(json.dumps(message) + "\n")
        stdout.flush()

    for line in stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            game, players, options = message["game"], message["players"], message["options"]
            send({"type": "ready", "name": name[:64], "protocol": 1})
        elif kind == "act":
            view, legal = message["view"], message["legal"]
            obs, mask = observe(game, view, players=players, options=options)
            actions = view_actions(game, view, players=players, options=options)
            chosen = action_id(policy(obs, mask))
            text = actions.get(chosen)
            if text not in legal:
                print(
                    f"ratrace.bot: the policy chose id {chosen}, not legal here;"
                    f" answering {legal[0]!r}",
                    file=sys.stderr,
                    flush=True,
                )
                text = legal[0]
            send({"type": "action", "id": message["id"], "action": text})
        elif kind == "quit":
            return


def program(policy: Policy) -> str:
    """The bot name (``cmd:...``) of the program that serves ``policy``:
    what ``ratrace.tournament`` and ``ratrace.simulate`` enter for a policy
    given to them. The program imports the policy again, so it must be a
    function defined at the top level of a module or file (not a lambda,
    a closure or a method)."""
    qualname = getattr(policy, "__qualname__", "")
    module = sys.modules.get(getattr(policy, "__module__", None) or "")
    if not qualname or "<" in qualname or "." in qualname or module is None:
        raise TypeError(
            f"{policy!r} cannot be served as a bot program: give a function defined at the"
            " top level of a module or file (the program imports it again), or play it"
            " in-process with ratrace.Bot(policy) or as VectorEnv/Gymnasium opponents"
        )
    where = getattr(module, "__file__", None)
    if getattr(module, "__package__", None):
        # a module of a package: imported by name, its relative imports kept
        target = f"{module.__name__}:{qualname}"
    elif where is not None:
        # a script or a top-level module: loaded from its file, from any folder
        target = f"{pathlib.Path(where).resolve()}:{qualname}"
    else:
        raise TypeError(f"{policy!r} is in a module with no file: it cannot be imported again")
    return "cmd:" + " ".join(shlex.quote(p) for p in (sys.executable, "-m", "ratrace.bot", target))


def as_bot_name(bot):
    """A bot name as given, or the program name of a policy."""
    return program(bot) if callable(bot) and not isinstance(bot, str) else bot


def load(target: str) -> Policy:
    """The function named by ``FILE.py:NAME`` or ``MODULE:NAME``."""
    where, sep, attr = target.rpartition(":")
    if not sep or not where or not attr:
        raise SystemExit(f"ratrace.bot: expected FILE.py:FUNCTION or MODULE:FUNCTION, not {target!r}")
    if where.endswith(".py"):
        path = pathlib.Path(where).resolve()
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None or not path.exists():
            raise SystemExit(f"ratrace.bot: no such file {where!r}")
        sys.path.insert(0, str(path.parent))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    try:
        return getattr(module, attr)
    except AttributeError:
        raise SystemExit(f"ratrace.bot: {where!r} has no {attr!r}") from None


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python3 -m ratrace.bot", description=__doc__.split("\n")[0])
    ap.add_argument("policy", help="FILE.py:FUNCTION or MODULE:FUNCTION, a policy(obs, mask) -> action id")
    ap.add_argument("--name", help="the name the program gives in `ready` (default: the policy's)")
    args = ap.parse_args(argv)
    policy = load(args.policy)
    serve(policy, name=args.name or args.policy.rpartition(":")[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
