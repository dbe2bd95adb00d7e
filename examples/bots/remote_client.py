#!/usr/bin/env python3
"""A bot that plays one seat at a REMOTE ratrace server, as a client.

Standard library only: the WebSocket handshake and framing (RFC 6455) are
written out below over `socket` (and `ssl` for https/wss). It speaks the
server's own WebSocket protocol (docs/server.md, "WebSocket"), exactly as
the browser does, so it needs nothing from the server's operator:

    # join a seat yourself, then hand the token over:
    curl -s -X POST http://HOST:8080/api/tables/ID/join \\
         -d '{"seat":"P2","name":"Ann","key":"KEY"}'      # -> {"seat":"P2","token":"..."}
    python3 remote_client.py --url http://HOST:8080 --table ID --token TOKEN

    # or let the client join the first free seat (or --seat P2) itself:
    python3 remote_client.py --url http://HOST:8080 --table ID --name Ann [--key KEY]

It says `hello` with the seat token; on every `state` or `update` where its
seat must act (`legal` is not empty: it is sent to that seat alone, even
during a secret decision whose `to_move` is hidden) it picks a random
action from `legal` and sends `act` with the `seq` it has seen, at most
15 frames a second (the server refuses more than 20; a refused act is sent
again). It never applies the updates' JSON Patch: `seq`, `legal` and `to_move` come
whole in every `update`. On a `stale` error it asks for the whole state
again (`resync`). It exits 0 when the game is over, printing the outcome.

Replace `choose` with your own bot's logic; `self.view` is not kept up to
date (apply the patches, or send `resync` before each decision, if your bot
needs the view).
"""

import argparse
import base64
import hashlib
import json
import os
import random
import socket
import ssl
import struct
import sys
import time
import urllib.parse

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
PING_EVERY = 20.0  # the server closes a connection silent for 60 s
# The server takes at most 20 frames a second from a connection (more are
# refused with `rate_limited`): the client leaves this much between frames.
MIN_GAP = 1 / 15


class Closed(Exception):
    """The server closed the connection."""


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def endpoint(url):
    """(secure, host, port) of an http(s):// or ws(s):// URL."""
    u = urllib.parse.urlsplit(url if "://" in url else "http://" + url)
    secure = u.scheme in ("https", "wss")
    port = u.port or (443 if secure else 80)
    return secure, u.hostname, port


def connect(url):
    secure, host, port = endpoint(url)
    sock = socket.create_connection((host, port), timeout=30)
    if secure:
        sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
    return sock, host, port


