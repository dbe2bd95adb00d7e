#!/usr/bin/env node
// A bot that plays one seat at a REMOTE ratrace server, as a client: the
// Node twin of remote_client.py, with Node's own fetch and WebSocket and
// nothing to install.
//
// It speaks the server's WebSocket protocol (docs/server.md, "WebSocket"),
// exactly as the browser does, so it needs nothing from the operator:
//
//   node remote_client.mjs --url http://HOST:8080 --table ID --token TOKEN
//   node remote_client.mjs --url http://HOST:8080 --table ID --name Ann [--seat P2] [--key KEY]
//
// The second form joins a seat itself (POST /api/tables/{id}/join). It
// says `hello` with the seat token; on every `state` or `update` where
// its seat must act (`legal` is not empty: it is sent to that seat alone,
// even during a secret decision whose `to_move` is hidden) it picks an
// action from `legal` and sends `act` with the `seq` it has seen. Like
// the Python client it sends at most 15 frames a second (the server
// refuses more than 20 with `rate_limited`, and a refused `act` is NOT
// queued: it sends it again after a second), pings when quiet (the server
// closes a connection silent for 60 s), asks for the whole state again on
// `stale`, and connects again with the same token if the connection
// drops. It prints {"outcome": ...} and exits 0 when the game is over.
//
// Replace `choose` with your bot. WebSocket is global from Node 22; Node
// 20 has it behind --experimental-websocket, which this script adds by
// starting itself again.

import { spawnSync } from 'node:child_process';

