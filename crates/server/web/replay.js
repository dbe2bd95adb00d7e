/* ratrace replay page (replay.html, served at /replay/{id}): fetches the
   finished game's record (GET /api/tables/{id}/record) and the table
   summary (names), and steps through the actions move by move with
   buttons, a slider and the arrow keys. The server gives no per-step
   states yet, so each step shows the action in words and the moves so far. */
(function () {
  'use strict';
  const RR = window.RR;
  const { t, el, $ } = RR;
  const R = (RR.replay = { id: RR.pageId(), rec: null, sum: null, i: 0 });

  const who = (s) => RR.seatLabel(s, R.sum && R.sum.seats);

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

  function renderMoves() {
    const acts = R.rec.actions;
    RR.fill('moves', acts.map((a, k) => el('li', { class: k === R.i - 1 ? 'new' : k >= R.i ? 'mute' : '', text: moveText(a) })));
  }

  function show(i) {
    const acts = R.rec.actions;
    R.i = Math.max(0, Math.min(acts.length, i));
    $('slider').max = acts.length;
    $('slider').value = R.i;
    $('step').textContent = t('replay.step', { i: R.i, n: acts.length });
    $('now').textContent = R.i ? moveText(acts[R.i - 1]) : t('replay.start');
    $('prev').disabled = $('first').disabled = R.i === 0;
    $('next').disabled = $('last').disabled = R.i === acts.length;
    renderMoves();
    const cur = $('moves').children[Math.max(0, R.i - 1)];
    if (cur && cur.scrollIntoView && R.i) cur.scrollIntoView({ block: 'nearest' });
  }

  function render() {
    if (!R.rec) return;
    renderInfo();
    show(R.i);
  }

  async function start() {
    RR.initPage(render);
    if (!R.id) return ($('msg').textContent = t('err.noTable'));
    $('first').onclick = () => show(0);
    $('prev').onclick = () => show(R.i - 1);
    $('next').onclick = () => show(R.i + 1);
    $('last').onclick = () => show(Infinity);
    $('slider').oninput = (e) => show(Number(e.target.value));
    document.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowLeft') show(R.i - 1);
      if (e.key === 'ArrowRight') show(R.i + 1);
    });
    try {
      R.sum = await RR.api('/api/tables/' + R.id).catch(() => null);
      R.rec = await RR.api('/api/tables/' + R.id + '/record');
      render();
    } catch (e) {
      $('msg').textContent = e.status === 409 ? t('replay.notOver') : RR.errText(e);
    }
  }

  start();
})();
