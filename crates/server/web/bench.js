/* The engine bench's page (bench.html, served at /bench): runs the cases
   it is given in the local table's worker (engine.js, the engine in
   WebAssembly), as a local game runs, and shows the median time of each.
   e2e/bench-engine.mjs gives the cases (made and timed natively by
   `cargo run --release -p browser --example bench`) through
   window.benchEngine and reads the results back. */

window.benchEngine = (cases, repeats) =>
  new Promise((resolve, reject) => {
    const w = new Worker("/static/engine.js");
    document.getElementById('status').textContent = 'Running ' + cases.length + ' cases…';
    w.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === 'error') return reject(new Error(m.message));
      if (m.type !== 'bench') return;
      w.terminate();
      document.getElementById('status').textContent = 'Done.';
      document.getElementById('out').textContent = m.results.map((r) => r.name + ': ' + r.ms.toFixed(4) + ' ms').join('\n');
      resolve(m.results);
    };
    w.onerror = (e) => reject(new Error(String(e.message || e)));
    w.postMessage({ type: 'bench', cases, repeats });
  });
