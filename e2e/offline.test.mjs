// A game against bots in the browser, with the engine in WebAssembly
// (engine.js, crates/browser): made from the lobby's "Play offline"
// button, played through the table page, a hint asked, the page reloaded
// mid-game (the game resumes from IndexedDB), the record downloaded and
// read by the CLI (replay, verify --allow-uncommitted, analyze), and the
// browser's analysis the same as the CLI's on that record.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, launchBrowser, newContext, serverBin, watchErrors, waitForState, playToEnd, pageState, SIZES } from './helpers.mjs';

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

const cli = (...args) => execFileSync(serverBin(), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

for (const [size, width, height] of SIZES) {
  // every level of the ladder plays, over the two sizes; Dalmuti's
  // session is two hands (the second with taxes), not twenty
  const [game, players, levels, options] =
    size === 'desktop'
      ? ['bigcheese', 4, ['random', 'heuristic', 'strong'], {}]
      : ['dalmuti', 4, ['learned', 'search', 'strong'], { hands: 2 }];
  test(`${size}: ${game} against bots in the browser, with a hint, a reload and the analysis`, async (t) => {
    const ctx = await newContext(browser, server.base, t, { viewport: { width, height }, acceptDownloads: true });
    const page = await ctx.newPage();
    const errors = [];
    watchErrors(page, errors);
    const id = await offlineGame(page, { game, players, levels, options });
    let st = await waitForState(page);
    assert.equal(st.seat, 'P1');
    assert.equal(st.seed, undefined, 'the seed stays in the worker');
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
    await page.screenshot({ path: join(dir, size + '.png'), fullPage: true });
    writeFileSync(join(dir, 'ok'), '1');
    assert.deepEqual(errors, []);
  });
}
