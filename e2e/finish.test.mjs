// Browser tests of what a newcomer met at the table, each at desktop
// (1280×800) and phone (390×844) size: keyboard focus stays in the
// player's own area through 30 keyboard-only Dalmuti turns (passes and
// last cards included); the address bar of a private table can be shared
// (and a visitor without its key is told whose table it is); the replay's
// controls and board stay in view through 20 steps by button, slider and
// keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, api, pageState, joinViaForm, playToEnd, setCards, audit, tabTo, onCard, keyboardTurn, SIZES, newContext, watchErrors, finishedTable } from './helpers.mjs';

let server;
let browser;

before(async () => {
  // one address makes every table and takes every seat of these tests: the
  // per-address quotas (10 new tables at once, then one every few seconds)
  // are raised so that they measure the pages, not the quotas
  server = await startServer({ args: ['--create-burst', '500', '--join-burst', '500', '--max-live-tables-per-ip', '500', '--record-burst', '500'] });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/** A context of the tests' browser at `w`×`h`, closed when test `t` ends. */
const sized = (t, w, h) => newContext(browser, server.base, t, { viewport: { width: w, height: h } });

/** Where keyboard focus is: 'mine' (the player's area), 'result', 'body', or the element's id/tag. */
const focusIn = (page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return 'body';
    if (document.getElementById('mine').contains(a)) return 'mine';
    if (document.getElementById('result').contains(a)) return 'result';
    return a.id || a.tagName;
  });

/** Picks `cards` (ranks, "J" for Jesters) in the hand by keyboard: type-ahead to a rank, Space per card. */
async function pickByKeys(page, cards) {
  const counts = new Map();
  for (const c of cards) counts.set(c, (counts.get(c) || 0) + 1);
  let first = true;
  for (const [rank, n] of counts) {
    if (!first) await page.waitForTimeout(950); // type-ahead forgets after 900 ms
    first = false;
    await tabTo(page, onCard);
    for (const ch of rank) await page.keyboard.press(ch);
    for (let i = 0; i < n; i++) await page.keyboard.press(' ');
  }
}

for (const [size, w, h] of SIZES) {
  test(`${size}: focus stays in the player's area through 30 keyboard-only turns`, async (t) => {
    const ctx = await sized(t, w, h);
    const page = await ctx.newPage();
    const errors = [];
    watchErrors(page, errors, { resources: true });
    // the WebSocket's last frames, to tell what happened to a lost action
    const frames = [];
    page.on('websocket', (ws) => {
      const note = (dir) => (f) => frames.push(dir + ' ' + String(f.payload).slice(0, 160)) && frames.length > 40 && frames.shift();
      ws.on('framesent', note('>'));
      ws.on('framereceived', note('<'));
      ws.on('close', () => frames.push('closed ' + ws.url()));
    });
    const turns = [];
    const end = Date.now() + 240000;
    while (turns.length < 30 && Date.now() < end) {
      const { invite } = await api(server.base, '/api/tables', 'POST', {
        game: 'dalmuti',
        players: 4,
        options: { hands: 1 },
        seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }],
        bot_delay_ms: 40,
      });
      await page.goto(invite);
      await joinViaForm(page, 'Kay');
      let entered = false;
      for (;;) {
        await page.waitForFunction(
          () => {
            const T = window.RR.table;
            return T.st && (T.st.over || (!T.pending && T.st.legal.length > 0 && !document.getElementById('mine').classList.contains('hidden')));
          },
          null,
          { timeout: 30000, polling: 50 }
        );
        const st = await pageState(page);
        if (st.over) break;
        if (!entered) {
          // a fresh page: Tab to the skip link, Enter into the hand
          await tabTo(page, () => document.activeElement && document.activeElement.id === 'skip');
          await page.keyboard.press('Enter');
          entered = true;
        }
        assert.equal(await focusIn(page), 'mine', `focus at the start of turn ${turns.length + 1} (seq ${st.seq})`);
        const action = await keyboardTurn(page, st.legal, turns.length, pickByKeys);
        await page.waitForFunction((seq) => window.RR.table.st.seq !== seq || window.RR.table.st.over, st.seq, { timeout: 10000, polling: 50 }).catch(async (e) => {
          const sel = await page.$$eval("#mine button.card[aria-pressed=true]", (bs) => bs.map((b) => b.dataset.rank));
          throw new Error(`${action} (legal ${st.legal.join(", ")}) did not reach the table: picked ${sel}, msg ${await page.locator("#msg").textContent()}, focus ${await focusIn(page)}, ${JSON.stringify(await page.evaluate(() => ({ pending: window.RR.table.pending, sel: window.RR.table.sel, on: document.activeElement.textContent, seq: window.RR.table.st.seq, legal: window.RR.table.st.legal })))}\n${frames.join('\n')}`);
        });
        await page.waitForTimeout(60);
        const over = (await pageState(page)).over;
        const where = await focusIn(page);
        assert.ok(where === 'mine' || (over && where === 'result'), `after ${action} (turn ${turns.length + 1}), focus is on ${where}`);
        turns.push(action);
        if (turns.length >= 30 && !over) break;
      }
    }
    assert.ok(turns.length >= 30, `${turns.length} keyboard turns`);
    assert.ok(turns.includes('pass'), 'passes were among them');
    t.diagnostic(`${turns.length} keyboard turns: ${turns.filter((a) => a === 'pass').length} passes, ${turns.filter((a) => a.startsWith('play')).length} plays`);
    assert.deepEqual(errors, []);
  });
}

