"""A bot that misbehaves on purpose, for the referee's tests.

Usage: misbehave.py MODE PIDFILE. It writes its PID (and any child's) to
PIDFILE, one per line, so the test can check that none is left behind.
"""
import json
import os
import subprocess
import sys
import time

mode, pidfile = sys.argv[1], sys.argv[2]
pids = [os.getpid()]
if mode == "deaf":
    # A child that would outlive a careless referee.
    pids.append(subprocess.Popen(["sleep", "1000"]).pid)
with open(pidfile, "w") as f:
    f.write("\n".join(map(str, pids)) + "\n")


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


if mode == "no_ready":
    sys.stderr.write("loading the model...\nno model file here\n")
    sys.stderr.flush()
    time.sleep(1000)
if mode == "deaf":
    # Never reads its input, never answers.
    time.sleep(1000)

acts = 0
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "start":
        say({"type": "ready", "name": mode, "protocol": 2 if mode == "bad_protocol" else 1})
        continue
    if kind == "quit":
        if mode == "ignore_quit":
            time.sleep(1000)
        break
    if kind != "act":
        continue
    acts += 1
    legal = msg["legal"]
    good = {"type": "action", "id": msg["id"], "action": legal[0]}
    if mode == "crash" and acts == 2:
        sys.exit(3)
    if mode == "segv" and acts == 2:
        os.kill(os.getpid(), 11)
    if mode == "hang":
        time.sleep(1000)
    if mode == "slow_once" and acts == 1:
        time.sleep(0.15)  # over the limit once, then answers late and goes on
    if mode == "garbage":
        sys.stdout.write("I think I'll pass\n")
        sys.stdout.flush()
        continue
    if mode == "illegal":
        say({"type": "action", "id": msg["id"], "action": "play 13x12"})
        continue
    if mode == "wrong_id":
        say({"type": "action", "id": msg["id"] + 5, "action": legal[0]})
        continue
    if mode == "flood_line":
        sys.stdout.write("x" * (1 << 20))
        sys.stdout.flush()
        time.sleep(1000)
    if mode == "flood_lines":
        while True:
            sys.stdout.write("{}\n")
    if mode == "close_stdout":
        # Closes its output and goes on reading: it can never answer.
        sys.stdout.close()
        os.close(1)
        for _ in sys.stdin:
            pass
        break
    if mode == "stderr_flood":
        chunk = "e" * 65536
        while True:
            sys.stderr.write(chunk)
    say(good)
