// End-to-end browser tests of `ratrace serve`:
// playwright-core drives Debian's chromium headless against the real server
// binary ($RATRACE_BIN, default target/debug/ratrace) on 127.0.0.1:0 with a
// fresh SQLite database. Run: `npm ci --prefix e2e && node --test e2e/`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startServer, launchBrowser, api, pageState, waitForState, joinViaForm, playToEnd, watchErrors, framesChecked, fitsToClient } from './helpers.mjs';

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

/** A fresh browser context (own localStorage = own seat tokens), closed after the test. */
async function context(t, opts = {}) {
  const ctx = await browser.newContext({ locale: 'en-US', baseURL: server.base, ...opts });
  ctx.setDefaultTimeout(15000);
  t.after(() => ctx.close());
  return ctx;
}

/**
 * Creates a table through the lobby form (name, game, player count, rules
 * options, "Create and sit down"). The lobby has no bot-delay control, so
 * the create request is intercepted and given a small `bot_delay_ms`: the
 * form, the request, the join as P1 and the redirect stay the client's own.
 */
async function createViaLobby(page, { game, name, options = {}, botDelayMs = 30 }) {
  await page.goto('/');
  await page.locator('#game option').first().waitFor({ state: 'attached' });
  await page.locator('#game').selectOption(game);
  await page.locator('#name').fill(name);
  // the table's settings are drawn from /api/games like the options; a
  // delay is typed in seconds
  await page.locator('#set-bot_delay_ms').fill(String(botDelayMs / 1000));
  if (Object.keys(options).length) {
    await page.locator('#create details summary').click();
    for (const [key, value] of Object.entries(options)) {
      // each option's control is labelled in words; its id names the key
      const ctl = page.locator(`#opt-${game}-${key}`);
      const kind = await ctl.evaluate((n) => (n.tagName === 'SELECT' ? 'select' : n.type));
      if (kind === 'select') await ctl.selectOption(String(value));
      else if (kind === 'checkbox') await ctl.setChecked(value === 'on');
      else await ctl.fill(String(value));
    }
  }
  await page.locator('#go').click();
  await page.waitForURL(/\/t\/[A-Za-z0-9_-]+$/, { timeout: 15000 });
  return new URL(page.url()).pathname.split('/').pop();
}

/** After the game: the result screen shows the revealed seed, which hashes to the published hash. */
async function checkResult(page, id) {
  const info = await api(server.base, '/api/tables/' + id);
  assert.equal(info.status, 'finished');
  assert.match(info.seed, /^[0-9a-f]{64}$/, 'a 256-bit fair-deal seed');
  assert.match(info.secret, /^[0-9a-f]{64}$/, 'the server secret is revealed');
  const result = page.locator('#result');
  await result.waitFor({ state: 'visible' });
  // the deal's numbers come last, folded: opened to be read
  await result.locator('details.fair summary').click();
  const text = await result.innerText();
  assert.ok(text.includes('Seed (revealed): ' + info.seed), `result screen shows the seed ${info.seed}:\n${text}`);
  assert.ok(text.includes(info.seed_hash), 'result screen shows the seed hash');
  assert.equal(createHash('sha256').update(Buffer.from(info.secret, 'hex')).digest('hex'), info.seed_hash, 'the revealed secret matches the published commitment');
  // the record verifies, and this browser's own contribution went in
  // (a private table's record needs its key, which the page kept)
  const see = await page.evaluate((id) => window.RR.seeQuery(id), id);
  const record = await api(server.base, '/api/tables/' + id + '/record' + see);
  const mine = await page.evaluate((id) => window.RR.contribution(id), id);
  assert.match(mine, /^[0-9a-f]{64}$/);
  const humans = info.seats.filter((x) => x.kind === 'human').map((x) => x.seat);
  assert.deepEqual(record.fairness.contributions.map((c) => c.seat), humans, 'every human contributed');
  assert.ok(record.fairness.contributions.some((c) => c.value === mine), 'this browser contributed');
  const report = await api(server.base, '/api/verify', 'POST', record);
  assert.equal(report.ok, true, JSON.stringify(report));
  assert.ok(report.checks.some((l) => l.includes(mine.slice(0, 8))), JSON.stringify(report.checks));
  assert.match(text, /🏁/);
  await result.getByRole('button', { name: 'Rematch' }).waitFor({ state: 'visible' });
  const st = await pageState(page);
  assert.equal(st.seed, info.seed);
  assert.ok(st.outcome && st.outcome.winners.length >= 0);
}

