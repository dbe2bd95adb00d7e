/* The page's side of a local game: the worker that hosts it (engine.js,
   the engine in WebAssembly) behind the interface of a server connection
   (connection.js's connect), so the table page draws a game against bots
   in this browser as it draws an online one.

   A local game lives at /local/?id=ID; its record is in this browser's
   IndexedDB, kept by the worker. The worker is made only when a local
   game, a hint or an analysis needs it: an online table never loads the
   engine. */

/** Whether this page shows a local game. */
export const isLocal = () => location.pathname.startsWith('/local');

/** The local game page of game `id`. */
export const localUrl = (id) => '/local/?id=' + encodeURIComponent(id);

function worker() {
  return new Worker("/static/engine.js");
}

/**
 * One request to a worker of its own: resolves to the first message of
 * type `want`, rejects with the worker's error; `onProgress(done, total)`
 * hears its progress messages. The worker ends with the answer.
 */
function once(msg, want, onProgress) {
  return new Promise((resolve, reject) => {
    const w = worker();
    w.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === 'progress' && onProgress) return onProgress(m.done, m.total);
      if (m.type !== want && m.type !== 'error') return;
      w.terminate();
      if (m.type === want) resolve(m);
      else reject(Object.assign(new Error(m.message), { code: m.code }));
    };
    w.onerror = () => {
      w.terminate();
      reject(Object.assign(new Error(''), { code: 'engine' }));
    };
    w.postMessage(msg);
  });
}

/**
 * The games kept in this browser (the worker keeps them), newest first:
 * { id, game, players, over, updated } each; none where storage is not
 * open to the page. A browser that never kept one does not load the
 * worker to learn so.
 */
export async function localGames() {
  if (!self.indexedDB || !self.Worker) return [];
  try {
    if (indexedDB.databases && !(await indexedDB.databases()).some((d) => d.name === 'ratrace-local')) return [];
    return (await once({ type: 'list' }, 'games')).games;
  } catch {
    return [];
  }
}

/**
 * Starts a new local game in this browser: `spec` is { game, players,
 * options, levels (the bots' levels, seat 2 on), name }. Resolves to the
 * game's id once it is saved; rejects with the engine's refusal.
 */
export const makeLocal = (spec) => once(Object.assign({ type: 'make' }, spec), 'made').then((m) => m.id);

/**
 * Analyses a finished game's `record` in this browser (the engine in a
 * worker, with the defaults of `ratrace analyze`): resolves to the
 * analysis; `onProgress(done, total)` hears how far it got.
 */
export const analyzeHere = (record, onProgress) => once({ type: 'analyze', record }, 'analysis', onProgress).then((m) => m.analysis);

/**
 * Opens local game `id`, as connect() opens a table: handlers
 * onMessage(msg) (the server's messages, and `hint`, `record`,
 * `analysis`, `progress`), onStatus('local' | 'off') and onInfo(info)
 * (the table's facts, as GET /api/tables/{id} gives them). Returns
 * send(msg), restart(), now() and `closed`.
 */
export function connectLocal(id, h) {
  const c = { closed: false, w: null };
  function open() {
    const w = worker();
    c.w = w;
    w.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === 'info') h.onInfo(m.info);
      else h.onMessage(m);
    };
    // the engine stopped (it never should): a new worker resumes from the saved record
    w.onerror = () => {
      h.onStatus('off');
      w.terminate();
      if (!c.closed) setTimeout(open, 1000);
    };
    w.postMessage({ type: 'hello', id });
    h.onStatus('local');
  }
  c.send = (m) => {
    if (!c.w) return false;
    c.w.postMessage(m);
    return true;
  };
  c.restart = () => c.send({ type: 'resync' });
  c.now = () => {};
  open();
  return c;
}