if (typeof WebSocket === 'undefined') {
  if (process.execArgv.includes('--experimental-websocket')) {
    console.error('this Node has no WebSocket: use Node 22, or Node 20.10 or later');
    process.exit(1);
  }
  const again = spawnSync(process.execPath, ['--experimental-websocket', '--no-warnings', ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(again.status ?? 1);
}

/** The server takes at most 20 frames a second: this client leaves this much between its frames. */
const MIN_GAP_MS = 1000 / 15;
const PING_EVERY_MS = 20000;
/** Connections in a row that may fail before the client gives up. */
const RECONNECTS = 5;

const log = (...parts) => console.error(...parts);

/** A seeded generator (mulberry32) for --seed; Math.random otherwise. */
function generator(seed) {
  if (seed == null) return Math.random;
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Your bot's decision: here a random legal action (text, as the server wrote it). */
function choose(legal, random) {
  return legal[Math.floor(random() * legal.length)];
}

/** --name value pairs; a value may start with "-" (ids and tokens are URL-safe base64). */
function parseArgs(argv) {
  const valued = ['--url', '--table', '--token', '--name', '--seat', '--key', '--seed'];
  const args = { quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.indexOf('=');
    const [flag, inline] = eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, null];
    if (flag === '--quiet') args.quiet = true;
    else if (valued.includes(flag)) {
      const v = inline ?? argv[++i];
      if (v == null) usage(`${flag} needs a value`);
      args[flag.slice(2)] = v;
    } else usage(`unknown argument ${a}`);
  }
  if (!args.url || !args.table) usage('give --url and --table');
  if (!args.token && !args.name) usage('give --token, or --name to join a seat');
  if (args.seed != null && !/^\d+$/.test(args.seed)) usage('--seed is a whole number');
  return args;
}

function usage(why) {
  log(`remote_client.mjs: ${why}
usage: node remote_client.mjs --url http://HOST:PORT --table ID (--token TOKEN | --name NAME [--seat P2] [--key KEY]) [--seed N] [--quiet]`);
  process.exit(2);
}

/** Joins a seat; the seat token. */
async function join(url, args) {
  const body = { name: args.name, contribution: [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('') };
  if (args.seat) body.seat = args.seat;
  if (args.key) body.key = args.key;
  const res = await fetch(new URL(`/api/tables/${encodeURIComponent(args.table)}/join`, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await res.json().catch(() => null);
  if (res.status !== 200) throw new Refused(`join refused: HTTP ${res.status} ${JSON.stringify(answer)}`);
  log(`joined as ${answer.seat}`);
  return answer.token;
}

class Refused extends Error {}

/**
 * One connection: plays until the game is over (resolves to the outcome)
 * or the connection drops (resolves to null: connect again).
 */
function connection(url, table, token, random, quiet) {
  const ws = new WebSocket(new URL(`/ws/${encodeURIComponent(table)}`, url.replace(/^http/, 'ws')));
  let lastSent = 0;
  let queue = Promise.resolve();
  let actedAt = null; // the seq acted at: one action per position
  let sent = null; // that act, to send again if the server refused it for speed
  let opened = false;
  const send = (m) => {
    // paced: each frame at least MIN_GAP_MS after the one before
    queue = queue.then(async () => {
      const wait = lastSent + MIN_GAP_MS - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (ws.readyState !== WebSocket.OPEN) return;
      ws.send(JSON.stringify(m));
      lastSent = Date.now();
    });
  };
  const pinger = setInterval(() => {
    if (Date.now() - lastSent > PING_EVERY_MS) send({ type: 'ping' });
  }, 1000);
  return new Promise((resolve, reject) => {
    const done = (v, e) => {
      clearInterval(pinger);
      if (e) reject(e);
      else resolve(v);
    };
    ws.onopen = () => {
      opened = true;
      send({ type: 'hello', token, lang: 'en' });
    };
    // Node 20's WebSocket may report a failed connection by an error
    // alone, with no close after it
    ws.onerror = () => {
      if (!opened) done(undefined);
    };
    ws.onclose = () => done(opened ? null : undefined);
    ws.onmessage = (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (m.type === 'error') {
        if (m.code === 'stale') {
          actedAt = null;
          send({ type: 'resync' });
        } else if (m.code === 'bad_token' || m.code === 'unknown_table') {
          ws.close();
          done(null, new Refused(`refused: ${m.message}`));
        } else if (m.code === 'rate_limited' && sent) {
          // the refused frame may be the act: once the second is over,
          // send it again (a `stale` answer to a repeat is harmless)
          const again = sent;
          setTimeout(() => send(again), 1000);
        } else if (!quiet) log('server says:', m.code, m.message);
        return;
      }
      if (m.type !== 'state' && m.type !== 'update') return;
      if (m.type === 'state' && m.seat == null) {
        ws.close();
        return done(null, new Refused('this token holds no seat (spectating)'));
      }
      if (m.over) {
        ws.close();
        return done(m.outcome ?? {});
      }
      // `legal` is sent only to the seat that must act; `to_move` is not
      // enough: during a secret decision (D7) it is hidden from everyone
      const legal = m.legal || [];
      if (legal.length && actedAt !== m.seq) {
        const action = choose(legal, random);
        actedAt = m.seq;
        if (!quiet) log(`at seq ${m.seq}: ${action}`);
        sent = { type: 'act', seq: m.seq, action };
        send(sent);
      }
    };
  });
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const url = /^[a-z]+:\/\//.test(args.url) ? args.url : 'http://' + args.url;
  const random = generator(args.seed == null ? null : Number(args.seed));
  try {
    const token = args.token ?? (await join(url, args));
    let failures = 0;
    for (let tries = 0; tries < 50 && failures <= RECONNECTS; tries++) {
      const outcome = await connection(url, args.table, token, random, args.quiet);
      if (outcome) {
        console.log(JSON.stringify({ outcome }));
        return;
      }
      // dropped (null) or never opened (undefined): again, with the same
      // token, unless the server was never reached at all
      if (outcome === undefined && tries === 0) break;
      failures = outcome === null ? 0 : failures + 1;
      if (!args.quiet) log('the connection closed: connecting again');
      await new Promise((r) => setTimeout(r, 500 * 2 ** Math.min(failures, 4)));
    }
    throw new Refused(`cannot reach ${args.url}`);
  } catch (e) {
    if (e instanceof Refused) log(e.message);
    else log(`cannot reach ${args.url}: ${e.cause?.message || e.message}`);
    process.exit(1);
  }
}

await main();
