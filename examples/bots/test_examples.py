"""Tests of the example bots and of the protocol schemas (stdlib only).

    python3 -m unittest examples/bots/test_examples.py -v

Each Python bot (and the Rust `example-bot`, if it is built) plays a scripted
session: a Dalmuti game, then a Big Cheese game in the same process, with
the real views of examples/bots/fixtures/*.json (written by
`cargo run -p example-bot --example dump_fixtures`). Every message and
answer is checked against the generated schemas of docs/protocol/
(GAME/to-bot.json, from-bot.json) by a tiny validator (`$ref`, `oneOf`,
`anyOf`, `required`, `type`, `const`, `enum`, `minimum`, `maximum`,
`minItems`, `maxItems`, `pattern`, `items`, `prefixItems`, `properties`,
`additionalProperties`): enough for these schemas, not a general one
(crates/python/tests/test_schemas.py checks whole games with the
`jsonschema` package). The examples in docs/bot-protocol.md are checked
against the schemas too.
"""
import json
import os
import queue
import re
import statistics
import subprocess
import sys
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCHEMAS = os.path.join(ROOT, "docs", "protocol")
MESSAGES = ["start", "ready", "event", "act", "action", "end", "quit"]
GAMES = ["bigcheese", "dalmuti"]


def load_schemas():
    """{"from-bot": schema, "bigcheese": its to-bot schema, ...}."""
    out = {}
    for name, path in [("from-bot", "from-bot.json")] + [(g, g + "/to-bot.json") for g in GAMES]:
        with open(os.path.join(SCHEMAS, path)) as f:
            out[name] = json.load(f)
    return out


def message_errors(schemas, msg, game=None):
    """How `msg` breaks the schema of its direction: to the bot, for
    `game` (or for either game when None)."""
    if msg.get("type") in ("ready", "action"):
        return errors(schemas["from-bot"], msg)
    results = [errors(schemas[g], msg) for g in ([game] if game else GAMES)]
    return min(results, key=len)


TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def errors(schema, value, path="$", root=None):
    """The ways `value` breaks `schema` (a subset of draft 2020-12)."""
    root = schema if root is None else root
    if "$ref" in schema:
        target = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            target = target[part]
        errs = errors(target, value, path, root)
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        return errs + (errors(rest, value, path, root) if rest else [])
    errs = []
    if "oneOf" in schema:
        ok = [s for s in schema["oneOf"] if not errors(s, value, path, root)]
        if len(ok) != 1:
            errs.append("%s: matches %d of oneOf" % (path, len(ok)))
    if "anyOf" in schema and all(errors(s, value, path, root) for s in schema["anyOf"]):
        errs.append("%s: matches none of anyOf" % path)
    types = schema.get("type")
    if types is not None:
        types = [types] if isinstance(types, str) else types
        if not any(TYPES[t](value) for t in types):
            return errs + ["%s: %r is not of type %s" % (path, value, types)]
    if "const" in schema and (value != schema["const"] or type(value) is not type(schema["const"])):
        errs.append("%s: %r is not %r" % (path, value, schema["const"]))
    if "enum" in schema and value not in schema["enum"]:
        errs.append("%s: %r is not one of %r" % (path, value, schema["enum"]))
    if "minimum" in schema and TYPES["number"](value) and value < schema["minimum"]:
        errs.append("%s: %r < %r" % (path, value, schema["minimum"]))
    if "maximum" in schema and TYPES["number"](value) and value > schema["maximum"]:
        errs.append("%s: %r > %r" % (path, value, schema["maximum"]))
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        errs.append("%s: %r does not match %s" % (path, value, schema["pattern"]))
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            errs.append("%s: fewer than %d items" % (path, schema["minItems"]))
        if len(value) > schema.get("maxItems", len(value)):
            errs.append("%s: more than %d items" % (path, schema["maxItems"]))
        prefix = schema.get("prefixItems", [])
        for i, item in enumerate(value):
            sub = prefix[i] if i < len(prefix) else schema.get("items", {})
            errs += errors(sub, item, "%s[%d]" % (path, i), root)
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errs.append("%s: %r is required" % (path, key))
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, v in value.items():
            if key in props:
                errs += errors(props[key], v, path + "." + key, root)
            elif extra is False:
                errs.append("%s: unexpected %r" % (path, key))
            elif isinstance(extra, dict):
                errs += errors(extra, v, path + "." + key, root)
    return errs


def load_fixture(game):
    with open(os.path.join(HERE, "fixtures", game + ".json")) as f:
        return json.load(f)


def option_texts(game, typed):
    """The `start` form of a view's typed options: `on`/`off` for booleans,
    `auto` (Big Cheese) or `off` (Dalmuti) for a `null` target."""
    def text(v):
        if isinstance(v, bool):
            return "on" if v else "off"
        if v is None:
            return "auto" if game == "bigcheese" else "off"
        return str(v)
    return {k: text(v) for k, v in typed.items()}


