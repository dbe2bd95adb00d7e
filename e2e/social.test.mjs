// End-to-end browser tests of the social side of a table:
// two people in two browser contexts chat at their table, play it to the
// end, and one click on Rematch brings both to the new table, seated; the
// lobby then lists the game under "My games" and the finished games with
// players and winner. At desktop (1280x800) and phone (390x844) size.
// Run: `npm ci --prefix e2e && node --test e2e/`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, api, waitForState, joinViaForm, playToEnd, watchErrors } from './helpers.mjs';

/** Shows the chat: its tab on a narrow screen, where the side column has tabs. */
async function openChat(page) {
  await page.waitForFunction(() => !document.getElementById('chat').classList.contains('hidden'));
  if (await page.locator('#tab-chat').isVisible()) await page.locator('#tab-chat').click();
  await page.locator('#chat').waitFor({ state: 'visible' });
}

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

for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
]) {
  test(`two people chat, play, and a rematch brings both to the new table (${label})`, async (t) => {
    const contexts = [];
    const context = async () => {
      const ctx = await browser.newContext({ locale: 'en-US', baseURL: server.base, viewport });
      ctx.setDefaultTimeout(15000);
      contexts.push(ctx);
      return ctx;
    };
    t.after(() => Promise.all(contexts.map((c) => c.close())));
    const { id, invite } = await api(server.base, '/api/tables', 'POST', {
      game: 'bigcheese',
      players: 3,
      options: { target: 10 },
      seats: [{ kind: 'human' }, { kind: 'human' }, { kind: 'bot', bot: 'random' }],
      bot_delay_ms: 30,
      public: true,
    });
    const [a, b] = [await (await context()).newPage(), await (await context()).newPage()];
    const errors = [];
    watchErrors(a, errors);
    watchErrors(b, errors);
    await a.goto(invite);
    assert.equal((await joinViaForm(a, 'Ann')).seat, 'P1');
    await b.goto(invite);
    assert.equal((await joinViaForm(b, 'Bob')).seat, 'P2');

    // chat: words from Ann, an emote from Bob, each seen by the other
    // on a narrow screen the chat is a tab below the game
    await openChat(a);
    await openChat(b);
    await a.locator('#chatText').fill('hello Bob\u200B, good luck');
    await a.locator('#chatText').press('Enter');
    await b.locator('#chatLines').filter({ hasText: 'Ann (P1): hello Bob, good luck' }).waitFor();
    await b.locator('#chat').getByRole('button', { name: 'Good game' }).click();
    await a.locator('#chatLines').filter({ hasText: 'Bob (P2): 🤝 Good game' }).waitFor();
    assert.equal(await a.locator('#chatText').inputValue(), '', 'the input is emptied once sent');

    await Promise.all([playToEnd(a, { timeout: 90000 }), playToEnd(b, { timeout: 90000 })]);
    const done = await api(server.base, '/api/tables/' + id);
    assert.equal(done.status, 'finished');

    // Ann asks: she lands on the new table; Bob is asked, and goes when
    // he says so, each in their own seat
    await a.locator('#result').getByRole('button', { name: 'Rematch' }).click();
    const moved = (p) => p.waitForURL((u) => /\/t\/[A-Za-z0-9_-]+$/.test(u.pathname) && !u.pathname.endsWith('/' + id), { timeout: 15000 });
    await moved(a);
    const offer = b.locator('#rematchLink').getByRole('button', { name: 'Join the rematch' });
    await offer.waitFor();
    await b.waitForTimeout(800);
    assert.equal(new URL(b.url()).pathname, '/t/' + id, 'Bob is not moved without asking');
    await offer.click();
    await moved(b);
    const newId = new URL(a.url()).pathname.split('/').pop();
    assert.equal(new URL(b.url()).pathname.split('/').pop(), newId, 'both pages are at the same new table');
    const [sa, sb] = [await waitForState(a), await waitForState(b)];
    assert.equal(sa.seat, 'P1');
    assert.equal(sb.seat, 'P2');
    // the game starts once both browsers have sent their contributions
    await a.waitForFunction(() => window.RR.table.st && window.RR.table.st.started, null, { timeout: 15000 });
    const info = await api(server.base, '/api/tables/' + newId);
    assert.equal(info.status, 'playing');
    assert.deepEqual(
      info.seats.map((s) => [s.kind, s.name, s.bot]),
      done.seats.map((s) => [s.kind, s.name, s.bot]),
      'same seats: people in theirs, the bot at its level'
    );
    assert.notEqual(info.seed_hash, done.seed_hash, 'a new commitment');
    // each browser keeps only its own token, the same one it had
    const tokens = await Promise.all([a, b].map((p) => p.evaluate(([o, n]) => [window.RR.token(o), window.RR.token(n)], [id, newId])));
    assert.equal(tokens[0][0], tokens[0][1]);
    assert.equal(tokens[1][0], tokens[1][1]);
    assert.notEqual(tokens[0][1], tokens[1][1]);
    // the chat of the old table stays there; the new one starts empty
    await openChat(a);
    assert.equal(await a.locator('#chatLines li').count(), 1);

    // the finished table stays open at its own address, its result shown,
    // with a link to the rematch rather than a move there
    await b.goto('/t/' + id);
    await b.locator('#rematchLink a').waitFor();
    await b.locator('#result').waitFor({ state: 'visible' });
    await b.waitForTimeout(1500);
    assert.equal(new URL(b.url()).pathname, '/t/' + id, 'the finished table did not move to the rematch');

    // the lobby: my games (the finished one with its winner), the finished
    // games with players and winner, and the leaderboard with both people
    await a.goto('/');
    const mine = a.locator('#mineList li').filter({ hasText: 'you played P1' });
    await mine.first().waitFor();
    assert.ok((await mine.count()) >= 2, 'the finished table and the rematch');
    await a.locator('#mineList').filter({ hasText: /won by|nobody won/ }).waitFor();
    await a.locator('#done li').filter({ hasText: 'with Ann, Bob' }).filter({ hasText: /won by|nobody won/ }).first().waitFor();
    // Rated (against the bot: Ann and Bob share an address, so they do
    // not rate each other) if the game was long enough to count (30
    // actions, docs/server.md "Ratings"); a shorter one moves nobody.
    if (done.seq >= 30) {
      // (a second Ann rated by the other size's run is told apart by her id: "Ann #1a2b")
      await a.locator('#leaderboard').filter({ hasText: /Ann( #[0-9a-f]{4})? \(you\)/ }).waitFor();
      await a.locator('#leaderboard').filter({ hasText: 'Bob' }).waitFor();
      await a.locator('#mine').filter({ hasText: 'Your rating in The Big Cheese' }).waitFor();
    } else {
      t.diagnostic(`a game of ${done.seq} actions: unrated`);
      assert.equal(await a.locator('#leaderboard').filter({ hasText: /Ann( #[0-9a-f]{4})? \(you\)/ }).count(), 0);
    }
    assert.deepEqual(errors, []);
  });
}
