"""A ratrace-bot/1 program that checks what it is sent (test_schemas.py).

It plays random legal actions, like `random`, and holds every line it
reads against docs/protocol/GAME/to-bot.json, every legal action against
GAME/action.json and every line it writes against from-bot.json, with
the `jsonschema` package (draft 2020-12). Each problem, and at the end the
count of what it checked, is one JSON line appended to the file named by
RATRACE_SCHEMA_LOG (one write per line, so processes may share the file).

The messages are told apart by `type` and the events by `kind`, each tag
a `const` in exactly one branch of the schema's `oneOf`: a message is
checked against its own branch (the same verdict as the whole `oneOf`,
which this asserts is tagged so), which is many times faster.
"""
import collections
import json
import os
import random
import sys

from jsonschema import Draft202012Validator

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
PROTOCOL = os.path.join(ROOT, "docs", "protocol")


def validator(path):
    with open(os.path.join(PROTOCOL, path)) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def by_tag(root, branches, tag):
    """{tag value: validator of that branch}, each branch with the root's
    definitions; fails unless each branch has its own `const` tag."""
    out = {}
    for branch in branches:
        value = branch["properties"][tag]["const"]
        assert value not in out, "two branches tagged %r" % value
        out[value] = Draft202012Validator(dict(branch, **{"$defs": root["$defs"]}))
    return out


def game_validators(game):
    """(messages by type, events by kind, the action notation)."""
    with open(os.path.join(PROTOCOL, game, "to-bot.json")) as f:
        root = json.load(f)
    Draft202012Validator.check_schema(root)
    assert root["$defs"]["Event"]["oneOf"]
    for branch in root["oneOf"]:
        if branch["properties"]["type"]["const"] == "event":
            assert branch["properties"]["event"]["$ref"] == "#/$defs/Event"
            branch["properties"]["event"] = {"type": "object"}
    messages = by_tag(root, root["oneOf"], "type")
    events = by_tag(root, root["$defs"]["Event"]["oneOf"], "kind")
    return messages, events, validator(game + "/action.json")


def problems(v, value):
    """The ways `value` breaks `v`'s schema, each as one line of text."""
    return ["%s at %s" % (e.message[:300], "/".join(map(str, e.absolute_path)) or "top")
            for e in v.iter_errors(value)]


def main():
    log_fd = os.open(os.environ["RATRACE_SCHEMA_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)

    def log(record):
        os.write(log_fd, (json.dumps(record) + "\n").encode())

    from_bot = validator("from-bot.json")
    games = {}
    counts = collections.Counter()
    rng = random.Random(os.getpid())
    game = None

    def send(msg):
        for p in problems(from_bot, msg):
            log({"problem": "from-bot: " + p, "line": json.dumps(msg)})
        print(json.dumps(msg), flush=True)

    # Event lines repeat (every seat hears `{"kind":"pass","seat":"P3"}`
    # many times): one that passed is not checked again, the verdict being
    # the same for the same text.
    valid_events = set()
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "start":
            game = msg.get("game")
            if game not in games:
                games[game] = game_validators(game)
        if game is None:
            log({"problem": "a %r before any start" % kind, "line": line[:2000]})
            continue
        messages, events, actions = games[game]
        checks = [(messages.get(kind), msg)]
        if kind == "event":
            checks.append((events.get(msg["event"].get("kind")), msg["event"]))
            counts["%s event %s" % (game, msg["event"].get("kind"))] += 1
        if (game, line) not in valid_events:
            found = [p for v, value in checks
                     for p in (["no such type or kind"] if v is None else problems(v, value))]
            for p in found:
                log({"problem": "%s to-bot: %s" % (game, p), "line": line[:4000]})
            if kind == "event" and not found:
                valid_events.add((game, line))
        counts["%s %s" % (game, kind)] += 1
        if kind == "start":
            send({"type": "ready", "name": "schema check", "protocol": 1})
        elif kind == "act":
            for a in msg["legal"]:
                for p in problems(actions, a):
                    log({"problem": "%s action %r: %s" % (game, a, p)})
                counts["%s legal %s" % (game, a.split()[0])] += 1
            choice = rng.choice(msg["legal"])
            counts["%s chose %s" % (game, choice.split()[0])] += 1
            send({"type": "action", "id": msg["id"], "action": choice})
        elif kind == "quit":
            break
    log({"counts": dict(counts)})


if __name__ == "__main__":
    main()