def session():
    """The scripted session: (message, expected answer type or None)."""
    msgs = []
    ids = iter(range(1, 1000))
    for n, game in enumerate(["dalmuti", "bigcheese"], start=1):
        fx = load_fixture(game)
        first = fx["acts"][0]
        msgs.append({
            "type": "start", "protocol": 1, "game": game,
            "rules_version": fx["rules_version"],
            "options": option_texts(game, first["view"]["public"]["options"]),
            "players": fx["players"], "seat": first["seat"],
            "time": {"move_ms": 1000, "game_ms": None}, "match": {"game": n},
        })
        events = iter(fx["events"])
        for act in fx["acts"]:
            for ev in [next(events, None), next(events, None)]:
                if ev is not None:
                    msgs.append({"type": "event", "event": ev})
            msgs.append({"type": "act", "id": next(ids), "view": act["view"],
                         "legal": act["legal"], "time_ms": 998})
        # a view nobody can read: the bot must still answer legally
        msgs.append({"type": "act", "id": next(ids), "view": {"what": "?"},
                     "legal": fx["acts"][-1]["legal"], "time_ms": 998,
                     "a_later_field": [1, 2]})
        msgs.append({"type": "something-newer", "x": 1})
        msgs.append({"type": "end", "outcome": fx["outcome"]})
    return msgs


