"""The learned level's training program (training/train.py) and its
weights.

- A smoke run trains both games for a few seconds and writes a weights
  file that reads back (the safetensors layout the Rust bot reads), its
  curve and its parity positions.
- The shipped weights (crates/bots/weights) played in numpy choose what the
  Rust ``learned`` bot (``ratrace.Bot("learned")``) chooses from the same
  seat's view, on positions of self-play games: the encoder, the action
  ids and the forward pass are one in both languages.
"""

import importlib.util
import json
import pathlib
import struct

import numpy as np
import pytest

import ratrace

ROOT = pathlib.Path(__file__).resolve().parents[3]


def trainer():
    spec = importlib.util.spec_from_file_location("train", ROOT / "training" / "train.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_weights(path: pathlib.Path):
    """The layers (w as [out, in], b) and metadata of a weights file."""
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    data = raw[8 + n :]
    meta = header.pop("__metadata__")
    layers = []
    for i in range(len(header) // 2):
        out = []
        for part in ("weight", "bias"):
            t = header[f"policy.{i}.{part}"]
            a, b = t["data_offsets"]
            out.append(np.frombuffer(data[a:b], "<f4").reshape(t["shape"]))
        layers.append(tuple(out))
    return layers, meta


def forward(layers, x):
    for i, (w, b) in enumerate(layers):
        x = x @ w.T + b
        if i < len(layers) - 1:
            x = np.maximum(x, 0)
    return x


@pytest.mark.parametrize("game", ["dalmuti", "bigcheese"])
def test_a_smoke_run_writes_weights_a_curve_and_positions(game, tmp_path):
    out = tmp_path / f"{game}.safetensors"
    assert trainer().main([game, "--smoke", "--out", str(out)]) == 0
    layers, meta = read_weights(out)
    assert meta["format"] == "ratrace-mlp/1"
    assert meta["game"] == game
    assert layers[0][0].shape[1] == int(meta["obs_len"])
    assert layers[-1][0].shape[0] == int(meta["num_actions"])
    curve = json.loads(out.with_suffix(".curve.json").read_text())["curve"]
    assert [row["round"] for row in curve] == [0, "warm-up 1", 1, 2]
    assert all(0 <= row["low"] <= row["rate"] <= row["high"] <= 1 for row in curve)
    assert curve[-1]["samples"] > curve[-2]["samples"] > 0
    positions = json.loads(out.with_suffix(".positions.json").read_text())
    assert sum(len(g["decisions"]) for g in positions["games"]) > 0


@pytest.mark.parametrize("game", ["dalmuti", "bigcheese"])
def test_the_rust_learned_bot_plays_the_shipped_network_as_numpy_does(game):
    layers, meta = read_weights(ROOT / "crates" / "bots" / "weights" / f"{game}.safetensors")
    players, options = int(meta["players"]), json.loads(meta["options"])
    bot = ratrace.Bot("learned", seed=1)
    checked = 0
    for seed in range(3):
        g = ratrace.Game(game, players, options, seed=1000 + seed)
        rng = np.random.default_rng(seed)
        while not g.is_over and checked < 400:
            seat = g.actor
            mask = g.action_mask()
            legal = np.flatnonzero(mask)
            if len(legal) > 1 and g.to_move == seat:
                z = forward(layers, g.observation(seat))
                z = np.where(mask != 0, z, -np.inf)
                best = int(z.argmax())
                if z[best] - np.partition(z, -2)[-2] >= 1e-3:
                    assert g.action_id(bot.act(g, seat)) == best
                    checked += 1
            # Wander off the network's own line: a random legal action.
            g.apply_id(int(rng.choice(legal)), seat)
    assert checked >= 100


def test_a_run_can_start_from_weights_against_fields_on_visit_shares(tmp_path):
    """`--init` starts from a weights file (read back as written),
    `--fields` plays the teacher's rounds against bot tables, `--visits`
    fits the search's visit shares."""
    t = trainer()
    first = tmp_path / "first.safetensors"
    assert t.main(["dalmuti", "--smoke", "--out", str(first)]) == 0
    net = t.Net.load(first)
    layers, _ = read_weights(first)
    assert all(np.array_equal(w, l[0].T) and np.array_equal(b, l[1])
               for w, b, l in zip(net.w, net.b, layers))
    out = tmp_path / "again.safetensors"
    args = ["dalmuti", "--smoke", "--init", str(first), "--fields", "strong,hoarder",
            "--visits", "--out", str(out)]
    assert t.main(args) == 0
    curve = json.loads(out.with_suffix(".curve.json").read_text())["curve"]
    # no warm-up from a start network; the start is evaluated as round 0
    assert [row["round"] for row in curve] == [0, 1, 2]
    assert curve[0]["rate"] == json.loads(first.with_suffix(".curve.json").read_text())["curve"][-1]["rate"]
    assert curve[-1]["samples"] > curve[-2]["samples"] > 0


def test_the_soft_target_gradient_matches_central_differences():
    t = trainer()
    rng = np.random.default_rng(3)
    net = t.Net([6, 5, 4], rng)
    net.w[-1] = rng.standard_normal(net.w[-1].shape).astype(np.float32)
    x = rng.standard_normal((3, 6)).astype(np.float32)
    mask = np.array([[1, 1, 0, 1], [1, 0, 1, 1], [0, 1, 1, 0]], bool)
    target = rng.random((3, 4)).astype(np.float32) * mask
    target /= target.sum(axis=1, keepdims=True)
    _, grads = net.grads(x, mask, target)
    params = net.params()
    for p, g in zip(params, grads):
        flat, gflat = p.reshape(-1), g.reshape(-1)
        for k in range(0, flat.size, max(1, flat.size // 7)):
            keep = flat[k]
            flat[k] = keep + 1e-2
            up = net.grads(x, mask, target)[0]
            flat[k] = keep - 1e-2
            down = net.grads(x, mask, target)[0]
            flat[k] = keep
            assert abs((up - down) / 2e-2 - gflat[k]) < 2e-3, (k, up, down, gflat[k])


def test_evaluate_measures_weights_files_on_the_deals_asked_for(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("evaluate", ROOT / "training" / "evaluate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shipped = ROOT / "crates" / "bots" / "weights" / "dalmuti.safetensors"
    rates = []
    for seed in (1, 1):
        assert module.main(["dalmuti", str(shipped), "--seed", str(seed), "--games", "100"]) == 0
        line = capsys.readouterr().out
        assert "first places of 100 against strong" in line, line
        rates.append(line.split(": ")[1].split("%")[0])
    # the same deals give the same figure
    assert rates[0] == rates[1]
