// Browser tests of a person's profile (/p/{id}), at desktop (1280×800)
// and phone (390×844) size: after two quick rated games against bots at
// public tables, the leaderboard's name opens the profile (and My games
// and the table lists link finished games' seat names to theirs); its graph has a
// point per rated game, its results match the games' winners, a recent
// game links to its replay; another person follows and blocks her from
// it; nothing scrolls sideways on the phone; and axe-core finds nothing
// in English, Italian and French.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, api, audit, SIZES, newContext, watchErrors, finishedTable } from './helpers.mjs';

let server;
let browser;
/** The rated games at public tables, the rated private one, and the person's short id. */
const played = { ids: [], winners: [], hidden: null, player: null };

before(async () => {
  server = await startServer({ args: ['--create-burst', '500', '--join-burst', '500', '--max-live-tables-per-ip', '500', '--record-burst', '500'] });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/** A Big Cheese against two bots at a public table, long enough to be rated. */
const quickGame = { game: 'bigcheese', players: 3, seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }], options: { dice: 'd6', target: '60' }, bot_delay_ms: 5, public: true };

test('two rated games at public tables, and one at a private table', async (t) => {
  const ctx = await newContext(browser, server.base, t);
  const page = await ctx.newPage();
  await page.goto('/');
  const key = await page.evaluate(() => window.RR.identity());
  /** My games once table `id`'s result is recorded (its winners known). */
  const recorded = async (id) => {
    for (let i = 0; i < 100; i++) {
      const r = await fetch(server.base + '/api/me/games', { headers: { 'X-Ratrace-Key': key } }).then((x) => x.json());
      const g = r.games.find((x) => x.id === id);
      if (g && g.winners) return r;
      await new Promise((ok) => setTimeout(ok, 100));
    }
    throw new Error('no result for ' + id);
  };
  const rated = (m) => (m.ratings[0] ? m.ratings[0].games : 0);
  // a game of fewer than 30 actions is not rated (a quick one by luck): play on until two are
  let mine = { ratings: [] };
  for (let i = 0; i < 6 && rated(mine) < 2; i++) {
    const id = await finishedTable(server.base, ctx, quickGame, 'Ann');
    const before = rated(mine);
    mine = await recorded(id);
    if (rated(mine) > before) {
      played.ids.push(id);
      played.winners.push(mine.games.find((x) => x.id === id).winners);
    }
  }
  assert.equal(played.ids.length, 2, 'two rated public games');
  for (let i = 0; i < 4 && rated(mine) < 3; i++) {
    const id = await finishedTable(server.base, ctx, { ...quickGame, public: false }, 'Ann');
    mine = await recorded(id);
    played.hidden = id;
  }
  assert.equal(rated(mine), 3, 'a rated private game too');
  played.player = mine.player;
  const p = await api(server.base, '/api/players/' + played.player);
  assert.equal(p.ratings[0].games, 3, 'three rated games');
  assert.equal(p.ratings[0].public_games, 2, 'two of them public');
  assert.deepEqual(p.ratings[0].history.map((x) => x.table), played.ids, 'the public ones, oldest first');
  // a finished public game's seat names link to the profiles, in My games too
  await page.reload();
  const seatLinks = page.locator(`#mineList a[href="/p/${played.player}"]`);
  await seatLinks.first().waitFor();
  assert.ok((await seatLinks.count()) >= 2, 'My games links Ann at her finished games');
  // "My profile" in the lobby is this browser's
  await page.locator('#myProfile').click();
  await page.waitForURL('**/p/' + played.player);
  await page.locator('#out[data-ready="1"]').waitFor();
});

