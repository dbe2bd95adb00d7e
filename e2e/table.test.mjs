// Browser tests of the game table page: the waiting room with
// the invite at the top, the turn alert in the tab title, a Dalmuti play
// made with the keyboard alone, the re-roll chosen by clicking the dice
// (the axe-core audit of every page is in finish.test.mjs). Each runs at
// desktop (1280×800) and phone (390×844) size against the real server
// binary and Debian chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, api, pageState, waitForState, joinViaForm, playToEnd, SIZES, newContext, watchErrors } from './helpers.mjs';

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

/** A context of the tests' browser at `w`×`h` (and `opts`), closed when test `t` ends. */
const context = (t, w, h, opts = {}) => newContext(browser, server.base, t, { viewport: { width: w, height: h }, ...opts });

/** Every multiset (non-empty) of `dice`, as the engine writes re-rolls: "reroll 1,1,2". */
function rerolls(dice) {
  const counts = [0, 0, 0, 0, 0, 0];
  dice.forEach((d) => counts[d - 1]++);
  const out = [];
  const take = [0, 0, 0, 0, 0, 0];
  const walk = (f) => {
    if (f === 6) {
      const faces = take.flatMap((k, i) => Array(k).fill(i + 1));
      if (faces.length) out.push('reroll ' + faces.join(','));
      return;
    }
    for (let k = 0; k <= counts[f]; k++) {
      take[f] = k;
      walk(f + 1);
    }
    take[f] = 0;
  };
  walk(0);
  return out;
}

