"""A bot that writes down everything it is sent, for the leak scan.

Usage: recorder.py FOLDER. Each game's messages go to FOLDER/GAME.jsonl
(GAME: the `match.game` number of its `start`), exactly as received.
"""
import json
import os
import random
import sys

folder = sys.argv[1]
rng = random.Random(13)
out = None
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "start":
        if out:
            out.close()
        out = open(os.path.join(folder, "%d.jsonl" % msg["match"]["game"]), "w")
    if out:
        out.write(line)
        out.flush()
    if kind == "start":
        sys.stdout.write('{"type":"ready","name":"recorder","protocol":1}\n')
    elif kind == "act":
        sys.stdout.write(json.dumps({"type": "action", "id": msg["id"], "action": rng.choice(msg["legal"])}) + "\n")
    elif kind == "quit":
        break
    sys.stdout.flush()
