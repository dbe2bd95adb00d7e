// Browser tests of the table's motion (motion.js), in contexts that allow
// motion (reducedMotion 'no-preference') unless said otherwise:
// - a Dalmuti hand played through the page: a bot's set and the player's
//   own fly into the trick (from the bot's seat, from the player's hand),
//   a won trick is swept to its winner, each move 300 ms at most;
// - a Big Cheese table of bots watched: a bid's chip slides from the
//   bidder's seat to the card up for bid, the card taken goes to its
//   winner's seat, a payout counts up with the score's text final at once;
// - the replay, stepped forward, plays the same moves (a jump none);
// - with reducedMotion 'reduce', and in a tab that says it is hidden, the
//   same moves run no animation at all;
// - input is never dropped: a whole Dalmuti hand played by keyboard at
//   full speed with motion on, every move taken by the server, no error,
//   at 390×844 and 1280×800.
// Element.prototype.animate is counted by an init script (every call, with
// its id and duration), whatever the page's module says of itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, api, pageState, waitForState, joinViaForm, playToEnd, setCards, tabTo, onCard, keyboardTurn, SIZES, newContext, watchErrors, finishedTable } from './helpers.mjs';

let server;
let browser;

before(async () => {
  // the per-connection message limit lifted: the keyboard test plays as fast
  // as keys can be pressed, faster than the 20 messages a second a person is
  // allowed (what it tests is the page's input during moves, not the limit)
  server = await startServer({ args: ['--create-burst', '500', '--join-burst', '500', '--max-live-tables-per-ip', '500', '--rate-limit', '1000', '--rate-close', '2000'] });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/** A context at `w`×`h` with `motion` ('no-preference' or 'reduce'), its animate() calls counted; `hidden`: the tab says it is hidden. */
async function context(t, w, h, motion, { hidden = false } = {}) {
  const ctx = await newContext(browser, server.base, t, { viewport: { width: w, height: h }, reducedMotion: motion });
  await ctx.addInitScript(() => {
    const animate = Element.prototype.animate;
    window.__animate = [];
    Element.prototype.animate = function (frames, opts) {
      window.__animate.push({ id: (opts && opts.id) || '', duration: typeof opts === 'number' ? opts : opts && opts.duration });
      return animate.call(this, frames, opts);
    };
  });
  if (hidden) {
    await ctx.addInitScript(() => {
      Object.defineProperty(Document.prototype, 'hidden', { get: () => true, configurable: true });
      Object.defineProperty(Document.prototype, 'visibilityState', { get: () => 'hidden', configurable: true });
    });
  }
  return ctx;
}

/** The page's motion: the moves it noted (RR.motion) and every animate() call. */
const motionOf = (page) => page.evaluate(() => ({ moves: JSON.parse(JSON.stringify(window.RR.motion)), calls: window.__animate.slice() }));

/** A Dalmuti table of one person and three bots, one hand. */
const dalmutiTable = (delay) =>
  api(server.base, '/api/tables', 'POST', {
    game: 'dalmuti',
    players: 4,
    options: { hands: 1 },
    seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }],
    bot_delay_ms: delay,
  });

/** A Big Cheese table of three bots, watched. */
const cheeseTable = () =>
  api(server.base, '/api/tables', 'POST', {
    game: 'bigcheese',
    players: 3,
    options: { dice: 'd6', target: '60' },
    seats: [{ kind: 'bot' }, { kind: 'bot' }, { kind: 'bot' }],
    bot_delay_ms: 250,
  });

/** Whether rectangle `r`'s centre is inside `o` (with `slack` px around it). */
const centreIn = (r, o, slack = 2) => {
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  return x >= o.left - slack && x <= o.left + o.width + slack && y >= o.top - slack && y <= o.top + o.height + slack;
};

/** Each seat's rectangle, the board's and the trick's cards', as they are now. */
const layoutNow = (page) =>
  page.evaluate(() => {
    const r = (n) => n && (({ left, top, width, height }) => ({ left, top, width, height }))(n.getBoundingClientRect());
    const seats = {};
    document.querySelectorAll('#players [data-seat]').forEach((s) => (seats[s.dataset.seat] = r(s)));
    return { seats, board: r(document.getElementById('board')), me: window.RR.table.st.seat };
  });

