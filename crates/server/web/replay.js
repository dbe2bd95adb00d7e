/* ratrace replay page (replay.html, served at /replay/{id}): a finished
   game, position by position. The server rebuilds every position from the
   record (GET /api/tables/{id}/replay/{from}, 100 a request: the public
   view, every seat's hand, each step's events); this page fetches them all
   once, then steps with buttons, the slider, the arrow keys (Home/End too)
   or a move number, and draws the board with the table page's own
   renderers (table.js and the game's file, RR.tableBoard). The log is
   split into sections: an auction (The Big Cheese), a hand and its tricks
   (Dalmuti).
   The analysis section asks the server for the game's analysis by the
   strongest bot (GET and POST /api/tables/{id}/analysis), shows its
   progress while it runs (polled every second), then a summary per player,
   an evaluation graph drawn as inline SVG, the turning points and the
   decisions that were not good; a decision's move number jumps the replay
   there. */
(function () {
  'use strict';
  const RR = window.RR;
  const { t, el, $ } = RR;
  const R = (RR.replay = { id: RR.pageId(), rec: null, sum: null, pos: [], total: 0, i: 0, an: { status: 'none' } });
  // a private table's replay link carries its key (?k=...), as its invite link does
  const linkKey = new URLSearchParams(location.search).get('k');
  if (linkKey && R.id) RR.saveKey(R.id, linkKey);

  const who = (s) => RR.seatLabel(s, R.sum && R.sum.seats);
  const game = () => (R.rec && R.rec.game) || 'bigcheese';
  const evText = (ev) => RR.eventText(game(), ev, R.sum && R.sum.seats);

  /** "P3 bid 2" in words with the player's name. */
  function moveText(line) {
    const m = String(line).match(/^(P\d+)\s+(.*)$/);
    return m ? who(m[1]) + ': ' + RR.actionWords(m[2]) : RR.actionWords(line);
  }

  function renderInfo() {
    const r = R.rec;
    const o = r.outcome;
    // the options in words, as the lobby names them ("Payout dice: best
    // half of value-many d6 × 2"); an unknown one as it is
    const word = (key, raw) => {
      const s = RR.tv(key);
      return s == null ? raw : RR.t(key);
    };
    const opts = Object.entries(r.options || {})
      .map(([k, v]) => word('optName.' + r.game + '.' + k, k) + ': ' + (/^[a-z][a-z0-9_-]*$/i.test(v) ? word('val.' + v, v) : v))
      .join(' · ');
    const res = o ? (o.capped ? t('res.capped') : o.winners.length ? t('res.won', { who: o.winners.map(who).join(' & ') }) : t('res.nobody')) : '';
    const scores = o ? o.scores.map((s, i) => who(i) + ' ' + s).join(' · ') : '';
    RR.fill(
      'info',
      el('h2', { text: RR.gameName(r.game) + ' · ' + R.id }),
      el('div', { text: t('lobby.nPlayers', { n: r.players }) }, el('span', { class: 'mute', text: ' · ' + t('replay.rules', { v: r.rules_version }) })),
      el('div', { class: 'mute', text: t('lobby.options') + ': ' + opts }),
      res && el('div', { class: 'ok', text: '🏁 ' + res }),
      scores && el('div', { text: t('res.score') + ': ' + scores }),
      el('div', { class: 'mono', text: t('res.seed') + ' ' + r.seed + (R.sum && R.sum.seed_hash ? ' · ' + t('table.seedHash') + ' ' + R.sum.seed_hash : '') }),
      el('p', { class: 'row' }, el('a', { href: '/api/tables/' + R.id + '/record' + RR.seeQuery(R.id), download: 'ratrace-' + R.id + '.json', text: t('res.download') }), el('a', { href: '/verify?id=' + R.id, text: t('res.verify') }), el('a', { href: '/t/' + R.id, text: t('replay.table') }))
    );
  }

  /** Whether an event opens a section of the log: an auction, a hand, a trick. */
  function opens(ev) {
    if (game() === 'bigcheese') return ev.kind === 'auction' ? 'auction' : null;
    if (ev.kind === 'deal') return 'hand';
    if (ev.kind === 'leads') return 'trick';
    return null;
  }

  /** The log up to the shown position, in sections, newest last. */
  function renderLog() {
    const sections = [];
    let cur = null;
    let auctions = 0;
    let hand = 0;
    let tricks = 0;
    const add = (title, cls) => sections.push((cur = { title, cls, items: [] }));
    add(t('replay.setup'), 'setup');
    for (let k = 0; k <= R.i && k < R.pos.length; k++) {
      const p = R.pos[k];
      for (const ev of p.events || []) {
        const kind = opens(ev);
        if (kind === 'auction') add(t('replay.auction', { n: ++auctions }), 'auction');
        if (kind === 'hand') {
          tricks = 0;
          add(t('replay.hand', { n: (hand = ev.number || hand + 1) }), 'hand');
        }
        if (kind === 'trick') add(t('replay.trick', { hand, n: ++tricks }), 'trick');
        cur.items.push(el('li', { class: k === R.i && k > 0 ? 'new' : '', 'data-kind': ev.kind, text: evText(ev) }));
      }
    }
    const shown = sections.filter((s) => s.items.length);
    RR.fill(
      'log',
      shown.map((s, j) => el('details', { class: 'section ' + s.cls, open: j >= shown.length - 2 }, el('summary', { text: s.title + ' (' + s.items.length + ')' }), el('ol', {}, s.items)))
    );
    // the newest lines in view, inside the log's own box
    if (R.i) $('log').scrollTop = $('log').scrollHeight;
  }

  /** The board at the shown position: the table page's renderers on a spectator's state. */
  function renderBoard() {
    const p = R.pos[R.i];
    if (!p) return;
    const seats = ((R.sum && R.sum.seats) || []).map((x) => ({ ...x, connected: true })); // no presence in a replay
    const st = { view: p.public, seats, seat: null, legal: [], to_move: p.to_move, over: R.i === R.total, log: [] };
    const drawn = RR.tableBoard(st, game());
    RR.fill('board', drawn.board);
    RR.fill('players', drawn.players);
    const hands = (p.hands || []).map((h, s) => (h == null ? null : el('div', { class: 'player', 'data-seat': RR.seatId(s) }, el('span', { class: 'nm', text: who(s) + ' ' }), el('span', { class: 'hand', text: h === '' || h === 'empty' ? t('replay.noCards') : RR.cardsWords(String(h).replace(/\|/g, ' ')) }))));
    RR.fill('hands', hands.some(Boolean) ? [el('h2', { text: t('replay.hands') }), el('div', { class: 'players' }, hands)] : []);
  }

  function renderMoves() {
    const acts = R.rec.actions;
    RR.fill('moves', acts.map((a, k) => el('li', { class: k === R.i - 1 ? 'new' : k >= R.i ? 'mute' : '', text: moveText(a), onclick: () => show(k + 1) })));
  }

  function show(i) {
    const n = R.total;
    R.i = Math.max(0, Math.min(n, Number.isFinite(i) ? i : n));
    $('slider').max = n;
    $('slider').value = R.i;
    $('jump').max = n;
    $('jump').value = R.i;
    $('step').textContent = t('replay.step', { i: R.i, n });
    $('now').textContent = R.i ? moveText(R.rec.actions[R.i - 1]) : t('replay.start');
    $('prev').disabled = $('first').disabled = R.i === 0;
    $('next').disabled = $('last').disabled = R.i === n;
    document.body.dataset.step = String(R.i);
    renderBoard();
    renderLog();
    renderMoves();
    if (R.i) RR.scrollWithin($('moves'), $('moves').children[R.i - 1]);
  }


  /* ---------- analysis ---------- */

  const SVGNS = 'http://www.w3.org/2000/svg';
  /** An SVG element with attributes and children. */
  function svg(tag, attrs, ...kids) {
    const n = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v != null) n.setAttribute(k, v);
    for (const k of kids.flat()) if (k != null) n.appendChild(typeof k === 'object' ? k : document.createTextNode(String(k)));
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
    const pts = kind === 'diamond' ? [[x, y - r - 1], [x + r + 1, y], [x, y + r + 1], [x - r - 1, y]] : [[x, y - r - 1], [x + r + 1, y + r], [x - r - 1, y + r]];
    return svg('polygon', { points: pts.map((p) => p.join(',')).join(' '), fill: colour });
  }

  function label(name) {
    return el('span', { class: 'lbl lbl-' + name }, el('span', { 'aria-hidden': 'true', text: SYMBOL[name] + ' ' }), t('an.label.' + name));
  }

  /** Shows step `i` and brings the board into view. */
  function jumpTo(i) {
    show(i);
    const c = document.querySelector('.controls');
    if (c && c.scrollIntoView) c.scrollIntoView({ block: 'nearest' });
  }

  function summaryTable(a) {
    const head = ['an.player', 'an.decisions', 'an.meanLoss', 'an.accuracy'].map((k) => el('th', { scope: 'col', text: t(k) }));
    const labels = ['good', 'inaccuracy', 'mistake', 'blunder'].map((n) => el('th', { scope: 'col' }, label(n)));
    const rows = a.summary.map((s) => el('tr', {}, el('th', { scope: 'row', text: who(s.seat) }), el('td', { text: s.decisions }), el('td', { text: num(s.mean_loss) }), el('td', { text: Math.round(100 * s.accuracy) + '%' }), ['good', 'inaccuracy', 'mistake', 'blunder'].map((n) => el('td', { text: s[n] }))));
    return el('div', { class: 'scroll', role: 'region', tabindex: '0', 'aria-labelledby': 'an-sum' }, el('table', { class: 'res an-sum' }, el('thead', {}, el('tr', {}, head, labels)), el('tbody', {}, rows)));
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
    kids.push(svg('line', { class: 'axis', x1: L, y1: T, x2: L, y2: H - B }), svg('line', { class: 'axis', x1: L, y1: H - B, x2: W - Rt, y2: H - B }));
    const ticks = [];
    for (let v = Math.ceil(lo); v <= Math.floor(hi); v++) ticks.push(v);
    for (const v of ticks) {
      kids.push(svg('line', { class: 'grid', x1: L, y1: y(v), x2: W - Rt, y2: y(v) }), svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end' }, String(v)));
    }
    kids.push(svg('text', { x: 4, y: 12 }, '▲ ' + t('an.better')), svg('text', { x: 4, y: H - 4 }, '▼ ' + t('an.worse')));
    const step = Math.max(1, Math.ceil(maxMove / Math.max(3, Math.floor(W / 80))));
    for (let m = 0; m <= maxMove; m += step) kids.push(svg('text', { x: x(m), y: H - B + 16, 'text-anchor': 'middle' }, String(m)));
    kids.push(svg('text', { x: W - Rt, y: H - 4, 'text-anchor': 'end' }, t('an.axisMove')));
    for (const s of a.series) {
      const k = seatIndex(s.seat) % COLOURS.length;
      const pts = s.points.map((p) => [x(p.move), y(p.value)]);
      kids.push(svg('polyline', { class: 'an-line', 'data-seat': s.seat, points: pts.map((p) => p.map((c) => c.toFixed(1)).join(',')).join(' '), fill: 'none', stroke: COLOURS[k], 'stroke-width': 2, 'stroke-dasharray': DASHES[k] }));
      for (const [px, py] of pts) kids.push(mark(MARKS[k], px, py, COLOURS[k]));
    }
    const chart = svg('svg', { class: 'an-graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': 'an-graph-title', 'aria-describedby': 'an-graph-text', preserveAspectRatio: 'xMidYMid meet' }, kids);
    // the legend doubles as the text alternative: one line per player
    const text = a.series.map((s) => {
      const k = seatIndex(s.seat) % COLOURS.length;
      const p = s.points;
      if (!p.length) return null;
      const better = (u, v) => (up ? u.value >= v.value : u.value <= v.value);
      const best = p.reduce((b, q) => (better(q, b) ? q : b));
      const worst = p.reduce((b, q) => (better(b, q) ? q : b));
      const key = svg('svg', { width: 36, height: 12, 'aria-hidden': 'true', class: 'an-key' }, svg('line', { x1: 2, y1: 6, x2: 34, y2: 6, stroke: COLOURS[k], 'stroke-width': 2, 'stroke-dasharray': DASHES[k] }), mark(MARKS[k], 18, 6, COLOURS[k]));
      return el('li', {}, key, ' ', t('an.graphLine', { who: who(s.seat), from: num(p[0].value), a: p[0].move, to: num(p[p.length - 1].value), b: p[p.length - 1].move, best: num(best.value), worst: num(worst.value) }));
    });
    return [el('p', { class: 'mute', text: t('an.graphAbout') }), chart, el('ul', { id: 'an-graph-text', class: 'an-legend' }, text)];
  }

  function turning(a) {
    if (!a.turning_points.length) return el('p', { text: t('an.noTurning') });
    return el(
      'ol',
      { class: 'an-turns' },
      a.turning_points.map((p) => el('li', {}, el('button', { class: 'link', 'aria-label': t('an.goto', { n: p.move }), onclick: () => jumpTo(p.move), text: t('an.move') + ' ' + p.move }), ' ', t('an.turn', { who: who(p.seat), from: num(p.from), to: num(p.to), table: signed(p.by_table), choice: signed(p.by_choice) })))
    );
  }

  function notGood(a) {
    const bad = a.decisions.filter((d) => d.label !== 'good');
    if (!bad.length) return el('p', { text: t('an.allGood') });
    const head = ['an.move', 'an.player', 'an.played', 'an.best', 'an.loss', 'an.label'].map((k) => el('th', { scope: 'col', text: t(k) }));
    const rows = bad.map((d) =>
      el(
        'tr',
        { 'data-move': d.move },
        el('td', {}, el('button', { class: 'link', 'aria-label': t('an.goto', { n: d.move }), onclick: () => jumpTo(d.move), text: String(d.move) })),
        el('td', { text: who(d.seat) }),
        el('td', { text: RR.actionWords(d.chosen) }),
        el('td', { text: RR.actionWords(d.best) }),
        el('td', { text: num(d.loss) + ' ± ' + num(d.std_error) }),
        el('td', {}, label(d.label))
      )
    );
    return el('div', { class: 'scroll' }, el('table', { class: 'res an-list' }, el('thead', {}, el('tr', {}, head)), el('tbody', {}, rows)));
  }

  function renderAnalysis() {
    const sec = $('analysis');
    if (!sec || !R.rec) return;
    sec.hidden = false;
    const A = R.an;
    const kids = [];
    if (A.status === 'none' || A.status === 'failed') {
      if (A.status === 'failed') kids.push(el('p', { class: 'err', text: t('an.failed') }));
      kids.push(el('p', {}, el('button', { id: 'an-start', onclick: startAnalysis, text: t(A.status === 'failed' ? 'an.again' : 'an.start') })));
    } else if (A.status === 'queued' || A.status === 'running') {
      const running = A.status === 'running' && A.total > 0;
      kids.push(
        el('div', { class: 'an-progress' }, el('label', { for: 'an-bar', id: 'an-bar-label', text: running ? t('an.running', { done: A.done, total: A.total }) : t('an.queued') }), el('progress', { id: 'an-bar', max: running ? A.total : null, value: running ? A.done : null, 'aria-valuetext': running ? A.done + ' / ' + A.total : null }))
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
    kids.push(el('p', { class: 'sr-only', role: 'status', text: A.status === 'done' ? t('an.summary') : A.status === 'failed' ? t('an.failed') : '' }));
    RR.fill('an-body', kids);
    document.body.dataset.analysis = A.status;
  }

  /** Takes an answer of the analysis API (or its error) into R.an, and polls while it runs. */
  function took(v) {
    clearTimeout(R.poll);
    if (v.status === 'done' && !v.analysis) return loadAnalysis();
    R.an = { status: v.status, done: v.done || 0, total: v.total || 0, data: v.analysis || null };
    if (v.status === 'queued' || v.status === 'running') R.poll = setTimeout(loadAnalysis, 1000);
    renderAnalysis();
  }

  async function loadAnalysis() {
    try {
      took(await RR.api('/api/tables/' + R.id + '/analysis' + RR.seeQuery(R.id)));
    } catch (e) {
      if (e.status === 500) took({ status: 'failed' });
      else {
        R.an.err = RR.errText(e);
        renderAnalysis();
      }
    }
  }

  async function startAnalysis() {
    R.an.err = null;
    try {
      took(await RR.api('/api/tables/' + R.id + '/analysis' + RR.seeQuery(R.id), 'POST'));
    } catch (e) {
      R.an.err = RR.errText(e);
      renderAnalysis();
    }
  }

  function render() {
    if (!R.rec || !R.pos.length) return;
    renderInfo();
    show(R.i);
    renderAnalysis();
  }

  /** Every position, 100 a request. */
  async function loadPositions() {
    const pos = [];
    for (let from = 0; ; from += 100) {
      const batch = await RR.api('/api/tables/' + R.id + '/replay/' + from + RR.seeQuery(R.id));
      R.total = batch.steps;
      pos.push(...batch.positions);
      if (pos.length > R.total || !batch.positions.length) break;
    }
    R.pos = pos;
  }

  async function start() {
    RR.initPage(render);
    if (!R.id) return ($('msg').textContent = t('err.noTable'));
    $('first').onclick = () => show(0);
    $('prev').onclick = () => show(R.i - 1);
    $('next').onclick = () => show(R.i + 1);
    $('last').onclick = () => show(Infinity);
    $('slider').oninput = (e) => show(Number(e.target.value));
    $('jump').onchange = (e) => show(Number(e.target.value));
    document.addEventListener('keydown', (e) => {
      // the move box types numbers; the slider steps itself (once, not twice)
      if (e.target && e.target.tagName === 'INPUT' && (e.target.type === 'number' || e.target.type === 'range')) return;
      if (e.key === 'ArrowLeft') show(R.i - 1);
      if (e.key === 'ArrowRight') show(R.i + 1);
      if (e.key === 'Home') show(0);
      if (e.key === 'End') show(Infinity);
    });
    try {
      R.sum = await RR.api('/api/tables/' + R.id).catch(() => null);
      R.rec = await RR.api('/api/tables/' + R.id + '/record' + RR.seeQuery(R.id));
      await loadPositions();
      render();
      document.body.dataset.ready = '1';
      loadAnalysis();
    } catch (e) {
      $('msg').textContent = e.status === 409 ? t('replay.notOver') : RR.errText(e);
    }
  }

  RR.boot(start);
})();