for (const [size, w, h] of SIZES) {
  test(`${size}: the leaderboard opens the profile; its graph, results and recent games match the games`, async (t) => {
    const ctx = await newContext(browser, server.base, t, { viewport: { width: w, height: h } });
    const page = await ctx.newPage();
    const errors = [];
    watchErrors(page, errors);
    await page.goto('/');
    await page.locator('#leaderboard a', { hasText: 'Ann' }).first().click();
    await page.waitForURL('**/p/' + played.player);
    await page.locator('#out[data-ready="1"]').waitFor();
    assert.match(await page.locator('#pName').textContent(), /Ann/);
    const card = page.locator('.pg-card[data-game="bigcheese"]');
    assert.equal(await card.locator('svg.pg-graph circle.pg-point').count(), 2, 'a point per rated game at a public table');
    // the results, against the games' winners (Ann is P1)
    const wins = played.winners.filter((ws) => ws.some((x) => x === 'P1' || x === 0)).length;
    const tiles = await card.locator('.pg-tiles dd').allTextContents();
    assert.equal(tiles[0], '2', 'games');
    const p = await api(server.base, '/api/players/' + played.player);
    assert.equal(tiles[1], String(p.ratings[0].stats.wins), 'wins as the API says');
    assert.equal(p.ratings[0].stats.wins, wins, `wins as the games say (${JSON.stringify(played.winners)})`);
    // by variant: both public games were played with these options
    const variant = card.locator('table.pg-variants tbody tr');
    assert.equal(await variant.count(), 1);
    assert.match(await variant.first().innerText(), /Payout dice[\s\S]*\b2\b/);
    // the history table (the graph's text alternative) has a row per point
    assert.equal(await card.locator('.pg-details tbody tr').count(), 2);
    // anyone's profile: a game is said in the third person, never "you played"
    assert.match(await page.locator('.pg-game').first().textContent(), /in seat P\d/);
    // the private table is nowhere
    assert.equal(await page.locator(`a[href="/replay/${played.hidden}"]`).count(), 0);
    // nothing scrolls sideways
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(wide <= 0, `the page scrolls sideways by ${wide}px`);
    // another person (this context) follows Ann from her profile, then
    // blocks her; the buttons say what they will do, and both stay
    await page.locator('#followBtn', { hasText: 'Follow' }).click();
    await page.locator('#relation', { hasText: 'You follow Ann.' }).waitFor();
    await page.locator('#blockBtn', { hasText: 'Block' }).click();
    await page.locator('#relation', { hasText: 'You follow Ann. You block Ann.' }).waitFor();
    await page.reload();
    await page.locator('#relation', { hasText: 'You follow Ann. You block Ann.' }).waitFor();
    assert.equal(await page.locator('#followBtn').textContent(), 'Unfollow');
    assert.equal(await page.locator('#blockBtn').textContent(), 'Unblock');
    // a recent game opens its replay
    await page.locator('.pg-games a').first().click();
    await page.waitForURL(/\/replay\//);
    assert.ok(played.ids.some((id) => page.url().endsWith('/replay/' + id)), page.url());
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    assert.deepEqual(errors, []);
  });
}

test('axe-core finds nothing on the profile at both sizes in English, Italian and French', async (t) => {
  const found = [];
  for (const [size, w, h] of SIZES) {
    for (const locale of ['en-US', 'it-IT', 'fr-FR']) {
      const ctx = await browser.newContext({ locale, baseURL: server.base, viewport: { width: w, height: h }, reducedMotion: 'reduce' });
      t.after(() => ctx.close());
      const page = await ctx.newPage();
      await page.goto('/p/' + played.player);
      await page.locator('#out[data-ready="1"]').waitFor();
      // the history table open too
      await page.locator('.pg-details summary').first().click();
      found.push(...(await audit(page, `profile ${size} ${locale}`, { all: true })));
    }
  }
  assert.deepEqual(found, [], found.join('\n'));
});

test('an unknown id says so, a malformed one too', async (t) => {
  const ctx = await newContext(browser, server.base, t);
  const page = await ctx.newPage();
  await page.goto('/p/00000000');
  await page.locator('#msg').filter({ hasText: 'Nobody rated' }).waitFor();
  await page.goto('/p/nope');
  await page.locator('#msg').filter({ hasText: /8 lowercase hex/ }).waitFor();
});
