// Takes the screenshots in docs/screenshots/ (not a test): the lobby, a
// table of each game (and of eight Dalmuti players on the phone), each
// game's tutorial at its first step, the waiting room, a re-roll chosen
// on the dice, a finished game, its replay and its analysis, and a
// player's profile after a few rated games, and the friends panel and an
// invitation, a shared replay's room, a tournament's page, and a game
// played offline in the browser (mid-game with a hint, and the static
// site's lobby), at desktop (1280×800) and phone (390×844) size. Run after
// `cargo build -p cli`:
//   node e2e/screenshots.mjs [out-dir]     (default docs/screenshots)
// With SHOTS=tutorial it takes the tutorials' alone, with SHOTS=profile
// the profile's alone, SHOTS=friends the friends', SHOTS=room the room's,
// SHOTS=tournament the tournament's, SHOTS=local the offline game's.
// The icons come with the client (icons.woff2), so a machine with no emoji
// font (this one has none: `fc-list | grep -i emoji` is empty) shows what
// any browser shows. scripts/test.sh runs it into a temporary folder, so
// it keeps working; the committed ones are from the same script.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { startServer, launchBrowser, api, joinViaForm, waitForState, playToEnd, ROOT } from './helpers.mjs';

const out = resolve(process.argv[2] || resolve(ROOT, 'docs/screenshots'));
mkdirSync(out, { recursive: true });
// a small analysis budget (the screenshot shows the page, not the judge's
// strength), and the table quotas lifted (the profile's games, below, make
// more tables in a minute than one address may)
const server = await startServer({ args: ['--analysis-budget', '64,32', '--create-burst', '500', '--join-burst', '500', '--max-live-tables-per-ip', '500'] });
const browser = await launchBrowser();
const SIZES = [
  ['desktop', 1280, 800],
  ['phone', 390, 844],
];

// reduced motion: nothing is in flight when a screenshot is taken (the CSS
// animations are off, and motion.js plays no move over an update)
async function page(w, h) {
  const ctx = await browser.newContext({ locale: 'en-US', baseURL: server.base, viewport: { width: w, height: h }, reducedMotion: 'reduce' });
  return ctx.newPage();
}

async function shot(p, name, full = false) {
  await p.screenshot({ path: resolve(out, name + '.png'), fullPage: full });
  console.log(name);
}

