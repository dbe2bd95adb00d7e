// Browser tests of shared replays ("watch together"), at desktop
// (1280×800) and phone (390×844) size, with three browser contexts as
// three people: Ann opens a room on her finished private game's replay,
// Bob and Cy open its link and join; each step Ann takes is shown on
// their pages while their own step controls are off; Ann hands the lead
// to Bob, who jumps to the end for everyone; Cy's chat line reaches the
// others; and axe-core finds nothing on the page with the room open.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, audit, SIZES, newContext, watchErrors, finishedTable } from './helpers.mjs';

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

/** A quick Big Cheese against two bots at a private table. */
const quickGame = { game: 'bigcheese', players: 3, seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }], options: { dice: 'd6', target: '40' }, bot_delay_ms: 5 };

/** The step a replay page shows. */
const stepOf = (page) => page.evaluate(() => Number(document.body.dataset.step));

/** Waits until `page` shows step `n`. */
const showsStep = (page, n) => page.waitForFunction((n) => document.body.dataset.step === String(n), n, { timeout: 10000 });

for (const [size, w, h] of SIZES) {
  test(`${size}: a leader steps a replay for two others, hands over, and they chat`, async (t) => {
    const errors = [];
    const ctx = {};
    for (const name of ['Ann', 'Bob', 'Cy']) ctx[name] = await newContext(browser, server.base, t, { viewport: { width: w, height: h } });
    const id = await finishedTable(server.base, ctx.Ann, quickGame, 'Ann');
    const ann = await ctx.Ann.newPage();
    watchErrors(ann, errors);
    await ann.goto('/replay/' + id);
    await ann.waitForFunction(() => document.body.dataset.ready === '1');
    await ann.locator('#roomName').fill('Ann');
    await ann.locator('#roomOpen').click();
    const link = await ann.locator('#roomLink').inputValue();
    assert.match(link, new RegExp('/replay/' + id + '\\?room=[A-Za-z0-9_-]+&k='), 'the link carries the private table’s key');
    assert.match(await ann.locator('#roomLead').innerText(), /You lead/);

    // Bob and Cy open the link (from their own browsers) and join
    const others = [];
    for (const name of ['Bob', 'Cy']) {
      const p = await ctx[name].newPage();
      watchErrors(p, errors);
      await p.goto(link);
      await p.waitForFunction(() => document.body.dataset.ready === '1');
      await p.locator('#roomName').fill(name);
      await p.locator('#roomJoin').click();
      await p.locator('#roomMembers', { hasText: name + ' (you)' }).waitFor();
      others.push(p);
    }
    const [bob, cy] = others;
    await ann.locator('#roomMembers li').nth(2).waitFor();
    assert.match(await bob.locator('#roomLead').innerText(), /Ann leads the replay/);

    // each step Ann takes is theirs; their controls are off meanwhile
    const start = await stepOf(ann);
    for (let k = 1; k <= 3; k++) {
      await ann.locator('#next').click();
      for (const p of others) await showsStep(p, start + k);
    }
    for (const p of others) {
      assert.ok(await p.locator('#next').isDisabled(), 'a follower’s Next is off');
      assert.ok(await p.locator('#slider').isDisabled(), 'and the slider');
    }
    // a follower's arrow key does not move it
    await bob.keyboard.press('ArrowRight');
    await bob.waitForTimeout(200);
    assert.equal(await stepOf(bob), start + 3);

    // Ann hands the lead to Bob; he jumps to the end for everyone
    await ann.locator('#roomMembers li', { hasText: 'Bob' }).getByRole('button', { name: 'Hand over' }).click();
    await bob.locator('#roomLead', { hasText: 'You lead' }).waitFor();
    await bob.waitForFunction(() => !document.getElementById('last').disabled);
    await bob.locator('#last').click();
    const end = await stepOf(bob);
    assert.ok(end > start + 3, 'the end is further on');
    await showsStep(ann, end);
    await showsStep(cy, end);
    assert.ok(await ann.locator('#next').isDisabled(), 'Ann follows now');
    assert.match(await cy.locator('#roomLead').innerText(), /Bob leads the replay/);

    // Cy's chat line reaches the others
    await cy.locator('#roomSay').fill('what a bid');
    await cy.locator('#roomSay').press('Enter');
    for (const p of [ann, bob]) await p.locator('#roomLines', { hasText: 'Cy: what a bid' }).waitFor();

    // a reload keeps Cy the same member, following
    await cy.reload();
    await cy.waitForFunction(() => document.body.dataset.ready === '1');
    await cy.locator('#roomMembers', { hasText: 'Cy (you)' }).waitFor();
    await showsStep(cy, end);

    const wide = await bob.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.ok(!wide, 'the replay scrolls sideways');
    assert.deepEqual(await audit(bob, size + ' replay with a room'), []);
    assert.deepEqual(errors, []);
  });
}
