// End-to-end browser tests of "Play now" (quick pairing) in the lobby, at
// phone (390x844) and desktop (1280x800) size: two people in two browser
// contexts choose the same preset and land at the same table in different
// seats; one alone is seated with bots after the shortest wait (5 s); the
// waiting screen survives a reload and is cancelled by its button. The
// waiting screen is checked with axe-core and, with PAIRING_SHOT=PREFIX,
// saved as PREFIX{phone,desktop}.png to look at.
// Run: `RATRACE_BIN=target/debug/ratrace node --test e2e/pairing.test.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newContext, watchErrors, audit, waitForState, pageState, SIZES } from './helpers.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/** Opens the lobby in a new context of size `w`x`h` and chooses preset `id`, bots after `wait` s. */
async function lobby(t, w, h, name, id, wait = '60') {
  const ctx = await newContext(browser, server.base, t, { viewport: { width: w, height: h } });
  const page = await ctx.newPage();
  await page.goto('/');
  await page.locator(`#preset option[value="${id}"]`).waitFor({ state: 'attached' });
  await page.fill('#pname', name);
  await page.selectOption('#preset', id);
  await page.selectOption('#pwait', wait);
  return page;
}

/** Waits for the table page and its seat (the state's `seat`). */
async function seatAt(page) {
  await page.waitForURL(/\/t\/[A-Za-z0-9_-]+$/, { timeout: 20000 });
  await waitForState(page);
  await page.waitForFunction(() => window.RR.table.st.seat);
  const st = await pageState(page);
  return { table: new URL(page.url()).pathname.split('/').pop(), seat: st.seat };
}

for (const [label, w, h] of SIZES) {
  test(`two people pressing Play now with one preset share a table (${label})`, async (t) => {
    const errors = [];
    const a = await lobby(t, w, h, 'Ann', 'bigcheese-3-casual');
    const b = await lobby(t, w, h, 'Bea', 'bigcheese-3-casual');
    const c = await lobby(t, w, h, 'Cy', 'bigcheese-3-casual');
    [a, b, c].forEach((p) => watchErrors(p, errors));
    await a.click('#play');
    await a.locator('#pairHere').filter({ hasText: '1 of 3 here' }).waitFor();
    await b.click('#play');
    await b.locator('#pairHere').filter({ hasText: '2 of 3 here' }).waitFor();
    // The waiting screen: what it says, whether it fits, what axe-core finds.
    await a.locator('#pairHere').filter({ hasText: '2 of 3 here' }).waitFor();
    assert.match(await a.locator('#pairTime').innerText(), /waited \d+ s · bots in \d+ s/);
    assert.deepEqual(await audit(a, `waiting screen (${label})`), []);
    const box = await a.locator('#pairWait').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= w, JSON.stringify(box));
    if (process.env.PAIRING_SHOT) await a.screenshot({ path: `${process.env.PAIRING_SHOT}${label}.png` });
    await c.click('#play');
    const seats = await Promise.all([a, b, c].map(seatAt));
    assert.equal(new Set(seats.map((s) => s.table)).size, 1, JSON.stringify(seats));
    assert.deepEqual(seats.map((s) => s.seat).sort(), ['P1', 'P2', 'P3']);
    assert.deepEqual(errors, []);
  });
}

test('one alone is seated with bots after the wait, and the wait survives a reload', async (t) => {
  const errors = [];
  const a = await lobby(t, 390, 844, 'Ann', 'dalmuti-4-one-hand', '5');
  watchErrors(a, errors);
  await a.click('#play');
  await a.locator('#pairHere').filter({ hasText: '1 of 4 here' }).waitFor();
  const ticket = await a.evaluate(() => JSON.parse(localStorage.getItem('ratrace.pairing')).ticket);
  await a.reload();
  await a.locator('#pairHere').filter({ hasText: '1 of 4 here' }).waitFor();
  assert.equal(await a.evaluate(() => JSON.parse(localStorage.getItem('ratrace.pairing')).ticket), ticket, 'the same ticket');
  const { table, seat } = await seatAt(a);
  assert.equal(seat, 'P1');
  const info = await (await fetch(`${server.base}/api/tables/${table}`)).json();
  assert.deepEqual(info.seats.map((s) => s.kind), ['human', 'bot', 'bot', 'bot']);
  assert.deepEqual(errors, []);
});

test('cancel leaves the pool and brings the form back', async (t) => {
  const errors = [];
  const a = await lobby(t, 1280, 800, 'Ann', 'dalmuti-5');
  const b = await lobby(t, 1280, 800, 'Bea', 'dalmuti-5');
  [a, b].forEach((p) => watchErrors(p, errors));
  await a.click('#play');
  await a.locator('#pairHere').filter({ hasText: '1 of 5 here' }).waitFor();
  await a.click('#pairCancel');
  await a.locator('#play').waitFor({ state: 'visible' });
  assert.equal(await a.evaluate(() => localStorage.getItem('ratrace.pairing')), null);
  // Ann is gone from the pool: Bea waits alone.
  await b.click('#play');
  await b.locator('#pairHere').filter({ hasText: '1 of 5 here' }).waitFor();
  await b.click('#pairCancel');
  await b.locator('#play').waitFor({ state: 'visible' });
  assert.deepEqual(errors, []);
});