for (const [size, w, h] of SIZES) {
  test(`${size}: a table waits for its second human with the invite at the top, then alerts whose turn it is`, async (t) => {
    const { invite } = await api(server.base, '/api/tables', 'POST', {
      game: 'dalmuti',
      players: 4,
      options: { hands: 1 },
      seats: [{ kind: 'human' }, { kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }],
      bot_delay_ms: 300,
    });
    const [ca, cb] = [await context(t, w, h), await context(t, w, h)];
    const [a, b] = [await ca.newPage(), await cb.newPage()];
    const errors = [];
    watchErrors(a, errors);
    watchErrors(b, errors);
    await a.goto(invite);
    await joinViaForm(a, 'Alice');
    const wait = a.locator('#waiting');
    await wait.waitFor({ state: 'visible' });
    assert.match(await wait.innerText(), /Waiting for 1 player to join/);
    assert.match(await a.locator('#inviteUrl').inputValue(), /\/t\/[A-Za-z0-9_-]+\?k=[0-9a-f]{64}$/, 'the invite link, key included');
    const boxY = (await wait.boundingBox()).y;
    const feltY = (await a.locator('#felt').boundingBox()).y;
    assert.ok(boxY < feltY && boxY < h, 'the waiting room is at the top, on the first screen');
    assert.equal(await a.locator('#players .tag.turn').count(), 0, 'nobody is "to move" before the game starts');
    assert.ok(!/Waiting for Alice/.test(await a.locator('body').innerText()), 'the creator is not told to wait for herself');
    assert.ok(await a.locator('#mine').isHidden(), 'no hand or controls before the deal');
    assert.ok(!(await a.title()).startsWith('●'));

    await b.goto(invite);
    await joinViaForm(b, 'Bob');
    await wait.waitFor({ state: 'hidden' });
    await a.waitForFunction(() => (window.RR.table.said || []).some((x) => /Everyone is seated/.test(x)));
    assert.equal(await a.locator('#invite #inviteUrl').count(), 1, 'the link to share moves to the bottom');

    // the turn alert: the tab title of the page whose turn it is, and only that one
    const mine = (p) => p.waitForFunction(() => window.RR.table.st && window.RR.table.st.legal.length > 0, null, { timeout: 20000 });
    const first = await Promise.race([mine(a).then(() => a), mine(b).then(() => b)]);
    const other = first === a ? b : a;
    await first.waitForFunction(() => document.title.startsWith('● Your turn'));
    const otherSt = await pageState(other);
    if (!otherSt.legal.length) assert.ok(!(await other.title()).startsWith('●'), 'no alert on the page that waits');
    await first.waitForFunction(() => /Your turn\./.test(document.getElementById('announce').textContent) || (window.RR.table.said || []).some((x) => /^Your turn\./.test(x)));
    assert.deepEqual(errors, []);
  });

  test(`${size}: a two-card Dalmuti play by keyboard alone, focus never falling to the page`, async (t) => {
    const { invite } = await api(server.base, '/api/tables', 'POST', {
      game: 'dalmuti',
      players: 4,
      options: { hands: 1 },
      seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }],
      bot_delay_ms: 50,
    });
    const ctx = await context(t, w, h);
    const page = await ctx.newPage();
    const errors = [];
    watchErrors(page, errors);
    await page.goto(invite);
    await joinViaForm(page, 'Kay');
    let done = null;
    const beforeMove = async (st) => {
      if (done) return false;
      const pair = st.legal.find((a) => /^play 2x([1-9])$/.test(a));
      if (!pair) return false;
      const rank = pair.match(/2x(\d)/)[1];
      const presses = [];
      const press = async (key) => {
        presses.push(key);
        await page.keyboard.press(key);
      };
      // arriving at the page on one's turn: focus starts at the top
      await page.reload();
      await page.waitForFunction((seq) => window.RR.table.st && window.RR.table.st.seq === seq && window.RR.table.st.legal.length > 0, st.seq, { timeout: 10000 });
      await press('Tab'); // the skip link, the first stop of the page
      assert.equal(await page.evaluate(() => document.activeElement.id), 'skip');
      await press('Enter'); // into the hand
      await press(rank); // type-ahead to the first card of the rank
      await press(' '); // pick it; the cursor moves on
      await press(' '); // pick the second
      const picked = await page.$$eval('#mine .hand button[aria-pressed="true"]', (bs) => bs.map((b) => b.dataset.rank));
      assert.deepEqual(picked, [rank, rank], `picked ${picked} for ${pair}`);
      await press('Enter'); // play
      await page.waitForFunction((seq) => window.RR.table.st.seq > seq, st.seq, { timeout: 10000 });
      await page.waitForTimeout(100);
      const where = await page.evaluate(() => (document.activeElement === document.body ? 'body' : document.getElementById('mine').contains(document.activeElement) ? 'mine' : document.activeElement.id || document.activeElement.tagName));
      assert.equal(where, 'mine', 'after the play, focus is still in the player area');
      const log = await page.evaluate(() => window.RR.table.log.filter((e) => e.kind === 'play' && e.seat === 'P1').map((e) => e.play));
      assert.ok(log.includes('2x' + rank), `the play reached the table: ${log}`);
      done = presses;
      return true;
    };
    const end = Date.now() + 150000;
    while (!done && Date.now() < end) {
      // a hand without a legal pair of one rank under 10 is played out and
      // another table opened: the pair turns up within a few hands
      await playToEnd(page, { timeout: 120000, beforeMove });
      if (done) break;
      const again = await api(server.base, '/api/tables', 'POST', {
        game: 'dalmuti',
        players: 4,
        options: { hands: 1 },
        seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }],
        bot_delay_ms: 50,
      });
      await page.goto(again.invite);
      await joinViaForm(page, 'Kay');
    }
    assert.ok(done, 'a pair was played by keyboard');
    assert.ok(done.length <= 6, `${done.length} key presses: ${done.join(' ')}`);
    t.diagnostic(`key presses for a pair: ${done.length} (${done.map((k) => (k === ' ' ? 'Space' : k)).join(', ')})`);
    assert.deepEqual(errors, []);
  });

  test(`${size}: a 20 rolled on 20 dice is re-rolled by clicking the dice, not by choosing among thousands of buttons`, async (t) => {
    // A real table and its real state, then the one position this needs (a
    // matured 20 on half-of-n dice, with a Big Cheese to re-roll) handed to
    // the page over a routed WebSocket: the position is rare in play.
    const { id, invite } = await api(server.base, '/api/tables', 'POST', {
      game: 'bigcheese',
      players: 4,
      options: { dice: 'half-of-n' },
      seats: [{ kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }, { kind: 'bot' }],
      bot_delay_ms: 5000,
    });
    const real = await context(t, w, h);
    const rp = await real.newPage();
    await rp.goto(invite);
    await joinViaForm(rp, 'Dora');
    const st = await waitForState(rp);
    const dice = [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6, 6];
    const legal = ['keep', ...rerolls(dice)];
    assert.ok(legal.length > 2000, `${legal.length} legal actions`);
    const card = st.view.public.top;
    const twenty = typeof card === 'number' ? 20 : '20';
    const pub = st.view.public;
    const view = { ...st.view, public: { ...pub, auction: null, roll: { owner: 'P1', card: twenty, dice, payout: 24 }, seats: pub.seats.map((s, i) => (i === 0 ? { ...s, cheeses: 1 } : s)) } };
    const whole = { ...st, type: 'state', view, legal, to_move: 'P1', log_from: 0, log: st.log || [] };
    const ctx = await context(t, w, h);
    const sent = [];
    await ctx.routeWebSocket(/\/ws\//, (ws) => {
      ws.onMessage((m) => {
        const msg = JSON.parse(String(m));
        sent.push(msg);
        if (msg.type === 'hello') ws.send(JSON.stringify(whole));
      });
    });
    const page = await ctx.newPage();
    const errors = [];
    watchErrors(page, errors);
    await page.goto('/t/' + id);
    await page.locator('#mine button.die').nth(19).waitFor();
    const controls = await page.$$eval('#mine button, #mine input, #mine select', (xs) => xs.filter((x) => x.offsetParent !== null).length);
    assert.ok(controls <= 25, `${controls} controls in the player area`);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(height <= 2 * h, `the page is ${height} px tall at ${w}×${h}`);
    t.diagnostic(`${size}: ${controls} controls, page ${height} px tall (screen ${h} px), against ${legal.length} legal actions`);
    const go = page.locator('#mine').getByRole('button', { name: /^🧀 Re-roll/ });
    assert.ok(await go.isDisabled(), 'nothing picked yet');
    assert.match(await go.innerText(), /pick dice first/, 'a disabled button says why, not "these 0 dice"');
    assert.equal(await page.locator('#mine button.die.best').count(), 10, 'the best half (the dice that pay) is marked');
    assert.equal(await page.locator('#mine button.die svg.art-d6').count(), 20, 'a d6 shows pips');
    // ... that are drawn: every face has a size (a blank die had 0×0 px)
    const faces = await page.$$eval('#mine button.die svg.art', (xs) => xs.map((x) => x.getBoundingClientRect()));
    assert.ok(faces.every((r) => r.width >= 12 && r.height >= 12), JSON.stringify(faces[0]));
    // pick the three 1s and a 2: the button says so and sends that multiset
    for (const i of [0, 1, 2, 3]) await page.locator('#mine button.die').nth(i).click();
    assert.equal(await page.locator('#mine button.die[aria-pressed="true"]').count(), 4);
    await go.click();
    const act = sent.find((m) => m.type === 'act');
    assert.equal(act && act.action, 'reroll 1,1,1,2');
    assert.equal(act.seq, st.seq);
    assert.deepEqual(errors, []);
  });
}

