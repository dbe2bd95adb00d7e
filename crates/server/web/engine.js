/* The local table: a Web Worker that hosts a game against bots in the
   browser, with the engine in WebAssembly (/static/engine.wasm, built from
   crates/browser), so that no frame waits on a bot, a hint or an analysis
   and no server is needed.

   It speaks to the table page as the server's WebSocket does: `hello`,
   `act`, `resync` and `ping` in; `state`, `update`, `error` and `pong`
   out, the same messages (docs/server.md), so the page draws a local
   game with the renderer of an online one. Besides: `make` (a new game,
   answered by `made`), `info` (the table's facts), `hint`, `record` (the
   finished game's record, for export) and `analyze` (with `progress`).

   It keeps one thing per game: the record (rules version, options, seed,
   actions) with each seat's bot level and the person's name, saved in
   IndexedDB after every action, so a reload resumes the game. The seed
   stays here: the page gets its seat's view only, and the seed once the
   game is over, as from a server. The engine keeps nothing: every request
   carries the record (crates/browser). `list` answers the games kept
   (`games`), for the lobby. */

'use strict';

const DB = 'ratrace-local';
const STORE = 'games';
/** How long a bot waits before it moves, so that a person can follow: the server's default, unless the game says. */
const BOT_DELAY_MS = 600;
const delay = () => (game.delay == null ? BOT_DELAY_MS : Math.max(0, Math.min(10000, game.delay)));

/** The engine and the learned level's networks (the server versions these names). */
const URLS = {
  engine: "/static/engine.wasm",
  bigcheese: "/static/bigcheese.safetensors",
  dalmuti: "/static/dalmuti.safetensors",
};

let engine = null;
let game = null; // { id, record, levels, ladder, names, seat, created }
let rev = 0;
let seen = 0;
let timer = null;
/** What the person's seat was last told: whether the game is over and what it may do. */
let mine = { over: false, legal: [] };

/* ---------- the engine ---------- */

async function load() {
  if (engine) return engine;
  let progress = () => {};
  const imports = { env: { progress: (done, total) => progress(done, total) } };
  const res = await fetch(new URL(URLS.engine, self.location.href));
  if (!res.ok) throw Object.assign(new Error('the engine did not load'), { code: 'engine' });
  // a static host may not say application/wasm, which streaming needs
  const { instance } = await WebAssembly.instantiateStreaming(res.clone(), imports).catch(async () =>
    WebAssembly.instantiate(await res.arrayBuffer(), imports)
  );
  const x = instance.exports;
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  engine = {
    given: new Set(),
    ask(request, bytes, onProgress) {
      progress = onProgress || (() => {});
      const text = enc.encode(JSON.stringify(request));
      // each address first: making room may grow the memory, which
      // detaches the buffer read before
      const at = x.input(text.length);
      new Uint8Array(x.memory.buffer, at, text.length).set(text);
      if (bytes) {
        const b = x.blob(bytes.length);
        new Uint8Array(x.memory.buffer, b, bytes.length).set(bytes);
      }
      const len = x.call();
      const out = x.output();
      const answer = JSON.parse(dec.decode(new Uint8Array(x.memory.buffer, out, len)));
      if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
      return answer.ok;
    },
  };
  return engine;
}

/**
 * The learned level's network, fetched once, when a game with a level that
 * uses it opens or a hint is asked (the service worker keeps it for use
 * offline). Without it, as offline before it was ever kept, the learned
 * level plays as `strong` and the search unguided (the engine's own
 * fallback), and the page is told so, once.
 */
async function network(name) {
  const e = await load();
  if (e.given.has(name) || e.missing) return;
  try {
    const r = await fetch(new URL(URLS[name], self.location.href));
    if (!r.ok) throw new Error(String(r.status));
    e.ask({ cmd: 'weights', game: name }, new Uint8Array(await r.arrayBuffer()));
    e.given.add(name);
  } catch (err) {
    e.missing = true;
    send({ type: 'notice', code: 'no_network', message: 'the learned level\'s network did not load: it plays as strong' });
  }
}

/** Whether a seat's level plays with the learned network (the search is guided by it). */
const usesNetwork = (g) => g.levels.some((l) => l === 'learned' || l === 'search');

/* ---------- storage ---------- */

/** The one connection to the store, opened on first use (again if it failed or was closed). */
let conn = null;
function db() {
  conn ||= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'id' });
    req.onsuccess = () => {
      // another page upgrading the store, or the browser clearing it
      req.result.onversionchange = req.result.onclose = () => {
        req.result.close();
        conn = null;
      };
      resolve(req.result);
    };
    req.onerror = () => {
      conn = null;
      reject(req.error);
    };
  });
  return conn;
}

async function tx(mode, f) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const t = d.transaction(STORE, mode);
    const r = f(t.objectStore(STORE));
    t.oncomplete = () => resolve(r && r.result);
    t.onerror = () => reject(t.error);
  });
}

const save = (g) => tx('readwrite', (s) => s.put(Object.assign({}, g, { updated: Date.now() })));
const fetchGame = (id) => tx('readonly', (s) => s.get(id));
const allGames = () => tx('readonly', (s) => s.getAll());

/* ---------- the table ---------- */

function seats() {
  return game.levels.map((level, i) => ({
    seat: 'P' + (i + 1),
    name: level ? level : game.name,
    kind: level ? 'bot' : 'human',
    bot: level || null,
    level: (level && game.ladder && game.ladder.indexOf(level) + 1) || undefined,
    taken: true,
    connected: true,
  }));
}

