/* ratrace table page (table.html, served at /t/{id}): connects to
   /ws/{id}, says hello with the seat token from localStorage, reconnects
   after drops, and draws the `state` messages (the whole state, on hello
   and resync) and the `update`s after them (each a patch of the view, the
   new events and the small fields, applied here): the board of The Big Cheese
   or The Great Dalmuti, the controls built only from the `legal` list, the
   players, the log, the rules, the result with rematch. Actions carry the
   `seq` of the state they answer and are never resent blindly. */
(function () {
  'use strict';
  const RR = window.RR;
  const { t, el, $ } = RR;
  const T = (RR.table = { id: RR.pageId(), st: null, log: [], seen: 0, pending: false, sel: [], hand: '', msg: '' });
  // A private table's invite link carries its key (?k=...): keep it for
  // joining and for the invite box, and take it out of the address bar.
  const linkKey = new URLSearchParams(location.search).get('k');
  if (linkKey && T.id) {
    RR.saveKey(T.id, linkKey);
    history.replaceState(null, '', '/t/' + T.id);
  }

  /* ---------- small helpers ---------- */

  const pv = () => (T.st.view && T.st.view.public) || T.st.view || {};
  const isDal = () => pv().hand_number !== undefined;
  const legal = () => T.st.legal || [];
  const has = (a) => legal().includes(a);
  const who = (s) => RR.seatLabel(s, T.st.seats);
  const me = () => T.st.seat;
  const msg = (text) => {
    T.msg = text || '';
    $('msg').textContent = T.msg;
  };

  /** Sends `action` against the state we are showing; one at a time. */
  function act(action) {
    if (T.pending || !T.st) return;
    if (!T.conn.send({ type: 'act', seq: T.st.seq, action })) return msg(t('err.offline'));
    msg('');
    T.pending = true;
    clearTimeout(T.pendTimer);
    T.pendTimer = setTimeout(() => {
      T.pending = false;
      render();
    }, 10000);
    renderControls();
  }

  const btn = (text, action, extra) => el('button', Object.assign({ text, disabled: T.pending, onclick: () => act(action) }, extra || {}));

  /* ---------- messages ---------- */

  /** Adds the state's new events ({kind, ...fields}) to the log. */
  function mergeLog(m) {
    const lines = m.log || [];
    const from = m.log_from || 0;
    if (from > T.log.length) {
      // a gap: ask for the whole log again
      T.conn.restart();
      return;
    }
    T.seen = T.log.length;
    T.log = T.log.slice(0, from).concat(lines);
  }

  /**
   * Applies an `update` to the state shown. One missed (its `rev` is not
   * the next) or one that does not apply: the whole state is asked for
   * once, and updates wait for it.
   */
  function onUpdate(m) {
    if (T.resyncing) return;
    let view;
    try {
      if (!T.st || m.rev !== T.st.rev + 1) throw new Error('missed an update');
      view = RR.applyPatch(T.st.view, m.patch);
    } catch (e) {
      T.resyncing = true;
      T.conn.send({ type: 'resync' });
      return;
    }
    const st = Object.assign({}, T.st, {
      view,
      rev: m.rev,
      seq: m.seq,
      legal: m.legal,
      to_move: m.to_move,
      log_from: m.log_from,
      log: m.log,
      over: m.over,
      started: m.started,
      abandoned: !!m.abandoned,
      outcome: m.outcome === undefined ? null : m.outcome,
      seed: m.seed === undefined ? null : m.seed,
      secret: m.secret,
    });
    if (m.seats) st.seats = m.seats;
    T.updates = (T.updates || 0) + 1;
    onState(st);
  }

  /** The whole state (the answer to hello or resync): updates apply to it again. */
  function onWhole(m) {
    T.resyncing = false;
    onState(m);
  }

  function onState(m) {
    if (T.st && m.seq !== T.st.seq) msg('');
    mergeLog(m);
    T.st = m;
    T.pending = false;
    T.held = false;
    clearTimeout(T.pendTimer);
    const hand = (m.view && m.view.hand) || '';
    if (hand !== T.hand || !legal().length) T.sel = [];
    T.hand = hand;
    render();
  }

  function onError(m) {
    T.pending = false;
    if (m.code === 'bad_token') {
      RR.forgetSeat(T.id);
      T.conn.restart();
    }
    if (m.code === 'unknown_table') T.conn.closed = true;
    msg(m.code === 'stale' ? t('err.stale') : RR.errText(m));
    if (T.st) renderControls();
  }

  function onStatus(s) {
    const c = $('conn');
    c.className = 'status ' + s;
    c.textContent = t('conn.' + s);
  }

  /* ---------- rendering: common ---------- */

  function render() {
    if (!T.st) return;
    $('title').textContent = RR.gameName(isDal() ? 'dalmuti' : 'bigcheese') + ' · ' + T.id;
    renderJoin();
    renderTurn();
    RR.fill('board', isDal() ? dalBoard() : bcBoard());
    renderControls();
    RR.fill('players', isDal() ? dalPlayers() : bcPlayers());
    renderLog();
    renderRules();
    renderResult();
    renderInvite();
  }

  function renderJoin() {
    const free = (T.st.seats || []).filter((s) => s.kind === 'human' && !s.taken);
    const show = !me() && !T.st.over && free.length > 0;
    $('join').classList.toggle('hidden', !show);
    if (!show) return;
    const name = el('input', { value: RR.myName(), maxlength: 24, placeholder: t('lobby.namePh') });
    const err = el('span', { class: 'err' });
    const go = async () => {
      if (!name.value.trim()) return (err.textContent = t('lobby.needName'));
      try {
        await RR.join(T.id, name.value.trim());
        T.conn.restart();
      } catch (e) {
        err.textContent = RR.errText(e);
      }
    };
    RR.fill('join', el('h2', { text: t('table.joinTitle') }), el('p', { text: t('table.joinText', { n: free.length }) }), el('div', { class: 'row' }, name, el('button', { text: t('lobby.join'), onclick: go }), err));
  }

  function renderTurn() {
    const box = $('turn');
    const st = T.st;
    let text;
    if (st.abandoned) text = t('table.abandoned');
    else if (st.over) text = t('table.over');
    else if (legal().length) text = '👉 ' + t('table.yourTurn') + ' ' + phaseHint(true);
    else if (st.to_move) text = t(freeSeat(st.to_move) ? 'table.waitingFree' : 'table.waiting', { who: who(st.to_move) }) + ' ' + phaseHint(false);
    else if (isDal() && pv().phase === 'revolution') text = t('dal.revPending');
    else text = '';
    if (!me() && !st.over) text = '👀 ' + t('table.spectating') + (text ? ' · ' + text : '');
    box.textContent = text;
    box.classList.toggle('hidden', !text);
  }

  /** Whether `seat` is a human seat nobody has joined yet. */
  const freeSeat = (seat) => (T.st.seats || []).some((s) => RR.seatId(s.seat) === RR.seatId(seat) && s.kind === 'human' && !s.taken);

  function phaseHint(mine) {
    if (!isDal()) {
      const p = pv();
      if (p.roll) return t(mine ? 'bc.hintRollMine' : 'bc.hintRoll');
      return p.auction ? t(mine ? 'bc.hintBidMine' : 'bc.hintBid', { card: RR.bcName(p.auction.card) }) : '';
    }
    return t('phase.' + pv().phase);
  }

  function renderControls() {
    const box = $('controls');
    const show = T.st && legal().length > 0 && !T.st.over;
    box.classList.toggle('hidden', !show);
    if (!show) return RR.clear(box);
    const used = new Set();
    const parts = isDal() ? dalControls(used) : bcControls(used);
    const rest = legal().filter((a) => !used.has(a));
    RR.fill('controls', parts, rest.length ? el('div', { class: 'row' }, rest.map((a) => btn(RR.actionWords(a), a, { class: 'alt' }))) : null, T.msg ? el('div', { class: 'err', text: T.msg }) : null);
  }

  /** An event of this table's log in words. */
  const evText = (ev) => RR.eventText(isDal() ? 'dalmuti' : 'bigcheese', ev, T.st.seats);
  const isRoll = (ev) => !isDal() && RR.ROLL_KINDS.includes(ev.kind);

  function renderLog() {
    const ol = $('log');
    RR.clear(ol);
    const start = Math.max(0, T.log.length - 300);
    T.log.slice(start).forEach((ev, k) => {
      const i = start + k;
      const cls = [isRoll(ev) ? 'roll' : '', i >= T.seen && T.seen > 0 ? 'new' : ''].join(' ');
      ol.appendChild(el('li', { class: cls.trim(), value: i + 1, 'data-kind': ev.kind, text: evText(ev) }));
    });
    ol.scrollTop = ol.scrollHeight;
  }

  function renderRules() {
    const game = isDal() ? 'dalmuti' : 'bigcheese';
    const lines = RR.tv('rules.' + game) || [];
    RR.fill('rulesText', el('ul', {}, lines.map((l) => el('li', { text: l }))));
  }

  function renderInvite() {
    const key = RR.key(T.id);
    const url = location.origin + '/t/' + T.id + (key ? '?k=' + encodeURIComponent(key) : '');
    const input = el('input', { value: url, readonly: true, class: 'grow', onfocus: (e) => e.target.select() });
    const copy = () => {
      input.select();
      if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => document.execCommand('copy'));
      else document.execCommand('copy');
    };
    RR.fill('invite', el('h2', { text: t('table.invite') }), el('div', { class: 'row' }, input, el('button', { class: 'alt', text: t('table.copy'), onclick: copy })), fillRows(), el('p', { class: 'mute mono', text: t('table.seedHash') + ' ' + T.st.seed_hash }));
  }

  /** The creator may give a seat whose human never came to a bot. */
  function fillRows() {
    const creator = RR.creator(T.id);
    if (!creator || T.st.over) return null;
    const free = (T.st.seats || []).filter((s) => s.kind === 'human' && !s.taken);
    return free.map((s) => {
      const err = el('span', { class: 'err' });
      const go = async () => {
        try {
          await RR.api('/api/tables/' + encodeURIComponent(T.id) + '/fill', 'POST', { seat: s.seat, creator, bot: 'heuristic' });
        } catch (e) {
          err.textContent = RR.errText(e);
        }
      };
      return el('p', { class: 'row' }, el('span', { text: t('table.fillText', { seat: RR.seatId(s.seat) }) }), el('button', { class: 'alt', text: t('table.fill'), onclick: go }), err);
    });
  }

  function onPresence(m) {
    if (!T.st) return;
    T.st.seats = m.seats;
    render();
  }

  function onNotice(m) {
    T.pending = false;
    T.held = m.code === 'held';
    msg(m.message || '');
    if (T.st) renderControls();
  }

  /* ---------- result and rematch ---------- */

  function renderResult() {
    const st = T.st;
    const box = $('result');
    box.classList.toggle('hidden', !st.over);
    if (!st.over) return;
    const o = st.outcome || pv().outcome || { winners: [], places: [], scores: [] };
    const seats = o.scores.map((_, i) => i).sort((a, b) => o.places[a] - o.places[b]);
    const won = o.winners.map(RR.seatId);
    const head = o.capped ? t('res.capped') : won.length ? t('res.won', { who: won.map(who).join(' & ') }) : t('res.nobody');
    const rows = seats.map((i) => el('tr', { class: won.includes(RR.seatId(i)) ? 'ok' : '' }, el('td', { text: o.places[i] }), el('td', { text: who(i) }), el('td', { text: o.scores[i] })));
    RR.fill(
      'result',
      el('h2', { text: '🏁 ' + head }),
      el('table', { class: 'res' }, el('tr', {}, el('th', { text: t('res.place') }), el('th', { text: t('res.player') }), el('th', { text: t('res.score') })), rows),
      el('p', { class: 'mono' }, st.secret ? [t('res.secret') + ' ' + st.secret, el('br')] : null, t('res.seed') + ' ' + (st.seed || '?'), el('br'), t('table.seedHash') + ' ' + st.seed_hash),
      st.secret && RR.contribution(T.id) ? el('p', { class: 'mute', text: t('res.mine', { c: RR.contribution(T.id).slice(0, 16) + '…' }) }) : null,
      el('p', { class: 'row' }, el('a', { href: '/replay/' + T.id, text: t('res.replay') }), el('a', { href: '/api/tables/' + T.id + '/record', download: 'ratrace-' + T.id + '.json', text: t('res.download') }), el('a', { href: '/verify?id=' + T.id, text: t('res.verify') }), el('a', { href: '/', text: t('res.lobby') })),
      me() ? el('p', { class: 'row' }, el('button', { text: t('res.rematch'), onclick: rematch }), el('span', { id: 'rerr', class: 'err' })) : null
    );
  }

  /** Every player of this table comes along (social.js). */
  const rematch = () => RR.social.rematch(T.id, $('rerr'));

  /* ---------- The Big Cheese ---------- */

  function bcCard(c, big) {
    const sp = c === 'V' || c === 'BC';
    return el('span', { class: 'card' + (sp ? ' sp' : '') + (big ? ' big' : ''), title: RR.bcName(c) }, sp ? (c === 'V' ? '⛔' : '🧀') : c, el('small', { text: sp ? RR.bcName(c) : t('bc.project') }));
  }

  const dice = (d) => el('span', { class: 'dice' }, '🎲 ', (d || []).join(' · '));

  function bcBoard() {
    const p = pv();
    const discards = (p.discards || []).reduce((n, [, k]) => n + k, 0);
    const top = el('div', { class: 'row' }, el('div', { class: 'col' }, el('span', { class: 'mute', text: t('bc.top') }), p.top ? bcCard(p.top, true) : el('span', { text: t('bc.noTop') })), el('div', { class: 'col grow' }, el('span', { text: t('bc.deck', { n: p.deck_size, d: discards }) }), el('span', { text: t('bc.target', { n: p.target }) + (p.options && p.options.exact ? ' ' + t('bc.exact') : '') }), el('span', { class: 'mute', text: t('bc.dice.' + ((p.options && p.options.dice) || 'polyhedral')) })));
    return [el('h2', { text: t('bc.table') }), top, bcAuction(p), bcRoll(p), bcLastRolls()];
  }

  function bcAuction(p) {
    const a = p.auction;
    if (!a) return null;
    const high = a.bidder ? t('bc.high', { n: a.high, who: who(a.bidder) }) : t('bc.noBid');
    const passed = a.passed.length ? t('bc.passed', { who: a.passed.map(who).join(', ') }) : '';
    return el('div', { class: 'box' }, el('b', { text: t('bc.auction', { card: RR.bcName(a.card) }) }), el('div', { text: t('bc.leader', { who: who(a.leader) }) + ' · ' + high }), passed && el('div', { text: passed }), el('div', { text: t('bc.turn', { who: who(a.turn) }) }));
  }

  function bcRoll(p) {
    const r = p.roll;
    const q = p.to_resolve || [];
    if (!r && !q.length) return null;
    return el(
      'div',
      { class: 'banner' },
      r && el('div', {}, t('bc.roll', { who: who(r.owner), card: RR.bcName(r.card) }), ' ', dice(r.dice), ' ', t('bc.pays', { n: r.payout })),
      r && el('div', { class: 'mute', text: t('bc.rollWait', { who: who(r.owner) }) }),
      q.length ? el('div', { class: 'mute', text: t('bc.toResolve', { list: q.map(([s, c]) => RR.bcName(c) + ' (' + who(s) + ')').join(', ') }) }) : null
    );
  }

  /** The latest dice events of the log, as they happen. */
  function bcLastRolls() {
    const rolls = T.log.filter(isRoll).slice(-3);
    if (!rolls.length) return null;
    return el('div', { class: 'box' }, el('h3', { text: '🎲 ' + t('bc.lastRolls') }), rolls.map((ev) => el('div', { text: evText(ev) })));
  }

  function bcPlayers() {
    const p = pv();
    const a = p.auction;
    return (p.seats || []).map((s) => {
      const id = RR.seatId(s.seat);
      const tags = [];
      if (T.st.to_move && RR.seatId(T.st.to_move) === id) tags.push(el('span', { class: 'tag', text: '⏳ ' + t('tag.turn') }));
      if (RR.seatId(p.leader) === id) tags.push(el('span', { class: 'tag', text: t('tag.leader') }));
      if (a && a.bidder && RR.seatId(a.bidder) === id) tags.push(el('span', { class: 'tag', text: t('tag.high', { n: a.high }) }));
      if (a && a.passed.map(RR.seatId).includes(id)) tags.push(el('span', { class: 'tag pass', text: t('tag.passed') }));
      const projects = s.projects.length ? s.projects.map(([c, k]) => el('span', { class: 'proj', title: t('bc.maturesIn', { n: k }) }, bcCard(c), t('bc.chipsOn', { n: k }), ' · ⏳', k)) : el('span', { class: 'mute', text: t('bc.noProjects') });
      const hand = [];
      for (let i = 0; i < s.vetos; i++) hand.push(bcCard('V'));
      for (let i = 0; i < s.cheeses; i++) hand.push(bcCard('BC'));
      const pct = Math.min(100, Math.round((100 * s.score) / (p.target || 1)));
      return el(
        'div',
        { class: playerClass(id) },
        el('div', {}, el('span', { class: 'nm', text: who(id) }), me() && RR.seatId(me()) === id ? el('span', { class: 'tag out', text: t('tag.you') }) : null, conn(id), tags),
        el('div', { text: t('bc.score', { n: s.score, target: p.target, k: s.scored }) }),
        el('div', { class: 'bar' }, el('i', { style: { width: pct + '%' } })),
        el('div', { text: '🐭 ' + t('bc.free', { n: s.free }) + (s.hired ? ' · ' + t('bc.hired', { n: s.hired }) : '') }),
        el('div', {}, el('span', { class: 'mute', text: t('bc.projects') + ' ' }), projects),
        hand.length ? el('div', {}, el('span', { class: 'mute', text: t('bc.hand') + ' ' }), hand) : null
      );
    });
  }

  function playerClass(id) {
    let c = 'player';
    if (T.st.to_move && RR.seatId(T.st.to_move) === id) c += ' turn';
    if (me() && RR.seatId(me()) === id) c += ' me';
    return c;
  }

  function conn(id) {
    const s = (T.st.seats || []).find((x) => RR.seatId(x.seat) === id);
    if (!s || s.kind === 'bot') return null;
    if (!s.taken) return el('span', { class: 'tag', text: t('tag.free') });
    return s.connected ? null : el('span', { class: 'tag pass', text: t('tag.away') });
  }

  function bcControls(used) {
    const L = legal();
    const p = pv();
    const out = [];
    const bids = L.filter((a) => /^bid \d+$/.test(a)).map((a) => Number(a.slice(4)));
    const row = el('div', { class: 'row' });
    if (bids.length) {
      bids.forEach((n) => used.add('bid ' + n));
      const sel = el('select', { 'aria-label': t('bc.bidAmount') }, bids.map((n) => el('option', { value: n, text: n })));
      RR.append(row, [el('label', {}, t('bc.bidAmount'), sel), el('button', { text: t('bc.bid'), disabled: T.pending, onclick: () => act('bid ' + sel.value) }), btn(t('bc.bidMin', { n: bids[0] }), 'bid ' + bids[0], { class: 'alt' })]);
    }
    if (has('pass')) {
      used.add('pass');
      RR.append(row, [btn(t('bc.pass'), 'pass', { class: 'alt' })]);
    }
    if (has('veto')) {
      used.add('veto');
      RR.append(row, [btn('⛔ ' + t('bc.useVeto', { card: RR.bcName(p.auction ? p.auction.card : p.top) }), 'veto')]);
    }
    if (has('keep')) {
      used.add('keep');
      RR.append(row, [btn(t('bc.keep', { n: p.roll ? p.roll.payout : '' }), 'keep')]);
    }
    L.filter((a) => a.startsWith('reroll')).forEach((a) => {
      used.add(a);
      const d = a.slice(7);
      RR.append(row, [btn('🧀 ' + (d ? t('bc.rerollDice', { d }) : t('bc.reroll')), a, { class: 'alt' })]);
    });
    out.push(el('h3', { text: phaseHint(true) }), row);
    return out;
  }

  /* ---------- The Great Dalmuti ---------- */

  const rankOf = (c) => (c === 'J' ? 13 : Number(c));

  function dalCard(c, opts) {
    const cls = 'card' + (c === 'J' ? ' j' : '') + (opts && opts.sel ? ' sel' : '');
    const kids = [c === 'J' ? '🃏' : c, el('small', { text: RR.rankName(c) })];
    if (opts && opts.onclick) return el('button', { class: cls, onclick: opts.onclick, 'aria-pressed': opts.sel ? 'true' : 'false', title: RR.rankName(c) }, kids);
    return el('span', { class: cls, title: RR.rankName(c) }, kids);
  }

  /** Cards of a set "2x7+J" as a list: ["7","7","J"]. */
  function setCards(set) {
    const m = String(set).match(/^(?:(\d+)x)?(\d+|J)(?:\+(\d*)J)?$/);
    if (!m) return [];
    const n = m[1] ? Number(m[1]) : 1;
    const j = m[3] !== undefined ? Number(m[3] || 1) : 0;
    return Array(n).fill(m[2]).concat(Array(j).fill('J'));
  }

  const handCards = () =>
    String((T.st.view && T.st.view.hand) || '')
      .split(/[\s|]+/)
      .filter((x) => x && x !== 'empty');

  const selCards = () => T.sel.map((i) => handCards()[i]).filter(Boolean);

  /** The selection in notation: "3x7", "2x7+J", "J", "2xJ"; null if mixed ranks. */
  function selSet() {
    const cs = selCards();
    const j = cs.filter((c) => c === 'J').length;
    const nat = cs.filter((c) => c !== 'J');
    if (!cs.length || new Set(nat).size > 1) return null;
    if (!nat.length) return j === 1 ? 'J' : j + 'xJ';
    const n = nat.length;
    const base = n === 1 && !j ? nat[0] : n + 'x' + nat[0];
    return base + (j === 1 ? '+J' : j === 2 ? '+2J' : '');
  }

  /** The selection as a gift: "3 12", best first, Jesters last. */
  const selGift = () =>
    selCards()
      .sort((a, b) => rankOf(a) - rankOf(b))
      .join(' ');

  function toggle(i) {
    const k = T.sel.indexOf(i);
    if (k >= 0) T.sel.splice(k, 1);
    else T.sel.push(i);
    renderControls();
  }

  function dalHand(clickable) {
    const cards = handCards();
    if (!cards.length) return el('p', { class: 'mute', text: t('dal.noCards') });
    const groups = [];
    cards.forEach((c, i) => {
      if (!groups.length || groups[groups.length - 1].c !== c) groups.push({ c, items: [] });
      groups[groups.length - 1].items.push(dalCard(c, { sel: T.sel.includes(i), onclick: clickable ? () => toggle(i) : null }));
    });
    return el('div', {}, groups.map((g) => el('span', { class: 'group', title: g.items.length + ' × ' + RR.rankName(g.c) }, g.items)));
  }

  function dalBoard() {
    const p = pv();
    const v = T.st.view || {};
    const o = p.options || {};
    const head = t('dal.handNo', { n: p.hand_number, of: o.hands }) + (o.target ? ' · ' + t('dal.target', { n: o.target }) : '');
    return [el('h2', { text: head }), dalRevolution(p), dalTrick(p), dalExchanges(p, v), v.hand !== undefined && !handInControls() ? el('div', {}, el('h3', { text: t('dal.yourHand') }), dalHand(false)) : null];
  }

  function dalRevolution(p) {
    if (p.revolution === 'declared') return el('div', { class: 'banner', text: '✊ ' + t('dal.revDeclared', { who: who(p.revolution_by) }) });
    if (p.revolution === 'great') return el('div', { class: 'banner', text: '🔄 ' + t('dal.revGreat', { who: who(p.revolution_by) }) });
    if (p.revolution_offered && p.phase !== 'revolution') return el('div', { class: 'mute', text: t('dal.revDeclined') });
    if (!p.taxes && p.phase === 'play') return el('div', { class: 'mute', text: t('dal.noTaxes') });
    return null;
  }

  function dalTrick(p) {
    if (p.phase !== 'play') return null;
    if (!p.trick) return el('div', { class: 'box' }, el('b', { text: t('dal.noTrick') }));
    return el('div', { class: 'box' }, el('div', { class: 'mute', text: t('dal.toBeat', { who: who(p.trick.by) }) }), el('div', {}, setCards(p.trick.play).map((c) => dalCard(c))), el('div', { text: RR.setWords(p.trick.play) }), p.passed.length ? el('div', { class: 'mute', text: t('dal.passedSince', { who: p.passed.map(who).join(', ') }) }) : null);
  }

  function dalExchanges(p, v) {
    const lines = (p.exchanges || []).map((e) => t(e.kind === 'tax' ? 'dal.exTax' : 'dal.exMarket', { from: who(e.from), to: who(e.to), n: e.cards }));
    (v.transfers || []).forEach((x) => {
      const mine = RR.seatId(x.from) === RR.seatId(v.seat);
      lines.push(mine ? t('dal.youGave', { cards: RR.cardsWords(x.cards), to: who(x.to) }) : t('dal.youGot', { cards: RR.cardsWords(x.cards), from: who(x.from) }));
    });
    if (v.pending_gift) lines.push(t('dal.willGive', { cards: RR.cardsWords(v.pending_gift) }));
    if (!lines.length) return null;
    return el('div', { class: 'mute' }, lines.map((l) => el('div', { text: l })));
  }

  function dalPlayers() {
    const p = pv();
    return (p.order || []).map((s, pos) => {
      const id = RR.seatId(s);
      const i = RR.seatIndex(s);
      const role = p.roles[i];
      const tags = [];
      const fin = p.finished.map(RR.seatId).indexOf(id);
      if (fin >= 0) tags.push(el('span', { class: 'tag out', text: t('tag.out', { n: fin + 1 }) }));
      if (p.passed.map(RR.seatId).includes(id)) tags.push(el('span', { class: 'tag pass', text: t('tag.passed') }));
      if (T.st.to_move && RR.seatId(T.st.to_move) === id) tags.push(el('span', { class: 'tag', text: '⏳ ' + t('tag.turn') }));
      return el(
        'div',
        { class: playerClass(id) },
        el('div', {}, el('span', { class: 'nm', text: pos + 1 + '. ' + who(id) }), me() && RR.seatId(me()) === id ? el('span', { class: 'tag out', text: t('tag.you') }) : null, conn(id)),
        el('div', { text: (RR.roleIcon(role) + ' ' + RR.roleName(role)).trim() }),
        el('div', { text: '🂠 ' + t('dal.cardsLeft', { n: p.cards_left[i] }) + ' · ' + t('dal.points', { n: p.scores[i] }) }),
        tags.length ? el('div', {}, tags) : null
      );
    });
  }

  /** Whether the hand is drawn in the controls (cards to pick) rather than on the board. */
  const handInControls = () => !T.st.over && legal().some((a) => /^(play|give) |^market \S+ \S+$/.test(a));

  function dalControls(used) {
    const p = pv();
    const L = legal();
    const out = [el('h3', { text: phaseHint(true) })];
    const plays = L.filter((a) => a.startsWith('play '));
    const gives = L.filter((a) => a.startsWith('give '));
    const markets = L.filter((a) => a.startsWith('market '));
    if (handInControls()) out.push(dalHand(true));
    const row = el('div', { class: 'row' });
    if (plays.length) RR.append(row, [dalPlayButton(plays, used)]);
    if (gives.length) RR.append(row, [dalGiveButton(gives, used, p)]);
    if (markets.length) RR.append(row, [dalMarketButtons(markets, used)]);
    [
      ['pass', 'dal.pass'],
      ['no-market', 'act.noMarket'],
      ['revolution', 'dal.revolution'],
      ['no-revolution', 'dal.noRevolution'],
      ['seat-new above', 'act.seatAbove'],
      ['seat-new below', 'act.seatBelow'],
    ].forEach(([a, k]) => {
      if (!has(a)) return;
      used.add(a);
      RR.append(row, [btn(t(k), a, { class: a === 'pass' || a.startsWith('no-') ? 'alt' : '' })]);
    });
    out.push(row);
    return out;
  }

  function dalPlayButton(plays, used) {
    plays.forEach((a) => used.add(a));
    const set = selSet();
    const ok = set && plays.includes('play ' + set);
    const note = !T.sel.length ? t('dal.pickPlay') : ok ? RR.setWords(set) : t('dal.notLegal');
    return [el('button', { text: t('dal.play'), disabled: T.pending || !ok, onclick: () => act('play ' + set) }), el('span', { class: ok ? 'ok' : 'mute', text: note })];
  }

  function dalGiveButton(gives, used, p) {
    gives.forEach((a) => used.add(a));
    const k = gives[0].split(' ').length - 1;
    const to = p.phase === 'market-return' ? (p.exchanges.find((e) => e.kind === 'market') || {}).from : p.phase === 'greater-tax' ? p.order[p.order.length - 1] : p.order[p.order.length - 2];
    const gift = selGift();
    const ok = gives.includes('give ' + gift);
    return [el('span', { text: t('dal.giveHint', { n: k, who: to ? who(to) : '?' }) }), el('button', { text: t('dal.give'), disabled: T.pending || !ok, onclick: () => act('give ' + gift) }), el('span', { class: ok ? 'ok' : 'mute', text: ok ? RR.cardsWords(gift) : '' })];
  }

  function dalMarketButtons(markets, used) {
    markets.forEach((a) => used.add(a));
    const seats = [...new Set(markets.map((a) => a.split(' ')[1]))];
    const card = selCards().length === 1 ? selCards()[0] : null;
    return seats.map((s) => {
      const black = markets.includes('market ' + s);
      const a = black ? 'market ' + s : 'market ' + s + ' ' + card;
      const ok = black || (card && markets.includes(a));
      return el('button', { text: black ? t('act.blackMarket', { seat: who(s) }) : t('dal.marketTo', { who: who(s) }), disabled: T.pending || !ok, onclick: () => act(a) });
    });
  }

  /* ---------- start ---------- */

  function start() {
    RR.initPage(() => {
      onStatus($('conn').className.split(' ')[1] || 'connecting');
      render();
    });
    if (!T.id) return msg(t('err.noTable'));
    T.conn = RR.connect(T.id, {
      onMessage: (m) => (RR.social && RR.social.onMessage(m), m.type === 'state' ? onWhole(m) : m.type === 'update' ? onUpdate(m) : m.type === 'error' ? onError(m) : m.type === 'presence' ? onPresence(m) : m.type === 'notice' ? onNotice(m) : null),
      onStatus,
    });
  }

  /* ---------- for the replay page ---------- */

  /**
   * The board and the players of any state (the replay's positions, drawn
   * as a spectator sees them), with this page's own renderers.
   */
  RR.tableBoard = function (st) {
    T.st = st;
    T.log = st.log || [];
    return { board: isDal() ? dalBoard() : bcBoard(), players: isDal() ? dalPlayers() : bcPlayers() };
  };

  // The replay page borrows the renderers; it has no table to connect to.
  if (document.body.dataset.page !== 'replay') RR.boot(start);
})();