for (const [size, w, h] of SIZES) {
  test(`${size}: a private table's address bar seats a friend; without the key a visitor is told whose table it is`, async (t) => {
    const { id, invite, creator } = await api(server.base, '/api/tables', 'POST', {
      game: 'dalmuti',
      players: 4,
      options: { hands: 1 },
      seats: [{ kind: 'human' }, { kind: 'human' }, { kind: 'human' }, { kind: 'bot' }],
      bot_delay_ms: 300,
    });
    const errors = [];
    const host = await (await sized(t, w, h)).newPage();
    watchErrors(host, errors, { resources: true });
    await host.goto(invite);
    // the creator token, as the lobby keeps it for the table it made
    await host.evaluate(([id, c]) => window.RR.saveCreator(id, c), [id, creator]);
    await joinViaForm(host, 'Alice');
    // the waiting room shows no made-up deal: no roles before the cards are dealt
    assert.match(await host.locator('#board').innerText(), /dealt once everyone is seated/);
    assert.doesNotMatch(await host.locator('#players').innerText(), /Dalmuti|Peon|Merchant/);
    // "Give it to a bot" waits for the server's delay, saying how long,
    // instead of being offered and refused with a 429
    const fill = host.locator('#waiting button', { hasText: 'Give it to a bot' }).first();
    await fill.waitFor();
    const first = Number((await fill.innerText()).match(/in (\d+) s/)[1]);
    assert.ok(first > 50 && first <= 60, `counts down from the server's 60 s: ${first}`);
    assert.ok(await fill.isDisabled());
    await host.waitForFunction((n) => [...document.querySelectorAll('#waiting button')].some((b) => /in (\d+) s/.test(b.textContent) && Number(b.textContent.match(/in (\d+) s/)[1]) < n), first, { timeout: 4000 });
    // what the creator copies from the address bar, as BGA players do
    const bar = host.url();
    assert.match(bar, /\/t\/[A-Za-z0-9_-]+\?k=[0-9a-f]{64}$/, 'the address bar holds the invite key');
    // Copy says it copied
    await host.locator('#waiting').getByRole('button', { name: 'Copy' }).click();
    await host.locator('#inviteUrlCopied').filter({ hasText: 'Copied' }).waitFor();
    // opened without the key (from the lobby's list, say), the address bar gets it back
    await host.goto('/t/' + id);
    await host.waitForFunction(() => /\?k=[0-9a-f]{64}$/.test(location.href));

    const friend = await (await sized(t, w, h)).newPage();
    watchErrors(friend, errors, { resources: true });
    await friend.goto(bar);
    const st = await joinViaForm(friend, 'Bob');
    assert.equal(st.seat, 'P2', 'the friend took a seat from the address bar');

    // a stranger with the bare address: told plainly, no form that ends in a 403
    const stranger = await (await sized(t, w, h)).newPage();
    watchErrors(stranger, errors, { resources: true });
    await stranger.goto('/t/' + id);
    const text = stranger.locator('#privateText');
    await text.waitFor();
    assert.match(await text.innerText(), /Alice’s table.*private.*Ask Alice for the link/s);
    assert.equal(await stranger.locator('#join input').count(), 0, 'no name box to type into');
    assert.deepEqual(errors, []);
  });
}