test('a table with a turn timer shows it counting down, and the same after a reload', async (t) => {
  const { invite } = await api(server.base, '/api/tables', 'POST', { game: 'bigcheese', players: 3, turn_timer_ms: 90000, seats: [{ kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }], bot_delay_ms: 30 });
  const ctx = await context(t, 1280, 800);
  const page = await ctx.newPage();
  await page.goto(invite);
  await joinViaForm(page, 'Tim');
  await page.waitForFunction(() => window.RR.table.st.legal.length > 0, null, { timeout: 20000 });
  const secs = async () => {
    const text = await page.locator('#timer').innerText();
    const m = text.match(/(\d+):(\d\d)/);
    assert.ok(m, text);
    return Number(m[1]) * 60 + Number(m[2]);
  };
  await page.locator('#timer').waitFor();
  const first = await secs();
  assert.ok(first <= 90 && first > 60, `${first} s left`);
  await page.waitForTimeout(2200);
  const later = await secs();
  assert.ok(later < first, `it counts down: ${first} then ${later}`);
  await page.reload();
  await page.waitForFunction(() => window.RR.table.st && window.RR.table.st.legal.length > 0 && window.RR.table.info);
  await page.locator('#timer').waitFor();
  const after = await secs();
  assert.ok(after <= later, `after a reload it goes on (${later} then ${after}), not from the start`);
});

