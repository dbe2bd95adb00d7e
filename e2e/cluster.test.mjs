// The browser against a site of three `ratrace serve` processes on one
// PostgreSQL database: the page is served by process A while
// process B owns the table (every request and the WebSocket are forwarded);
// B is killed with SIGKILL mid-game and the game goes on in the same page,
// through A, to the end, with nothing lost; its record verifies.
//
// Needs $RATRACE_TEST_PG (the test command starts a throwaway PostgreSQL):
// each run makes a database of its own there with psql. Without it the
// test is skipped, unless $RATRACE_REQUIRE_PG is set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { startServer, launchBrowser, api, pageState, waitForState, joinViaForm, playToEnd } from './helpers.mjs';

const PG = process.env.RATRACE_TEST_PG;
const skip = !PG && !process.env.RATRACE_REQUIRE_PG ? 'no PostgreSQL (RATRACE_TEST_PG unset)' : false;

let procs = [];
let browser;

/** A fresh database on the test PostgreSQL; its URL. */
function freshDatabase() {
  const name = `ratrace_e2e_${process.pid}_${Date.now()}`;
  const r = spawnSync('psql', [PG, '-q', '-c', `CREATE DATABASE ${name}`], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error('psql: ' + (r.stderr || r.error));
  return PG.replace(/\/[^/]*$/, '/' + name);
}

before(async () => {
  if (skip) return;
  if (!PG) throw new Error('RATRACE_REQUIRE_PG is set but RATRACE_TEST_PG is not');
  const db = freshDatabase();
  for (let i = 0; i < 3; i++) {
    procs.push(await startServer({ db, args: ['--cluster-listen', '127.0.0.1:0', '--lease-ms', '1000'] }));
  }
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  for (const p of procs) await p.stop();
});

test('a game played in the browser through A survives the SIGKILL of its owner B', { skip, timeout: 180000 }, async (t) => {
  const [a, b, c] = procs;
  // B creates the table, so B owns it.
  const created = await api(b.base, '/api/tables', 'POST', {
    game: 'dalmuti',
    players: 4,
    public: true,
    options: { hands: '2' },
    seats: [{ kind: 'human' }, { kind: 'bot' }, { kind: 'bot' }, { kind: 'bot' }],
    bot_delay_ms: 30,
  });
  const ctx = await browser.newContext({ locale: 'en-US', baseURL: a.base });
  ctx.setDefaultTimeout(15000);
  t.after(() => ctx.close());
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(created.invite);
  await joinViaForm(page, 'Alice');
  await waitForState(page);

  // Play until the game is well under way, then kill the owner.
  let moves = 0;
  let killedAt = null;
  let seqAtKill = null;
  await playToEnd(page, {
    timeout: 150000,
    onMove: () => {
      moves++;
    },
    beforeMove: async (st) => {
      if (killedAt !== null || st.seq < 12) return false;
      seqAtKill = st.seq;
      killedAt = Date.now();
      await b.kill('SIGKILL');
      // The page notices (its WebSocket, piped through A to B, closes),
      // reconnects to A, and gets the table's state again, from the
      // survivor that took it over.
      await page.waitForFunction(() => !document.getElementById('conn').classList.contains('live'), null, {
        timeout: 10000,
        polling: 20,
      });
      await page.evaluate(() => (window.__beforeKill = window.RR.table.st));
      await page.waitForFunction(
        () => window.RR.table.st !== window.__beforeKill && document.getElementById('conn').classList.contains('live'),
        null,
        { timeout: 20000, polling: 50 }
      );
      const back = await pageState(page);
      assert.ok(back.seq >= seqAtKill, `no acknowledged action lost (${back.seq} < ${seqAtKill})`);
      t.diagnostic(`failover: the page had the table back ${Date.now() - killedAt} ms after the SIGKILL`);
      return true;
    },
  });
  assert.ok(killedAt !== null, 'the owner was killed mid-game');
  assert.ok(moves > 0);
  const final = await pageState(page);
  assert.ok(final.over, 'the game ended in the page');
  assert.ok(final.seq > seqAtKill, 'play went on after the kill');
  // Any surviving process describes the same finished table, and its
  // record (every action, from the one history) verifies.
  const info = await api(c.base, '/api/tables/' + created.id);
  assert.equal(info.status, 'finished');
  assert.equal(info.seq, final.seq, 'the page saw every stored action');
  const record = await api(a.base, `/api/tables/${created.id}/record` + (created.key ? '?k=' + created.key : ''));
  assert.equal(record.actions.length, final.seq);
  const report = await api(c.base, '/api/verify', 'POST', record);
  assert.equal(report.ok, true, JSON.stringify(report));
  assert.deepEqual(errors, []);
});