for (const [size, w, h] of SIZES) {
  test(`${size}: a set played flies into the trick from its seat or the hand, a won trick is swept to its winner`, async (t) => {
    const ctx = await context(t, w, h, 'no-preference');
    const page = await ctx.newPage();
    const errors = [];
    watchErrors(page, errors);
    const seen = { bot: 0, hand: 0, sweep: 0 };
    // the moves made since the last look, checked against the page as it is
    // (before each of the player's decisions: nothing has moved since)
    let checked = 0;
    const check = async () => {
      const { moves } = await motionOf(page);
      const rects = await layoutNow(page);
      for (const m of moves.slice(checked)) {
        assert.ok(m.ms > 0 && m.ms <= 300, `${m.kind} lasts ${m.ms} ms`);
        if (m.kind === 'fly') {
          assert.equal(m.target, 'trick');
          assert.ok(centreIn(m.from, m.srcRect), `a flight starts inside its source: ${JSON.stringify(m)}`);
          assert.ok(centreIn(m.to, rects.board, 4), `a flight ends in the trick, on the board: ${JSON.stringify(m.to)} ${JSON.stringify(rects.board)}`);
          if (m.src === 'hand') {
            seen.hand++;
            // the hand is under the felt
            assert.ok(m.srcRect.top > rects.board.top + rects.board.height, `the player's cards were under the board: ${JSON.stringify(m.srcRect)}`);
          } else {
            seen.bot++;
            assert.notEqual(m.src, rects.me, "a flight from a seat is another seat's");
            assert.ok(centreIn(m.from, rects.seats[m.src], 8), `a bot's set starts at its seat ${m.src}: ${JSON.stringify(m.from)} ${JSON.stringify(rects.seats[m.src])}`);
          }
        }
        if (m.kind === 'sweep') {
          seen.sweep++;
          assert.ok(centreIn(m.to, rects.seats[m.seat], 8), `a trick is swept to its winner ${m.seat}: ${JSON.stringify(m.to)}`);
        }
      }
      checked = moves.length;
      return false;
    };
    for (let k = 0; k < 3 && !(seen.bot && seen.hand && seen.sweep); k++) {
      const { invite } = await dalmutiTable(300);
      await page.goto(invite);
      await joinViaForm(page, 'Mo');
      checked = 0;
      await playToEnd(page, { timeout: 120000, beforeMove: check });
      // the page's own animations are the Web Animations API's, 300 ms at most
      const ours = (await motionOf(page)).calls.filter((c) => c.id.startsWith('motion-'));
      assert.ok(ours.every((c) => c.duration <= 300), JSON.stringify(ours.filter((c) => c.duration > 300)));
      assert.ok(ours.some((c) => c.id === 'motion-fly') && ours.some((c) => c.id === 'motion-sweep'), 'fly and sweep animations ran');
    }
    t.diagnostic(`flights from a bot's seat ${seen.bot}, from the hand ${seen.hand}, sweeps ${seen.sweep}`);
    assert.ok(seen.bot > 0, "a bot's set flew from its seat");
    assert.ok(seen.hand > 0, "the player's set flew from the hand");
    assert.ok(seen.sweep > 0, 'a won trick was swept');
    assert.deepEqual(errors, []);
  });
}

