// End-to-end browser test of the fairness check page (/verify): the
// browser keeps, beside its contribution, the commitment it was shown
// when it sat down; the page marks that contribution as the player's only
// on that table's own record. Another table's record (the same browser
// contributed there too) is refused as another table's, and a record
// without a commitment is unverifiable, never verified.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, api, playToEnd } from './helpers.mjs';

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

/** A short table of one person and two bots (the person plays it through the page, below). */
async function table() {
  const seats = [{ kind: 'human' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }];
  return api(server.base, '/api/tables', 'POST', { game: 'bigcheese', players: 3, options: { target: 10 }, seats, bot_delay_ms: 5, public: true });
}

async function finished(id) {
  const deadline = Date.now() + 90000;
  for (;;) {
    const info = await api(server.base, '/api/tables/' + id);
    if (info.status === 'finished') return;
    assert.ok(Date.now() < deadline, `table ${id} never finished: ${info.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Checks the record now in the page's text box; the verdict and the page's text. */
async function check(page) {
  await page.locator('#check').click();
  const verdict = page.locator('#verdict');
  await verdict.waitFor({ timeout: 15000 });
  return { verdict: await verdict.getAttribute('data-verdict'), text: await page.locator('#out').innerText() };
}

test('the fairness page tells this table\'s record from another\'s, and an uncommitted one from a verified one', async (t) => {
  const ctx = await browser.newContext({ locale: 'en-US', baseURL: server.base });
  const page = await ctx.newPage();
  await page.goto('/');
  await page.waitForFunction(() => window.RR && window.RR.join);
  const x = await table();
  const y = await table();
  // This browser sits down at both tables, as a person does.
  for (const id of [x.id, y.id]) await page.evaluate((id) => window.RR.join(id, 'Ann'), id);
  const kept = await page.evaluate(([a, b]) => [window.RR.commitment(a), window.RR.commitment(b)], [x.id, y.id]);
  assert.deepEqual(kept, [x.seed_hash, y.seed_hash], 'the commitment shown at the join is kept');
  // The person plays both tables through the page (a stand-in plays
  // for a person who is away only on a timer).
  const games = [];
  for (const id of [x.id, y.id]) {
    const p = await ctx.newPage();
    await p.goto('/t/' + id);
    games.push(playToEnd(p, { timeout: 90000 }).then(() => p.close()));
  }
  await Promise.all(games);
  await Promise.all([finished(x.id), finished(y.id)]);

  await page.goto('/verify?id=' + x.id);
  await page.locator('#verdict').waitFor({ timeout: 15000 });
  const own = await page.locator('#out').innerText();
  assert.equal(await page.locator('#verdict').getAttribute('data-verdict'), 'verified', own);
  assert.ok(own.includes('yours: made by this browser'), own);

  // Table Y's record, pasted on the page opened for table X.
  const other = await api(server.base, '/api/tables/' + y.id + '/record');
  await page.locator('#rec').fill(JSON.stringify(other));
  const refused = await check(page);
  t.diagnostic(refused.text.split('\n')[0]);
  assert.equal(refused.verdict, 'failed', refused.text);
  assert.ok(refused.text.includes(`This record is not table ${x.id}'s`), refused.text);
  assert.ok(!refused.text.includes('yours: made by this browser'), 'no contribution is marked as this player\'s');

  // X's own record with its fair deal removed (a server that chose the
  // seed alone): on X's page, which this browser contributed to, refused.
  const bare = await api(server.base, '/api/tables/' + x.id + '/record');
  delete bare.fairness;
  delete bare.seed_hash;
  await page.locator('#rec').fill(JSON.stringify(bare));
  const stripped = await check(page);
  assert.equal(stripped.verdict, 'failed', stripped.text);
  assert.ok(stripped.text.includes('it carries no fair deal'), stripped.text);
  // The same record on the page opened for no table: it replays, but
  // proves nothing.
  await page.goto('/verify');
  await page.locator('#rec').fill(JSON.stringify(bare));
  const uncommitted = await check(page);
  assert.equal(uncommitted.verdict, 'unverifiable', uncommitted.text);
  assert.ok(uncommitted.text.includes('nothing shows the server fixed its seed'), uncommitted.text);
  await ctx.close();
});
