// The tutorial ("Learn to play"), through the real pages: for each game
// and each language (English, Italian, French) at 390×844, and one
// language of each game at 1280×800, the lobby's "Learn to play" opens a
// tutorial table; the test follows the coach to the end of the guided
// game, making real moves through the table's controls, and checks that
// each step the game's fixed deal brings shows its text in the page's
// language, with its target outlined and inside the viewport; the coach
// region passes axe-core; a reload keeps the step; "Hide the tips" folds
// the coach away (the desktop runs); and "Play a real game" leads to an
// ordinary table of the same game, in the same language.
//
// The moves follow a fixed policy (below), and a tutorial's bots are
// seeded by their seat, so each run plays the same game: the steps it
// meets are known. The lobby's request is rewritten to make the bots
// quick (bot_delay_ms), which the tutorial endpoint allows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newContext, watchErrors, audit, api } from './helpers.mjs';
import en from '../crates/server/web/i18n-en.js';
import it from '../crates/server/web/i18n-it.js';
import fr from '../crates/server/web/i18n-fr.js';

const TEXTS = { 'en-US': en, 'it-IT': it, 'fr-FR': fr };

/** The steps each game's deal brings to a player who follows the policy below, in the order shown. */
const EXPECTED = {
  dalmuti: ['d-welcome', 'd-cards', 'd-revolution', 'd-give', 'd-lead', 'd-trick', 'd-beat', 'd-out', 'end'],
  bigcheese: ['b-welcome', 'b-chips', 'b-cheese', 'b-bid', 'b-take', 'b-veto-card', 'b-hand', 'b-payout', 'b-veto', 'b-reroll', 'end'],
};

const RUNS = [
  ['dalmuti', 'en-US', 390, 844],
  ['dalmuti', 'it-IT', 390, 844],
  ['dalmuti', 'fr-FR', 390, 844],
  ['dalmuti', 'it-IT', 1280, 800],
  ['bigcheese', 'en-US', 390, 844],
  ['bigcheese', 'it-IT', 390, 844],
  ['bigcheese', 'fr-FR', 390, 844],
  ['bigcheese', 'en-US', 1280, 800],
];

let server;
let browser;

