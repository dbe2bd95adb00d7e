// The browser engine's bench: the same requests timed natively and in
// Chromium, in one run on one machine (docs/web.md, "The engine's speed").
//
//   node e2e/bench-engine.mjs [--quick]
//
// 1. `cargo run --release -p browser --example bench` makes the cases
//    (random Dalmuti hands; every decision of a Big Cheese and a Dalmuti
//    game as `learned` and as `strong`; a whole Big Cheese game's
//    analysis) and times them natively (median of 5 runs).
// 2. The real server (RATRACE_BIN, as the browser tests) serves /bench,
//    whose page runs the same requests in the local table's worker, the
//    engine in WebAssembly (median of 5 runs).
// 3. It prints both, their ratio, and each goal met or missed. --quick
//    runs each case once on a few hands, with the native half built for
//    tests and no analysis (the browser test compares one): the test
//    command's check that the bench runs, not a measurement.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, startServer, launchBrowser } from './helpers.mjs';

const quick = process.argv.includes('--quick');
const dir = mkdtempSync(join(tmpdir(), 'ratrace-bench-'));
const file = join(dir, 'cases.json');
const profile = quick ? [] : ['--release'];
execFileSync('cargo', ['run', ...profile, '--locked', '-q', '-p', 'browser', '--example', 'bench', '--', file, ...(quick ? ['--quick'] : [])], {
  cwd: ROOT,
  stdio: ['ignore', 'inherit', 'inherit'],
});
const { cases, repeats } = JSON.parse(readFileSync(file, 'utf8'));
rmSync(dir, { recursive: true, force: true });

const server = await startServer();
const browser = await launchBrowser();
let results;
try {
  const page = await (await browser.newContext({ baseURL: server.base })).newPage();
  await page.goto('/bench');
  await page.waitForFunction(() => typeof window.benchEngine === 'function');
  results = await page.evaluate(([c, r]) => window.benchEngine(c, r), [cases.map(({ name, per, requests }) => ({ name, per, requests })), repeats]);
} finally {
  await browser.close();
  await server.stop();
}

/** Each case's goal: the WebAssembly time against the native one, or a bound in ms. */
const GOALS = {
  'random Dalmuti hands (5 players, one hand each)': { ratio: 2, text: 'at least half the native speed' },
  'a learned decision, Big Cheese': { ms: 1, text: 'under 1 ms' },
  'a learned decision, Dalmuti': { ms: 1, text: 'under 1 ms' },
  'a strong decision, Big Cheese': { ms: 5, text: 'under 5 ms' },
  'a strong decision, Dalmuti': { ms: 5, text: 'under 5 ms' },
  "a whole Big Cheese game's analysis": { ms: 5000, text: 'under 5 s' },
};

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(4));
console.log(`| case | per | native (ms) | WebAssembly in Chromium (ms) | wasm / native | goal |`);
console.log(`|---|---|---:|---:|---:|---|`);
let missed = 0;
for (const c of cases) {
  const w = results.find((r) => r.name === c.name).ms;
  const g = GOALS[c.name];
  const ratio = w / c.native_ms;
  const met = g.ratio ? ratio <= g.ratio : w < g.ms;
  if (!met) missed++;
  const rate = c.unit === 'hand' ? ` (${Math.round(1000 / c.native_ms)} / ${Math.round(1000 / w)} hands/s)` : '';
  console.log(`| ${c.name} | ${c.unit} | ${fmt(c.native_ms)} | ${fmt(w)}${rate} | ${ratio.toFixed(2)} | ${g.text}: ${met ? 'met' : 'missed'} |`);
}
console.log(quick ? 'quick run: one repeat on a few hands, not a measurement' : `${repeats} runs each, medians; ${missed} goal(s) missed`);