/** A finished Dalmuti table (P1 played through the page), made once for the replay tests. */
let finished = null;
function finishedGame() {
  finished =
    finished ||
    (async () => {
      const ctx = await browser.newContext({ locale: 'en-US', baseURL: server.base });
      const bots = [1, 2, 3].map(() => ({ kind: 'bot', bot: 'random' }));
      const id = await finishedTable(server.base, ctx, { game: 'dalmuti', players: 4, options: { hands: 1 }, seats: [{ kind: 'human' }, ...bots], bot_delay_ms: 20, public: true });
      await ctx.close();
      return id;
    })();
  return finished;
}

for (const [size, w, h] of SIZES) {
  test(`${size}: the replay's controls and board stay in view through 20 steps by button, slider and keyboard`, async (t) => {
    const id = await finishedGame();
    const page = await (await sized(t, w, h)).newPage();
    const errors = [];
    watchErrors(page, errors, { resources: true });
    await page.goto('/replay/' + id);
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    await page.waitForTimeout(300); // the analysis status has been asked for (no 404 logged)
    const look = () =>
      page.evaluate(() => {
        const r = (sel) => {
          const b = document.querySelector(sel).getBoundingClientRect();
          return { top: b.top, bottom: b.bottom };
        };
        return { y: scrollY, vh: innerHeight, step: Number(document.body.dataset.step), next: r('#next'), slider: r('#slider'), board: r('#board') };
      });
    const start = await look();
    let step = start.step;
    const check = async (how) => {
      const s = await look();
      step++;
      assert.equal(s.step, step, `${how}: one step at a time`);
      assert.equal(s.y, start.y, `${how}, step ${s.step}: the page did not scroll`);
      for (const k of ['next', 'slider']) assert.ok(s[k].top >= 0 && s[k].bottom <= s.vh, `${how}, step ${s.step}: #${k} in view ${JSON.stringify(s[k])}`);
      assert.ok(s.board.top >= 0 && s.board.top < s.vh - 60, `${how}, step ${s.step}: the board in view ${JSON.stringify(s.board)}`);
    };
    for (let i = 0; i < 20; i++) {
      await page.locator('#next').click();
      await check('▶');
    }
    await page.locator('#slider').focus();
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('ArrowRight');
      await check('slider');
    }
    await page.evaluate(() => document.activeElement.blur());
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('ArrowRight');
      await check('keyboard');
    }
    assert.deepEqual(errors, []);
  });
}