before(async () => {
  server = await startServer({ args: ['--create-burst', '500', '--join-burst', '500', '--max-live-tables-per-ip', '500'] });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/** A step's text as a pattern: its template with each {variable} any text. */
function pattern(texts, id, game) {
  const key = id === 'end' ? 'coach.end-' + game : 'coach.' + id;
  const tpl = texts[key];
  assert.ok(typeof tpl === 'string', 'no text for ' + key);
  const parts = tpl.split(/\{[a-z]+\}/).map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp('^' + parts.join('.+') + '$', 's');
}

/**
 * The coach as shown (its step, its text, whether it has "Got it", its
 * outlined target) and the table's state the moves are chosen from, read
 * at once: the coach is drawn with each state, so the two agree.
 */
const coachNow = (page) =>
  page.evaluate(() => {
    const T = window.RR.table;
    const st = T.st;
    const s = !st
      ? { seq: -1, ready: false }
      : {
          seq: st.seq,
          ready: !T.pending && !T.held && T.legal().length > 0 && !document.getElementById('mine').classList.contains('hidden'),
          legal: T.legal(),
          pv: T.pv(),
        };
    const p = document.getElementById('coachText');
    const box = document.getElementById('coach');
    if (!p || !box || box.classList.contains('hidden')) return { s };
    const ts = [...document.querySelectorAll('.coach-target')];
    const r = ts[0] && ts[0].getBoundingClientRect();
    const style = ts[0] && getComputedStyle(ts[0]);
    return {
      s,
      step: p.dataset.step,
      text: p.textContent,
      role: p.getAttribute('role'),
      next: !!document.getElementById('coachNext'),
      targets: ts.length,
      outlined: !!style && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
      inView: !!r && r.width > 0 && r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1,
      box: box.getBoundingClientRect().toJSON(),
    };
  });

const rankOf = (c) => (c === 'J' ? 13 : Number(c));

/** Picks exactly `cards` (ranks, "J") in the hand by clicking them. */
async function pick(page, cards) {
  for (const b of await page.locator('#mine button.card[aria-pressed="true"]').all()) await b.click();
  const ranks = await page.$$eval('#mine button.card', (bs) => bs.map((b) => b.dataset.rank));
  const used = new Set();
  for (const c of cards) {
    const i = ranks.findIndex((r, k) => r === c && !used.has(k));
    assert.ok(i >= 0, `card ${c} not in the hand ${ranks.join(' ')}`);
    used.add(i);
    await page.locator('#mine button.card').nth(i).click();
  }
}

/** A set's cards: "2x7+J" → 7 7 J. */
function setCards(set) {
  const m = String(set).match(/^(?:(\d+)x)?(\d+|J)(?:\+(\d*)J)?$/);
  const n = m[1] ? Number(m[1]) : 1;
  const j = m[3] !== undefined ? Number(m[3] || 1) : 0;
  return Array(n).fill(m[2]).concat(Array(j).fill('J'));
}

/**
 * One Dalmuti move: declare the revolution; give back the worst cards;
 * lead the biggest set (the worst rank among equals, Jesters kept);
 * follow with the worst rank that beats without Jesters, else pass.
 */
async function dalmutiMove(page, s) {
  const L = s.legal;
  if (L.includes('revolution')) return page.locator('#mine [data-act="revolution"]').click();
  const gives = L.filter((a) => a.startsWith('give '));
  if (gives.length) {
    const worth = (a) => a.slice(5).split(' ').reduce((n, c) => n + rankOf(c), 0);
    const a = gives.reduce((x, y) => (worth(y) > worth(x) ? y : x));
    await pick(page, a.slice(5).split(' '));
    return page.locator('#giveGo').click();
  }
  const plays = L.filter((a) => a.startsWith('play ') && !a.includes('J'));
  if (plays.length) {
    const cards = (a) => setCards(a.slice(5));
    const score = (a) => (s.pv.trick ? 0 : cards(a).length * 100) + rankOf(cards(a)[0]);
    const a = plays.reduce((x, y) => (score(y) > score(x) ? y : x));
    await pick(page, cards(a));
    return page.locator('#playGo').click();
  }
  if (L.includes('pass')) return page.locator('#mine [data-act="pass"]').click();
  const any = L.find((a) => a.startsWith('play '));
  await pick(page, setCards(any.slice(5)));
  return page.locator('#playGo').click();
}

/**
 * One Big Cheese move: re-roll once, then keep; play the first Veto;
 * bid the lowest bid when it is at most 6 on a Veto or Big Cheese, 3 on a
 * number card; otherwise pass.
 */
async function bigCheeseMove(page, s, done) {
  const L = s.legal;
  if (L.includes('reroll') && !done.reroll) {
    done.reroll = true;
    return page.locator('#mine [data-act="reroll"]').click();
  }
  if (L.includes('keep')) return page.locator('#mine [data-act="keep"]').click();
  if (L.includes('veto') && !done.veto) {
    done.veto = true;
    return page.locator('#mine [data-act="veto"]').click();
  }
  const bids = L.filter((a) => a.startsWith('bid ')).map((a) => Number(a.slice(4)));
  const up = String(s.pv.auction ? s.pv.auction.card : s.pv.top);
  if (bids.length && bids[0] <= (up === 'V' || up === 'BC' ? 6 : 3)) return page.locator('#bidGo').click();
  return page.locator('#mine [data-act="pass"]').click();
}

/** Follows the coach from the first step to the end: reads, moves, and records each step shown. */
async function follow(page, game, texts, where) {
  const shown = [];
  const done = {};
  let audited = false;
  let reloaded = false;
  const deadline = Date.now() + 60000;
  for (;;) {
    assert.ok(Date.now() < deadline, `${where}: the guided game did not end in 60 s (steps ${shown.join(' ')})`);
    const c = await coachNow(page);
    if (c.step && !shown.includes(c.step)) {
      shown.push(c.step);
      assert.match(c.text, pattern(texts, c.step, game), `${where}: step ${c.step} in the page's language`);
      assert.equal(c.role, 'status', `${where}: the coach is heard`);
      assert.equal(c.targets, 1, `${where}: step ${c.step} outlines one part of the table`);
      assert.ok(c.outlined, `${where}: step ${c.step}'s target is outlined`);
      assert.ok(c.inView, `${where}: step ${c.step}'s target is in the viewport`);
      // TUTORIAL_SHOTS=DIR: a screenshot of each step, to look at
      if (process.env.TUTORIAL_SHOTS) await page.screenshot({ path: `${process.env.TUTORIAL_SHOTS}/${where.replace(/[^a-z0-9-]+/gi, '_')}-${shown.length}-${c.step}.png` });
      if (!audited) {
        audited = true;
        assert.deepEqual(await audit(page, `${where} coach`, { all: true }), []);
      }
      // a reload keeps the step
      if (!reloaded && c.step === 'b-take') {
        reloaded = true;
        await page.reload();
        await page.waitForFunction((id) => document.getElementById('coachText') && document.getElementById('coachText').dataset.step === id, c.step);
      }
      if (c.step === 'end') return shown;
    }
    if (c.next) {
      // (the coach may move on as the game does: a click that misses is tried again)
      await page.locator('#coachNext').click({ timeout: 1000 }).catch(() => {});
      continue;
    }
    const s = c.s;
    if (s.ready) {
      if (game === 'dalmuti') await dalmutiMove(page, s);
      else await bigCheeseMove(page, s, done);
      await page.waitForFunction((seq) => window.RR.table.st.seq !== seq || window.RR.table.held || document.getElementById('msg').textContent !== '', s.seq);
      const err = await page.locator('#msg').textContent();
      if (err && !(await page.evaluate(() => window.RR.table.held))) assert.fail(`${where}: a move was refused: ${err}`);
      continue;
    }
    await page.waitForTimeout(50);
  }
}

for (const [game, locale, w, h] of RUNS) {
  const where = `${game} ${locale} ${w}×${h}`;
  test(`the ${where} tutorial teaches itself and leads to a real game`, async (t) => {
    const texts = TEXTS[locale];
    const ctx = await newContext(browser, server.base, t, { locale, viewport: { width: w, height: h }, reducedMotion: 'reduce' });
    const page = await ctx.newPage();
    const errors = [];
    watchErrors(page, errors);
    // quick bots: the tutorial's own delay is for people
    await page.route('**/api/tutorial', (route) => {
      const body = JSON.parse(route.request().postData());
      route.continue({ postData: JSON.stringify({ ...body, bot_delay_ms: 40 }) });
    });
    await page.goto('/');
    await page.locator('#game').selectOption(game);
    const learn = page.locator('#learn');
    await learn.waitFor();
    assert.equal(await learn.textContent(), texts['tutorial.learn'].replace('{game}', texts['game.' + game]));
    await learn.click();
    await page.waitForURL(/\/t\/[^/?]+/);
    const id = new URL(page.url()).pathname.split('/')[2];
    const info = await api(server.base, '/api/tables/' + id);
    assert.equal(info.tutorial, true);
    assert.equal(info.public, false);

    await page.waitForFunction(() => window.RR.table.st && window.RR.table.info);
    // the side column says the deal is a fixed lesson, not a commitment to a secret
    await page.waitForFunction((want) => (document.getElementById('invite')?.textContent || '').includes(want), texts['table.tutorialHash']);
    if (w > 1000) {
      // "Hide the tips" folds the coach away (no step, no outline), and it stays folded after a reload
      await page.locator('#coachText[data-step="' + EXPECTED[game][0] + '"]').waitFor({ state: 'attached' });
      await page.locator('#coachHide').click();
      await page.locator('#coachShow').waitFor();
      assert.equal(await page.locator('#coachText').textContent(), '');
      assert.equal(await page.locator('.coach-target').count(), 0);
      await page.reload();
      await page.locator('#coachShow').waitFor();
      assert.equal(await page.locator('#coachShow').textContent(), texts['coach.show']);
      await page.locator('#coachShow').click();
      await page.locator('#coachNext').waitFor();
    }
    const shown = await follow(page, game, texts, where);
    assert.deepEqual(shown, EXPECTED[game], `${where}: the steps shown`);
    assert.deepEqual(errors, []);

    // "Play a real game": an ordinary table of the same game, same language
    await page.locator('#coachReal').click();
    await page.waitForURL((u) => !u.pathname.endsWith('/' + id) && /\/t\//.test(u.pathname));
    const next = new URL(page.url()).pathname.split('/')[2];
    const real = await api(server.base, '/api/tables/' + next);
    assert.equal(real.game, game);
    assert.equal(real.tutorial, false);
    assert.equal(real.fair, true);
    await page.waitForFunction(() => window.RR.table.st && window.RR.table.st.seat);
    assert.equal(await page.locator('#coach').isHidden(), true, 'no coach at a real table');
    assert.equal(await page.evaluate(() => document.documentElement.lang), locale.slice(0, 2));
    assert.deepEqual(errors, []);
  });
}
