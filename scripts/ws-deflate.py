#!/usr/bin/env python3
"""What WebSocket compression (permessage-deflate, RFC 7692) saves and costs.

Against a running `ratrace serve`, with a client that offers the extension
as browsers do (or not, with --no-offer):

- bytes: makes a table of one person and three heuristic bots per game,
  plays the person's seat with random legal moves, and counts the bytes the
  server sent that seat on the wire (frame headers included), and what
  they inflate to;
- memory (--connections N --pid PID): opens N spectator connections to one
  table, each saying hello and reading its whole state, and reports the
  server's resident memory before and after (from /proc/PID/status).

    ratrace serve --addr 127.0.0.1:18777 --db FILE --min-bot-delay-ms 0 \\
        --max-connections-per-ip 0 --ws-compression message
    python3 scripts/ws-deflate.py http://127.0.0.1:18777 [--connections 1000 --pid PID]

Prints one JSON line per measure. Run it once per `--ws-compression` mode
(off, message, context) to compare them (docs/server.md, "WebSocket
compression").
"""
import argparse
import base64
import json
import os
import random
import socket
import struct
import sys
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples", "bots"))
import remote_client as rc  # noqa: E402

OPTIONS = {"dalmuti": {"hands": "3"}, "bigcheese": {"target": "20"}}
OFFER = "permessage-deflate; client_max_window_bits"


class Client:
    """A WebSocket client that may offer permessage-deflate: masked text out
    (uncompressed, as RFC 7692 allows), frames in, inflated when RSV1 says."""

    def __init__(self, url, path, offer):
        self.sock, host, port = rc.connect(url)
        key = base64.b64encode(os.urandom(16)).decode()
        ext = f"Sec-WebSocket-Extensions: {OFFER}\r\n" if offer else ""
        req = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{ext}\r\n"
        )
        self.sock.sendall(req.encode())
        status, headers, self.buf = rc.read_head(self.sock)
        if status != 101:
            raise SystemExit(f"the server refused the WebSocket: HTTP {status}")
        self.agreed = headers.get("sec-websocket-extensions")
        self.keeps = bool(self.agreed) and "server_no_context_takeover" not in self.agreed
        self.inflater = zlib.decompressobj(-15)
        self.wire = 0
        self.inflated = 0

    def send(self, obj):
        payload = json.dumps(obj).encode()
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _exactly(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise rc.Closed("the connection closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        self.wire += n
        return out

    def recv(self):
        """The next text message, as a str."""
        while True:
            b0, b1 = self._exactly(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._exactly(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._exactly(8))[0]
            payload = self._exactly(n)
            opcode = b0 & 0x0F
            if opcode == 0x8:
                raise rc.Closed("closed by the server")
            if opcode != 0x1:
                continue
            if b0 & 0x40:
                if not self.keeps:
                    self.inflater = zlib.decompressobj(-15)
                payload = self.inflater.decompress(payload + b"\x00\x00\xff\xff")
            self.inflated += len(payload)
            return payload.decode()


def table(url, game):
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 3
    body = {"game": game, "players": 4, "options": OPTIONS[game], "seats": seats, "bot_delay_ms": 0,
            "public": True}
    status, made = rc.http_json(url, "POST", "/api/tables", body)
    if status not in (200, 201):
        raise SystemExit(f"create refused: HTTP {status} {made}")
    return made


def bytes_of_a_game(url, game, offer):
    made = table(url, game)
    status, seat = rc.http_json(url, "POST", f"/api/tables/{made['id']}/join", {"name": "Meas"})
    if status not in (200, 201):
        raise SystemExit(f"join refused: HTTP {status} {seat}")
    ws = Client(url, f"/ws/{made['id']}", offer)
    ws.send({"type": "hello", "token": seat["token"]})
    rng, frames, acted = random.Random(1), 0, None
    while True:
        m = json.loads(ws.recv())
        frames += 1
        if m.get("over"):
            break
        if m.get("type") in ("state", "update") and m.get("legal") and m["seq"] != acted:
            acted = m["seq"]
            time.sleep(1 / 15)  # within the server's 20 frames a second
            ws.send({"type": "act", "seq": m["seq"], "action": rng.choice(m["legal"])})
    return {"measure": "bytes", "game": game, "agreed": ws.agreed, "messages": frames,
            "wire_bytes": ws.wire, "inflated_bytes": ws.inflated,
            "ratio": round(ws.wire / ws.inflated, 3)}


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise SystemExit(f"no VmRSS for pid {pid}")


def memory(url, n, pid, offer):
    made = table(url, "dalmuti")
    before = rss_kib(pid)
    clients = []
    for _ in range(n):
        c = Client(url, f"/ws/{made['id']}", offer)
        c.send({"type": "hello"})
        c.recv()
        clients.append(c)
    time.sleep(1)
    after = rss_kib(pid)
    agreed = clients[0].agreed if clients else None
    for c in clients:
        c.sock.close()
    return {"measure": "memory", "connections": n, "agreed": agreed, "rss_before_kib": before,
            "rss_after_kib": after, "kib_per_connection": round((after - before) / max(n, 1), 1)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("url")
    ap.add_argument("--games", default="dalmuti,bigcheese")
    ap.add_argument("--no-offer", action="store_true", help="offer no compression")
    ap.add_argument("--connections", type=int, default=0)
    ap.add_argument("--pid", type=int, help="the server's process id (for --connections)")
    args = ap.parse_args()
    for game in args.games.split(","):
        if game not in OPTIONS:
            raise SystemExit(f"unknown game {game!r}: dalmuti or bigcheese")
        print(json.dumps(bytes_of_a_game(args.url, game, not args.no_offer)), flush=True)
    if args.connections:
        if not args.pid:
            raise SystemExit("--connections needs --pid")
        print(json.dumps(memory(args.url, args.connections, args.pid, not args.no_offer)), flush=True)


if __name__ == "__main__":
    socket.setdefaulttimeout(30)
    main()