function info() {
  const r = game.record;
  return {
    id: game.id,
    game: r.game,
    players: r.players,
    options: r.options,
    seats: seats(),
    ladder: game.ladder || null,
    seq: r.actions.length,
    status: r.outcome ? 'finished' : 'playing',
    public: false,
    seed_hash: '',
    seed: null,
    secret: null,
    fair: false,
    tutorial: false,
    bot_delay_ms: delay(),
    turn_timer_ms: null,
    created_at: Math.floor(game.created / 1000),
    fill_in_s: 0,
    tournament: null,
    local: true,
  };
}

/** What the person's seat may know now, and the events after the first `from`. */
function seenFrom(from) {
  return engine.ask({ cmd: 'state', record: game.record, seat: game.seat, seen: from });
}

function whole() {
  const s = seenFrom(0);
  seen = s.log_from + s.log.length;
  mine = s;
  rev++;
  return Object.assign({ type: 'state', table: game.id, rev, seats: seats() }, s);
}

function update() {
  const s = seenFrom(seen);
  seen = s.log_from + s.log.length;
  mine = s;
  rev++;
  const view = s.view;
  delete s.view;
  delete s.seat;
  return Object.assign({ type: 'update', rev, patch: [{ op: 'replace', path: '', value: view }] }, s);
}

const send = (m) => self.postMessage(m);
const fail = (e) => send({ type: 'error', code: e.code || 'internal', message: e.message || String(e) });

/** After every change (once the seat was told of it): a bot to move plays after its delay, then the next. */
function advance() {
  clearTimeout(timer);
  if (!game || game.record.outcome) return;
  if (mine.over || mine.legal.length) return;
  timer = setTimeout(async () => {
    try {
      game.record = engine.ask({ cmd: 'bot', record: game.record, levels: game.levels });
      await save(game);
      send(update());
      advance();
    } catch (e) {
      fail(e);
    }
  }, delay());
}

async function open(id) {
  await load();
  const g = await fetchGame(id);
  if (!g) throw Object.assign(new Error('no game ' + id + ' in this browser'), { code: 'not_found' });
  game = g;
  rev = 0;
  seen = 0;
}

const HANDLERS = {
  async make(m) {
    const e = await load();
    const seed = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');
    const record = e.ask({ cmd: 'new', game: m.game, players: m.players, options: m.options || {}, seed });
    const id = 'L' + seed.slice(0, 12);
    const levels = Array.from({ length: record.players }, (_, i) => (i === 0 ? null : m.levels[i - 1] || m.levels[0]));
    const delay = Number.isInteger(m.delay) ? m.delay : null;
    // the game's ladder as the lobby had it: a bot's level is its place there
    const ladder = Array.isArray(m.ladder) ? m.ladder.filter((b) => typeof b === 'string') : null;
    await save({ id, record, levels, ladder, delay, name: m.name || 'You', seat: 'P1', created: Date.now() });
    send({ type: 'made', id });
  },
  async hello(m) {
    await open(m.id);
    if (usesNetwork(game)) await network(game.record.game);
    send({ type: 'info', info: info() });
    send(whole());
    advance();
  },
  async list() {
    const games = (await allGames())
      .map((g) => ({ id: g.id, game: g.record.game, players: g.record.players, over: !!g.record.outcome, updated: g.updated || g.created }))
      .sort((a, b) => b.updated - a.updated);
    send({ type: 'games', games });
  },
  async resync() {
    send(whole());
  },
  async ping() {
    send({ type: 'pong' });
  },
  async act(m) {
    if (m.seq !== game.record.actions.length) throw Object.assign(new Error('the game moved on'), { code: 'stale' });
    game.record = engine.ask({ cmd: 'act', record: game.record, seat: game.seat, action: m.action });
    await save(game);
    send(update());
    advance();
  },
  async hint() {
    await network(game.record.game);
    const h = engine.ask({ cmd: 'hint', record: game.record, seat: game.seat });
    send(Object.assign({ type: 'hint', seq: game.record.actions.length }, h));
  },
  async record() {
    // the record holds the seed: only a finished game's is given out
    if (!game.record.outcome) throw Object.assign(new Error('the game is not over'), { code: 'unfinished' });
    send({ type: 'record', record: game.record });
  },
  /**
   * The bench page's cases (bench.js, e2e/bench-engine.mjs): each case's
   * requests run `repeats` times, timed here, in the worker; the median
   * milliseconds per item (a hand, a decision, a game).
   */
  async bench(m) {
    const e = await load();
    for (const name of ['bigcheese', 'dalmuti']) await network(name);
    const out = [];
    for (const c of m.cases) {
      const times = [];
      for (let r = 0; r < m.repeats; r++) {
        const t0 = performance.now();
        for (const q of c.requests) e.ask(q);
        times.push((performance.now() - t0) / c.per);
      }
      times.sort((a, b) => a - b);
      out.push({ name: c.name, ms: times[Math.floor(times.length / 2)] });
    }
    send({ type: 'bench', results: out });
  },
  async analyze(m) {
    const record = m.record || game.record;
    const e = await load();
    let last = 0;
    const a = e.ask({ cmd: 'analyze', record }, null, (done, total) => {
      const now = Date.now();
      if (now - last > 200 || done === total) {
        last = now;
        send({ type: 'progress', done, total });
      }
    });
    send({ type: 'analysis', analysis: a });
  },
};

// one message at a time, in order: each may wait on the engine's load or the storage
let queue = Promise.resolve();
self.onmessage = (ev) => {
  const m = ev.data || {};
  queue = queue.then(async () => {
    const h = HANDLERS[m.type];
    if (!h) return fail({ code: 'bad_request', message: 'unknown message ' + m.type });
    if (!game && !['make', 'list', 'hello', 'ping', 'analyze', 'bench'].includes(m.type)) {
      return fail({ code: 'not_found', message: 'no game is open' });
    }
    try {
      await h(m);
    } catch (e) {
      fail(e);
    }
  });
};
