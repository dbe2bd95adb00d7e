// End-to-end browser test of the post-game analysis on the replay page
// at desktop (1280x800) and phone (390x844) size: a
// Big Cheese game is played to the end through the table page, its replay
// opened, the analysis started with the page's button and followed to its
// end (a progress bar, then the summary, the graph, the turning points and
// the list of decisions that were not good); a listed decision jumps the
// replay to its step, and axe-core finds no serious or critical violation
// with the analysis shown. The server runs with a small analysis budget.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, api, audit, finishedTable } from './helpers.mjs';

let server;
let browser;

before(async () => {
  server = await startServer({ args: ['--analysis-budget', '16,8', '--analysis-burst', '100'] });
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

for (const [name, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
]) {
  test(`the analysis of a finished game is started, followed and shown on the replay page (${name})`, async (t) => {
    const ctx = await browser.newContext({ locale: 'en-US', baseURL: server.base, viewport, reducedMotion: 'reduce' });
    ctx.setDefaultTimeout(20000);
    t.after(() => ctx.close());
    const seats = [{ kind: 'human' }, { kind: 'bot', bot: 'heuristic' }, { kind: 'bot', bot: 'random' }];
    const id = await finishedTable(server.base, ctx, { game: 'bigcheese', players: 3, options: { dice: 'd6', target: '60' }, seats, bot_delay_ms: 5, public: true });

    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto('/replay/' + id);
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    await page.waitForFunction(() => document.body.dataset.analysis === 'none');
    const section = page.locator('#analysis');
    assert.ok(await section.isVisible());
    await section.getByRole('heading', { name: 'Analysis by the strongest bot' }).waitFor();

    // start it: a progress bar with a label, then the result
    const seen = [];
    await page.exposeFunction('noteStatus', (s) => seen.push(s));
    await page.evaluate(() => {
      new MutationObserver(() => window.noteStatus(document.body.dataset.analysis)).observe(document.body, { attributes: true, attributeFilter: ['data-analysis'] });
    });
    await section.getByRole('button', { name: 'Analyse this game' }).click();
    await page.waitForFunction(() => document.body.dataset.analysis !== 'none');
    if (await page.evaluate(() => document.body.dataset.analysis !== 'done')) {
      const bar = page.getByRole('progressbar');
      // the bar is labelled by its text (waiting, or decision k of n)
      assert.match((await bar.getAttribute('id')) || '', /an-bar/);
      assert.match(await page.locator('label[for="an-bar"]').textContent(), /Waiting|Analysing decision/);
    }
    await page.waitForFunction(() => document.body.dataset.analysis === 'done', null, { timeout: 120000 });
    assert.ok(seen.some((s) => s === 'queued' || s === 'running'), `progress was shown: ${seen.join(', ')}`);

    // the summary: one row per player, with decisions, mean loss and accuracy
    const sum = section.locator('table.an-sum');
    await sum.waitFor();
    const rows = await sum.locator('tbody tr').count();
    assert.equal(rows, 3, 'every player decided');
    const head = await sum.locator('thead th').allTextContents();
    for (const want of ['Player', 'Decisions', 'Mean loss', 'Accuracy', 'good', 'inaccuracy', 'mistake', 'blunder']) assert.ok(head.some((h) => h.includes(want)), `${want} in ${head}`);
    assert.match(await sum.locator('tbody tr').first().innerText(), /Ann/);
    // nothing of it scrolls sideways: every figure, the last column's too,
    // is within the screen's width (on a phone a card per player)
    const over = await sum.evaluate((tb) => tb.parentElement.scrollWidth - tb.parentElement.clientWidth);
    assert.ok(over <= 1, `the summary scrolls sideways by ${over} px`);
    const cells = await sum.locator('tbody td').evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().right));
    assert.ok(cells.every((r) => r <= viewport.width), `a figure past the screen's edge: ${Math.max(...cells)} > ${viewport.width}`);

    // the graph: one line per player, its text alternative one line each
    const graph = section.locator('svg.an-graph');
    await graph.waitFor();
    assert.equal(await graph.getAttribute('role'), 'img');
    assert.equal(await graph.locator('polyline.an-line').count(), 3);
    assert.equal(await section.locator('#an-graph-text li').count(), 3);
    const box = await graph.boundingBox();
    assert.ok(box.width <= viewport.width && box.height > 50, JSON.stringify(box));

    // the turning points and the decisions that were not good
    await section.getByRole('heading', { name: 'Turning points' }).waitFor();
    await section.getByRole('heading', { name: 'Decisions that were not good' }).waitFor();
    const analysis = (await api(server.base, '/api/tables/' + id + '/analysis')).analysis;
    const bad = analysis.decisions.filter((d) => d.label !== 'good');
    let target = bad[Math.floor(bad.length / 2)];
    if (bad.length) {
      assert.equal(await section.locator('table.an-list tbody tr').count(), bad.length);
      const row = section.locator(`table.an-list tr[data-move="${target.move}"]`);
      const text = await row.innerText();
      assert.match(text, new RegExp(target.label), text);
      // the label is written, not only coloured
      assert.ok(text.includes(target.label));
      await row.getByRole('button', { name: `Show move ${target.move} in the replay` }).click();
    } else {
      // every decision good: a turning point jumps as well
      target = analysis.turning_points[0];
      assert.ok(target, 'a list or a turning point to click');
      await section.getByRole('button', { name: `Show move ${target.move} in the replay` }).first().click();
    }
    await page.waitForFunction((k) => document.body.dataset.step === String(k), target.move);
    assert.equal(await page.locator('#slider').inputValue(), String(target.move));

    // no page scrolls sideways at phone size
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(wide <= 1, `the page scrolls sideways by ${wide} px`);

    const found = await audit(page, `replay analysis (${name})`);
    assert.deepEqual(found, [], found.join('\n'));
    assert.deepEqual(errors, []);
  });
}
