/* The replay page's analysis (replay.js): the game's analysis by the
   strongest bot (GET and POST /api/tables/{id}/analysis), its progress
   while it runs (polled every second), then a summary per player, an
   evaluation graph drawn as inline SVG, the turning points and the
   decisions that were not good; a decision's move number jumps the
   replay there.

   replayAnalysis(id, who, show, source) is made by replay.js once the
   record is there: `who` names a seat, `show(i)` shows step i (null
   where no steps are shown: the move numbers are then plain text), and
   `source` is where the analysis comes from: the server (the default)
   or this browser's engine (a local game's table, engine.js), which
   calls `took` as it goes. With `record` (a function giving the game's
   record), a finished online game may also be analysed in this browser,
   by the engine in WebAssembly, with the same numbers as the server's. The graph tells each
   player's line by colour, dash and marker, never by colour alone, and
   its legend is its text alternative. The analysis shown is this
   module's own state. */

import { $, el, fill } from './dom.js';
import { t } from './i18n.js';
import { api, errText } from './connection.js';
import { seeQuery } from './store.js';
import { analyzeHere } from './local.js';
import { actionWords } from './words.js';

/** The server's analysis of table `id`: its state, and a request to start it. */
export const serverSource = (id) => ({
  get: () => api('/api/tables/' + id + '/analysis' + seeQuery(id)),
  start: () => api('/api/tables/' + id + '/analysis' + seeQuery(id), 'POST'),
});