for (const [size, w, h] of SIZES) {
  test(`${size}: the lobby sets a turn timer, and a turn that runs out is said, not just played`, async (t) => {
    const page = await (await sized(t, w, h)).newPage();
    const errors = [];
    watchErrors(page, errors, { resources: true });
    // the lobby's timer setting reaches the table
    await page.goto('/');
    await page.locator('#name').fill('Tess');
    await page.locator('#set-turn_timer_ms').fill('60');
    await page.locator('#go').click();
    await page.waitForURL(/\/t\//);
    const made = new URL(page.url()).pathname.split('/').pop();
    assert.equal((await api(server.base, '/api/tables/' + made)).turn_timer_ms, 60000);

    // a short timer (set through the API): the stand-in's move is announced
    const { invite } = await api(server.base, '/api/tables', 'POST', {
      game: 'bigcheese',
      players: 3,
      turn_timer_ms: 1500,
      seats: [{ kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }],
      bot_delay_ms: 30,
    });
    await page.goto(invite);
    await joinViaForm(page, 'Tess');
    await page.locator('#standIn').filter({ hasText: 'Your time ran out: a bot played for you.' }).waitFor({ timeout: 20000 });
    await page.waitForFunction(() => (window.RR.table.said || []).some((x) => /Your time ran out/.test(x)));
    // and the log keeps it, after the banner is gone
    await page.locator('#log li.note').filter({ hasText: 'Your time ran out: a bot played for you.' }).first().waitFor({ state: 'attached' });
    assert.deepEqual(errors, []);
  });
}

for (const [size, w, h] of SIZES) {
  test(`${size}: a player concedes after asking twice; a bot plays the seat to the end and everyone is told (over a compressed WebSocket)`, async (t) => {
    const ctx = await sized(t, w, h);
    const page = await ctx.newPage();
    const errors = [];
    watchErrors(page, errors, { resources: true });
    // the browser's WebSocket is compressed (permessage-deflate, each message alone)
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
    const agreed = [];
    cdp.on('Network.webSocketHandshakeResponseReceived', (e) => {
      const hs = e.response.headers || {};
      const k = Object.keys(hs).find((x) => x.toLowerCase() === 'sec-websocket-extensions');
      agreed.push(k ? hs[k] : '');
    });
    const { invite, id } = await api(server.base, '/api/tables', 'POST', {
      game: 'bigcheese',
      players: 3,
      public: true,
      options: { target: 10 },
      seats: [{ kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }],
      bot_delay_ms: 30,
    });
    await page.goto(invite);
    await joinViaForm(page, 'Cora');
    await page.waitForFunction(() => window.RR.table.st.started);
    assert.ok(agreed.length > 0 && agreed.every((x) => /^permessage-deflate/.test(x) && /server_no_context_takeover/.test(x)), JSON.stringify(agreed));
    // someone watching sees it too
    const watcher = await (await sized(t, w, h)).newPage();
    watchErrors(watcher, errors, { resources: true });
    await watcher.goto('/t/' + id);
    await watcher.waitForFunction(() => window.RR.table.st && window.RR.table.st.started);

    // on a phone the control is under the side column's "Table" tab
    if (w < 700) await page.locator('#tab-invite').click();
    await page.locator('#concede').click();
    // nothing is sent yet: the page asks first, and "keep playing" goes back
    await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'concedeYes');
    await audit(page, `concede question ${size}`, { all: true });
    await page.locator('#concedeNo').click();
    await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'concede');
    assert.ok(!(await page.evaluate(() => (window.RR.table.st.seats[0] || {}).conceded)));
    await page.locator('#concede').click();
    await page.locator('#concedeYes').click();

    await page.locator('#turn').filter({ hasText: 'You conceded: a bot plays your seat.' }).waitFor({ timeout: 10000 });
    await page.waitForFunction(() => (window.RR.table.said || []).some((x) => /^You conceded/.test(x)));
    await page.locator('#players .seat.me').filter({ hasText: 'conceded (a bot plays)' }).waitFor();
    assert.equal(await page.locator('#concede').count(), 0, 'no second concession');
    await watcher.locator('#players .seat').filter({ hasText: 'conceded (a bot plays)' }).waitFor({ timeout: 10000 });
    await watcher.waitForFunction(() => (window.RR.table.said || []).some((x) => /^Cora \(P1\) conceded/.test(x)));
    // the concession is in both logs too
    await page.locator('#log li.note').filter({ hasText: 'You conceded' }).waitFor({ state: 'attached' });
    await watcher.locator('#log li.note').filter({ hasText: 'Cora (P1) conceded' }).waitFor({ state: 'attached' });
    // the stand-in plays the seat to the end, with nobody deciding here
    await page.locator('#result').waitFor({ state: 'visible', timeout: 90000 });
    assert.equal(await page.evaluate(() => window.RR.table.st.legal.length), 0);
    assert.deepEqual(errors, []);
  });
}

/**
 * What a decision needs that is not in the viewport, at the page's scroll
 * position: each seat (the player's own included), the board (the card or
 * trick at stake), the player's own area (hand and controls) and the last
 * few events (the log's last line beside the game, or the felt's recent
 * lines on a narrow screen); and any of them that the player's own area
 * covers.
 */
const belowTheFold = (page) =>
  page.evaluate(() => {
    const vh = innerHeight;
    const vw = innerWidth;
    const out = [];
    const box = (n) => n.getBoundingClientRect();
    const within = (name, n) => {
      const r = box(n);
      if (r.height === 0) return;
      if (r.top < -1 || r.bottom > vh + 1 || r.left < -1 || r.right > vw + 1) out.push(`${name} at ${Math.round(r.top)}..${Math.round(r.bottom)} of ${vh}`);
    };
    document.querySelectorAll('#players .seat').forEach((n) => within('seat ' + n.dataset.seat, n));
    within('board', document.getElementById('board'));
    within('own area', document.getElementById('mine'));
    const recent = document.getElementById('recent');
    const last = getComputedStyle(recent).display === 'none' ? document.querySelector('#log li:last-child') : recent;
    if (last) within('last events', last);
    return out;
  });

