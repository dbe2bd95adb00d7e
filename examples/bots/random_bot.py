#!/usr/bin/env python3
"""random: a ratrace-bot/1 bot that plays a uniformly random legal action.

Standard library only. Usage: python3 random_bot.py [--seed N]
The protocol: docs/bot-protocol.md. Written to be fast: one readline, one
json.loads and (for `act`) one write + flush per line.
"""
import json
import random
import sys


def main() -> int:
    seed = None
    args = sys.argv[1:]
    if "--seed" in args:
        i = args.index("--seed")
        try:
            seed = int(args[i + 1])
        except (IndexError, ValueError):
            sys.stderr.write("random_bot: --seed needs an integer\n")
            return 2
    choice = random.Random(seed).choice
    readline = sys.stdin.readline
    write = sys.stdout.write
    flush = sys.stdout.flush
    loads = json.loads
    dumps = json.dumps
    ready = '{"type":"ready","name":"random","protocol":1}\n'
    while True:
        line = readline()
        if not line:
            return 0  # EOF
        # cheap pre-filter: only act, start and quit need an answer or an exit
        if '"act"' not in line and '"start"' not in line and '"quit"' not in line:
            continue
        try:
            msg = loads(line)
            t = msg.get("type")
            if t == "act":
                write('{"type":"action","id":%s,"action":%s}\n'
                      % (dumps(msg["id"]), dumps(choice(msg["legal"]))))
                flush()
            elif t == "start":
                write(ready)
                flush()
            elif t == "quit":
                return 0
        except (ValueError, LookupError, TypeError, AttributeError) as e:
            sys.stderr.write("random_bot: ignored a line (%r)\n" % e)


if __name__ == "__main__":
    sys.exit(main())
