// Browser tests of the table's layout, measured (element rectangles and
// the page's own hit test against the viewport), at desktop (1280×800)
// and phone (390×844) size: with the page at its top and the player to
// move, every seat, the trick or the card at stake, every card of the hand
// and every control of the player's area are on the screen at once, each
// card and control a target of 24 px or more that a tap reaches, and on
// the phone the seats' heights add up to 40% of the screen's at most (two
// side by side count twice; the player's own seat counts); for The
// Great Dalmuti at 4 to 8 players and The Big Cheese at 3 to 6. At 9 to 13
// Dalmuti players (the most a table takes) the page may scroll, but every
// card and control is reached by scrolling with nothing over it, every
// seat can be seen, and nothing scrolls sideways.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, api, joinViaForm, playToEnd, tableLayout, SIZES, newContext, watchErrors } from './helpers.mjs';

let server;
let browser;

before(async () => {
  // every table here is made from one address: the quotas are raised
  server = await startServer({ args: ['--create-burst', '500', '--join-burst', '500', '--max-live-tables-per-ip', '500'] });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/** The seats' share of the phone's height the layout keeps within. */
const PHONE_SEATS = 0.4;
/** The smallest target a card or control may be, in CSS pixels (WCAG 2.2, 2.5.8). */
const TARGET = 24;
/** How many of the player's decisions each table is measured at. */
const DECISIONS = 3;

/**
 * A table of `game` for `players` (P1 this page, the others bots of three
 * levels), joined on a fresh page of `w`×`h` with motion reduced (the
 * rectangles are measured at rest); returns the page and its errors.
 */
async function seated(t, w, h, game, players) {
  const ctx = await newContext(browser, server.base, t, { viewport: { width: w, height: h }, reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  const errors = [];
  watchErrors(page, errors, { resources: true });
  const { invite } = await api(server.base, '/api/tables', 'POST', {
    game,
    players,
    options: game === 'dalmuti' ? { hands: 1 } : {},
    seats: [{ kind: 'human' }, ...Array.from({ length: players - 1 }, (_, i) => ({ kind: 'bot', bot: ['random', 'heuristic', 'strong'][i % 3] }))],
    bot_delay_ms: 5,
  });
  await page.goto(invite);
  await joinViaForm(page, 'Alice');
  return { page, errors };
}

/**
 * Plays the page's seat through its first `n` decisions, calling `look`
 * at each before the move is made (the page at rest); the moves are the
 * test helper's, through the controls. A revolution's decision is not
 * looked at: its window is a second here, too short to measure and move.
 */
async function atDecisions(page, n, look) {
  let k = 0;
  await playToEnd(page, {
    timeout: 90000,
    beforeMove: async (st) => {
      if (st.legal.includes('no-revolution')) return false;
      if (k >= n) throw new Error('measured');
      k++;
      await look(st, k);
      return false;
    },
  }).catch((e) => {
    if (e.message !== 'measured') throw e;
  });
  return k;
}

const px = (x) => Math.round(x);
const out = (L, r) => r.top < -1 || r.left < -1 || r.bottom > L.vh + 1 || r.right > L.vw + 1;

/** What is wrong with the layout `L` of a decision, one line each ([] when nothing). */
function problems(L, phone) {
  const bad = [];
  for (const s of L.seats) if (out(L, s)) bad.push(`seat ${s.seat} at ${px(s.top)}..${px(s.bottom)}, ${px(s.left)}..${px(s.right)}`);
  if (out(L, L.board)) bad.push(`the board at ${px(L.board.top)}..${px(L.board.bottom)}`);
  for (const c of L.cards) {
    if (out(L, c)) bad.push(`card ${c.rank} at ${px(c.top)}..${px(c.bottom)}, ${px(c.left)}..${px(c.right)}`);
    else if (c.reach.w < TARGET || c.reach.h < TARGET) bad.push(`card ${c.rank}: a tap reaches ${c.reach.w}×${c.reach.h} px of it`);
  }
  if (!L.controls.length) bad.push('no control in the player area');
  for (const c of L.controls) {
    if (out(L, c)) bad.push(`control "${c.name}" at ${px(c.top)}..${px(c.bottom)}`);
    else if (c.width < TARGET || c.height < TARGET) bad.push(`control "${c.name}" is ${px(c.width)}×${px(c.height)} px`);
    else if (!c.hit) bad.push(`control "${c.name}" is covered`);
  }
  if (L.scrollWidth > L.vw) bad.push(`the page is ${L.scrollWidth} px wide`);
  // the seats' heights added up (two side by side count twice), the player's own too
  if (phone && L.seatSum > PHONE_SEATS) bad.push(`the seats' heights add up to ${Math.round(100 * L.seatSum)}% of the screen's`);
  return bad;
}

for (const [size, w, h] of SIZES) {
  const phone = w < 600;
  for (const [game, counts, middle] of [
    ['dalmuti', [4, 5, 6, 7, 8], 'the trick'],
    ['bigcheese', [3, 4, 5, 6], 'the card at stake'],
  ]) {
    for (const players of counts) {
      test(`${size}: ${game} at ${players} players: every seat, ${middle}, the whole hand and every control on one screen${phone ? ", the seats' heights within 40% of its height" : ''}`, async (t) => {
        const { page, errors } = await seated(t, w, h, game, players);
        const misses = [];
        let sum = 0;
        let band = 0;
        const n = await atDecisions(page, DECISIONS, async (st, k) => {
          await page.evaluate(() => scrollTo(0, 0));
          await page.waitForTimeout(50);
          const L = { ...(await tableLayout(page)), scrollWidth: await page.evaluate(() => document.documentElement.scrollWidth) };
          assert.equal(L.seats.length, players, 'every seat drawn');
          sum = Math.max(sum, L.seatSum);
          band = Math.max(band, L.seatShare);
          for (const p of problems(L, phone)) misses.push(`decision ${k} (${st.legal.slice(0, 3).join(', ')}…): ${p}`);
        });
        t.diagnostic(`${n} decisions; the seats' heights added up to ${Math.round(100 * sum)}% of the screen's at most, the band they cover ${Math.round(100 * band)}%`);
        assert.equal(n, DECISIONS);
        assert.deepEqual(misses, []);
        assert.deepEqual(errors, []);
      });
    }
  }

  for (const players of [9, 10, 11, 12, 13]) {
    test(`${size}: dalmuti at ${players} players: every card and control is reached by scrolling with nothing over it, and every seat can be seen`, async (t) => {
      const { page, errors } = await seated(t, w, h, 'dalmuti', players);
      const misses = [];
      await atDecisions(page, 2, async (st, k) => {
        const bad = await page.evaluate((TARGET) => {
          const found = [];
          /** Whether a tap at (x, y) reaches `n`. */
          const hits = (n, x, y) => {
            const h = document.elementFromPoint(x, y);
            return !!h && (h === n || n.contains(h));
          };
          const mine = document.getElementById('mine');
          const cards = [...mine.querySelectorAll('.hand button.card')];
          const controls = [...mine.querySelectorAll('button:not(.card), input')].filter((n) => n.getClientRects().length);
          for (const n of [...cards, ...controls]) {
            n.scrollIntoView({ block: 'center' });
            const r = n.getBoundingClientRect();
            const name = n.dataset.rank ? 'card ' + n.dataset.rank : '"' + (n.getAttribute('aria-label') || n.textContent).trim() + '"';
            if (r.width < TARGET || r.height < TARGET) found.push(`${name} is ${Math.round(r.width)}×${Math.round(r.height)} px`);
            // the strip of a card that the next one leaves, or a control's middle
            const x = n.dataset.rank ? r.left + Math.min(r.width, TARGET) / 2 : r.left + r.width / 2;
            if (!hits(n, x, r.top + r.height / 2)) found.push(`${name} is covered`);
          }
          // each seat, brought to the top of the screen, is not under the player's area
          for (const s of document.querySelectorAll('#players .seat')) {
            s.scrollIntoView({ block: 'start' });
            const r = s.getBoundingClientRect();
            if (!hits(s, r.left + r.width / 2, r.top + Math.min(r.height / 2, 10))) found.push(`seat ${s.dataset.seat} cannot be seen`);
          }
          if (document.documentElement.scrollWidth > innerWidth) found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
          if (!controls.length) found.push('no control in the player area');
          scrollTo(0, 0);
          return found;
        }, TARGET);
        for (const p of bad) misses.push(`decision ${k}: ${p}`);
      });
      assert.deepEqual(misses, []);
      assert.deepEqual(errors, []);
    });
  }
}
