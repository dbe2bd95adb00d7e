// Offline after one visit: the site is kept by its service worker (sw.js),
// and a game against bots runs in the browser with the engine in
// WebAssembly (engine.js, crates/browser). With the browser context set
// offline, the lobby reloads, its "Play offline" button makes a game, the
// table page plays it to the end, a hint is asked, the page is reloaded
// mid-game (the game resumes from IndexedDB), the record is downloaded and
// read by the CLI (replay, verify --allow-uncommitted, analyze), and the
// browser's analysis is drawn and equals the CLI's on that record. The
// site is installable (Chromium's own check, through the DevTools
// protocol).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer, launchBrowser, newContext, serverBin, watchErrors, waitForState, playToEnd, pageState, SIZES, finishedTable, api } from './helpers.mjs';

let server, browser;
const dir = mkdtempSync(join(tmpdir(), 'ratrace-offline-'));

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Makes a local game from the lobby's form; the page ends at the local table. */
async function offlineGame(page, { game, players, levels, options = {} }) {
  await page.goto('/');
  await page.locator('#game option').first().waitFor({ state: 'attached' });
  await page.locator('#game').selectOption(game);
  await page.locator('#players').selectOption(String(players));
  await page.locator('#name').fill('Ann');
  await page.locator('#set-bot_delay_ms').fill('0.02');
  if (Object.keys(options).length) await page.locator('#create details summary').click();
  for (const [key, value] of Object.entries(options)) await page.locator(`#opt-${game}-${key}`).fill(String(value));
  const seats = page.locator('#seats select');
  for (let i = 0; i < levels.length; i++) await seats.nth(i).selectOption('bot:' + levels[i]);
  await page.locator('#offline').click();
  await page.waitForURL(/\/local\/\?id=L[0-9a-f]+$/, { timeout: 15000 });
  return new URL(page.url()).searchParams.get('id');
}

/** Waits until the service worker controls the page and keeps the shell (the engine among it). */
async function kept(page, what = '/static/engine.wasm?v=') {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(
    async (w) => {
      for (const k of await caches.keys()) {
        const urls = (await (await caches.open(k)).keys()).map((r) => r.url);
        if (urls.some((u) => u.includes(w))) return true;
      }
      return false;
    },
    what,
    { timeout: 30000, polling: 200 }
  );
}

/**
 * Chromium's installability check, through the DevTools protocol, in a
 * profile of its own (a test context is incognito, which no site may be
 * installed from): the manifest read without errors, with its icons, and
 * no installability error.
 */