class Bot:
    """A bot process with a reader thread, so no read can hang the test."""

    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line)

    def send(self, msg):
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()

    def answer(self, timeout=5.0):
        return self.lines.get(timeout=timeout)

    def exit_within(self, seconds):
        t = time.monotonic()
        try:
            rc = self.p.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return None, time.monotonic() - t
        return rc, time.monotonic() - t

    def close(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        for f in (self.p.stdin, self.p.stdout, self.p.stderr):
            try:
                f.close()
            except OSError:
                pass


def rust_bot():
    """The built Rust bot, if any (EXAMPLE_BOT, or target/{release,debug})."""
    candidates = [os.environ.get("EXAMPLE_BOT", "")]
    for target in [os.environ.get("CARGO_TARGET_DIR", ""), os.path.join(ROOT, "target")]:
        if target:
            candidates += [os.path.join(target, k, "example-bot") for k in ("release", "debug")]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


PY = sys.executable
BOTS = {
    "random": [PY, os.path.join(HERE, "random_bot.py"), "--seed", "7"],
    "rule": [PY, os.path.join(HERE, "rule_bot.py")],
}
if rust_bot():
    BOTS["rust"] = [rust_bot()]


class SchemaTests(unittest.TestCase):
    def test_doc_examples_match_the_schemas(self):
        with open(os.path.join(ROOT, "docs", "bot-protocol.md")) as f:
            blocks = re.findall(r"```json\n(.*?)```", f.read(), re.S)
        schemas = load_schemas()
        seen = set()
        views = {g: load_fixture(g)["acts"][0]["view"] for g in GAMES}
        for block in blocks:
            # `"view":{...}` stands for a view: a real one of either game
            msg = json.loads(block.replace("{...}", '"VIEW"'))
            if msg.get("view") == "VIEW":
                self.assertTrue(any(message_errors(schemas, dict(msg, view=v), g) == []
                                    for g, v in views.items()), block)
                seen.add(msg["type"])
                continue
            if "type" not in msg:
                continue  # a view or a part of one, checked by test_doc_views_are_real
            self.assertIn(msg["type"], MESSAGES, block)
            self.assertEqual(message_errors(schemas, msg), [], block)
            seen.add(msg["type"])
        self.assertEqual(seen, set(MESSAGES), "every message has an example")

    def test_doc_views_are_real(self):
        """Each whole view in the doc is valid, and the doc names every
        field of each game's view."""
        with open(os.path.join(ROOT, "docs", "bot-protocol.md")) as f:
            doc = f.read()
        for game in GAMES:
            with open(os.path.join(SCHEMAS, game, "view.json")) as f:
                view = json.load(f)
            names = set(view["properties"])
            for d in view.get("$defs", {}).values():
                names |= set(d.get("properties", {}))
            missing = sorted(n for n in names if not re.search(r"[`.]%s`" % n, doc))
            self.assertEqual(missing, [], game + ": fields the doc never names")
        blocks = re.findall(r"```json\n(.*?)```", doc, re.S)
        views = [json.loads(b) for b in blocks if "{...}" not in b]
        views = [v for v in views if "public" in v]
        self.assertGreaterEqual(len(views), 2)
        for v in views:
            game = "bigcheese" if "me" in v else "dalmuti"
            with open(os.path.join(SCHEMAS, game, "view.json")) as f:
                self.assertEqual(errors(json.load(f), v), [], game)

    def test_the_validator_catches_mistakes(self):
        s = load_schemas()
        self.assertTrue(message_errors(s, {"type": "action", "id": "7", "action": "pass"}))
        self.assertTrue(message_errors(s, {"type": "action", "action": "pass"}))
        self.assertTrue(message_errors(s, {"type": "ready", "name": "x", "protocol": 2}))
        fx = load_fixture("dalmuti")["acts"][0]
        act = {"type": "act", "id": 1, "view": fx["view"], "legal": fx["legal"], "time_ms": 5}
        self.assertEqual(message_errors(s, act, "dalmuti"), [])
        self.assertTrue(message_errors(s, dict(act, legal=[]), "dalmuti"))
        self.assertTrue(message_errors(s, act, "bigcheese"))
        self.assertTrue(message_errors(s, dict(act, view=dict(fx["view"], hand=7)), "dalmuti"))
        self.assertTrue(message_errors(s, {"type": "event", "event": {}}))
        self.assertEqual(message_errors(s, {"type": "quit", "later": 1}), [])

    def test_the_session_matches_the_schemas(self):
        s = load_schemas()
        game = None
        for msg in session():
            game = msg.get("game", game)
            if msg["type"] not in MESSAGES or msg.get("view") == {"what": "?"}:
                continue  # the session's deliberately odd messages
            self.assertEqual(message_errors(s, msg, game), [], msg["type"])


class BotTests(unittest.TestCase):
    def play_session(self, argv):
        schemas = load_schemas()
        bot = Bot(argv)
        try:
            times = []
            for msg in session():
                t = time.perf_counter()
                bot.send(msg)
                if msg["type"] not in ("start", "act"):
                    continue
                line = bot.answer()
                times.append(time.perf_counter() - t)
                self.assertTrue(line.endswith("\n"))
                answer = json.loads(line)
                want = "ready" if msg["type"] == "start" else "action"
                self.assertEqual(answer.get("type"), want, line)
                self.assertEqual(message_errors(schemas, answer), [], line)
                if want == "action":
                    self.assertEqual(answer["id"], msg["id"])
                    self.assertIn(answer["action"], msg["legal"])
            bot.send({"type": "quit"})
            rc, took = bot.exit_within(1.0)
            self.assertEqual(rc, 0, "exit status after quit (took %.2fs)" % took)
            time.sleep(0.05)  # let the reader thread drain
            stray = [bot.lines.get_nowait() for _ in range(bot.lines.qsize())]
            self.assertEqual(stray, [], "stray output")
            return times
        finally:
            bot.close()

    def test_bots_play_a_scripted_session(self):
        for name, argv in BOTS.items():
            with self.subTest(bot=name):
                self.play_session(argv)

    def test_the_readme_skeleton_plays(self):
        import tempfile
        with open(os.path.join(HERE, "README.md")) as f:
            code = re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)
        self.assertLessEqual(len(code.splitlines()), 20)
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(code)
        try:
            self.play_session([PY, f.name])
        finally:
            os.unlink(f.name)

    def test_bots_exit_on_eof(self):
        fx = load_fixture("dalmuti")
        for name, argv in BOTS.items():
            with self.subTest(bot=name):
                bot = Bot(argv)
                try:
                    bot.send(session()[0])
                    self.assertEqual(json.loads(bot.answer())["type"], "ready")
                    bot.send({"type": "act", "id": 1, "view": fx["acts"][0]["view"],
                              "legal": fx["acts"][0]["legal"], "time_ms": 500})
                    self.assertIn(json.loads(bot.answer())["action"], fx["acts"][0]["legal"])
                    bot.p.stdin.close()
                    rc, took = bot.exit_within(1.0)
                    self.assertEqual(rc, 0, "exit status after EOF (took %.2fs)" % took)
                finally:
                    bot.close()

    def test_random_bot_round_trip(self):
        """500 decisions in a row, each answered with its own id. The speed
        goal (median round trip) is a benchmark, not a test: `cargo bench -p
        extbot --bench protocol` (`decision/python-random`)."""
        fx = load_fixture("dalmuti")
        act = {"type": "act", "id": 0, "view": fx["acts"][2]["view"],
               "legal": fx["acts"][2]["legal"], "time_ms": 1000}
        bot = Bot(BOTS["random"])
        try:
            bot.send(session()[0])
            bot.answer()
            times = []
            for i in range(1, 501):
                act["id"] = i
                line = json.dumps(act) + "\n"
                t = time.perf_counter()
                bot.p.stdin.write(line)
                bot.p.stdin.flush()
                answer = json.loads(bot.answer())
                times.append(time.perf_counter() - t)
                self.assertEqual(answer["id"], i)
                self.assertIn(answer["action"], act["legal"])
            median_ms = statistics.median(times) * 1000
            sys.stderr.write("\nrandom_bot median round trip: %.3f ms\n" % median_ms)
            bot.send({"type": "quit"})
            self.assertEqual(bot.exit_within(1.0)[0], 0)
        finally:
            bot.close()


if __name__ == "__main__":
    unittest.main()
