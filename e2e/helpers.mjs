// Helpers of the end-to-end browser tests (play.test.mjs): start the real
// `ratrace serve` on 127.0.0.1:0 with a database in a temp dir, launch
// Debian's chromium through playwright-core, and drive the table page of
// both games through its controls (buttons, the bid select, card buttons).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import Ajv2020 from 'ajv/dist/2020.js';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '..');

/** The server binary: $RATRACE_BIN (relative to the repository root) or target/debug/ratrace. */
export function serverBin() {
  const bin = resolve(ROOT, process.env.RATRACE_BIN || 'target/debug/ratrace');
  if (!existsSync(bin)) throw new Error(`no server binary at ${bin}: run \`cargo build -p cli\` or set RATRACE_BIN`);
  return bin;
}

/**
 * Starts `ratrace serve --addr 127.0.0.1:0 --db TMP/e2e.db`, reads the bound
 * address from its "serving on http://..." log line, and waits until
 * GET /api/games answers. Returns { base, stop(), kill(signal), output() }.
 * `db` replaces the database (a PostgreSQL URL, for the cluster test) and
 * `args` are added to the command line.
 */
export async function startServer({ db, args = [] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'ratrace-e2e-'));
  // a short D7 decision window keeps the games quick; the rest are defaults
  const argv = ['serve', '--addr', '127.0.0.1:0', '--db', db || join(dir, 'e2e.db'), '--revolution-window-ms', '1000', ...args];
  const proc = spawn(serverBin(), argv, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', RUST_LOG: process.env.RUST_LOG || 'info' },
  });
  let out = '';
  const exited = new Promise((res) => proc.once('exit', (code, sig) => res({ code, sig })));
  const base = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error('server did not report its address in 20 s:\n' + out)), 20000);
    const onData = (d) => {
      // tracing colours its output; strip ANSI escapes before matching
      out += d.toString().replace(/\x1b\[[0-9;]*m/g, '');
      const m = out.match(/serving on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) {
        clearTimeout(timer);
        res(m[1]);
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    exited.then(({ code, sig }) => {
      clearTimeout(timer);
      rej(new Error(`server exited (code ${code}, signal ${sig}) before serving:\n${out}`));
    });
  });
  const deadline = Date.now() + 10000;
  for (;;) {
    try {
      const r = await fetch(base + '/api/games');
      if (r.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error('server at ' + base + ' does not answer /api/games');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    output: () => out,
    /** Sends `signal` (SIGKILL: dies at once, no drain) and waits if it ends the process. */
    async kill(signal) {
      proc.kill(signal);
      if (signal === 'SIGKILL' || signal === 'SIGTERM') await exited;
    },
    async stop() {
      // the server's log, for a failed run: E2E_SERVER_LOG=/tmp/server.log
      if (process.env.E2E_SERVER_LOG) writeFileSync(process.env.E2E_SERVER_LOG, out);
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGINT'); // serve stops on Ctrl-C
        const t = setTimeout(() => proc.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(t);
      }
      if (!process.env.E2E_SERVER_LOG) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Launches headless chromium (Debian's /usr/bin/chromium unless $CHROMIUM is set). */
export async function launchBrowser() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  // The tests make every decision themselves: in each context the page's
  // "pass for me when I cannot play" starts off (a test of it turns it on)
  const open = browser.newContext.bind(browser);
  browser.newContext = async (opts) => {
    const ctx = await open(opts);
    await ctx.addInitScript(() => {
      if (localStorage.getItem('ratrace.alert.autoPass') == null) localStorage.setItem('ratrace.alert.autoPass', '0');
    });
    return ctx;
  };
  return browser;
}

/** The two sizes every page is tried at: a laptop and a phone. */
export const SIZES = [
  ['desktop', 1280, 800],
  ['phone', 390, 844],
];

/**
 * A fresh browser context of `browser` on the server at `base` (its own
 * localStorage: its own seat tokens and identity), English unless `opts`
 * says otherwise, closed when test `t` ends.
 */
export async function newContext(browser, base, t, opts = {}) {
  const ctx = await browser.newContext({ locale: 'en-US', baseURL: base, ...opts });
  ctx.setDefaultTimeout(15000);
  t.after(() => ctx.close());
  return ctx;
}

/**
 * Collects the page's errors in `errors`, so that a test fails with them
 * rather than silently: exceptions and console errors. A request the
 * server refused (the browser logs "Failed to load resource") counts only
 * with `resources`, for tests that make none on purpose.
 */
export function watchErrors(page, errors, { resources = false } = {}) {
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && (resources || !/^Failed to load resource/.test(m.text())) && errors.push(m.text() + ' ' + JSON.stringify(m.location())));
  checkFrames(page, errors);
}

/** The browser protocol's schema of what the server sends (generated from its types). */
const TO_CLIENT = JSON.parse(readFileSync(join(ROOT, 'docs/protocol/web/to-client.json'), 'utf8'));
// (formats such as "uint64" are the generator's notes on Rust's integer types)
const ajv = new Ajv2020({ strict: false, validateFormats: false });
/** Whether a message fits to-client.json. */
export const fitsToClient = ajv.compile(TO_CLIENT);
/** How many frames checkFrames has checked, in this test process. */
export const framesChecked = { n: 0 };

/**
 * Checks every frame `page` receives on a table's WebSocket against
 * docs/protocol/web/to-client.json: a frame that does not fit (or is not
 * JSON) is added to `errors`, with the schema's complaint.
 */
export function checkFrames(page, errors) {
  page.on('websocket', (ws) => {
    if (!/\/ws\//.test(ws.url())) return;
    ws.on('framereceived', ({ payload }) => {
      let m;
      try {
        m = JSON.parse(String(payload));
      } catch {
        errors.push('a WebSocket frame that is not JSON: ' + String(payload).slice(0, 120));
        return;
      }
      framesChecked.n++;
      if (!fitsToClient(m)) {
        errors.push(`a "${m && m.type}" frame does not fit to-client.json: ${ajv.errorsText(fitsToClient.errors)}`);
      }
    });
  });
}

/**
 * Creates a table (`body` as POST /api/tables takes it, P1 a person),
 * plays P1 through the page in `ctx` to the end and returns the table's id.
 */
export async function finishedTable(base, ctx, body, name = 'Ann') {
  const created = await api(base, '/api/tables', 'POST', body);
  const page = await ctx.newPage();
  await page.goto(created.invite);
  await joinViaForm(page, name);
  await playToEnd(page, { timeout: 120000 });
  await page.close();
  return created.id;
}

/** JSON over HTTP against the server; throws on a non-2xx answer. */
export async function api(base, path, method = 'GET', body) {
  const r = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** The table page's current state message (what the client draws from). */
export const pageState = (page) => page.evaluate(() => window.RR.table.st && JSON.parse(JSON.stringify(window.RR.table.st)));

/** Waits until the table page has a state (after hello). */
export async function waitForState(page, timeout = 15000) {
  await page.waitForFunction(() => window.RR && window.RR.table && window.RR.table.st, null, { timeout });
  return pageState(page);
}

/** Joins the table shown on `page` through its join form (invite link flow). */
export async function joinViaForm(page, name) {
  const form = page.locator('#join');
  await form.waitFor({ state: 'visible', timeout: 15000 });
  await form.locator('input').fill(name);
  await form.getByRole('button', { name: 'Join', exact: true }).click();
  await page.waitForFunction(() => window.RR.table.st && window.RR.table.st.seat, null, { timeout: 15000 });
  return pageState(page);
}

const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];

/** Cards of a Dalmuti set "2x7+J" / "J" / "3x12+2J" as a list of ranks. */
export function setCards(set) {
  const m = String(set).match(/^(?:(\d+)x)?(\d+|J)(?:\+(\d*)J)?$/);
  if (!m) throw new Error('not a set: ' + set);
  const n = m[1] ? Number(m[1]) : 1;
  const j = m[3] !== undefined ? Number(m[3] || 1) : 0;
  return Array(n).fill(m[2]).concat(Array(j).fill('J'));
}

/** The ranks of the clickable hand in #mine (the player area), in DOM order ("J" for Jesters). */
const handButtons = (page) =>
  page.$$eval('#mine button.card', (bs) => bs.map((b) => b.dataset.rank));

/** Clicks the hand's card buttons so that the selection is exactly `cards`. */
async function selectCards(page, cards) {
  // cards picked ahead of the turn stay picked: start from none
  for (const b of await page.locator('#mine button.card[aria-pressed="true"]').all()) await b.click();
  const ranks = await handButtons(page);
  const used = new Set();
  for (const c of cards) {
    const i = ranks.findIndex((r, k) => r === c && !used.has(k));
    if (i < 0) throw new Error(`card ${c} not among the hand buttons ${ranks.join(' ')}`);
    used.add(i);
    await page.locator('#mine button.card').nth(i).click();
  }
  const pressed = await page.$$eval('#mine button.card[aria-pressed="true"]', (bs) => bs.length);
  if (pressed !== cards.length) throw new Error(`selected ${pressed} cards, wanted ${cards.length}`);
}

/** Clicks an enabled button of #mine whose text is `name` (exact) or matches the RegExp. */
async function clickControl(page, name) {
  const b = page.locator('#mine').getByRole('button', typeof name === 'string' ? { name, exact: true } : { name });
  await b.first().waitFor({ state: 'visible', timeout: 5000 });
  if (!(await b.first().isEnabled())) throw new Error(`control ${name} is disabled`);
  await b.first().click();
}

/** One Big Cheese decision through the UI; returns the action taken. */
async function bigCheeseMove(page, legal) {
  const bids = legal.filter((a) => /^bid \d+$/.test(a));
  const choices = [];
  if (legal.includes('keep')) choices.push('keep', 'keep');
  legal.filter((a) => a.startsWith('reroll')).forEach((a) => choices.push(a));
  if (!choices.length) {
    if (legal.includes('pass')) choices.push('pass', 'pass');
    if (bids.length) choices.push('bid-select', 'bid-min');
    if (legal.includes('veto')) choices.push('veto');
  }
  const c = choices.length ? pick(choices) : null;
  if (c === 'bid-select') {
    const n = pick(bids.slice(0, 3)).slice(4); // small bids keep chips around
    await page.locator('#bidN').fill(n);
    await page.locator('#bidN').dispatchEvent('change');
    await clickControl(page, 'Bid ' + n);
    return 'bid ' + n;
  }
  if (c === 'bid-min') {
    await clickControl(page, 'Bid ' + bids[0].slice(4));
    return bids[0];
  }
  if (c === 'pass') return clickControl(page, /^Pass/).then(() => 'pass');
  if (c === 'veto') return clickControl(page, /^⛔ Veto/).then(() => 'veto');
  if (c === 'keep') return clickControl(page, /^Keep/).then(() => 'keep');
  if (c === 'reroll') return clickControl(page, /^🧀 Re-roll with/).then(() => c);
  if (c && c.startsWith('reroll ')) {
    // pick the dice by clicking them, then re-roll the picked ones
    const faces = c.slice(7).split(',');
    const shown = await page.$$eval('#mine button.die', (bs) => bs.map((b) => b.dataset.face));
    const used = new Set();
    for (const f of faces) {
      const i = shown.findIndex((x, k) => x === f && !used.has(k));
      if (i < 0) throw new Error(`no die showing ${f} among ${shown.join(' ')}`);
      used.add(i);
      await page.locator('#mine button.die').nth(i).click();
    }
    return clickControl(page, /^🧀 Re-roll (this|these)/).then(() => c);
  }
  // anything else the client shows as a generic button (its action in words)
  const a = pick(legal);
  const words = await page.evaluate((x) => window.RR.actionWords(x), a);
  await clickControl(page, words);
  return a;
}

/** One Dalmuti decision through the UI; returns the action taken. */
async function dalmutiMove(page, legal) {
  const plays = legal.filter((a) => a.startsWith('play '));
  const gives = legal.filter((a) => a.startsWith('give '));
  if (legal.includes('revolution') || legal.includes('no-revolution')) {
    const a = pick(legal.filter((x) => x === 'revolution' || x === 'no-revolution'));
    await clickControl(page, a === 'revolution' ? '✊ Declare a revolution' : 'Keep quiet');
    return a;
  }
  if (gives.length) {
    const a = pick(gives);
    await selectCards(page, a.slice(5).split(' '));
    await clickControl(page, 'Give');
    return a;
  }
  if (plays.length && !(legal.includes('pass') && Math.random() < 0.25)) {
    const a = pick(plays);
    await selectCards(page, setCards(a.slice(5)));
    await clickControl(page, 'Play');
    return a;
  }
  if (legal.includes('pass')) {
    await clickControl(page, 'Pass');
    return 'pass';
  }
  const a = pick(legal);
  await clickControl(page, await page.evaluate((x) => window.RR.actionWords(x), a));
  return a;
}

/**
 * Plays the seat of `page` to the end of the game through the UI: whenever
 * the client shows controls, takes a legal decision by clicking; waits for
 * the server's next state after each. Returns the number of moves made.
 */
export async function playToEnd(page, { timeout = 90000, onMove, beforeMove } = {}) {
  const end = Date.now() + timeout;
  let moves = 0;
  for (;;) {
    const left = end - Date.now();
    if (left <= 0) throw new Error(`game not over after ${timeout} ms (${moves} moves)`);
    await page.waitForFunction(
      () => {
        const T = window.RR && window.RR.table;
        if (!T || !T.st) return false;
        return T.st.over || (!T.pending && T.st.legal && T.st.legal.length > 0 && !document.getElementById('mine').classList.contains('hidden'));
      },
      null,
      { timeout: left, polling: 50 }
    );
    const st = await pageState(page);
    if (st.over) break;
    // a hook that disturbed the table (killed a server) returns true: the
    // turn is looked for again
    if (beforeMove && (await beforeMove(st))) continue;
    const dal = st.view && st.view.public && st.view.public.hand_number !== undefined;
    const action = dal ? await dalmutiMove(page, st.legal) : await bigCheeseMove(page, st.legal);
    moves++;
    if (onMove) onMove(action, st);
    // the server's answer: a new state (seq moves on) or an error shown in
    // #msg; a held D7 decision (a notice) waits for its window to close
    await page.waitForFunction(
      (seq) => {
        const T = window.RR.table;
        return T.st.seq !== seq || T.st.over || (document.getElementById('msg').textContent !== '' && !T.pending && !T.held);
      },
      st.seq,
      { timeout: Math.max(1000, Math.min(15000, end - Date.now())), polling: 50 }
    );
    const err = await page.locator('#msg').textContent();
    if (err) throw new Error(`action "${action}" at seq ${st.seq} was answered: ${err}`);
  }
  await page.locator('#result').waitFor({ state: 'visible', timeout: 10000 });
  return moves;
}

const AXE = readFileSync(resolve(HERE, 'node_modules/axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core (WCAG 2 A and AA rules) on the page as it is and returns
 * its serious and critical violations, one line each, named by `where`;
 * with `all`, every rule axe-core runs by default and every impact.
 */
export async function audit(page, where, { all = false } = {}) {
  // evaluated through the DevTools protocol: the page's CSP does not apply
  await page.evaluate(AXE);
  const violations = await page.evaluate(async (all) => {
    // `all`: every rule axe-core runs by default (best practices too), every impact
    const r = all ? await window.axe.run(document) : await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.filter((v) => all || v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\n').slice(0, 2).join(' ')) }));
  }, all);
  return violations.map((v) => `${where}: ${v.impact} ${v.id} (${v.nodes.join(' | ')})`);
}

/**
 * The table page's layout as it is on the screen, measured against the
 * viewport (the page is not scrolled here): each seat's rectangle (the
 * player's own marked), the board's, each card of the hand with the width
 * and height of its part that a tap reaches (points where the page's hit
 * test finds that card), each control of the player's area (buttons and
 * inputs that are not cards) with whether a tap on its middle reaches it,
 * and the seats' share of the viewport's height (the union of their
 * vertical extents: every seat, and the others' alone).
 */
export const tableLayout = (page) =>
  page.evaluate(() => {
    const vw = innerWidth;
    const vh = innerHeight;
    const rect = (n) => {
      const r = n.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height };
    };
    const inView = (r) => r.top >= -1 && r.left >= -1 && r.bottom <= vh + 1 && r.right <= vw + 1;
    /** The length of the union of [top, bottom] intervals, clipped to the viewport. */
    const union = (rs) => {
      const iv = rs.map((r) => [Math.max(0, r.top), Math.min(vh, r.bottom)]).filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
      let sum = 0;
      let end = -Infinity;
      for (const [a, b] of iv) {
        if (b <= end) continue;
        sum += b - Math.max(a, end);
        end = b;
      }
      return sum;
    };
    const seats = [...document.querySelectorAll('#players .seat')].map((n) => ({ seat: n.dataset.seat, me: n.classList.contains('me'), ...rect(n) }));
    const board = rect(document.getElementById('board'));
    /** The part of `n` a tap reaches: the widest run of x (at its middle height) and of y (in that run's middle) where the hit test finds `n`. */
    const reach = (n, r) => {
      const hits = (x, y) => {
        const h = document.elementFromPoint(x, y);
        return !!h && (h === n || n.contains(h));
      };
      const y = Math.min(vh - 1, Math.max(0, r.top + r.height / 2));
      let best = [0, 0];
      let run = null;
      for (let x = Math.floor(r.left); x <= Math.ceil(r.right); x++) {
        if (x >= 0 && x < vw && hits(x, y)) {
          run = run || [x, x];
          run[1] = x;
          if (run[1] - run[0] > best[1] - best[0]) best = run.slice();
        } else run = null;
      }
      const w = best[1] > best[0] ? best[1] - best[0] + 1 : 0;
      const xm = (best[0] + best[1]) / 2;
      let hgt = 0;
      if (w) for (let yy = Math.floor(r.top); yy <= Math.ceil(r.bottom); yy++) if (yy >= 0 && yy < vh && hits(xm, yy)) hgt++;
      return { w, h: hgt };
    };
    const cards = [...document.querySelectorAll('#mine .hand button.card')].map((n) => {
      const r = rect(n);
      return { rank: n.dataset.rank, ...r, reach: inView(r) ? reach(n, r) : { w: 0, h: 0 } };
    });
    const controls = [...document.querySelectorAll('#mine button:not(.card), #mine input')]
      .filter((n) => n.getClientRects().length)
      .map((n) => {
        const r = rect(n);
        const h = inView(r) ? document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) : null;
        return { name: (n.getAttribute('aria-label') || n.textContent || n.id).trim(), ...r, hit: !!h && (h === n || n.contains(h)) };
      });
    return {
      vw,
      vh,
      scrollY,
      seats,
      board,
      cards,
      controls,
      seatShare: union(seats) / vh,
      othersShare: union(seats.filter((s) => !s.me)) / vh,
      // the seats' heights added up (seats side by side count each)
      seatSum: seats.reduce((n, s) => n + Math.max(0, Math.min(vh, s.bottom) - Math.max(0, s.top)), 0) / vh,
      othersSum: seats.filter((s) => !s.me).reduce((n, s) => n + Math.max(0, Math.min(vh, s.bottom) - Math.max(0, s.top)), 0) / vh,
      othersSpan: seats.some((s) => !s.me) ? (Math.max(...seats.filter((s) => !s.me).map((s) => s.bottom)) - Math.min(...seats.filter((s) => !s.me).map((s) => s.top))) / vh : 0,
      // from the top of the highest seat to the bottom of the lowest, gaps included
      seatSpan: seats.length ? (Math.max(...seats.map((s) => s.bottom)) - Math.min(...seats.map((s) => s.top))) / vh : 0,
    };
  });

/** Presses Tab (Shift+Tab with `back`), at most 60 times, until `pred(arg)` holds in the page; throws if it never does. */
export async function tabTo(page, pred, arg, back = false) {
  for (let i = 0; i < 60; i++) {
    if (await page.evaluate(pred, arg)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error('Tab never reached ' + pred);
}

/** In the page: focus is on a card of the player's hand. */
export const onCard = () => !!document.activeElement && document.activeElement.matches('#mine .hand button.card');

/** In the page: focus is on a button of the player's area whose text starts with `text`. */
export const onButton = (text) => {
  const a = document.activeElement;
  return !!a && a.tagName === 'BUTTON' && document.getElementById('mine').contains(a) && a.textContent.trim().startsWith(text);
};

/**
 * One Dalmuti decision by keyboard alone, its cards picked by `pick(page,
 * ranks)`: keep quiet at a revolution, the first gift asked, a pass on
 * every third turn `k` it may (or with nothing to play), else the smallest
 * play (few cards, so the hand runs out and last cards are played). Returns
 * the action.
 */
export async function keyboardTurn(page, legal, k, pick) {
  if (legal.includes('no-revolution')) {
    await tabTo(page, onButton, 'Keep quiet');
    await page.keyboard.press('Enter');
    return 'no-revolution';
  }
  const gives = legal.filter((a) => a.startsWith('give '));
  if (gives.length) {
    await pick(page, gives[0].slice(5).split(' '));
    await page.keyboard.press('Enter');
    return gives[0];
  }
  const plays = legal.filter((a) => a.startsWith('play '));
  if (legal.includes('pass') && (k % 3 === 0 || !plays.length)) {
    await tabTo(page, onButton, 'Pass');
    await page.keyboard.press('Enter');
    return 'pass';
  }
  const a = plays.sort((x, y) => setCards(x.slice(5)).length - setCards(y.slice(5)).length)[0];
  await pick(page, setCards(a.slice(5)));
  await page.keyboard.press('Enter');
  return a;
}