test('no page scrolls sideways at phone width', async (t) => {
  const ctx = await context(t, 390, 844);
  const page = await ctx.newPage();
  const { id, invite } = await api(server.base, '/api/tables', 'POST', { game: 'bigcheese', players: 3, seats: [{ kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }], bot_delay_ms: 20 });
  await page.goto(invite);
  await joinViaForm(page, 'Al');
  await playToEnd(page, { timeout: 120000 });
  for (const url of ['/', '/t/' + id, '/replay/' + id, '/verify', '/verify?id=' + id]) {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
    const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    assert.ok(scroll <= width, `${url} is ${scroll} px wide at ${width} px`);
  }
});

/**
 * A Dalmuti table of the tests' own, whose page is handed one position
 * over a routed WebSocket: `trick` to beat, `legal` for P1, with the
 * page's switches as given. Returns the page and the messages it sent.
 */
async function forcedPosition(t, w, h, { trick, legal, switches = {} }) {
  const { id, invite } = await api(server.base, '/api/tables', 'POST', {
    game: 'dalmuti',
    players: 4,
    options: { hands: 1 },
    seats: [{ kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }, { kind: 'bot' }],
    bot_delay_ms: 5000,
  });
  const real = await context(t, w, h);
  const rp = await real.newPage();
  await rp.goto(invite);
  await joinViaForm(rp, 'Fay');
  const st = await waitForState(rp);
  const hand = String(st.view.hand).split(/[\s|]+/).filter((c) => c && c !== 'empty');
  const view = { ...st.view, public: { ...st.view.public, phase: 'play', trick: { play: trick, by: 'P2' } } };
  const whole = { ...st, type: 'state', view, legal: legal(hand), to_move: 'P1', log_from: 0, log: st.log || [] };
  const ctx = await context(t, w, h);
  await ctx.addInitScript((s) => {
    for (const [k, v] of Object.entries(s)) localStorage.setItem('ratrace.alert.' + k, v ? '1' : '0');
  }, switches);
  const sent = [];
  await ctx.routeWebSocket(/\/ws\//, (ws) => {
    ws.onMessage((m) => {
      const msg = JSON.parse(String(m));
      sent.push(msg);
      if (msg.type === 'hello') ws.send(JSON.stringify(whole));
    });
  });
  const page = await ctx.newPage();
  await page.goto('/t/' + id);
  await page.locator('#mine').waitFor();
  return { page, sent, seq: st.seq, hand };
}

