/* The client's side of the server: the HTTP API (JSON, errors in words),
   joining a table, and the table's WebSocket with reconnect and backoff.

   The WebSocket says hello on every (re)connect, with the seat's token,
   the contribution to the fair deal (a rematch waits for each), a private
   table's key and the language, and reconnects after a drop, sooner when
   the browser comes back online or the tab is shown again. What the
   messages mean is the table page's (table.js); this module only carries
   them. */

import { lang, t, tv } from './i18n.js';
import {
  contribution,
  identity,
  keptIdentity,
  key,
  random32,
  saveCommitment,
  saveContribution,
  saveName,
  saveSeat,
  saveServerKey,
  token,
} from './store.js';

/** fetch + JSON; throws an Error with .code and .status on failure. */
export async function api(path, method, body, headers) {
  const opts = { method: method || 'GET', headers: Object.assign({}, headers) };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw Object.assign(new Error(''), { code: 'network' });
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    const er = (data && data.error) || {};
    throw Object.assign(new Error(er.message || ''), { code: er.code || 'http_' + res.status, status: res.status });
  }
  return data;
}

/** An error (thrown by api(), or a protocol `error` message) in words. */
export function errText(e) {
  const code = e.code || 'unknown';
  const known = tv('err.' + code);
  const head = known != null ? known : t('err.unknown', { code });
  return e.message ? head + ' — ' + e.message : head;
}

/**
 * Joins table `id` (optionally at `seat`) as `name`, with this browser's
 * own randomness for the fair deal and its identity key; keeps the token,
 * the contribution and the commitment shown.
 */
export async function join(id, name, seat) {
  const body = { name };
  if (seat) body.seat = seat;
  if (key(id)) body.key = key(id);
  body.contribution = random32();
  body.player = identity();
  const r = await api('/api/tables/' + encodeURIComponent(id) + '/join', 'POST', body);
  saveSeat(id, r.seat, r.token);
  saveContribution(id, body.contribution);
  saveCommitment(id, r.commitment);
  saveServerKey(r.key);
  saveName(name);
  return r;
}

/**
 * Back at a seat, from this device or another one (an identity link
 * brings the identity, not the seats' tokens): asks the server for the
 * seat this browser's identity holds at table `id`, and keeps its new
 * token (the seat's old token, on whatever device, stops opening it).
 * Whether it got one; no seat there (or no identity) is no error.
 */
export async function reclaim(id) {
  const me = keptIdentity();
  if (!me) return false;
  try {
    const r = await fetch('/api/tables/' + encodeURIComponent(id) + '/reclaim', {
      method: 'POST',
      headers: { 'X-Ratrace-Key': me },
    });
    if (!r.ok) return false;
    const got = await r.json();
    saveSeat(id, got.seat, got.token);
    return true;
  } catch (e) {
    return false;
  }
}

/**
 * Connects to /ws/{id}. Handlers: onMessage(msg), onStatus('connecting' |
 * 'live' | 'off'). Returns the connection: send(msg) (false when not
 * connected), restart() (drop and reconnect at once, after a join), and
 * `closed`, set to stop reconnecting.
 */
export function connect(id, h) {
  const c = { ws: null, tries: 0, closed: false, timer: null, ping: null };
  const url = () =>
    (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws/' + encodeURIComponent(id);
  function retry() {
    h.onStatus('off');
    const wait = Math.min(10000, 500 * 2 ** c.tries) * (0.75 + Math.random() / 2);
    c.tries++;
    clearTimeout(c.timer);
    c.timer = setTimeout(open, wait);
  }
  function open() {
    h.onStatus('connecting');
    let ws;
    try {
      ws = new WebSocket(url());
    } catch (e) {
      return retry();
    }
    c.ws = ws;
    ws.onopen = () => {
      c.hello();
      h.onStatus('live');
      c.ping = setInterval(() => c.send({ type: 'ping' }), 25000);
    };
    ws.onmessage = (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      if (m.type === 'state' || m.type === 'update') c.tries = 0;
      h.onMessage(m);
    };
    ws.onclose = () => {
      clearInterval(c.ping);
      if (c.ws === ws) c.ws = null;
      if (!c.closed) retry();
    };
  }
  c.send = function (m) {
    if (!c.ws || c.ws.readyState !== 1) return false;
    c.ws.send(JSON.stringify(m));
    return true;
  };
  // a seated player's contribution goes with hello: a rematch waits for
  // each (social.js); a spectator of a private table shows its invite key
  c.hello = () =>
    c.send({
      type: 'hello',
      token: token(id) || undefined,
      contribution: (token(id) && contribution(id)) || undefined,
      key: key(id) || undefined,
      lang: lang(),
    });
  /** Drops the connection and reconnects at once (after a join). */
  c.restart = function () {
    c.tries = 0;
    if (c.ws) c.ws.close();
    else c.now();
  };
  c.now = function () {
    if (c.ws) return;
    c.tries = 0;
    clearTimeout(c.timer);
    open();
  };
  window.addEventListener('online', c.now);
  document.addEventListener('visibilitychange', () => !document.hidden && c.now());
  open();
  return c;
}
