"""A policy trained by the example (examples/python/train_dalmuti.py)
plays through ``python -m ratrace.bot`` where bot programs play: a
``ratrace tournament`` that saves its games, and a table of a real
``ratrace serve`` (on loopback, its own SQLite file) that offers it with
``--bot dalmuti:NAME=COMMAND``. In both, every action the program took is
the action the same policy picks from the Gymnasium-style observation and
mask of a ``Game`` dealt from the same seed: the program decides from its
seat's view exactly as the policy does inside the environments.

It needs the ``ratrace`` binary: RATRACE_BIN, or target/debug/ratrace.
"""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import pytest
from ratrace_bin import ratrace_bin

import ratrace

ROOT = pathlib.Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "python"
sys.path.insert(0, str(EXAMPLES))


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """The example's quick training, saved: the weights and a module
    whose ``policy`` plays them (what the bot program serves)."""
    folder = tmp_path_factory.mktemp("policy")
    weights = folder / "policy.npz"
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_dalmuti.py"), "--quick", "--seed", "3",
         "--save", str(weights)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    module = folder / "served_policy.py"
    module.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(EXAMPLES)!r})\n"
        "import play_policy\n"
        f"policy = play_policy.load_policy({str(weights)!r})\n"
    )
    import play_policy

    return module, play_policy.load_policy(str(weights))


def program(module):
    return f"{sys.executable} -m ratrace.bot {module}:policy"


def check_record(record, policy, seats=None):
    """Every action of `record` by `seats` (default: all, the policy at
    each) is the policy's choice on a Game dealt from the record's seed;
    the number checked."""
    options = dict(record["options"])
    game = ratrace.Game("dalmuti", players=record["players"], options=options, seed=record["seed"])
    checked = 0
    for line in record["actions"]:
        seat_text, action = line.split(" ", 1)
        seat = int(seat_text[1:]) - 1
        assert game.actor == seat, (line, game.actor)
        if seats is None or seat in seats:
            chosen = game.action_text(policy(game.observation(seat), game.action_mask()))
            assert chosen == action, (checked, line, chosen)
            checked += 1
        game.apply(action, seat)
    assert game.is_over
    return checked


def test_the_trained_policy_plays_a_tournament_as_it_plays_the_game(trained, tmp_path):
    module, policy = trained
    saved = tmp_path / "games"
    bot = "cmd:" + program(module)
    done = subprocess.run(
        [ratrace_bin(), "tournament", "dalmuti", "--players", "4", "--option", "hands=1",
         "--candidate", bot, "--field", bot, "--deals", "2", "--threads", "1",
         "--save-games", str(saved), "--json", "--quiet"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert "strikes" not in report, report["strikes"]
    assert all(s["stand_in"] == 0 and s["decisions"] > 0 for s in report["stand_in"]), report["stand_in"]
    files = sorted(saved.glob("*.json"))
    assert len(files) == report["figures"]["games"] == 8
    assert sum(check_record(json.loads(f.read_text()), policy) for f in files) > 0


def get(base, path):
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return r.read().decode()


def test_the_trained_policy_plays_a_server_table_as_it_plays_the_game(trained, tmp_path):
    module, policy = trained
    # The server's sandbox denies bot programs the database's folder and
    # what lies around it: the database goes to a folder of its own,
    # away from the policy's files.
    db_dir = pathlib.Path(tempfile.mkdtemp(prefix="ratrace-serve-"))
    # The log goes to a file: a pipe nobody reads would fill and stall the
    # server.
    log = tmp_path / "serve.log"
    server = subprocess.Popen(
        [ratrace_bin(), "serve", "--addr", "127.0.0.1:0", "--db", str(db_dir / "t.db"),
         "--min-bot-delay-ms", "0", "--revolution-window-ms", "200",
         "--bot", "dalmuti:trained=" + program(module)]
        # As root the server runs its programs as nobody, who may not
        # reach this test's files: here they run as root, said so.
        + (["--bot-user", "root", "--bot-allow-root"] if os.geteuid() == 0 else []),
        stdout=log.open("w"), stderr=subprocess.STDOUT,
        env={**os.environ, "NO_COLOR": "1"},
    )
    try:
        base = None
        deadline = time.monotonic() + 30
        while base is None and time.monotonic() < deadline:
            m = re.search(r"serving on (http://127\.0\.0\.1:\d+)", log.read_text())
            base = m and m.group(1)
            time.sleep(0.05)
        assert base, log.read_text()
        games = json.loads(get(base, "/api/games"))
        assert [g["external"] for g in games if g["name"] == "dalmuti"] == [["trained"]]
        assert [g["external"] for g in games if g["name"] == "bigcheese"] == [[]]
        # A table plays only while a person is connected: P1 is played by
        # the example WebSocket client (random), the other seats by the
        # trained policy.
        body = {"game": "dalmuti", "players": 4, "options": {"hands": 1}, "bot_delay_ms": 0,
                "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "trained"}] * 3}
        request = urllib.request.Request(base + "/api/tables", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as r:
            created = json.loads(r.read())
        table = created["id"]
        client = subprocess.run(
            [sys.executable, str(ROOT / "examples" / "bots" / "remote_client.py"), "--url", base,
             # `=`: an id may begin with `-`, which argparse would take for a flag
             f"--table={table}", "--name", "Ann", f"--key={created['key']}", "--seed", "1"],
            capture_output=True, text=True, timeout=180,
        )
        assert client.returncode == 0, client.stdout + client.stderr
        assert json.loads(get(base, f"/api/tables/{table}"))["status"] == "finished"
        # Tables are private unless made public: the record is shown with the
        # invite key, and refused without it.
        with pytest.raises(urllib.error.HTTPError) as refused:
            get(base, f"/api/tables/{table}/record")
        assert refused.value.code == 403
        record = json.loads(get(base, f"/api/tables/{table}/record?k={created['key']}"))
        assert check_record(record, policy, seats={1, 2, 3}) > 0
        metrics = get(base, "/metrics")
        assert re.search(r"^ratrace_bot_strikes_total 0$", metrics, re.M), metrics
        assert re.search(r"^ratrace_stand_in_seats_total 0$", metrics, re.M), metrics
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(db_dir, ignore_errors=True)