/** Each game's tutorial from the lobby's "Learn to play", at its first step (the coach over the felt). */
async function tutorials(size, w, h) {
  for (const game of ['bigcheese', 'dalmuti']) {
    const p = await page(w, h);
    await p.goto('/');
    await p.locator('#game option').first().waitFor({ state: 'attached' });
    await p.locator('#game').selectOption(game);
    await p.locator('#learn').click();
    await p.waitForURL(/\/t\//);
    await p.waitForFunction(() => document.getElementById('coachText') && document.getElementById('coachText').dataset.step);
    await p.waitForTimeout(300);
    await shot(p, `tutorial-${game}-${size}`);
    await p.context().close();
  }
}

/** A profile after rated games of each game against bots at public tables, at both sizes. */
async function profiles() {
  const p = await page(1280, 800);
  const quick = (game) => ({ game, players: 3, seats: [{ kind: 'human' }, ...bots(2)], options: game === 'dalmuti' ? { hands: 2 } : { dice: 'd6', target: '60' }, bot_delay_ms: 5, public: true });
  for (const game of ['bigcheese', 'bigcheese', 'bigcheese', 'bigcheese', 'dalmuti', 'dalmuti']) {
    const { invite } = await api(server.base, '/api/tables', 'POST', quick(game));
    await p.goto(invite);
    await joinViaForm(p, 'Alice');
    await playToEnd(p, { timeout: 120000 });
  }
  const key = await p.evaluate(() => window.RR.identity());
  await new Promise((ok) => setTimeout(ok, 1000));
  const mine = await fetch(server.base + '/api/me/games', { headers: { 'X-Ratrace-Key': key } }).then((r) => r.json());
  await p.context().close();
  for (const [size, w, h] of SIZES) {
    const q = await page(w, h);
    await q.goto('/p/' + mine.player);
    await q.locator('#out[data-ready="1"]').waitFor();
    await shot(q, `profile-${size}`, true);
    await q.context().close();
  }
}

/**
 * The lobby's friends panel (Ann follows Bob and Cy; Bob is at a public
 * table) and Bob's table page with Ann's invitation, at each size.
 */
async function friends() {
  for (const [size, w, h] of SIZES) {
    const who = {};
    for (const name of ['Ann', 'Bob', 'Cy']) {
      const p = await page(w, h);
      const { invite, id } = await api(server.base, '/api/tables', 'POST', { game: 'bigcheese', players: 3, seats: [{ kind: 'human' }, ...bots(2)], bot_delay_ms: 10000, public: true });
      await p.goto(invite);
      await joinViaForm(p, name);
      await p.goto('/');
      await p.locator('#myId').waitFor();
      who[name] = { p, id, me: await p.locator('#myId').inputValue() };
    }
    const ann = who.Ann.p;
    for (const x of ['Bob', 'Cy']) {
      await ann.locator('#followId').fill(who[x].me);
      await ann.getByRole('button', { name: 'Follow', exact: true }).click();
      await ann.locator('#follows', { hasText: x }).waitFor();
    }
    await who.Cy.p.context().close();
    const bob = who.Bob.p;
    await bob.goto('/t/' + who.Bob.id);
    await bob.waitForFunction(() => window.RR.table.st);
    const { invite } = await api(server.base, '/api/tables', 'POST', { game: 'dalmuti', players: 4, seats: [{ kind: 'human' }, { kind: 'human' }, ...bots(2)], bot_delay_ms: 10000, public: true });
    await ann.goto(invite);
    await joinViaForm(ann, 'Ann');
    await ann.locator('#inviteWho').selectOption(who.Bob.me);
    await ann.locator('#inviteGo').click();
    await ann.locator('#inviteSaid', { hasText: 'Invitation sent.' }).waitFor();
    await bob.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await bob.locator('#invited a').waitFor();
    await shot(bob, `invited-${size}`);
    await ann.goto('/');
    await ann.locator('#follows', { hasText: 'at a table' }).waitFor();
    await ann.locator('#friendsBox').screenshot({ path: resolve(out, `friends-${size}.png`) });
    console.log(`friends-${size}`);
    await ann.context().close();
    await bob.context().close();
  }
}

/** A shared replay: Ann leads, Bob follows and has said something, at each size (Bob's page). */
async function rooms() {
  const a = await page(1280, 800);
  const { invite, id } = await api(server.base, '/api/tables', 'POST', { game: 'dalmuti', players: 4, options: { hands: 1 }, seats: [{ kind: 'human' }, ...bots(3)], bot_delay_ms: 5 });
  await a.goto(invite);
  await joinViaForm(a, 'Ann');
  await playToEnd(a, { timeout: 120000 });
  await a.goto('/replay/' + id);
  await a.waitForFunction(() => document.body.dataset.ready === '1');
  await a.locator('#roomName').fill('Ann');
  await a.locator('#roomOpen').click();
  const link = await a.locator('#roomLink').inputValue();
  for (const [size, w, h] of SIZES) {
    const b = await page(w, h);
    await b.goto(link);
    await b.waitForFunction(() => document.body.dataset.ready === '1');
    await b.locator('#roomName').fill(size === 'phone' ? 'Bea' : 'Bob');
    await b.locator('#roomJoin').click();
    await b.locator('#roomSay').fill('Why not the pair of 7s?');
    await b.locator('#roomSay').press('Enter');
    for (let k = 0; k < 5; k++) await a.locator('#next').click();
    await b.waitForFunction((n) => document.body.dataset.step === n, await a.evaluate(() => document.body.dataset.step));
    await b.locator('#room').scrollIntoViewIfNeeded();
    await shot(b, `room-${size}`);
    await b.context().close();
  }
  await a.context().close();
}

/**
 * A tournament's page: a Swiss of eight bots made from the API, its two
 * rounds played out, then at both sizes the page with its standings and
 * tables.
 */
async function tournaments() {
  const key = 'ab'.repeat(32);
  const levels = ['random', 'heuristic', 'strong', 'random', 'heuristic', 'strong', 'heuristic', 'random'];
  const made = await fetch(server.base + '/api/tournaments', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Ratrace-Key': key },
    body: JSON.stringify({ name: 'Sunday Swiss', kind: 'swiss', preset: 'dalmuti-4-one-hand', rounds: 2, start_in_s: 0, bot_delay_ms: 200, bots: levels }),
  }).then((r) => r.json());
  for (let i = 0; i < 600; i++) {
    const v = await api(server.base, '/api/tournaments/' + made.id);
    if (v.status === 'finished') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const [size, w, h] of SIZES) {
    const p = await page(w, h);
    await p.goto('/tournament/' + made.id);
    await p.waitForFunction(() => document.body.dataset.ready === '1');
    await shot(p, `tournament-${size}`, true);
    await p.context().close();
  }
}

