// End-to-end browser tests of tournaments for people, each person in a
// browser context of their own, playing every table through the page:
// - desktop (1280x800): a Swiss of 8 made from the lobby's form, 3 rounds
//   of two tables, each person taken from the tournament's page to each
//   table and back by its result's link; the standings match the tables'
//   records; then a duplicate round of the same 8 whose two tables deal
//   the same cards (the records' seeds);
// - phone (390x844): an arena of 6 where everyone plays at least 3
//   tables (the two left over play with bots after the wait), with its
//   standings matching the records, and the arena on the profiles of
//   those it rated.
// The tournament page is checked with axe-core at both sizes and, with
// TOURNAMENT_SHOT=PREFIX, saved as PREFIX{desktop,phone}.png to look at.
// Run: `RATRACE_BIN=target/debug/ratrace node --test e2e/tournaments.test.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newContext, watchErrors, audit, waitForState, api } from './helpers.mjs';

let server;
let browser;

before(async () => {
  server = await startServer({ args: ['--join-burst', '500', '--record-burst', '500'] });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/** `n` people, each in their own context of size `w`x`h`, on the lobby. */
async function people(t, n, w, h, errors) {
  const pages = [];
  for (let i = 0; i < n; i++) {
    // no animation: eight pages drawing every move's on two cores would
    // take minutes a round (motion has its own tests)
    const ctx = await newContext(browser, server.base, t, { viewport: { width: w, height: h }, reducedMotion: 'reduce' });
    const page = await ctx.newPage();
    watchErrors(page, errors);
    await page.goto('/');
    pages.push(page);
  }
  return pages;
}

/** Person `page` enters tournament `id` under `name` from its page. */
async function enter(page, id, name) {
  await page.goto('/tournament/' + id);
  await page.locator('#tpName').fill(name);
  await page.click('#tJoin');
  await page.locator('#tIn').waitFor();
}

/** The tournament's page data as the page has it (null elsewhere). */
const pageData = (page) =>
  page.evaluate(() => (window.RR && window.RR.T && window.RR.T.data ? JSON.parse(JSON.stringify(window.RR.T.data)) : null)).catch(() => null);

/**
 * Plays the seat of the table page `page` to the end through the page's
 * own WebSocket, its first legal action each turn (as fast as a person
 * never is: the clicks are another test's, e2e/play.test.mjs; eight
 * people clicking on two cores would take minutes a round).
 */
async function quickPlay(page, timeout = 120000) {
  const end = Date.now() + timeout;
  for (;;) {
    assert.ok(Date.now() < end, 'the game did not end in time');
    await page.waitForFunction(
      () => {
        const T = window.RR.table;
        return T.st && (T.st.over || (!T.pending && T.st.legal && T.st.legal.length > 0));
      },
      null,
      { timeout: end - Date.now(), polling: 50 }
    );
    const seq = await page.evaluate(() => {
      const T = window.RR.table;
      if (T.st.over) return null;
      T.conn.send({ type: 'act', seq: T.st.seq, action: T.st.legal[0] });
      return T.st.seq;
    });
    if (seq === null) break;
    // the next state, or a look again (a held secret decision waits for
    // its window; an action that crossed a bot's is refused as stale)
    await page
      .waitForFunction(
        (s) => {
          const T = window.RR.table;
          return T.st.seq !== s || T.st.over;
        },
        seq,
        { timeout: 2000, polling: 50 }
      )
      .catch(() => {});
  }
  await page.locator('#result').waitFor({ state: 'visible', timeout: 10000 });
}

/**
 * Plays every table the tournament gives the person on `page` (open on
 * the tournament's page): waits to be taken to a table, plays it through
 * the page, comes back by the result's link; until the tournament is
 * over. How many tables they played.
 */
async function playTournament(page, limitMs = 360000) {
  const end = Date.now() + limitMs;
  let tables = 0;
  for (;;) {
    assert.ok(Date.now() < end, `the tournament did not end in ${limitMs} ms (${tables} tables played)`);
    if (/\/t\/[^/]+$/.test(new URL(page.url()).pathname)) {
      await waitForState(page, 20000);
      const at = Date.now();
      await quickPlay(page);
      tables++;
      if (process.env.TOURNAMENT_LOG) console.error(`${new URL(page.url()).pathname}: ${Date.now() - at} ms`);
      await backToTournament(page);
      continue;
    }
    const d = await pageData(page);
    if (d && d.status === 'finished') return tables;
    await page.waitForTimeout(200);
  }
}

/**
 * Follows the result's link back to the tournament. The result panel is
 * drawn again when a late message comes (a rating, the tournament's
 * news); a click whose press and release fall on two drawings of the
 * link reaches no link, so a click that led nowhere is made again.
 */
async function backToTournament(page) {
  const there = () => /\/tournament\//.test(new URL(page.url()).pathname);
  for (let i = 0; i < 4 && !there(); i++) {
    // a slow page may have left between the look and the click
    await page.click('#toTournament', { timeout: 5000 }).catch(() => {});
    await page.waitForURL(/\/tournament\//, { timeout: 5000, waitUntil: 'commit' }).catch(() => {});
  }
  assert.ok(there(), `the result's link did not lead back to the tournament: ${page.url()}`);
}

/** Each name's points from the tables' records: players − place per table (arena and Swiss). */
async function pointsFromRecords(view) {
  const out = {};
  for (const tb of view.tables) {
    const rec = await api(server.base, `/api/tables/${tb.id}/record`);
    assert.deepEqual(tb.places, rec.outcome.places, tb.id);
    tb.seats.forEach((name, s) => {
      if (!tb.stand_in[s]) out[name] = (out[name] || 0) + rec.outcome.places.length - rec.outcome.places[s];
      else out[name] = out[name] || 0;
    });
  }
  return out;
}

/** The tournament page at this size: axe-core, nothing wider than the screen, a screenshot to look at. */
async function look(page, label, w) {
  assert.deepEqual(await audit(page, `tournament page (${label})`), []);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= w, `the page scrolls sideways: ${wide} > ${w}`);
  if (process.env.TOURNAMENT_SHOT) await page.screenshot({ path: `${process.env.TOURNAMENT_SHOT}${label}.png`, fullPage: true });
}

test('desktop: a Swiss of 8 over 3 rounds from the lobby, then a duplicate round of the same cards', async (t) => {
  const errors = [];
  const pages = await people(t, 8, 1280, 800, errors);
  const [ann] = pages;
  // made from the lobby's form
  await ann.locator('#tmake summary').click();
  await ann.fill('#tname', 'Friday Swiss');
  await ann.selectOption('#tkind', 'swiss');
  await ann.selectOption('#tpreset', 'dalmuti-4-one-hand');
  await ann.selectOption('#trounds', '3');
  await ann.selectOption('#tstart', '3600');
  await ann.click('#tgo');
  await ann.waitForURL(/\/tournament\/[A-Za-z0-9_-]+$/);
  const id = new URL(ann.url()).pathname.split('/').pop();
  await Promise.all(pages.map((p, i) => enter(p, id, `Rat ${i + 1}`)));
  await ann.locator('#head').filter({ hasText: '8 entrants' }).waitFor();
  await ann.click('#tStart');
  const played = await Promise.all(pages.map((p) => playTournament(p)));
  assert.deepEqual(played, [3, 3, 3, 3, 3, 3, 3, 3], 'three rounds for everyone');
  const view = await api(server.base, `/api/tournaments/${id}`);
  assert.equal(view.status, 'finished');
  assert.equal(view.tables.length, 6);
  const expected = await pointsFromRecords(view);
  for (const line of view.standings) assert.equal(line.points, expected[line.name], line.name);
  // the page shows the final standings, best first
  await ann.locator('#tStandings tr').nth(8).waitFor();
  const first = await ann.locator('#tStandings tr').nth(1).innerText();
  assert.match(first, new RegExp(view.standings[0].name));
  await look(ann, 'desktop', 1280);

  // the same eight in a duplicate round: both tables deal the same cards
  const key = await ann.evaluate(() => localStorage.getItem('ratrace.identity'));
  const made = await fetch(server.base + '/api/tournaments', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Ratrace-Key': key },
    body: JSON.stringify({ name: 'Dup', kind: 'duplicate', preset: 'dalmuti-4-one-hand', rounds: 1, start_in_s: 3600 }),
  }).then((r) => r.json());
  await Promise.all(pages.map((p, i) => enter(p, made.id, `Rat ${i + 1}`)));
  await ann.click('#tStart');
  const again = await Promise.all(pages.map((p) => playTournament(p)));
  assert.deepEqual(again, [1, 1, 1, 1, 1, 1, 1, 1]);
  const dup = await api(server.base, `/api/tournaments/${made.id}`);
  const seeds = await Promise.all(dup.tables.map((tb) => api(server.base, `/api/tables/${tb.id}/record`).then((r) => r.seed)));
  assert.equal(seeds.length, 2);
  assert.equal(seeds[0], seeds[1], 'one deal for the round');
  const total = dup.standings.reduce((s, l) => s + l.points, 0);
  assert.equal(total, 4, 'each of the 4 seats shares one point between its two holders');

  assert.deepEqual(errors, []);
});

test('phone: an arena of 6 people and a bot where everyone plays at least 3 tables', async (t) => {
  const errors = [];
  const pages = await people(t, 6, 390, 844, errors);
  const [ann] = pages;
  const key = await ann.evaluate(() => localStorage.getItem('ratrace.identity'));
  const made = await fetch(server.base + '/api/tournaments', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Ratrace-Key': key },
    body: JSON.stringify({ name: 'Lunch arena', kind: 'arena', preset: 'dalmuti-4-one-hand', minutes: 1, start_in_s: 3600, bot_delay_ms: 200, bots: ['heuristic'] }),
  }).then((r) => r.json());
  assert.ok(made.id, JSON.stringify(made));
  await Promise.all(pages.map((p, i) => enter(p, made.id, `Rat ${i + 1}`)));
  await look(ann, 'phone', 390);
  await ann.click('#tStart');
  const played = await Promise.all(pages.map((p) => playTournament(p)));
  for (const n of played) assert.ok(n >= 3, `at least 3 tables each: ${played}`);
  const view = await api(server.base, `/api/tournaments/${made.id}`);
  assert.equal(view.status, 'finished');
  const expected = await pointsFromRecords(view);
  for (const line of view.standings) {
    assert.equal(line.points, expected[line.name] || 0, line.name);
    // each of the six people: 3 tables or more; the bot entrant is
    // seated only beside people, as the longest waiters fall, so its
    // count depends on how the tables happen to end (once it had 2)
    assert.ok(line.tables >= (line.bot ? 1 : 3), JSON.stringify(line));
  }
  // the arena is on the profile of those rated there (who played its
  // bot: people count for each other once proven)
  let shown = 0;
  for (const line of view.standings) {
    const r = await fetch(`${server.base}/api/players/${line.short}`);
    if (!r.ok) continue;
    await ann.goto('/p/' + line.short);
    await ann.locator('#pTournaments').waitFor();
    assert.match(await ann.locator('#pTournaments').innerText(), new RegExp(`Lunch arena[\\s\\S]*place ${line.place} of 7`));
    shown++;
  }
  assert.ok(shown >= 3, `those who played the bot are rated: ${shown}`);
  assert.deepEqual(errors, []);
});
