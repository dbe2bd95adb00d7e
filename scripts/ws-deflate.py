#!/usr/bin/env python3
"""What permessage-deflate (RFC 7692) would save on a real game's frames.

Against a running `ratrace serve`, it makes a table of one person and bots,
plays the person's seat with random legal moves through the example
WebSocket client (examples/bots/remote_client.py), records every frame the
server sends that seat, and deflates them as RFC 7692 does (raw deflate,
a sync flush per message, its 4 trailing bytes dropped): with context
takeover (one compressor for the connection) and without (one per
message). Prints one JSON line per game.

    ratrace serve --addr 127.0.0.1:18777 --db FILE --min-bot-delay-ms 0
    python3 scripts/ws-deflate.py http://127.0.0.1:18777 [dalmuti bigcheese]

The server does not negotiate the extension yet (docs/server.md,
"WebSocket compression"); this measures what it would save, and after it
does, what it saves.
"""
import json
import os
import random
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples", "bots"))
import remote_client as rc  # noqa: E402

OPTIONS = {"dalmuti": {"hands": "3"}, "bigcheese": {"target": "20"}}


def deflated(frames, takeover):
    """Bytes on the wire once each frame is deflated as RFC 7692 says."""
    total, ctx = 0, None
    for f in frames:
        if ctx is None or not takeover:
            ctx = zlib.compressobj(6, zlib.DEFLATED, -15)
        total += len(ctx.compress(f) + ctx.flush(zlib.Z_SYNC_FLUSH)) - 4
    return total


def measure(url, game):
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 3
    body = {"game": game, "players": 4, "options": OPTIONS[game], "seats": seats, "bot_delay_ms": 0}
    status, made = rc.http_json(url, "POST", "/api/tables", body)
    if status not in (200, 201):
        raise SystemExit(f"create refused: HTTP {status} {made}")
    join = {"name": "Meas", "key": made.get("key")}
    status, seat = rc.http_json(url, "POST", f"/api/tables/{made['id']}/join", join)
    if status not in (200, 201):
        raise SystemExit(f"join refused: HTTP {status} {seat}")
    frames = []
    recv = rc.WebSocket.recv

    def recording(self):
        text = recv(self)
        if isinstance(text, str):
            frames.append(text.encode())
        return text

    rc.WebSocket.recv = recording
    try:
        rc.play(url, made["id"], seat["token"], random.Random(1), quiet=True)
    finally:
        rc.WebSocket.recv = recv
    raw = sum(len(f) for f in frames)
    takeover, fresh = deflated(frames, True), deflated(frames, False)
    return {
        "game": game,
        "frames": len(frames),
        "raw_bytes": raw,
        "context_takeover_bytes": takeover,
        "context_takeover_ratio": round(takeover / raw, 3),
        "no_context_takeover_bytes": fresh,
        "no_context_takeover_ratio": round(fresh / raw, 3),
    }


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    for game in sys.argv[2:] or ["dalmuti", "bigcheese"]:
        if game not in OPTIONS:
            raise SystemExit(f"unknown game {game!r}: dalmuti or bigcheese")
        print(json.dumps(measure(sys.argv[1], game)), flush=True)


if __name__ == "__main__":
    main()