// Bot delays: small, but a seat whose human has no connection for 3 x the
// delay is played by a stand-in bot (docs/server.md), and the page needs a
// moment between the lobby's join and its WebSocket hello; with Dalmuti's
// tax choice coming first, 250 ms leaves that choice to the human.
for (const [game, options, label, botDelayMs] of [
  ['bigcheese', {}, 'The Big Cheese', 30],
  ['dalmuti', { hands: 1 }, 'The Great Dalmuti', 250],
]) {
  test(`lobby: create a table of ${label} with bots and play it to the end through the UI`, async (t) => {
    const ctx = await context(t);
    const page = await ctx.newPage();
    const errors = [];
    watchErrors(page, errors);
    const id = await createViaLobby(page, { game, name: 'Ann', options, botDelayMs });
    const st = await waitForState(page);
    assert.equal(st.seat, 'P1', 'the creator sits at P1');
    const info = await api(server.base, '/api/tables/' + id);
    assert.equal(info.game, game);
    assert.equal(info.bot_delay_ms, botDelayMs);
    assert.deepEqual(
      info.seats.map((s) => s.kind),
      ['human', ...Array(info.players - 1).fill('bot')],
      'P1 human, bots elsewhere (the lobby default)'
    );
    if (game === 'dalmuti') assert.equal(String(info.options.hands), '1');
    const kinds = {};
    const moves = await playToEnd(page, { timeout: 100000, onMove: (a) => (kinds[a.split(' ')[0]] = (kinds[a.split(' ')[0]] || 0) + 1) });
    assert.ok(moves > 0, 'the human made moves');
    t.diagnostic(`${moves} moves through the UI: ${JSON.stringify(kinds)}`);
    // The page built its state from `update` patches since its hello: it
    // equals the whole state the server sends on `resync`.
    const patched = await pageState(page);
    assert.ok((await page.evaluate(() => window.RR.table.updates)) > moves, 'the page applied updates');
    await page.evaluate(() => {
      window.RR.table.st.stale = true;
      window.RR.table.conn.send({ type: 'resync' });
    });
    await page.waitForFunction(() => !window.RR.table.st.stale);
    const whole = await pageState(page);
    for (const k of ['rev', 'seq', 'view', 'legal', 'to_move', 'over', 'outcome', 'seats']) assert.deepEqual(whole[k], patched[k], `${k} as patched`);
    await checkResult(page, id);
    // Every frame the page got fits the browser protocol's schema (a
    // misfit is one of `errors`), and the check does refuse a misfit.
    assert.ok(framesChecked.n > moves, `${framesChecked.n} frames checked`);
    assert.equal(fitsToClient({ type: 'update', rev: 1 }), false, 'an update without its fields does not fit');
    assert.deepEqual(errors, [], 'no page errors');
  });
}

test('a page reload mid-game reconnects to the same seat and the same state', async (t) => {
  // bot_delay_ms 1500: a stand-in bot would take the seat only after 4.5 s away
  // a private table (the default): the invite link carries its key
  const { id, invite } = await api(server.base, '/api/tables', 'POST', { game: 'bigcheese', players: 3, bot_delay_ms: 1500 });
  assert.match(invite, /^\/t\/[A-Za-z0-9_-]+\?k=[0-9a-f]{64}$/);
  const ctx = await context(t);
  const page = await ctx.newPage();
  await page.goto(invite);
  const joined = await joinViaForm(page, 'Rita');
  assert.equal(joined.seat, 'P1');
  const myTurn = () =>
    page.waitForFunction(() => {
      const T = window.RR.table;
      return T.st && !T.pending && T.st.legal.length > 0 && !document.getElementById('mine').classList.contains('hidden');
    }, null, { timeout: 20000 });
  // make one move, then wait for the next turn: a game well under way
  await myTurn();
  await page.locator('#mine').getByRole('button', { name: /^Pass|^Bid \d+$/ }).first().click();
  await myTurn();
  const before = await pageState(page);
  const snap = async () => ({
    board: await page.locator('#board').innerText(),
    players: await page.locator('#players').innerText(),
    controls: await page.locator('#mine').innerText(),
    me: await page.locator('.seat.me .nm').innerText(),
  });
  const shown = await snap();
  await page.reload();
  const after = await waitForState(page);
  await myTurn();
  assert.equal(after.seat, 'P1', 'same seat after reload');
  assert.equal(after.seq, before.seq, 'same action count');
  assert.deepEqual(after.view, before.view, 'same view');
  assert.deepEqual(after.legal, before.legal, 'same legal actions');
  assert.ok(after.log.length >= before.log_from + before.log.length || after.log.length > 0);
  const shownAfter = await snap();
  assert.equal(shownAfter.board, shown.board);
  assert.equal(shownAfter.players, shown.players);
  assert.equal(shownAfter.controls, shown.controls);
  assert.equal(shownAfter.me, 'Rita (P1)');
  assert.ok(await page.locator('#join').isHidden(), 'no join form: the stored token was used');
  // and the reconnected page can act
  await page.locator('#mine').getByRole('button', { name: /^Pass|^Bid \d+$/ }).first().click();
  await page.waitForFunction((seq) => window.RR.table.st.seq > seq, before.seq, { timeout: 10000 });
  assert.equal(await page.locator('#msg').textContent(), '');
});