async function installable() {
  const profile = mkdtempSync(join(tmpdir(), 'ratrace-profile-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  try {
    const page = await ctx.newPage();
    await page.goto(server.base + '/');
    await kept(page);
    const cdp = await ctx.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifest.errors, [], 'the manifest reads');
    assert.match(manifest.data, /icon-512\.png/);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, [], 'Chromium finds the site installable: ' + JSON.stringify(installabilityErrors));
  } finally {
    await ctx.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const cli = (...args) => execFileSync(serverBin(), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

for (const [size, width, height] of SIZES) {
  // every level of the ladder plays each title (six seats: five bots);
  // Dalmuti's session is two hands (the second with taxes), not twenty
  const levels = ['random', 'heuristic', 'strong', 'learned', 'search'];
  const [game, players, options] = size === 'desktop' ? ['bigcheese', 6, {}] : ['dalmuti', 6, { hands: 2 }];
  test(`${size}: ${game} against bots in the browser, with a hint, a reload and the analysis`, async (t) => {
    const ctx = await newContext(browser, server.base, t, { viewport: { width, height }, acceptDownloads: true });
    const page = await ctx.newPage();
    const errors = [];
    watchErrors(page, errors);
    await page.goto('/');
    await kept(page);
    if (size === 'desktop') await installable();
    // the learned level's network loads when a game with it opens, and is
    // kept from then on: the game starts online and goes on offline (the
    // static site's test makes one offline from the start)
    const id = await offlineGame(page, { game, players, levels, options });
    await waitForState(page);
    await kept(page, '/static/' + game + '.safetensors?v=');
    await ctx.setOffline(true);
    await page.reload();
    assert.equal(await page.evaluate(() => navigator.onLine), false, 'the browser is offline');
    let st = await waitForState(page);
    assert.equal(st.seat, 'P1');
    assert.ok(st.seed == null, 'the seed stays in the worker: ' + st.seed);
    const info = await page.evaluate(() => window.RR.table.info);
    assert.deepEqual(
      info.seats.slice(1).map((s) => s.bot),
      levels
    );
    // a hint, at the first decision of the person's
    await page.waitForFunction(() => window.RR.table.st.legal.length > 0, null, { timeout: 30000 });
    await page.locator('#hint').click();
    await page.locator('#hintText').filter({ hasText: 'would play' }).waitFor({ timeout: 30000 });
    // a few moves, then a reload: the game goes on where it was
    let moves = 0;
    await playToEnd(page, { timeout: 60000, beforeMove: () => moves++ >= 3 && 'stop' }).catch(() => {});
    const before = await pageState(page);
    await page.reload();
    st = await waitForState(page);
    assert.ok(st.seq >= before.seq, `after the reload the game is at ${st.seq}, before it at ${before.seq}`);
    assert.equal(st.log_from + st.log.length >= before.log.length, true);
    await playToEnd(page, { timeout: 240000 });
    st = await pageState(page);
    assert.ok(st.over && st.outcome, 'the game is over');
    assert.match(st.seed, /^[0-9a-f]{64}$/, 'the seed is told once over');
    // the record, downloaded, is read by the CLI
    const link = page.locator('#localRecord');
    await link.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const file = join(dir, id + '.json');
    await download.saveAs(file);
    const record = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(record.seed, st.seed);
    assert.match(cli('replay', file), /.+/);
    assert.match(cli('verify', file, '--allow-uncommitted'), /.+/);
    // the analysis in the browser, drawn, equals the CLI's on the record
    await page.locator('#an-start').click();
    await page.waitForFunction(() => document.body.dataset.analysis === 'done', null, { timeout: 240000 });
    const mine = await page.evaluate(() => window.RR.local.an.analysis);
    const theirs = JSON.parse(cli('analyze', file, '--json', '--quiet'));
    assert.equal(mine.decisions.length, theirs.decisions.length);
    for (let i = 0; i < mine.decisions.length; i++) {
      const [a, b] = [mine.decisions[i], theirs.decisions[i]];
      assert.ok(Math.abs(a.loss - b.loss) < 1e-9, `decision ${i}: ${a.loss} against ${b.loss}`);
      assert.equal(a.label, b.label);
    }
    if (process.env.E2E_SHOTS) await page.screenshot({ path: join(process.env.E2E_SHOTS, 'offline-' + size + '.png'), fullPage: true });
    // the lobby, offline, lists the game to go back to
    await page.goto('/');
    await page.locator('#localList a').first().waitFor();
    assert.equal(await page.locator('#localList a').first().getAttribute('href'), '/local/?id=' + encodeURIComponent(id));
    assert.deepEqual(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|network/i.test(e)), []);
  });
}

test('a static site (ratrace site DIR, served by python3 -m http.server) plays a whole offline game', async (t) => {
  const site = join(dir, 'site');
  cli('site', site);
  const py = spawn('python3', ['-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', site], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => py.kill());
  const base = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error('python3 -m http.server did not start')), 10000);
    py.stdout.on('data', (d) => {
      const m = String(d).match(/port (\d+)/);
      if (m) {
        clearTimeout(timer);
        res('http://127.0.0.1:' + m[1]);
      }
    });
  });
  const ctx = await newContext(browser, base, t);
  const page = await ctx.newPage();
  const errors = [];
  watchErrors(page, errors);
  await page.goto('/');
  await kept(page);
  // only what needs no server is shown
  assert.equal(await page.locator('#playnow').isVisible(), false);
  assert.equal(await page.locator('#go').isVisible(), false);
  await ctx.setOffline(true);
  await page.reload();
  await offlineGame(page, { game: 'dalmuti', players: 4, levels: ['random', 'heuristic', 'strong'], options: { hands: 1 } });
  const st = await waitForState(page);
  assert.equal(st.seat, 'P1');
  await playToEnd(page, { timeout: 120000 });
  assert.ok((await pageState(page)).over);
  await page.locator('#localRecord').waitFor();
  assert.deepEqual(errors, []);
});

test("a finished online game's analysis, in this browser, equals the CLI's on its record", async (t) => {
  const ctx = await newContext(browser, server.base, t, { reducedMotion: 'reduce' });
  const seats = [{ kind: 'human' }, { kind: 'bot', bot: 'heuristic' }, { kind: 'bot', bot: 'random' }];
  const id = await finishedTable(server.base, ctx, { game: 'dalmuti', players: 3, options: { hands: '1' }, seats, bot_delay_ms: 5, public: true });
  const page = await ctx.newPage();
  const errors = [];
  watchErrors(page, errors);
  await page.goto('/replay/' + id);
  await page.waitForFunction(() => document.body.dataset.analysis === 'none');
  await page.locator('#an-here').click();
  await page.waitForFunction(() => document.body.dataset.analysis === 'done', null, { timeout: 120000 });
  await page.locator('table.an-sum').waitFor();
  const file = join(dir, id + '.json');
  writeFileSync(file, JSON.stringify(await api(server.base, '/api/tables/' + id + '/record')));
  const theirs = JSON.parse(cli('analyze', file, '--json', '--quiet'));
  const mine = await page.evaluate(() => window.RR.analysis());
  assert.equal(mine.decisions.length, theirs.decisions.length);
  mine.decisions.forEach((a, i) => {
    assert.ok(Math.abs(a.loss - theirs.decisions[i].loss) < 1e-9, `decision ${i}`);
    assert.equal(a.label, theirs.decisions[i].label);
  });
  assert.deepEqual(errors, []);
});
