#!/usr/bin/env python3
"""A `ratrace serve` under `loadgen`, measured from outside: its memory and
CPU as the kernel counts them.

Why from outside: the server's own gauges do not see its allocator, its
sockets' buffers or what it never frees; /proc/PID/status (VmRSS, VmHWM)
and /proc/PID/stat (utime + stime) do. Builds are compared side by side:
give several `--build NAME=RATRACE,LOADGEN` and the runs alternate between
them (A B A B ...), each on a fresh database, so that the machine's drift
falls on every build alike.

For each run it reports the server's peak resident memory (VmHWM), its
resident memory when the tables were set up, the server CPU spent setting
the tables up (per table), the server CPU per acknowledged action in the
measured window, and loadgen's own figures (actions per second, p99).

Usage:
  python3 scripts/serve-memory.py --build head=target/release/ratrace,target/release/examples/loadgen \\
      --build base=OTHER/ratrace,OTHER/loadgen --tables 1500 --seconds 20 --runs 3
"""
import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

TICK = os.sysconf("SC_CLK_TCK")

# A server with every cap raised so that it can hold the load (as
# docs/server.md's load figures are taken).
SERVE_ARGS = [
    "--revolution-window-ms", "0", "--rate-limit", "100000", "--rate-close", "100000",
    "--max-connections", "19000", "--max-connections-per-ip", "0",
    "--create-burst", "100000", "--create-every-s", "1", "--join-burst", "100000",
    "--join-every-s", "1", "--max-live-tables", "10000", "--max-live-tables-per-ip", "100000",
    "--log-level", "warn",
]


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # utime and stime are fields 14 and 15 of stat, 12 and 13 after ")"
    return (int(fields[11]) + int(fields[12])) / TICK


def one_run(ratrace, loadgen, tables, seconds, think_ms):
    folder = tempfile.mkdtemp(prefix="ratrace-mem-")
    log = open(os.path.join(folder, "serve.log"), "w+")
    # A free port (the server logs at `warn`, so it does not say which it
    # took): taken and let go, then given to the server.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [ratrace, "serve", "--addr", f"127.0.0.1:{port}", "--db", os.path.join(folder, "m.db")]
        + SERVE_ARGS,
        stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.time() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "/api/games", timeout=2):
                    break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    log.seek(0)
                    raise SystemExit("the server did not start: " + log.read()[-500:])
                time.sleep(0.05)
        time.sleep(0.5)
        rss_before = status_kib(server.pid, "VmRSS")
        cpu_before = cpu_seconds(server.pid)
        samples = []  # (time, cpu, rss)
        stop = threading.Event()

        def sample():
            while not stop.is_set():
                try:
                    samples.append((time.time(), cpu_seconds(server.pid), status_kib(server.pid, "VmRSS")))
                except OSError:
                    return
                stop.wait(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        started = time.time()
        out = subprocess.run(
            [loadgen, "--url", url, "--tables", str(tables), "--seconds", str(seconds),
             "--think-ms", str(think_ms), "--json"],
            capture_output=True, text=True, timeout=seconds * 4 + 120,
        )
        stop.set()
        sampler.join()
        report = json.loads(out.stdout[out.stdout.index("{"):])
        setup_end = started + report["setup_seconds"]
        at_setup = min(samples, key=lambda s: abs(s[0] - setup_end))
        cpu_end = cpu_seconds(server.pid)
        live = report["live_tables"]["max"] or tables
        setup_cpu = at_setup[1] - cpu_before
        return {
            "peak_rss_mib": status_kib(server.pid, "VmHWM") / 1024,
            "rss_before_mib": rss_before / 1024,
            "rss_after_setup_mib": at_setup[2] / 1024,
            "setup_cpu_ms_per_table": setup_cpu * 1000 / max(live, 1),
            "window_cpu_ms_per_action": (cpu_end - at_setup[1]) * 1000 / max(report["actions"], 1),
            "actions_per_second": report["actions_per_second"],
            "p99_ms": report["latency_ms"]["p99"],
            "live_tables": live,
        }
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", action="append", required=True, metavar="NAME=RATRACE,LOADGEN")
    ap.add_argument("--tables", type=int, default=1500)
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--think-ms", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    builds = []
    for b in a.build:
        name, _, bins = b.partition("=")
        ratrace, _, loadgen = bins.partition(",")
        for p in (ratrace, loadgen):
            if not os.access(p, os.X_OK):
                raise SystemExit(f"--build {b}: {p} is not an executable")
        builds.append((name, ratrace, loadgen))
    results = {name: [] for name, _, _ in builds}
    for run in range(a.runs):
        for name, ratrace, loadgen in builds:
            r = one_run(ratrace, loadgen, a.tables, a.seconds, a.think_ms)
            results[name].append(r)
            print(f"run {run + 1} {name}: " + json.dumps({k: round(v, 2) for k, v in r.items()}),
                  file=sys.stderr, flush=True)
    summary = {}
    for name, runs in results.items():
        summary[name] = {k: {"median": statistics.median(r[k] for r in runs),
                             "min": min(r[k] for r in runs), "max": max(r[k] for r in runs)}
                         for k in runs[0]}
    print(json.dumps({"tables": a.tables, "seconds": a.seconds, "runs": a.runs, "builds": summary}, indent=2))


if __name__ == "__main__":
    main()