def read_head(sock):
    """Reads an HTTP head; returns (status, headers dict, rest of bytes)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            raise Closed("connection closed during the HTTP head")
        data += chunk
        if len(data) > 65536:
            raise ValueError("HTTP head too long")
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    return status, headers, rest


def http_json(url, method, path, body=None):
    """One HTTP/1.1 request with a JSON body; (status, JSON answer)."""
    sock, host, port = connect(url)
    payload = json.dumps(body).encode() if body is not None else b""
    req = (
        f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
    ).encode() + payload
    sock.sendall(req)
    status, headers, rest = read_head(sock)
    want = int(headers.get("content-length", "-1"))
    while want < 0 or len(rest) < want:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    sock.close()
    try:
        return status, json.loads(rest.decode() or "null")
    except ValueError:
        return status, None


class WebSocket:
    """A minimal RFC 6455 client: text frames, masking, ping/pong, close."""

    def __init__(self, url, path):
        self.sock, host, port = connect(url)
        key = base64.b64encode(os.urandom(16)).decode()
        req = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(req.encode())
        status, headers, rest = read_head(self.sock)
        if status != 101:
            raise ConnectionError(f"the server refused the WebSocket: HTTP {status}")
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        if headers.get("sec-websocket-accept") != accept:
            raise ConnectionError("bad Sec-WebSocket-Accept")
        self.buf = rest
        self.last_sent = time.monotonic()

    def _frame(self, opcode, payload):
        """Sends one frame; a client's frames are always masked."""
        head = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        wait = self.last_sent + MIN_GAP - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.sock.sendall(head + mask + masked)
        self.last_sent = time.monotonic()

    def send(self, obj):
        self._frame(0x1, json.dumps(obj).encode())

    def close(self, code=1000):
        try:
            self._frame(0x8, struct.pack("!H", code))
            self.sock.close()
        except OSError:
            pass

    def _exactly(self, n):
        while len(self.buf) < n:
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                # Quiet for a while: a ping keeps the connection alive.
                if time.monotonic() - self.last_sent > PING_EVERY:
                    self.send({"type": "ping"})
                continue
            if not chunk:
                raise Closed("the connection closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        """The next text message (a str); answers pings, raises Closed."""
        message = b""
        while True:
            b0, b1 = self._exactly(2)
            fin, opcode = b0 & 0x80, b0 & 0x0F
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._exactly(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._exactly(8))[0]
            mask = self._exactly(4) if b1 & 0x80 else None
            payload = self._exactly(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                reason = payload[2:].decode("utf-8", "replace")
                self.close(code if code not in (1005, 1006) else 1000)
                raise Closed(f"closed by the server: {code} {reason}")
            if opcode == 0x9:
                self._frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if fin:
                    return message.decode("utf-8")


def choose(legal, rng):
    """Your bot's decision: here a random legal action."""
    return rng.choice(legal)


def play(url, table, token, rng, quiet=False):
    """Plays the seat of `token` at `table` until the game is over; the
    last state's outcome."""
    ws = WebSocket(url, f"/ws/{urllib.parse.quote(table)}")
    ws.sock.settimeout(5.0)
    ws.send({"type": "hello", "token": token, "lang": "en"})
    seat = None
    acted_at = None  # the seq we last acted at: one action per position
    sent = None  # that act, to send again if the server refused it for speed
    try:
        while True:
            msg = json.loads(ws.recv())
            kind = msg.get("type")
            if kind == "error":
                if msg.get("code") == "stale":
                    ws.send({"type": "resync"})
                    acted_at = None
                    continue
                if msg.get("code") in ("bad_token", "unknown_table"):
                    raise SystemExit(f"refused: {msg.get('message')}")
                if msg.get("code") == "rate_limited" and sent is not None:
                    # the act may be the refused frame: once the second is
                    # over, send it again (a `stale` answer is harmless)
                    time.sleep(1.0)
                    ws.send(sent)
                    continue
                if not quiet:
                    log("server says:", msg.get("code"), msg.get("message"))
                continue
            if kind not in ("state", "update"):
                continue
            if kind == "state":
                seat = msg.get("seat")
                if seat is None:
                    raise SystemExit("this token holds no seat (spectating)")
            if msg.get("over"):
                ws.close()
                return msg.get("outcome")
            seq, legal = msg.get("seq"), msg.get("legal") or []
            # `legal` is sent only to the seat that must act. `to_move` is
            # not enough: during a secret decision (D7, the revolution) it
            # is hidden from everyone, the holder included.
            if legal and acted_at != seq:
                action = choose(legal, rng)
                acted_at = seq
                if not quiet:
                    log(f"{seat} at seq {seq}: {action}")
                sent = {"type": "act", "seq": seq, "action": action}
                ws.send(sent)
    except Closed as e:
        raise SystemExit(str(e))


# Table ids, tokens and keys are URL-safe base64 and may start with "-",
# which argparse takes for an option: "--table -x1" becomes "--table=-x1".
VALUED = ("--url", "--table", "--token", "--name", "--seat", "--key", "--seed")


def joined_values(argv):
    out, i = [], 0
    while i < len(argv):
        if argv[i] in VALUED and i + 1 < len(argv):
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", required=True, help="the server: http(s)://HOST:PORT")
    ap.add_argument("--table", required=True, help="the table id")
    ap.add_argument("--token", help="the seat token from POST /api/tables/{id}/join")
    ap.add_argument("--name", help="without --token: join a seat under this name")
    ap.add_argument("--seat", help="without --token: the seat to join (default: the first free)")
    ap.add_argument("--key", help="a private table's invite key")
    ap.add_argument("--seed", type=int, help="seed of the random choices")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(joined_values(sys.argv[1:]))
    token = args.token
    if token is None:
        if not args.name:
            ap.error("give --token, or --name to join a seat")
        body = {"name": args.name, "contribution": os.urandom(32).hex()}
        if args.seat:
            body["seat"] = args.seat
        if args.key:
            body["key"] = args.key
        path = f"/api/tables/{urllib.parse.quote(args.table)}/join"
        try:
            status, answer = http_json(args.url, "POST", path, body)
        except OSError as e:
            raise SystemExit(f"cannot reach {args.url}: {e}")
        if status != 200:
            raise SystemExit(f"join refused: HTTP {status} {answer}")
        token = answer["token"]
        log(f"joined as {answer['seat']}")
    try:
        outcome = play(args.url, args.table, token, random.Random(args.seed), args.quiet)
    except OSError as e:
        raise SystemExit(f"cannot reach {args.url}: {e}")
    print(json.dumps({"outcome": outcome}), flush=True)


if __name__ == "__main__":
    main()