/**
 * A game in the browser ("Play offline against bots"): the table a few
 * moves in with a hint shown, at both sizes.
 */
async function local() {
  for (const [size, w, h] of SIZES) {
    const p = await page(w, h);
    await p.goto('/');
    await p.locator('#game option').first().waitFor({ state: 'attached' });
    await p.locator('#game').selectOption(size === 'desktop' ? 'bigcheese' : 'dalmuti');
    await p.locator('#name').fill('Ann');
    await p.locator('#set-bot_delay_ms').fill('0.05');
    await p.locator('#offline').click();
    await p.waitForURL(/\/local\//);
    await waitForState(p);
    // a few moves in: the person plays until the game is past its fourth action
    await playToEnd(p, {
      timeout: 30000,
      beforeMove: (st) => {
        if (st.seq > 4) throw new Error('far enough');
      },
    }).catch(() => {});
    await p.locator('#hint').click();
    await p.locator('#hintText').filter({ hasText: 'would play' }).waitFor({ timeout: 60000 });
    await shot(p, `local-${size}`);
    await p.context().close();
  }
}

const bots = (n) => Array.from({ length: n }, (_, i) => ({ kind: 'bot', bot: ['random', 'heuristic', 'strong', 'search'][i % 4] }));

try {
  for (const [size, w, h] of SIZES) {
    if (['profile', 'friends', 'room', 'tournament', 'local'].includes(process.env.SHOTS)) break;
    await tutorials(size, w, h);
    if (process.env.SHOTS === 'tutorial') continue;
    const p = await page(w, h);
    await p.goto('/');
    await p.locator('#game option').first().waitFor({ state: 'attached' });
    await p.locator('#create details summary').click();
    await shot(p, `lobby-${size}`, true);

    // a table of each game, a few moves in
    for (const [game, players, options] of [
      ['bigcheese', 4, {}],
      ['dalmuti', 5, { hands: 2 }],
    ]) {
      const { invite } = await api(server.base, '/api/tables', 'POST', { game, players, options, seats: [{ kind: 'human' }, ...bots(players - 1)], bot_delay_ms: 60 });
      await p.goto(invite);
      await joinViaForm(p, 'Alice');
      let moves = 0;
      await playToEnd(p, { timeout: 60000, beforeMove: async (st) => (moves++ >= 3 ? Promise.reject(new Error('enough')) : false) }).catch((e) => {
        if (e.message !== 'enough') throw e;
      });
      await p.waitForFunction(() => window.RR.table.st.legal.length > 0, null, { timeout: 20000 });
      await p.waitForTimeout(300);
      await shot(p, `${game}-${size}`);
    }

    // a table of eight on a phone: seven others around the felt, the hand at the bottom
    if (size === 'phone') {
      const { invite } = await api(server.base, '/api/tables', 'POST', { game: 'dalmuti', players: 8, options: { hands: 2 }, seats: [{ kind: 'human' }, ...bots(7)], bot_delay_ms: 60 });
      await p.goto(invite);
      await joinViaForm(p, 'Alice');
      let moves = 0;
      await playToEnd(p, { timeout: 60000, beforeMove: async (st) => (st.legal.includes('pass') && moves++ >= 1 ? Promise.reject(new Error('enough')) : false) }).catch((e) => {
        if (e.message !== 'enough') throw e;
      });
      await p.waitForTimeout(300);
      await shot(p, `dalmuti8-${size}`);
    }

    // the waiting room of a table for two humans
    const two = await api(server.base, '/api/tables', 'POST', { game: 'dalmuti', players: 4, options: { hands: 1 }, seats: [{ kind: 'human' }, { kind: 'human' }, ...bots(2)] });
    await p.goto(two.invite);
    await joinViaForm(p, 'Alice');
    await p.locator('#waiting').waitFor();
    await shot(p, `waiting-${size}`);

    // a 20 on 20 dice, re-rolled by picking dice (the position handed over a routed WebSocket)
    const bc = await api(server.base, '/api/tables', 'POST', { game: 'bigcheese', players: 4, options: { dice: 'half-of-n' }, seats: [{ kind: 'human' }, ...bots(3)], bot_delay_ms: 5000 });
    await p.goto(bc.invite);
    await joinViaForm(p, 'Alice');
    const st = await waitForState(p);
    const dice = [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6, 6];
    const pub = st.view.public;
    const twenty = typeof pub.top === 'number' ? 20 : '20';
    const view = { ...st.view, public: { ...pub, auction: null, roll: { owner: 'P1', card: twenty, dice, payout: 24 }, seats: pub.seats.map((s, i) => (i === 0 ? { ...s, cheeses: 1 } : s)) } };
    const legal = ['keep', 'reroll 1', 'reroll 1,1', 'reroll 1,1,1', 'reroll 1,1,1,2'];
    const q = await page(w, h);
    await q.context().routeWebSocket(/\/ws\//, (ws) => ws.onMessage((m) => JSON.parse(String(m)).type === 'hello' && ws.send(JSON.stringify({ ...st, type: 'state', view, legal, to_move: 'P1' }))));
    await q.goto('/t/' + bc.id);
    await q.locator('#mine button.die').nth(19).waitFor();
    for (const i of [0, 1, 2, 3]) await q.locator('#mine button.die').nth(i).click();
    await q.locator('#mine').scrollIntoViewIfNeeded();
    await shot(q, `reroll-${size}`, true);
    await q.context().close();

    if (size === 'desktop') {
      const { id, invite } = await api(server.base, '/api/tables', 'POST', { game: 'dalmuti', players: 4, options: { hands: 1 }, seats: [{ kind: 'human' }, ...bots(3)], bot_delay_ms: 30 });
      await p.goto(invite);
      await joinViaForm(p, 'Alice');
      await playToEnd(p, { timeout: 120000 });
      await shot(p, `result-${size}`);
      await p.goto('/replay/' + id);
      await p.locator('#moves li').first().waitFor();
      await p.keyboard.press('End');
      await shot(p, `replay-${size}`);
      // the analysis by the strongest bot, on the replay page
      await p.locator('#analysis').getByRole('button', { name: 'Analyse this game' }).click();
      await p.waitForFunction(() => document.body.dataset.analysis === 'done', null, { timeout: 180000 });
      await p.locator('#analysis').scrollIntoViewIfNeeded();
      await p.locator('#analysis').screenshot({ path: resolve(out, `analysis-${size}.png`) });
      console.log(`analysis-${size}`);
    }
    await p.context().close();
  }
  if (!process.env.SHOTS || process.env.SHOTS === 'profile') await profiles();
  if (!process.env.SHOTS || process.env.SHOTS === 'friends') await friends();
  if (!process.env.SHOTS || process.env.SHOTS === 'room') await rooms();
  if (!process.env.SHOTS || process.env.SHOTS === 'tournament') await tournaments();
  if (!process.env.SHOTS || process.env.SHOTS === 'local') await local();
} finally {
  await browser.close();
  await server.stop();
}