test('Big Cheese: a bid slides a chip from the seat to the card, the card taken goes to its winner, a payout counts up', async (t) => {
  const ctx = await context(t, 1280, 800, 'no-preference');
  const page = await ctx.newPage();
  const errors = [];
  watchErrors(page, errors);
  const { invite } = await cheeseTable();
  await page.goto(invite);
  await waitForState(page);
  // the score's text during a count-up: the final number, read as soon as the copy counts
  const during = await page.evaluate(
    () =>
      new Promise((res, rej) => {
        const timer = setTimeout(() => rej(new Error('no count-up in 90 s')), 90000);
        new MutationObserver((muts, obs) => {
          for (const m of muts)
            for (const n of m.addedNodes)
              if (n.nodeType === 1 && n.classList.contains('motion-count')) {
                const seat = n.closest('[data-seat]');
                const score = seat.querySelector('.score');
                const sid = (x) => (typeof x === 'number' ? 'P' + (x + 1) : String(x));
                const s = window.RR.table.pv().seats.find((x) => sid(x.seat) === seat.dataset.seat);
                obs.disconnect();
                clearTimeout(timer);
                res({ text: score.textContent, seatText: seat.textContent, copyText: n.textContent, final: s && s.score, key: score.dataset.k, copyHidden: n.getAttribute('aria-hidden') });
              }
        }).observe(document.getElementById('players'), { childList: true, subtree: true });
      })
  );
  assert.equal(during.copyText, '', 'the count-up copy holds no text (its digits are drawn by CSS)');
  assert.equal(during.copyHidden, 'true');
  assert.equal(during.key, 's' + during.final, 'the score node is the final one');
  assert.ok(during.text.includes(String(during.final)), `the score reads its final number while it counts: ${during.text}`);
  await page.waitForFunction(() => ['chip', 'card'].every((k) => window.RR.motion.some((m) => m.kind === k)), null, { timeout: 60000, polling: 200 });
  const { moves, calls } = await motionOf(page);
  const seats = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#players [data-seat]')].map((s) => [s.dataset.seat, (({ left, top, width, height }) => ({ left, top, width, height }))(s.getBoundingClientRect())])));
  const deck = await page.evaluate(() => (({ left, top, width, height }) => ({ left, top, width, height }))(document.querySelector('#board .deck').getBoundingClientRect()));
  const chips = moves.filter((m) => m.kind === 'chip');
  // each move against the places as they were when it moved (a later
  // update may move or resize a seat)
  for (const m of chips) {
    assert.ok(centreIn(m.from, m.seatRect, 4), `a chip starts at its bidder's seat ${m.seat}`);
    assert.ok(centreIn(m.to, m.deckRect, 4), 'a chip ends on the card up for bid');
  }
  for (const m of moves.filter((x) => x.kind === 'card')) assert.ok(centreIn(m.to, m.seatRect, 4), `the card taken ends at its winner's seat ${m.seat}`);
  for (const m of [...chips, ...moves.filter((x) => x.kind === 'card')]) assert.ok(seats[m.seat] && m.seatRect.width > 0, `seat ${m.seat} is on the page`);
  assert.ok(deck.width > 0 && chips.every((m) => m.deckRect && m.deckRect.width > 0), 'the card up for bid was on the page');
  const counts = moves.filter((m) => m.kind === 'count');
  assert.ok(counts.length > 0 && counts.every((m) => m.to > m.from), 'a score counted up');
  assert.ok(moves.every((m) => m.ms <= 300));
  assert.ok(calls.filter((c) => c.id.startsWith('motion-')).every((c) => c.duration <= 300));
  t.diagnostic(`chips ${chips.length}, cards taken ${moves.filter((m) => m.kind === 'card').length}, count-ups ${counts.length}`);
  // no copy stays on the page once it landed (the bots go on: new ones come)
  const stay = await page.evaluate(async () => {
    const now = [...document.querySelectorAll('.motion-ghost, .motion-count')];
    await new Promise((r) => setTimeout(r, 1100));
    return now.filter((g) => g.isConnected).length;
  });
  assert.equal(stay, 0, 'every copy went when it landed');
  assert.deepEqual(errors, []);
});

test('the replay: a step forward plays its moves, a jump plays none', async (t) => {
  const ctx = await context(t, 1280, 800, 'no-preference');
  const errors = [];
  const id = await finishedTable(server.base, ctx, { game: 'dalmuti', players: 4, options: { hands: 1 }, seats: [{ kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }, { kind: 'bot' }], bot_delay_ms: 5, public: true });
  const page = await ctx.newPage();
  watchErrors(page, errors);
  await page.goto('/replay/' + id);
  await page.waitForFunction(() => document.body.dataset.ready === '1');
  // a jump to the end and back to the start: drawn as it is, nothing flies
  await page.keyboard.press('End');
  await page.keyboard.press('Home');
  assert.deepEqual(await page.evaluate(() => window.RR.motion), [], 'a jump plays nothing');
  // step by step until a set flew into the trick and a trick was swept
  for (let k = 0; k < 200; k++) {
    const kinds = await page.evaluate(() => window.RR.motion.map((m) => m.kind));
    if (kinds.includes('fly') && kinds.includes('sweep')) break;
    await page.keyboard.press('ArrowRight');
  }
  const moves = await page.evaluate(() => window.RR.motion);
  assert.ok(moves.some((m) => m.kind === 'fly' && m.target === 'trick' && /^P\d+$/.test(m.src)), 'a set flew from its seat into the trick');
  assert.ok(moves.some((m) => m.kind === 'sweep'), 'a trick was swept');
  assert.ok(moves.every((m) => m.ms <= 300));
  assert.deepEqual(errors, []);
});

for (const [name, motion, hidden] of [
  ['reduced motion', 'reduce', false],
  ['a hidden tab', 'no-preference', true],
]) {
  test(`${name}: the same moves run no animation at all`, async (t) => {
    const ctx = await context(t, 1280, 800, motion, { hidden });
    const page = await ctx.newPage();
    const errors = [];
    watchErrors(page, errors);
    // a hand of Dalmuti played through the page...
    const { invite } = await dalmutiTable(100);
    await page.goto(invite);
    await joinViaForm(page, 'Mo');
    await playToEnd(page, { timeout: 120000 });
    const dal = await motionOf(page);
    assert.ok((await page.evaluate(() => window.RR.table.log.length)) > 20, 'a hand was played');
    assert.deepEqual(dal.moves, [], 'no move noted');
    assert.deepEqual(dal.calls, [], 'no animate() call');
    if (!hidden) assert.equal(await page.evaluate(() => document.getAnimations().length), 0, 'no CSS animation either');
    // ...and a Big Cheese table watched until a card was taken and a score went up
    const { invite: watch } = await cheeseTable();
    await page.goto(watch);
    await waitForState(page);
    await page.waitForFunction(
      () => {
        const log = window.RR.table.log;
        return log.some((e) => e.kind === 'take') && log.some((e) => e.kind === 'payout' || e.kind === 'keep') && log.some((e) => e.kind === 'bid');
      },
      null,
      { timeout: 90000, polling: 200 }
    );
    const bc = await motionOf(page);
    assert.deepEqual(bc.moves, []);
    assert.deepEqual(bc.calls, []);
    assert.deepEqual(errors, []);
  });
}

