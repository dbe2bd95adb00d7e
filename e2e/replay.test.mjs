// End-to-end browser test of the replay page: a game of each
// kind is played to the end through the table page, then /replay/{id} is
// stepped with the keyboard and jumped to a chosen move, and the board it
// shows there is checked against the position the server rebuilds
// (GET /api/tables/{id}/replay/{from}).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, api, finishedTable, SIZES, newContext } from './helpers.mjs';

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

/** What the replay page shows: the step, the players panel, the hands panel, the log sections. */
const shown = (page) =>
  page.evaluate(() => ({
    step: Number(document.body.dataset.step),
    players: document.getElementById('players').innerText,
    hands: document.getElementById('hands').innerText,
    sections: [...document.querySelectorAll('#log details summary')].map((s) => s.textContent),
    now: document.getElementById('now').textContent,
  }));

for (const [game, options, botDelayMs] of [
  ['bigcheese', { dice: 'd6', target: '60' }, 5],
  ['dalmuti', { hands: '1' }, 250],
]) {
  test(`the replay of a finished ${game} game rebuilds the board at every step`, async (t) => {
    const ctx = await browser.newContext({ locale: 'en-US', baseURL: server.base });
    ctx.setDefaultTimeout(20000);
    t.after(() => ctx.close());
    const seats = [{ kind: 'human' }, { kind: 'bot', bot: 'heuristic' }, { kind: 'bot', bot: 'random' }];
    const id = await finishedTable(server.base, ctx, { game, players: 3, options, seats, bot_delay_ms: botDelayMs, public: true });
    const record = await api(server.base, '/api/tables/' + id + '/record');
    const n = record.actions.length;
    assert.ok(n > 4, `a real game: ${n} actions`);

    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto('/replay/' + id);
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    assert.equal((await shown(page)).step, 0, 'opens at the deal');

    // the keyboard steps forward and back
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    let s = await shown(page);
    assert.equal(s.step, 1);
    assert.ok(s.now.includes('Ann') || s.now.includes('P2') || s.now.includes('P3'), s.now);

    // jump to a chosen move and check the board against the server's position there
    const k = Math.floor(n / 2);
    await page.locator('#jump').fill(String(k));
    await page.locator('#jump').dispatchEvent('change');
    await page.waitForFunction((k) => document.body.dataset.step === String(k), k);
    s = await shown(page);
    const at = (await api(server.base, `/api/tables/${id}/replay/${k}`)).positions[0];
    assert.equal(at.step, k);
    if (game === 'bigcheese') {
      // each player's score and free chips at move k
      for (const seat of at.public.seats) {
        assert.ok(s.players.includes(`Score ${seat.score} / ${at.public.target}`), `score ${seat.score} at move ${k}:\n${s.players}`);
        assert.ok(new RegExp(`\\b${seat.free} free chips?\\b`).test(s.players), `free chips ${seat.free} at move ${k}:\n${s.players}`);
      }
      assert.ok(s.sections.some((x) => x.startsWith('Auction')), `the log is split by auction: ${s.sections}`);
    } else {
      // every hand is shown (the game is over), with its card count at move k
      const left = at.public.cards_left;
      for (let i = 0; i < left.length; i++) assert.ok(new RegExp(`\\b${left[i]} cards?\\b`).test(s.players), `P${i + 1} holds ${left[i]}:\n${s.players}`);
      assert.ok(s.hands.includes('Every hand'), s.hands);
      assert.ok(s.sections.some((x) => x.startsWith('Hand 1')), `the log is split by hand and trick: ${s.sections}`);
      assert.ok(s.sections.some((x) => /trick/.test(x)), `tricks: ${s.sections}`);
    }

    // REPLAY_SHOT=/tmp/x- saves what the page looked like at move k
    if (process.env.REPLAY_SHOT) await page.screenshot({ path: `${process.env.REPLAY_SHOT}${game}.png`, fullPage: true });

    // End (once the move box is left) goes to the last move
    await page.evaluate(() => document.activeElement.blur());
    await page.keyboard.press('End');
    s = await shown(page);
    assert.equal(s.step, n);
    assert.deepEqual(errors, [], 'no page errors');
  });
}

for (const [size, w, h] of SIZES) {
  test(`${size}: a private table's replay keeps its own address, so reloading or sharing it opens the replay`, async (t) => {
    const ctx = await newContext(browser, server.base, t, { viewport: { width: w, height: h } });
    const seats = [{ kind: 'human' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }];
    // private (the default): this browser keeps the table's key
    const id = await finishedTable(server.base, ctx, { game: 'dalmuti', players: 3, options: { hands: 1 }, seats, bot_delay_ms: 5 });
    const page = await ctx.newPage();
    await page.goto('/replay/' + id);
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    assert.equal(new URL(page.url()).pathname, '/replay/' + id);
    await page.reload();
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    assert.equal(new URL(page.url()).pathname, '/replay/' + id, 'a reload stays on the replay');
  });
}

for (const [size, w, h] of SIZES) {
  test(`${size}: the replay by keyboard: the last step keeps focus in the controls, and Home/End move the replay, not the page`, async (t) => {
    const ctx = await newContext(browser, server.base, t, { viewport: { width: w, height: h } });
    const seats = [{ kind: 'human' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }];
    const id = await finishedTable(server.base, ctx, { game: 'dalmuti', players: 3, options: { hands: 1 }, seats, bot_delay_ms: 5, public: true });
    const page = await ctx.newPage();
    await page.goto('/replay/' + id);
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    const total = Number(await page.locator('#slider').getAttribute('max'));
    // End: the last step, the page where it was
    const top = await page.evaluate(() => scrollY);
    await page.keyboard.press('End');
    assert.equal(await page.evaluate(() => document.body.dataset.step), String(total));
    assert.equal(await page.evaluate(() => scrollY), top, 'End did not scroll the page');
    await page.keyboard.press('Home');
    assert.equal(await page.evaluate(() => document.body.dataset.step), '0');
    assert.equal(await page.evaluate(() => scrollY), top, 'Home did not scroll the page');
    // ▶ pressed to the end: it disables itself, and focus goes to ◀
    await page.locator('#last').click();
    await page.keyboard.press('Home');
    await page.locator('#next').focus();
    for (let i = 0; i < total; i++) await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.body.dataset.step), String(total));
    assert.equal(await page.evaluate(() => document.activeElement.id), 'prev', 'focus stayed in the controls');
  });
}
