// End-to-end browser test of bot programs offered as lobby levels
// (`ratrace serve --bot NAME=CMD`): the lobby lists the level
// after the ladder, by its name; choosing it seats the program, which plays
// the game to its end against the person in the browser.
// Run: `npm ci --prefix e2e && node --test e2e/` (needs python3).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { chmodSync, copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startServer, launchBrowser, api, waitForState, playToEnd, ROOT } from './helpers.mjs';

let server;
let browser;

before(async () => {
  // A server run as root runs its bot programs as nobody, who may not
  // reach a checkout under a private folder: the program goes to a
  // folder every user can read.
  const dir = mkdtempSync(join(tmpdir(), 'ratrace-e2e-bot-'));
  chmodSync(dir, 0o755);
  copyFileSync(join(ROOT, 'examples/bots/random_bot.py'), join(dir, 'random_bot.py'));
  chmodSync(join(dir, 'random_bot.py'), 0o644);
  const bot = 'python3 ' + join(dir, 'random_bot.py');
  server = await startServer({ args: ['--bot', 'pyrandom=' + bot, '--bot-time', '2000'] });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('lobby: a bot program the operator offers is a level after the ladder, and plays the game', async (t) => {
  const ctx = await browser.newContext({ locale: 'en-US', baseURL: server.base });
  ctx.setDefaultTimeout(15000);
  t.after(() => ctx.close());
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // a small bot delay: the lobby has no control for it
  await page.route('**/api/tables', async (route) => {
    const req = route.request();
    if (req.method() !== 'POST') return route.continue();
    const body = JSON.parse(req.postData());
    await route.continue({ postData: JSON.stringify({ ...body, bot_delay_ms: 30 }) });
  });
  await page.goto('/');
  await page.locator('#game option').first().waitFor({ state: 'attached' });
  await page.locator('#game').selectOption('bigcheese');
  await page.locator('#name').fill('Ann');
  const seat = page.locator('#seats select').first();
  const options = await seat.locator('option').allInnerTexts();
  assert.equal(options[options.length - 1], 'bot program: pyrandom', `after the ladder: ${options}`);
  assert.ok(options.indexOf('bot level 5: search (expert)') < options.length - 1, `${options}`);
  await seat.selectOption('bot:pyrandom');
  await page.locator('#go').click();
  await page.waitForURL(/\/t\/[A-Za-z0-9_-]+$/, { timeout: 15000 });
  const id = new URL(page.url()).pathname.split('/').pop();
  await page.unroute('**/api/tables');
  const st = await waitForState(page);
  assert.equal(st.seat, 'P1');
  const info = await api(server.base, '/api/tables/' + id);
  assert.equal(info.seats[1].bot, 'pyrandom');
  // the table shows the seat by the program's name
  await page.getByText('bot program pyrandom').first().waitFor({ state: 'visible' });
  const moves = await playToEnd(page, { timeout: 100000 });
  assert.ok(moves > 0, 'the human made moves');
  const done = await api(server.base, '/api/tables/' + id);
  assert.equal(done.status, 'finished');
  assert.deepEqual(errors, []);
});