test('a second context joins by invite link, a third spectates: each player sees only their own hand', async (t) => {
  const { id, invite } = await api(server.base, '/api/tables', 'POST', {
    game: 'dalmuti',
    players: 4,
    options: { hands: 1 },
    seats: [{ kind: 'human' }, { kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }],
    bot_delay_ms: 100,
  });
  const [ctxA, ctxB, ctxS] = [await context(t), await context(t), await context(t)];
  const [a, b, s] = [await ctxA.newPage(), await ctxB.newPage(), await ctxS.newPage()];
  const frames = new Map([[a, []], [b, []], [s, []]]);
  for (const [p, list] of frames) {
    p.on('websocket', (ws) => ws.on('framereceived', (f) => typeof f.payload === 'string' && list.push(JSON.parse(f.payload))));
  }
  await a.goto(invite);
  assert.equal((await joinViaForm(a, 'Ann')).seat, 'P1');
  // the table waits for its second human
  assert.deepEqual((await pageState(a)).legal, [], 'nobody moves before every human seat is taken');
  await b.goto(invite);
  assert.equal((await joinViaForm(b, 'Bob')).seat, 'P2');
  await s.goto(invite);
  const sst = await waitForState(s);
  assert.equal(sst.seat, null, 'the third context is a spectator');
  assert.ok(await s.locator('#join').isHidden(), 'no free seat left to offer the spectator');
  await s.locator('#turn').filter({ hasText: 'You are watching.' }).waitFor();

  // each page names the other human
  await a.locator('#players').filter({ hasText: 'Bob (P2)' }).waitFor();
  await b.locator('#players').filter({ hasText: 'Ann (P1)' }).waitFor();

  // compare the three pages at one and the same seq
  let sa, sb, ss;
  for (let i = 0; i < 50; i++) {
    [sa, sb, ss] = await Promise.all([pageState(a), pageState(b), pageState(s)]);
    if (sa.seq === sb.seq && sb.seq === ss.seq) break;
    await a.waitForTimeout(50);
  }
  assert.equal(sa.seq, ss.seq);
  assert.equal(sa.view.seat, 'P1');
  assert.equal(sb.view.seat, 'P2');
  assert.equal(ss.view.hand, undefined, 'the spectator gets no hand');
  assert.deepEqual(ss.view.cards_left, sa.view.public.cards_left, 'the spectator sees the public view');
  const handOf = (st) => st.view.hand.split(/[\s|]+/).filter((x) => x && x !== 'empty');
  const shownHand = (p) =>
    p.$$eval('#mine .hand .card', (cs) => cs.map((c) => c.dataset.rank));
  const [ha, hb] = [handOf(sa), handOf(sb)];
  assert.equal(ha.length, sa.view.public.cards_left[0], "P1's hand has P1's card count");
  assert.equal(hb.length, sb.view.public.cards_left[1], "P2's hand has P2's card count");
  assert.deepEqual(await shownHand(a), ha, 'P1 sees its own cards');
  assert.deepEqual(await shownHand(b), hb, 'P2 sees its own cards');
  assert.notDeepEqual(ha, hb);
  assert.deepEqual(await shownHand(s), [], 'the spectator sees no hand');
  assert.equal(await s.getByText('Your hand', { exact: true }).count(), 0);
  assert.ok(await s.locator('#mine').isHidden(), 'the spectator has no controls');
  // nothing sent to a page carries another seat's hand
  const states = (p) => frames.get(p).filter((m) => m.type === 'state');
  // (a page watches as a spectator until its join, and nothing is dealt
  // until every human seat is taken: those states carry no hand at all)
  const onlyOwn = (m, seat) => (m.seat === null || m.started === false ? !JSON.stringify(m).includes('"hand":') : m.seat === seat && m.view.seat === seat);
  assert.ok(states(a).length && states(a).every((m) => onlyOwn(m, 'P1')), 'P1 gets only P1 views');
  assert.ok(states(b).length && states(b).every((m) => onlyOwn(m, 'P2')), 'P2 gets only P2 views');
  assert.ok(states(s).length && states(s).every((m) => onlyOwn(m, null)), 'no hand in a spectator message');
  const textA = JSON.stringify(frames.get(a));
  const textB = JSON.stringify(frames.get(b));
  assert.ok(!textA.includes(sb.view.hand), "P1 never receives P2's hand");
  assert.ok(!textB.includes(sa.view.hand), "P2 never receives P1's hand");

  // both humans play the game to its end from their own contexts; the spectator sees the result
  const kinds = {};
  const onMove = (x) => (kinds[x.split(' ')[0]] = (kinds[x.split(' ')[0]] || 0) + 1);
  await Promise.all([playToEnd(a, { timeout: 90000, onMove }), playToEnd(b, { timeout: 90000, onMove })]);
  t.diagnostic(`P1 and P2 made their moves through the UI: ${JSON.stringify(kinds)}`);
  await s.locator('#result').waitFor({ state: 'visible', timeout: 10000 });
  await checkResult(a, id);
  assert.equal(await s.locator('#result').getByRole('button', { name: 'Rematch' }).count(), 0, 'no rematch for a spectator');
  const final = await pageState(s);
  assert.ok(final.over && /^[0-9a-f]{64}$/.test(final.seed), 'the spectator gets the revealed seed');
  // the fairness page checks the record and marks this browser's own contribution
  await b.goto('/verify?id=' + id);
  await b.locator('#out h2.ok').waitFor({ timeout: 15000 });
  const out = await b.locator('#out').innerText();
  assert.ok(out.includes('yours: made by this browser'), out);
  assert.match(out, /P1's contribution [0-9a-f]{64} went into the seed/);
});

for (const [locale, go, title] of [
  ['en-US', 'Create and sit down', 'New table'],
  ['it-IT', 'Crea e siediti', 'Nuovo tavolo'],
  ['fr-FR', "Créer et s'asseoir", 'Nouvelle table'],
]) {
  test(`the lobby follows the browser language: ${locale}`, async (t) => {
    const ctx = await context(t, { locale });
    const page = await ctx.newPage();
    await page.goto('/');
    await page.locator('#go').filter({ hasText: go }).waitFor();
    assert.equal(await page.locator('#create h2').innerText(), title);
    assert.equal(await page.evaluate(() => document.documentElement.lang), locale.slice(0, 2));
    // what each game is, in a line, in the page's language
    const about = {};
    for (const game of ['bigcheese', 'dalmuti']) {
      await page.locator('#game').selectOption(game);
      about[game] = await page.locator('#gameAbout').innerText();
    }
    const words = { 'en-US': ['flunkies', 'ranks'], 'it-IT': ['tirapiedi', 'rango'], 'fr-FR': ['sous-fifres', 'rang'] }[locale];
    assert.ok(about.bigcheese.includes(words[0]), about.bigcheese);
    assert.ok(about.dalmuti.includes(words[1]), about.dalmuti);
  });
}

test('an Italian table shows the game events in Italian, with the players\' names', async (t) => {
  const { invite } = await api(server.base, '/api/tables', 'POST', {
    game: 'bigcheese',
    players: 3,
    seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }],
    bot_delay_ms: 1500,
  });
  const ctx = await context(t, { locale: 'it-IT' });
  const page = await ctx.newPage();
  const errors = [];
  watchErrors(page, errors);
  await page.goto(invite);
  const form = page.locator('#join');
  await form.waitFor({ state: 'visible' });
  await form.locator('input').fill('Giulia');
  await form.locator('button').click();
  await page.waitForFunction(() => window.RR.table.st && window.RR.table.st.seat === 'P1' && window.RR.table.st.legal.length > 0, null, { timeout: 20000 });
  // the events arrive as data ({kind, ...}), never as English text
  const log = await page.evaluate(() => window.RR.table.log);
  assert.ok(log.length > 0 && log.every((e) => typeof e === 'object' && typeof e.kind === 'string'), JSON.stringify(log));
  assert.equal(log[0].kind, 'shuffled');
  await page.locator('#mine').getByRole('button', { name: /^Passa|^Offri \d+$/ }).first().click();
  const mine = page.locator('#log li').filter({ hasText: /^Giulia (passa|offre \d+)\.$/ });
  await mine.first().waitFor({ timeout: 10000 });
  const first = await page.locator('#log li').first().innerText();
  assert.match(first, /^Mazzo mescolato: \d+ carte, in cima .+; apre .+\.$/, first);
  const all = await page.locator('#log').innerText();
  assert.ok(!/\((B|D)\d+\)/.test(all), 'no rule ids in the log:\n' + all);
  assert.ok(!/\bP1\b/.test(all), 'the human is named, not numbered:\n' + all);
  assert.deepEqual(errors, [], 'no page errors');
});