for (const [size, w, h] of SIZES) {
  for (const [game, players, options] of [
    ['bigcheese', 4, {}],
    ['dalmuti', 4, { hands: 1 }],
  ]) {
    test(`${size}: a whole ${game} game fits one screen at every decision`, async (t) => {
      const page = await (await sized(t, w, h)).newPage();
      const errors = [];
      watchErrors(page, errors, { resources: true });
      const { invite } = await api(server.base, '/api/tables', 'POST', {
        game,
        players,
        options,
        seats: [{ kind: 'human' }, ...['random', 'heuristic', 'strong'].map((bot) => ({ kind: 'bot', bot }))],
        bot_delay_ms: 5,
      });
      await page.goto(invite);
      await joinViaForm(page, 'Alice');
      const misses = [];
      let decisions = 0;
      let outs = 0;
      await playToEnd(page, {
        timeout: 150000,
        beforeMove: async (st) => {
          // the page at rest: the test's clicks may have scrolled it
          await page.evaluate(() => scrollTo(0, 0));
          await page.waitForTimeout(30);
          decisions++;
          for (const m of await belowTheFold(page)) misses.push(`decision ${decisions} (seq ${st.seq}): ${m}`);
          if (game === 'dalmuti') {
            // a seat's place in turn order is explained, and a seat that
            // went out says its place once (a tag, no bubble repeating it)
            const seats = await page.$$eval('.felt .seat', (ss) =>
              ss.map((s) => ({
                pos: s.querySelector('.pos')?.title || '',
                outs: (s.textContent.match(/out #\d/g) || []).length,
              }))
            );
            for (const s of seats) {
              if (!/^plays #\d+ in the turn order$/.test(s.pos)) misses.push(`decision ${decisions}: a seat's number unexplained (${s.pos})`);
              if (s.outs > 1) misses.push(`decision ${decisions}: a seat says its place out ${s.outs} times`);
              outs += s.outs;
            }
          }
          return false;
        },
      });
      t.diagnostic(`${decisions} decisions, ${misses.length} with something out of view or unexplained; ${outs} places out seen`);
      // the icons come from the client's own font, not the machine's
      const icons = await page.evaluate(() => [...document.fonts].filter((f) => f.family.includes('rr-icons')).map((f) => f.status));
      assert.ok(icons.includes('loaded'), `the icons font loaded: ${icons}`);
      assert.ok(decisions > 5, `${decisions} decisions`);
      assert.deepEqual(misses.slice(0, 10), [], `${misses.length} misses`);
      assert.deepEqual(errors, []);
    });
  }
}

for (const [size, w, h] of SIZES) {
  test(`${size}: your identity goes to another device by a link, and two players of one name are told apart`, async (t) => {
    const errors = [];
    const a = await (await sized(t, w, h)).newPage();
    watchErrors(a, errors, { resources: true });
    await a.goto('/');
    await a.locator('#device summary').click();
    const link = await a.locator('#meLink').inputValue();
    assert.match(link, /\/#me=[0-9a-f]{64}$/);
    const mine = await a.evaluate(() => window.RR.identity());
    assert.ok(link.endsWith(mine));

    // the other device: a fresh browser opens the link and takes it
    const b = await (await sized(t, w, h)).newPage();
    watchErrors(b, errors, { resources: true });
    const before = await (async () => {
      await b.goto('/');
      return b.evaluate(() => window.RR.identity());
    })();
    assert.notEqual(before, mine);
    // the link says whose identity it is, and which it would replace here
    // (the server's answers about both made up: neither has played yet)
    const sheet = (key, name, games) => ({
      player: key.slice(0, 8),
      games: [{ id: 'Gm' + name, game: 'bigcheese', seat: 'P1', seats: [{ seat: 'P1', name, kind: 'human' }], status: 'finished', winners: ['P1'], created_at: 1700000000 }],
      ratings: [{ game: 'bigcheese', player: key.slice(0, 8), name, rating: 25, uncertainty: 8, score: 1, games }],
    });
    await b.route('**/api/me/games', (route) => {
      const key = route.request().headers()['x-ratrace-key'] || '';
      route.fulfill({ json: key === mine ? sheet(key, 'Ann', 7) : sheet(key, 'Bea', 3) });
    });
    await b.goto(link);
    const take = b.locator('#takeMe');
    await take.locator('#takeWho').waitFor();
    assert.match(await take.locator('#takeWho').innerText(), /Ann \(7 games\)/);
    assert.match(await take.locator('#takeReplaces').innerText(), /Bea now \(3 games\)/);
    assert.equal(await b.evaluate(() => window.RR.identity()), before, 'nothing changes before the answer');
    await b.unroute('**/api/me/games');
    await take.getByRole('button', { name: 'Use it here' }).click();
    assert.equal(await b.evaluate(() => window.RR.identity()), mine, 'the same player on both devices');
    assert.equal(await b.evaluate(() => location.hash), '', 'the key leaves the address bar');
    const who = (p) => p.evaluate(() => fetch('/api/me/games', { headers: { 'X-Ratrace-Key': window.RR.identity() } }).then((r) => r.json()).then((j) => j.player));
    assert.equal(await who(b), await who(a), 'the server sees one player');

    // the leaderboard: two Alices, each with the start of her id
    const c = await (await sized(t, w, h)).newPage();
    watchErrors(c, errors, { resources: true });
    const row = (player, name, rating) => ({ game: 'bigcheese', player, name, rating, uncertainty: 60, score: rating - 120, games: 4 });
    await c.route('**/api/leaderboard/**', (route) => route.fulfill({ json: { players: [row('aaaa1111', 'Alice', 1620), row('bbbb2222', 'Alice', 1580), row('cccc3333', 'Bob', 1500)], bots: [] } }));
    await c.goto('/');
    const board = c.locator('#leaderboard');
    await board.filter({ hasText: 'Bob' }).waitFor();
    const text = await board.innerText();
    assert.match(text, /Alice #aaaa/);
    assert.match(text, /Alice #bbbb/);
    assert.doesNotMatch(text, /Bob #/, 'a name nobody shares needs no id');
    assert.deepEqual(errors, []);
  });
}

test('axe-core finds nothing, of any impact, on every page at both sizes in English, Italian and French', async (t) => {
  // one finished game of each, for the result screen, the replay and the check
  const done = {};
  for (const game of ['bigcheese', 'dalmuti']) {
    const ctx = await newContext(browser, server.base, t);
    // (public: every context below opens it, without its invite key)
    done[game] = await finishedTable(server.base, ctx, { game, players: 3, seats: [{ kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }], options: game === 'dalmuti' ? { hands: 1 } : { dice: 'd6', target: '60' }, bot_delay_ms: 5, public: true }, 'Ada');
  }
  const found = [];
  for (const [size, w, h] of SIZES) {
    for (const locale of ['en-US', 'it-IT', 'fr-FR']) {
      const where = `${size} ${locale}`;
      // reduced motion: colours are measured at rest, not half-way through a fade-in
      const ctx = await browser.newContext({ locale, baseURL: server.base, viewport: { width: w, height: h }, reducedMotion: 'reduce' });
      ctx.setDefaultTimeout(20000);
      t.after(() => ctx.close());
      const page = await ctx.newPage();
      await page.goto('/');
      await page.locator('#game option').first().waitFor({ state: 'attached' });
      found.push(...(await audit(page, `lobby ${where}`, { all: true })));
      for (const game of ['bigcheese', 'dalmuti']) {
        const { invite } = await api(server.base, '/api/tables', 'POST', { game, players: 4, seats: [{ kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }, { kind: 'bot' }], options: game === 'dalmuti' ? { hands: 1 } : {}, bot_delay_ms: 50 });
        await page.goto(invite);
        await page.locator('#join input').fill('Ada');
        await page.locator('#join button').click();
        await page.waitForFunction(() => window.RR.table.st && window.RR.table.st.legal.length > 0, null, { timeout: 20000 });
        found.push(...(await audit(page, `${game} table ${where}`, { all: true })));
        const id = done[game];
        await page.goto('/t/' + id);
        await page.locator('#result').waitFor({ state: 'visible' });
        found.push(...(await audit(page, `${game} result ${where}`, { all: true })));
        await page.goto('/replay/' + id);
        await page.waitForFunction(() => document.body.dataset.ready === '1');
        found.push(...(await audit(page, `${game} replay ${where}`, { all: true })));
        await page.goto('/verify?id=' + id);
        await page.locator('main').waitFor();
        await page.waitForTimeout(300);
        found.push(...(await audit(page, `${game} verify ${where}`, { all: true })));
      }
    }
  }
  assert.deepEqual(found, [], found.join('\n'));
});

for (const [size, w, h] of SIZES) {
  test(`${size}: a language switch reaches what a screen reader hears, and the replay names its options in words`, async (t) => {
    const page = await (await sized(t, w, h)).newPage();
    const errors = [];
    watchErrors(page, errors, { resources: true });
    const { invite } = await api(server.base, '/api/tables', 'POST', {
      game: 'dalmuti',
      players: 3,
      options: { hands: 1 },
      seats: [{ kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }],
      bot_delay_ms: 20,
    });
    await page.goto(invite);
    await joinViaForm(page, 'Ugo');
    await page.waitForFunction(() => window.RR.table.st.legal.length > 0, null, { timeout: 20000 });
    await page.locator('#lang button', { hasText: 'IT' }).click();
    await page.waitForFunction(() => /^Tocca a te\./.test(document.getElementById('announce').textContent), null, { timeout: 5000 });
    assert.equal(await page.locator('#mine').getAttribute('aria-label'), 'La tua mano e le tue mosse');
    await page.locator('#lang button', { hasText: 'FR' }).click();
    await page.waitForFunction(() => /^À vous de jouer\./.test(document.getElementById('announce').textContent), null, { timeout: 5000 });
    assert.equal(await page.locator('#mine').getAttribute('aria-label'), 'Votre main et vos coups');

    // the replay of a finished game: options and rules version in words
    await page.locator('#lang button', { hasText: 'EN' }).click();
    const id = await finishedGame();
    await page.goto('/replay/' + id);
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    const info = await page.locator('#info').innerText();
    assert.doesNotMatch(info, /\w=\w/, `no raw option codes: ${info}`);
    assert.match(info, /Hands in the session: 1/);
    assert.match(info, /rules version dalmuti\/\d+/);
    await page.locator('#lang button', { hasText: 'IT' }).click();
    await page.waitForFunction(() => document.getElementById('slider').getAttribute('aria-label') === 'Mossa');
    assert.deepEqual(errors, []);
  });
}

for (const [size, w, h] of SIZES) {
  test(`${size}: an identity link brings its person back to their seat at a live table, with their name`, async (t) => {
    const errors = [];
    // device A sits at a table whose second person's seat is still open
    // (the game waits, so the table stays live through the test)
    const made = await api(server.base, '/api/tables', 'POST', {
      game: 'bigcheese',
      players: 3,
      seats: [{ kind: 'human' }, { kind: 'human' }, { kind: 'bot' }],
    });
    const a = await (await sized(t, w, h)).newPage();
    watchErrors(a, errors);
    await a.goto(made.invite);
    await joinViaForm(a, 'Mara');
    await a.goto('/');
    await a.locator('#device summary').click();
    const link = await a.locator('#meLink').inputValue();

    // device B takes the identity: the name comes along, and My games
    // leads back to the seat, where B sits (it does not merely watch)
    const b = await (await sized(t, w, h)).newPage();
    watchErrors(b, errors);
    await b.goto(link);
    await b.getByRole('button', { name: 'Use it here' }).click();
    assert.equal(await b.locator('#name').inputValue(), 'Mara');
    const back = b.locator(`#mine a[href="/t/${made.id}#back"]`);
    await back.click();
    await b.waitForURL(new RegExp(`/t/${made.id}$`));
    await b.waitForFunction(() => window.RR.table.st && window.RR.table.st.seat, null, { timeout: 15000 });
    assert.equal((await pageState(b)).seat, 'P1', 'back at the seat');
    // A's old token no longer opens the seat; A, holding the identity too,
    // comes back the same way
    await a.goto(`/t/${made.id}#back`);
    await a.waitForFunction(() => window.RR.table.st && window.RR.table.st.seat, null, { timeout: 15000 });
    assert.equal((await pageState(a)).seat, 'P1');
    assert.deepEqual(errors, []);
  });
}
