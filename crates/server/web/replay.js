/* ratrace replay page (replay.html, served at /replay/{id}): a finished
   game, position by position. The server rebuilds every position from the
   record (GET /api/tables/{id}/replay/{from}, 100 a request: the public
   view, every seat's hand, each step's events); this page fetches them all
   once, then steps with buttons, the slider, the arrow keys (Home/End too)
   or a move number, and draws the board with the table page's own
   renderers (table.js, RR.tableBoard). The log is split into sections: an
   auction (The Big Cheese), a hand and its tricks (Dalmuti). */
(function () {
  'use strict';
  const RR = window.RR;
  const { t, el, $ } = RR;
  const R = (RR.replay = { id: RR.pageId(), rec: null, sum: null, pos: [], total: 0, i: 0 });

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
    const opts = Object.entries(r.options || {})
      .map(([k, v]) => k + '=' + v)
      .join(', ');
    const res = o ? (o.capped ? t('res.capped') : o.winners.length ? t('res.won', { who: o.winners.map(who).join(' & ') }) : t('res.nobody')) : '';
    const scores = o ? o.scores.map((s, i) => who(i) + ' ' + s).join(' · ') : '';
    RR.fill(
      'info',
      el('h2', { text: RR.gameName(r.game) + ' · ' + R.id }),
      el('div', { text: t('lobby.nPlayers', { n: r.players }) + ' · ' + r.rules_version }),
      el('div', { class: 'mute', text: t('lobby.options') + ': ' + opts }),
      res && el('div', { class: 'ok', text: '🏁 ' + res }),
      scores && el('div', { text: t('res.score') + ': ' + scores }),
      el('div', { class: 'mono', text: t('res.seed') + ' ' + r.seed + (R.sum && R.sum.seed_hash ? ' · ' + t('table.seedHash') + ' ' + R.sum.seed_hash : '') }),
      el('p', { class: 'row' }, el('a', { href: '/api/tables/' + R.id + '/record', download: 'ratrace-' + R.id + '.json', text: t('res.download') }), el('a', { href: '/verify?id=' + R.id, text: t('res.verify') }), el('a', { href: '/t/' + R.id, text: t('replay.table') }))
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
    const last = $('log').lastElementChild;
    if (last && last.scrollIntoView && R.i) last.scrollIntoView({ block: 'nearest' });
  }

  /** The board at the shown position: the table page's renderers on a spectator's state. */
  function renderBoard() {
    const p = R.pos[R.i];
    if (!p) return;
    const seats = ((R.sum && R.sum.seats) || []).map((x) => ({ ...x, connected: true })); // no presence in a replay
    const st = { view: p.public, seats, seat: null, legal: [], to_move: p.to_move, over: R.i === R.total, log: [] };
    const drawn = RR.tableBoard(st);
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
    const cur = $('moves').children[Math.max(0, R.i - 1)];
    if (cur && cur.scrollIntoView && R.i) cur.scrollIntoView({ block: 'nearest' });
  }

  function render() {
    if (!R.rec || !R.pos.length) return;
    renderInfo();
    show(R.i);
  }

  /** Every position, 100 a request. */
  async function loadPositions() {
    const pos = [];
    for (let from = 0; ; from += 100) {
      const batch = await RR.api('/api/tables/' + R.id + '/replay/' + from);
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
      if (e.target && e.target.tagName === 'INPUT' && e.target.type === 'number') return;
      if (e.key === 'ArrowLeft') show(R.i - 1);
      if (e.key === 'ArrowRight') show(R.i + 1);
      if (e.key === 'Home') show(0);
      if (e.key === 'End') show(Infinity);
    });
    try {
      R.sum = await RR.api('/api/tables/' + R.id).catch(() => null);
      R.rec = await RR.api('/api/tables/' + R.id + '/record');
      await loadPositions();
      render();
      document.body.dataset.ready = '1';
    } catch (e) {
      $('msg').textContent = e.status === 409 ? t('replay.notOver') : RR.errText(e);
    }
  }

  RR.boot(start);
})();