for (const [size, w, h] of SIZES) {
  test(`${size}: a forced pass is made for the player (a switch, on by default), and says so first`, async (t) => {
    const { page, sent, seq } = await forcedPosition(t, w, h, { trick: '1', legal: () => ['pass'], switches: { autoPass: true } });
    await page.locator('#autoPass').waitFor();
    assert.match(await page.locator('#autoPass').innerText(), /cannot play: passing for you/);
    await page.waitForFunction(() => window.RR.table.pending, null, { timeout: 5000 });
    assert.deepEqual(sent.filter((m) => m.type === 'act'), [{ type: 'act', seq, action: 'pass' }], 'one pass, by the page');
    // the switch is on the page, on
    assert.equal(await page.getByLabel('pass for me when I cannot play').isChecked(), true);
  });

  test(`${size}: with no play that beats the trick, Play stays and says why; with the switch off nothing is sent`, async (t) => {
    const { page, sent } = await forcedPosition(t, w, h, { trick: '1', legal: () => ['pass'], switches: { autoPass: false } });
    const play = page.locator('#playGo');
    await play.waitFor();
    assert.ok(await play.isDisabled(), 'Play is there, unavailable');
    assert.equal(await page.locator('#whyNot').innerText(), 'Nothing of yours beats it');
    await page.waitForTimeout(1200);
    assert.equal(sent.filter((m) => m.type === 'act').length, 0, 'the player passes themselves');
  });

  test(`${size}: "ask before I pass" asks once more, and Escape puts picked cards back`, async (t) => {
    const { page, sent, seq, hand } = await forcedPosition(t, w, h, {
      trick: '12',
      legal: (cards) => ['pass', 'play ' + cards.find((c) => c !== 'J' && c !== '12')],
      switches: { confirmPass: true },
    });
    const mine = page.locator('#mine');
    // cards picked go back with Escape, or with one tap
    await mine.locator('button.card').first().click();
    assert.equal(await mine.locator('button.card[aria-pressed="true"]').count(), 1);
    await page.keyboard.press('Escape');
    assert.equal(await mine.locator('button.card[aria-pressed="true"]').count(), 0, 'Escape put the card back');
    await mine.locator('button.card').first().click();
    await mine.getByRole('button', { name: 'Put the cards back' }).click();
    assert.equal(await mine.locator('button.card[aria-pressed="true"]').count(), 0, 'the button put it back');
    // a pass is asked twice; "No" keeps the turn
    await mine.getByRole('button', { name: 'Pass', exact: true }).click();
    await mine.getByRole('button', { name: 'Yes, pass' }).waitFor();
    assert.equal(sent.filter((m) => m.type === 'act').length, 0, 'nothing sent yet');
    await mine.getByRole('button', { name: 'No, keep my turn' }).click();
    await mine.getByRole('button', { name: 'Pass', exact: true }).click();
    await mine.getByRole('button', { name: 'Yes, pass' }).click();
    await page.waitForFunction(() => window.RR.table.pending, null, { timeout: 5000 });
    assert.deepEqual(sent.filter((m) => m.type === 'act'), [{ type: 'act', seq, action: 'pass' }]);
    assert.ok(hand.length > 0);
  });
}

for (const [size, w, h] of SIZES) {
  test(`${size}: the turn timer times people only, and its last seconds look urgent`, async (t) => {
    const { id, invite } = await api(server.base, '/api/tables', 'POST', {
      game: 'bigcheese',
      players: 3,
      turn_timer_ms: 90000,
      seats: [{ kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }],
      bot_delay_ms: 5000,
    });
    const real = await context(t, w, h);
    const rp = await real.newPage();
    await rp.goto(invite);
    await joinViaForm(rp, 'Tia');
    const st = await waitForState(rp);
    // the page is handed a bot's turn, then the person's with 5 s left
    const ctx = await context(t, w, h);
    let socket = null;
    await ctx.routeWebSocket(/\/ws\//, (ws) => {
      socket = ws;
      ws.onMessage((m) => {
        const msg = JSON.parse(String(m));
        if (msg.type === 'hello') ws.send(JSON.stringify({ ...st, type: 'state', legal: [], to_move: 'P2' }));
      });
    });
    const page = await ctx.newPage();
    await page.goto('/t/' + id);
    await page.waitForFunction(() => window.RR.table.st && window.RR.table.st.to_move === 'P2');
    await page.waitForTimeout(1200);
    assert.equal(await page.locator('#timer').count(), 0, 'no timer on a bot\'s turn');
    socket.send(JSON.stringify({ ...st, type: 'state', rev: st.rev + 1, to_move: 'P1', turn_left_ms: 5000 }));
    const timer = page.locator('#timer.low');
    await timer.waitFor();
    assert.match(await timer.innerText(), /0:0[0-5]/);
  });
}
