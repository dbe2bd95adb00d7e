// Browser tests of friends and presence, at desktop (1280×800) and phone
// (390×844) size, with two browser contexts as two people: Bob gives his
// id from the lobby, Ann follows him by it and sees where he is (the
// lobby, then his public table with a Watch link); from her own table she
// invites him, his page shows the invitation and counts it in the tab
// title, and its Join link seats him at her table. A second invitation he
// blocks from: it goes, Ann lands in his blocked list, she no longer sees
// where he is, and her chat at their table is not shown to him. axe-core
// finds nothing on the lobby with the panel.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, api, audit, SIZES, newContext, watchErrors, joinViaForm } from './helpers.mjs';

let server;
let browser;

before(async () => {
  server = await startServer({ args: ['--create-burst', '500', '--join-burst', '500', '--max-live-tables-per-ip', '500', '--record-burst', '500'] });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/** A table of `game` with `humans` human seats, the rest bots, public or private: its id and invite link. */
async function table(game, humans, players, pub) {
  const seats = Array.from({ length: players }, (_, i) => (i < humans ? { kind: 'human' } : { kind: 'bot', bot: 'random' }));
  return api(server.base, '/api/tables', 'POST', { game, players, seats, bot_delay_ms: 10000, public: pub });
}

/** Asks the page's friends list again now (as a tab shown again does). */
const askAgain = (page) => page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));

/** Waits until the lobby's friends panel says `text` about the followed person. */
async function seesFriend(page, re) {
  for (let i = 0; i < 40; i++) {
    const text = await page.locator('#follows').innerText().catch(() => '');
    if (re.test(text)) return text;
    await askAgain(page);
    await page.waitForTimeout(150);
  }
  throw new Error('the friends panel never said ' + re + ': ' + (await page.locator('#friendsBox').innerText()));
}

for (const [size, w, h] of SIZES) {
  test(`${size}: follow by id, see where a friend is, invite them to a table, block`, async (t) => {
    const errors = [];
    const people = {};
    for (const name of ['Ann', 'Bob']) {
      const ctx = await newContext(browser, server.base, t, { viewport: { width: w, height: h } });
      const page = await ctx.newPage();
      watchErrors(page, errors);
      people[name] = page;
    }
    const { Ann: ann, Bob: bob } = people;
    // each has held a seat (a person is found by id among those who played)
    const annTable = await table('dalmuti', 2, 4, false);
    await ann.goto(annTable.invite);
    await joinViaForm(ann, 'Ann');
    const bobTable = await table('bigcheese', 1, 3, true);
    await bob.goto(bobTable.invite);
    await joinViaForm(bob, 'Bob');

    // Bob's id, from his lobby
    await bob.goto('/');
    await bob.locator('#myId').waitFor();
    const bobId = await bob.locator('#myId').inputValue();
    assert.match(bobId, /^[0-9a-f]{8}$/);

    // Ann follows him by it and sees him in the lobby
    await ann.goto('/');
    await ann.locator('#followId').fill(bobId);
    await ann.getByRole('button', { name: 'Follow', exact: true }).click();
    let said = await seesFriend(ann, /Bob[\s\S]*in the lobby/);
    assert.match(await ann.locator('#friendsBox h3').first().innerText(), /1 online of 1/);
    // a bad id is said, and changes nothing
    await ann.locator('#followId').fill('zz');
    await ann.getByRole('button', { name: 'Follow', exact: true }).click();
    await ann.locator('#followErr').getByText(/8 letters/).waitFor();

    // Bob goes to his public table: Ann sees which, with a link to watch it
    await bob.goto('/t/' + bobTable.id);
    await bob.waitForFunction(() => window.RR.table.st);
    said = await seesFriend(ann, /at a table of The Big Cheese/);
    assert.equal(await ann.locator('#follows a', { hasText: 'Watch' }).getAttribute('href'), '/t/' + bobTable.id);

    // Ann invites him from her own table (its waiting room)
    await ann.goto(annTable.invite);
    await ann.waitForFunction(() => window.RR.table.st && window.RR.table.st.seat);
    const pick = ann.locator('#inviteWho');
    await pick.waitFor();
    assert.match(await pick.innerText(), /Bob · at a table of The Big Cheese/);
    await ann.locator('#inviteGo').click();
    await ann.locator('#inviteSaid', { hasText: 'Invitation sent.' }).waitFor();

    // Bob's table page shows it, and the tab title counts it
    await askAgain(bob);
    const invited = bob.locator('#invited');
    await invited.getByText('Ann invites you to The Great Dalmuti').waitFor();
    await bob.waitForFunction(() => document.title.startsWith('(1) '));
    await invited.getByRole('link', { name: 'Join' }).click();
    // her table is private: the link carries its key
    await bob.waitForURL('**/t/' + annTable.id + '?k=' + annTable.key);
    const st = await joinViaForm(bob, 'Bob');
    assert.equal(st.seat, 'P2', 'Bob took the second seat at Ann’s table');

    // A second invitation, to a new table: Bob blocks her from it
    const again = await table('dalmuti', 2, 4, true);
    await ann.goto(again.invite);
    await joinViaForm(ann, 'Ann');
    await ann.locator('#inviteWho').waitFor();
    await ann.locator('#inviteGo').click();
    await ann.locator('#inviteSaid', { hasText: 'Invitation sent.' }).waitFor();
    await bob.goto('/');
    const row = bob.locator('#invites li', { hasText: 'Ann invites you' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Block' }).click();
    await bob.locator('#invites').waitFor({ state: 'detached' });
    await bob.getByText(/^Blocked/).waitFor();
    assert.match(await bob.locator('#friendsBox').innerText(), /Ann[\s\S]*Unblock/);
    // she no longer sees where he is
    await ann.goto('/');
    said = await seesFriend(ann, /Bob[\s\S]*offline/);
    assert.doesNotMatch(said, /in the lobby|at a table/);
    // and at the table they share, her chat is not shown to him
    const chatHas = (page, text) => page.waitForFunction((x) => ((document.getElementById('chatLines') || {}).textContent || '').includes(x), text);
    for (const page of [ann, bob]) {
      await page.goto('/t/' + annTable.id);
      await page.waitForFunction(() => window.RR.table.st && window.RR.table.st.seat && window.RR.table.conn);
    }
    await ann.evaluate(() => window.RR.table.conn.send({ type: 'chat', text: 'psst from Ann' }));
    await chatHas(ann, 'psst from Ann');
    await bob.evaluate(() => window.RR.table.conn.send({ type: 'chat', text: 'Bob here' }));
    await chatHas(bob, 'Bob here');
    assert.doesNotMatch(await bob.locator('#chatLines').textContent(), /psst/);
    await bob.goto('/');
    // nothing scrolls sideways, and axe-core finds nothing
    for (const page of [ann, bob]) {
      const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
      assert.ok(!wide, 'the lobby scrolls sideways');
      assert.deepEqual(await audit(page, size + ' lobby'), []);
    }
    assert.deepEqual(errors, []);
  });
}