/* ---------- input never dropped ---------- */

/** Where focus is: on a card of the hand, elsewhere in the player's area, or outside it. */
const focusWhere = (page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    if (a && a.matches('#mine .hand button.card')) return 'card';
    return a && document.getElementById('mine').contains(a) ? 'mine' : 'out';
  });

/** Picks `cards` (ranks) by the arrows: Home, then right to each card, Space (the cursor moves on after a pick); no waiting for type-ahead. */
async function pickByArrows(page, cards) {
  if ((await focusWhere(page)) !== 'card') await tabTo(page, onCard, undefined, true);
  await page.keyboard.press('Escape'); // nothing picked ahead
  const ranks = await page.$$eval('#mine .hand button.card', (bs) => bs.map((b) => b.dataset.rank));
  const want = [];
  const used = new Set();
  for (const c of cards) {
    const i = ranks.findIndex((r, k) => r === c && !used.has(k));
    if (i < 0) throw new Error(`no ${c} in the hand ${ranks.join(' ')}`);
    used.add(i);
    want.push(i);
  }
  want.sort((a, b) => a - b);
  await page.keyboard.press('Home');
  let at = 0;
  for (const i of want) {
    for (; at < i; at++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press(' ');
    at = Math.min(i + 1, ranks.length - 1);
  }
}

for (const [size, w, h] of SIZES) {
  test(`${size}: a whole hand by keyboard at full speed with motion on: every move taken`, async (t) => {
    const ctx = await context(t, w, h, 'no-preference');
    const page = await ctx.newPage();
    const errors = [];
    watchErrors(page, errors, { resources: true });
    const refused = [];
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        const m = typeof f.payload === 'string' && JSON.parse(f.payload);
        if (m && m.type === 'error') refused.push(m);
      })
    );
    const { invite } = await dalmutiTable(0);
    await page.goto(invite);
    await joinViaForm(page, 'Kay');
    let entered = false;
    const turns = [];
    for (;;) {
      await page.waitForFunction(
        () => {
          const T = window.RR.table;
          return T.st && (T.st.over || (!T.pending && T.st.legal.length > 0 && !document.getElementById('mine').classList.contains('hidden')));
        },
        null,
        { timeout: 30000, polling: 'raf' }
      );
      const st = await pageState(page);
      if (st.over) break;
      if (!entered) {
        await tabTo(page, () => document.activeElement && document.activeElement.id === 'skip');
        await page.keyboard.press('Enter');
        entered = true;
      }
      const action = await keyboardTurn(page, st.legal, turns.length, pickByArrows);
      // the server took it: the state moved on from the one answered
      await page.waitForFunction((seq) => window.RR.table.st.seq !== seq || window.RR.table.st.over, st.seq, { timeout: 5000, polling: 'raf' }).catch(async () => {
        throw new Error(`"${action}" at seq ${st.seq} was not taken: msg "${await page.locator('#msg').textContent()}", refused ${JSON.stringify(refused)}`);
      });
      turns.push({ action, seq: st.seq });
    }
    const fin = await pageState(page);
    assert.ok(fin.over, 'the hand was played to its end');
    // every move is in the log as the player's: a play or a pass, in order
    const sid = (x) => (typeof x === 'number' ? 'P' + (x + 1) : String(x));
    const log = await page.evaluate(() => window.RR.table.log);
    const mine = log.filter((e) => sid(e.seat) === sid(fin.seat) && (e.kind === 'play' || e.kind === 'pass'));
    const sent = turns.filter((x) => x.action === 'pass' || x.action.startsWith('play '));
    assert.equal(mine.length, sent.length, `every move of the player is in the log (${mine.length} of ${sent.length})`);
    sent.forEach((x, i) => assert.equal(x.action === 'pass' ? 'pass' : 'play ' + mine[i].play, x.action === 'pass' ? mine[i].kind : x.action, `move ${i + 1}`));
    assert.deepEqual(refused, [], 'no error frame');
    assert.equal(await page.locator('#msg').textContent(), '');
    const { moves } = await motionOf(page);
    assert.ok(moves.length > 0, 'motion ran while the keys were pressed');
    t.diagnostic(`${turns.length} moves by keyboard, ${moves.length} motions`);
    assert.deepEqual(errors, []);
  });
}