export function replayAnalysis(id, who, show, source, record) {
  const src = source || serverSource(id);
  /** The analysis shown: its status, progress, data and an error to show. */
  let an = { status: 'none' };
  let poll = null;

  const SVGNS = 'http://www.w3.org/2000/svg';
  /** An SVG element with attributes and children. */
  function svg(tag, attrs, ...kids) {
    const n = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v != null) n.setAttribute(k, v);
    for (const k of kids.flat())
      if (k != null) n.appendChild(typeof k === 'object' ? k : document.createTextNode(String(k)));
    return n;
  }
  /* One look per player: a colour from a palette safe for colour blindness,
   a dash pattern and a marker shape, so no line is told apart by colour only. */
  const COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#8a6d00', '#56b4e9', '#000000', '#7f3c8d'];
  const DASHES = [null, '7 4', '2 3', '9 3 2 3', '4 2', '12 4', '1 2', '6 2 2 2'];
  const MARKS = ['circle', 'square', 'diamond', 'triangle', 'circle', 'square', 'diamond', 'triangle'];
  const SYMBOL = { good: '✓', inaccuracy: '?!', mistake: '?', blunder: '??' };
  const num = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');
  const signed = (x) => (x > 0 ? '+' : '') + num(x);
  const seatIndex = (s) => Number(String(s).replace(/^P/, '')) - 1;

  function mark(kind, x, y, colour) {
    const r = 3.5;
    if (kind === 'circle') return svg('circle', { cx: x, cy: y, r, fill: colour });
    if (kind === 'square') return svg('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: colour });
    const pts =
      kind === 'diamond'
        ? [
            [x, y - r - 1],
            [x + r + 1, y],
            [x, y + r + 1],
            [x - r - 1, y],
          ]
        : [
            [x, y - r - 1],
            [x + r + 1, y + r],
            [x - r - 1, y + r],
          ];
    return svg('polygon', { points: pts.map((p) => p.join(',')).join(' '), fill: colour });
  }

  function label(name) {
    return el(
      'span',
      { class: 'lbl lbl-' + name },
      el('span', { 'aria-hidden': 'true', text: SYMBOL[name] + ' ' }),
      t('an.label.' + name)
    );
  }

  /** Shows step `i` and brings the board into view. */
  function jumpTo(i) {
    show(i);
    const c = document.querySelector('.controls');
    if (c && c.scrollIntoView) c.scrollIntoView({ block: 'nearest' });
  }

  /** Move `n` as `text`: a button that jumps there, or plain text where nothing shows steps (`show` is null). */
  const moveRef = (n, text) =>
    show
      ? el('button', { class: 'link', 'aria-label': t('an.goto', { n }), onclick: () => jumpTo(n), text })
      : el('span', { text });

  function summaryTable(a) {
    const head = ['an.player', 'an.decisions', 'an.meanLoss', 'an.accuracy'].map((k) =>
      el('th', { scope: 'col', text: t(k) })
    );
    const labels = ['good', 'inaccuracy', 'mistake', 'blunder'].map((n) => el('th', { scope: 'col' }, label(n)));
    // each cell names its column too (data-label): a phone shows a
    // player's figures as a card, not as a row that scrolls sideways
    const cell = (k, text) => el('td', { 'data-label': k, text });
    const rows = a.summary.map((s) =>
      el(
        'tr',
        {},
        el('th', { scope: 'row', text: who(s.seat) }),
        cell(t('an.decisions'), s.decisions),
        cell(t('an.meanLoss'), num(s.mean_loss)),
        cell(t('an.accuracy'), Math.round(100 * s.accuracy) + '%'),
        ['good', 'inaccuracy', 'mistake', 'blunder'].map((n) => cell(SYMBOL[n] + ' ' + t('an.label.' + n), s[n]))
      )
    );
    return el(
      'div',
      { class: 'scroll', role: 'region', tabindex: '0', 'aria-labelledby': 'an-sum' },
      el('table', { class: 'res an-sum' }, el('thead', {}, el('tr', {}, head, labels)), el('tbody', {}, rows))
    );
  }

  /** One polyline per player over the move numbers; better is up. */
  function graph(a) {
    // as wide as the page allows, so the text keeps its size on a phone
    const room = ($('an-body') && $('an-body').clientWidth) || 640;
    const W = Math.max(300, Math.min(720, room));
    const H = 250;
    const L = 44;
    const Rt = 12;
    const T = 24;
    const B = 34;
    const up = a.unit && a.unit.higher_is_better;
    const vals = a.series.flatMap((s) => s.points.map((p) => p.value));
    let lo = Math.min(1, ...vals);
    let hi = Math.max(up ? 1 : a.players, ...vals);
    if (hi - lo < 1e-9) hi = lo + 1;
    const maxMove = Math.max(1, a.actions || 0, ...a.series.flatMap((s) => s.points.map((p) => p.move)));
    const x = (m) => L + ((W - L - Rt) * m) / maxMove;
    // better upward: a place (lower is better) has its best at the top
    const y = (v) => (up ? T + ((H - T - B) * (hi - v)) / (hi - lo) : T + ((H - T - B) * (v - lo)) / (hi - lo));
    const kids = [svg('title', { id: 'an-graph-title' }, t('an.graph'))];
    kids.push(
      svg('line', { class: 'axis', x1: L, y1: T, x2: L, y2: H - B }),
      svg('line', { class: 'axis', x1: L, y1: H - B, x2: W - Rt, y2: H - B })
    );
    const ticks = [];
    for (let v = Math.ceil(lo); v <= Math.floor(hi); v++) ticks.push(v);
    for (const v of ticks) {
      kids.push(
        svg('line', { class: 'grid', x1: L, y1: y(v), x2: W - Rt, y2: y(v) }),
        svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end' }, String(v))
      );
    }
    kids.push(
      svg('text', { x: 4, y: 12 }, '▲ ' + t('an.better')),
      svg('text', { x: 4, y: H - 4 }, '▼ ' + t('an.worse'))
    );
    const step = Math.max(1, Math.ceil(maxMove / Math.max(3, Math.floor(W / 80))));
    for (let m = 0; m <= maxMove; m += step)
      kids.push(svg('text', { x: x(m), y: H - B + 16, 'text-anchor': 'middle' }, String(m)));
    kids.push(svg('text', { x: W - Rt, y: H - 4, 'text-anchor': 'end' }, t('an.axisMove')));
    for (const s of a.series) {
      const k = seatIndex(s.seat) % COLOURS.length;
      const pts = s.points.map((p) => [x(p.move), y(p.value)]);
      kids.push(
        svg('polyline', {
          class: 'an-line',
          'data-seat': s.seat,
          points: pts.map((p) => p.map((c) => c.toFixed(1)).join(',')).join(' '),
          fill: 'none',
          stroke: COLOURS[k],
          'stroke-width': 2,
          'stroke-dasharray': DASHES[k],
        })
      );
      for (const [px, py] of pts) kids.push(mark(MARKS[k], px, py, COLOURS[k]));
    }
    const chart = svg(
      'svg',
      {
        class: 'an-graph',
        viewBox: `0 0 ${W} ${H}`,
        role: 'img',
        'aria-labelledby': 'an-graph-title',
        'aria-describedby': 'an-graph-text',
        preserveAspectRatio: 'xMidYMid meet',
      },
      kids
    );
    // the legend doubles as the text alternative: one line per player
    const text = a.series.map((s) => {
      const k = seatIndex(s.seat) % COLOURS.length;
      const p = s.points;
      if (!p.length) return null;
      const better = (u, v) => (up ? u.value >= v.value : u.value <= v.value);
      const best = p.reduce((b, q) => (better(q, b) ? q : b));
      const worst = p.reduce((b, q) => (better(b, q) ? q : b));
      const key = svg(
        'svg',
        { width: 36, height: 12, 'aria-hidden': 'true', class: 'an-key' },
        svg('line', {
          x1: 2,
          y1: 6,
          x2: 34,
          y2: 6,
          stroke: COLOURS[k],
          'stroke-width': 2,
          'stroke-dasharray': DASHES[k],
        }),
        mark(MARKS[k], 18, 6, COLOURS[k])
      );
      return el(
        'li',
        {},
        key,
        ' ',
        t('an.graphLine', {
          who: who(s.seat),
          from: num(p[0].value),
          a: p[0].move,
          to: num(p[p.length - 1].value),
          b: p[p.length - 1].move,
          best: num(best.value),
          worst: num(worst.value),
        })
      );
    });
    return [
      el('p', { class: 'mute', text: t('an.graphAbout') }),
      chart,
      el('ul', { id: 'an-graph-text', class: 'an-legend' }, text),
    ];
  }

  function turning(a) {
    if (!a.turning_points.length) return el('p', { text: t('an.noTurning') });
    return el(
      'ol',
      { class: 'an-turns' },
      a.turning_points.map((p) =>
        el(
          'li',
          {},
          moveRef(p.move, t('an.move') + ' ' + p.move),
          ' ',
          t('an.turn', {
            who: who(p.seat),
            from: num(p.from),
            to: num(p.to),
            table: signed(p.by_table),
            choice: signed(p.by_choice),
          })
        )
      )
    );
  }

  function notGood(a) {
    const bad = a.decisions.filter((d) => d.label !== 'good');
    if (!bad.length) return el('p', { text: t('an.allGood') });
    const head = ['an.move', 'an.player', 'an.played', 'an.best', 'an.loss', 'an.label'].map((k) =>
      el('th', { scope: 'col', text: t(k) })
    );
    // as in the summary, each cell names its column: a phone shows each
    // decision as a card, its loss and label in sight
    const cell = (k, attrs, ...kids) => el('td', Object.assign({ 'data-label': t(k) }, attrs), ...kids);
    const rows = bad.map((d) =>
      el(
        'tr',
        { 'data-move': d.move },
        cell('an.move', {}, moveRef(d.move, String(d.move))),
        cell('an.player', { text: who(d.seat) }),
        cell('an.played', { text: actionWords(d.chosen) }),
        cell('an.best', { text: actionWords(d.best) }),
        cell('an.loss', { text: num(d.loss) + ' ± ' + num(d.std_error) }),
        cell('an.label', {}, label(d.label))
      )
    );
    return el(
      'div',
      { class: 'scroll' },
      el('table', { class: 'res an-list' }, el('thead', {}, el('tr', {}, head)), el('tbody', {}, rows))
    );
  }

  function renderAnalysis() {
    const sec = $('analysis');
    if (!sec) return;
    sec.hidden = false;
    const A = an;
    const kids = [];
    if (A.status === 'none' || A.status === 'failed') {
      if (A.status === 'failed') kids.push(el('p', { class: 'err', text: t('an.failed') }));
      kids.push(
        el(
          'p',
          { class: 'row' },
          el('button', {
            id: 'an-start',
            onclick: startAnalysis,
            text: t(A.status === 'failed' ? 'an.again' : 'an.start'),
          }),
          record && record() ? el('button', { id: 'an-here', class: 'alt', onclick: startHere, text: t('an.here') }) : null
        )
      );
    } else if (A.status === 'queued' || A.status === 'running') {
      const running = A.status === 'running' && A.total > 0;
      kids.push(
        el(
          'div',
          { class: 'an-progress' },
          el('label', {
            for: 'an-bar',
            id: 'an-bar-label',
            text: running ? t('an.running', { done: A.done, total: A.total }) : t('an.queued'),
          }),
          el('progress', {
            id: 'an-bar',
            max: running ? A.total : null,
            value: running ? A.done : null,
            'aria-valuetext': running ? A.done + ' / ' + A.total : null,
          })
        )
      );
    } else if (A.status === 'done' && A.data) {
      const a = A.data;
      kids.push(
        el('p', { class: 'mute', text: t('an.unit') }),
        el('h3', { id: 'an-sum', text: t('an.summary') }),
        summaryTable(a),
        el('h3', { text: t('an.graph') }),
        graph(a),
        el('h3', { text: t('an.turning') }),
        turning(a),
        el('h3', { text: t('an.list') }),
        notGood(a)
      );
    }
    if (A.err) kids.push(el('p', { class: 'err', role: 'alert', text: A.err }));
    kids.push(
      el('p', {
        class: 'sr-only',
        role: 'status',
        text: A.status === 'done' ? t('an.summary') : A.status === 'failed' ? t('an.failed') : '',
      })
    );
    fill('an-body', kids);
    document.body.dataset.analysis = A.status;
  }

  /** Takes an answer of the analysis API (or its error) into the analysis shown, and polls while it runs. */
  function took(v) {
    clearTimeout(poll);
    if (v.status === 'done' && !v.analysis) return loadAnalysis();
    an = { status: v.status, done: v.done || 0, total: v.total || 0, data: v.analysis || null };
    // an analysis in this browser says how far it got by itself
    if ((v.status === 'queued' || v.status === 'running') && !v.here) poll = setTimeout(loadAnalysis, 1000);
    renderAnalysis();
  }

  async function loadAnalysis() {
    try {
      took(await src.get());
    } catch (e) {
      if (e.status === 500) took({ status: 'failed' });
      else {
        an.err = errText(e);
        renderAnalysis();
      }
    }
  }

  /** The analysis in this browser (local.js, engine.js): no server's queue. */
  async function startHere() {
    an.err = null;
    took({ status: 'running', here: true });
    try {
      const a = await analyzeHere(record(), (done, total) => took({ status: 'running', done, total, here: true }));
      took({ status: 'done', analysis: a });
    } catch (e) {
      took({ status: 'failed' });
    }
  }

  async function startAnalysis() {
    an.err = null;
    try {
      took(await src.start());
    } catch (e) {
      an.err = errText(e);
      renderAnalysis();
    }
  }

  return { render: renderAnalysis, load: loadAnalysis, took, data: () => an.data };
}
