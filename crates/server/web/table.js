/* ratrace table page (table.html, served at /t/{id}): connects to
   /ws/{id}, says hello with the seat token from localStorage, reconnects
   after drops, and draws the `state` messages (the whole state, on hello
   and resync) and the `update`s after them (each a patch of the view, the
   new events and the small fields, applied here).

   The page is a game table: the seats around a felt (names, roles, bot
   levels, what each just did), the cards, chips and dice in the middle,
   and the player's own hand and controls below, built only from the
   `legal` list. Every state is drawn whole and put on the page with
   RR.morph (app.js), which updates in place: focus, a chosen card, the
   dice picked for a re-roll and a half-typed name survive other players'
   moves. Only what concerns this player is announced to screen readers
   (#announce); the log is not a live region. Actions carry the `seq` of
   the state they answer and are never resent blindly. */
(function () {
  'use strict';
  const RR = window.RR;
  const { t, el, $ } = RR;
  const T = (RR.table = { id: RR.pageId(), st: null, log: [], seen: 0, pending: false, sel: [], dsel: [], dkey: '', hand: '', msg: '', cursor: 0, bid: null, mine: false, started: null, turnAt: 0, info: null });
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
  const isMe = (id) => me() != null && RR.seatId(me()) === RR.seatId(id);
  const msg = (text) => {
    T.msg = text || '';
    $('msg').textContent = T.msg;
  };
  /** The human seats nobody has taken yet. */
  const freeSeats = () => (T.st.seats || []).filter((s) => s.kind === 'human' && !s.taken);
  /** Before the game starts: a human seat is still free. */
  const waiting = () => !T.st.over && !T.st.started && freeSeats().length > 0;
  /** Whether this page's player has a decision to make now. */
  const myTurn = () => !T.st.over && legal().length > 0;
  const toMove = (id) => T.st.started !== false && !T.st.over && T.st.to_move != null && RR.seatId(T.st.to_move) === RR.seatId(id);

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
    renderMine();
  }

  const btn = (text, action, extra) => el('button', Object.assign({ text, disabled: T.pending, onclick: () => act(action) }, extra || {}));

  /** Says `text` to a screen reader (the polite live region), once. */
  function announce(text) {
    const box = $('announce');
    if (!box || !text) return;
    // what comes in one burst of updates is said together, not overwritten
    T.say = (T.say ? T.say + ' ' : '') + text;
    T.said = (T.said || []).concat(text).slice(-20);
    box.textContent = '';
    clearTimeout(T.sayTimer);
    T.sayTimer = setTimeout(() => {
      box.textContent = T.say;
      T.say = '';
    }, 50);
  }

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
    // a rematch's contribution goes with hello: the commitment shown with it is kept too
    if (RR.contribution(T.id)) RR.saveCommitment(T.id, m.seed_hash);
    onState(m);
    // after a reload mid-turn the timer goes on from what the server says is left
    if (m.turn_left_ms != null && T.info && T.info.turn_timer_ms) T.turnAt = Date.now() - (T.info.turn_timer_ms - m.turn_left_ms);
    else if (m.turn_left_ms != null) T.leftAtWhole = { left: m.turn_left_ms, at: Date.now() };
    tickTimer();
  }

  /** Redraws the turn timer's text alone (every second, and when its start is corrected). */
  function tickTimer() {
    const n = $('timer');
    if (n) n.textContent = timerText();
  }

  function onState(m) {
    if (T.st && m.seq !== T.st.seq) msg('');
    mergeLog(m);
    // A new decision point: the turn timer starts again.
    if (!T.st || m.seq !== T.st.seq) {
      T.turnAt = Date.now();
      T.bid = null; // the bid control starts at the lowest legal bid
    }
    T.st = m;
    T.pending = false;
    T.held = false;
    clearTimeout(T.pendTimer);
    const hand = (m.view && m.view.hand) || '';
    if (hand !== T.hand) T.sel = [];
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
    if (T.st) renderMine();
  }

  function onStatus(s) {
    const c = $('conn');
    c.className = 'status ' + s;
    c.textContent = t('conn.' + s);
  }

  /* ---------- rendering: common ---------- */

  function render() {
    if (!T.st) return;
    const mine = $('mine');
    const hadFocus = mine.contains(document.activeElement);
    $('title').textContent = RR.gameName(isDal() ? 'dalmuti' : 'bigcheese');
    $('skip').classList.toggle('hidden', me() == null || T.st.over);
    renderWaiting();
    renderJoin();
    renderTurn();
    RR.fill('board', isDal() ? dalBoard() : bcBoard());
    RR.fill('players', drawSeats());
    renderMine();
    renderLog();
    renderRules();
    renderResult();
    renderInvite();
    renderAlerts();
    turnAlert();
    // The focused card or button was played or went away: focus stays in
    // the player's own area instead of falling back to the page.
    const fell = !document.activeElement || document.activeElement === document.body;
    if (hadFocus && fell) focusMine();
  }

  /** Focus into the player's own area: the card under the cursor, else its first control. */
  function focusMine() {
    const cards = $('mine').querySelectorAll('.hand button.card');
    if (cards.length) {
      T.cursor = Math.min(T.cursor, cards.length - 1);
      return cards[T.cursor].focus();
    }
    const b = $('mine').querySelector('button:not(:disabled), input');
    (b || $('mine')).focus();
  }

  /** Seat ids around the table: from the player's left, the player last (at the bottom). */
  function seatsInOrder() {
    const p = pv();
    const ids = isDal() ? (p.order || []).map(RR.seatId) : (p.seats || []).map((s) => RR.seatId(s.seat));
    const k = ids.findIndex(isMe);
    return k < 0 ? ids : ids.slice(k + 1).concat(ids.slice(0, k + 1));
  }

  /** The waiting room: until every human seat is taken, the invite is at the top. */
  function renderWaiting() {
    const show = waiting();
    $('waiting').classList.toggle('hidden', !show);
    if (!show) return RR.fill('waiting');
    const n = freeSeats().length;
    RR.fill('waiting', el('h2', { text: '⏳ ' + t('table.waitPlayers', { n }) }), el('p', { text: t('table.waitText') }), inviteRow(), fillRows());
  }

  function renderJoin() {
    const free = freeSeats();
    const show = me() == null && !T.st.over && free.length > 0;
    $('join').classList.toggle('hidden', !show);
    if (!show) return RR.fill('join');
    const name = el('input', { id: 'joinName', value: RR.myName(), maxlength: 24, placeholder: t('lobby.namePh'), autocomplete: 'nickname' });
    const err = el('span', { class: 'err', id: 'joinErr' });
    const go = async () => {
      const typed = RR.live(name).value.trim();
      if (!typed) return ($('joinErr').textContent = t('lobby.needName'));
      try {
        await RR.join(T.id, typed);
        T.conn.restart();
      } catch (e) {
        $('joinErr').textContent = RR.errText(e);
      }
    };
    RR.fill('join', el('h2', { text: t('table.joinTitle') }), el('p', { text: t('table.joinText', { n: free.length }) }), el('div', { class: 'row' }, el('label', { for: 'joinName', class: 'sr', text: t('lobby.name') }), name, el('button', { text: t('lobby.join'), onclick: go }), err));
  }

  function renderTurn() {
    const st = T.st;
    let text;
    if (st.abandoned) text = t('table.abandoned');
    else if (st.over) text = t('table.over');
    else if (waiting()) text = ''; // the waiting room above says it, with the invite
    else if (myTurn()) text = '👉 ' + t('table.yourTurn'); // the prompt itself heads the player's own area
    else if (st.to_move) text = t('table.waiting', { who: who(st.to_move) }) + ' ' + othersHint();
    else if (isDal() && pv().phase === 'revolution') text = t('dal.revPending');
    else text = '';
    if (me() == null && !st.over) text = '👀 ' + t('table.spectating') + (text ? ' · ' + text : '');
    const timer = timerText();
    RR.fill('turn', el('span', { text }), timer ? el('span', { id: 'timer', class: 'timer', title: t('table.timerHint'), text: timer }) : null);
    $('turn').classList.toggle('hidden', !text);
    $('turn').classList.toggle('mine', myTurn());
  }

  /** The turn timer (when the table has one): time left before a bot plays the seat to move. */
  function timerText() {
    const ms = T.info && T.info.turn_timer_ms;
    if (!ms || !T.st || T.st.over || waiting() || !T.st.to_move) return '';
    const left = Math.max(0, Math.ceil((T.turnAt + ms - Date.now()) / 1000));
    return '⏱ ' + Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
  }

  /** What the others are doing, when it is not this player's turn. */
  function othersHint() {
    const p = pv();
    if (!isDal()) {
      if (p.roll) return t('bc.hintRoll');
      return p.auction ? t('bc.hintBid', { card: RR.bcName(p.auction.card) }) : '';
    }
    return p.phase === 'play' ? '' : t('phase.' + p.phase);
  }

  /** This player's decision, in words written for the moment. */
  function prompt() {
    const p = pv();
    if (!isDal()) {
      if (p.roll) {
        const vars = { card: RR.bcName(p.roll.card), n: p.roll.payout };
        if (legal().some((a) => a.startsWith('reroll '))) return t('bc.promptDice', vars);
        return t(has('reroll') ? 'bc.promptRoll' : 'bc.promptKeep', vars);
      }
      const a = p.auction;
      if (!a) return '';
      const bids = bidList();
      const card = RR.bcName(a.card);
      let s;
      if (!bids.length) s = a.bidder ? t('bc.promptCannot', { who: who(a.bidder), high: a.high }) : t('bc.promptNoChips');
      else if (a.bidder) s = t('bc.promptOutbid', { who: who(a.bidder), high: a.high, n: bids[0] });
      else s = t('bc.promptOpen', { card, n: bids[0] });
      if (has('veto')) s += ' ' + t('bc.promptVeto', { card });
      return s;
    }
    switch (p.phase) {
      case 'play':
        return p.trick ? t('dal.promptFollow', { set: RR.setWords(p.trick.play), n: setCards(p.trick.play).length }) : t('dal.promptLead');
      case 'greater-tax':
      case 'lesser-tax':
      case 'market-return': {
        const gives = legal().filter((a) => a.startsWith('give '));
        if (!gives.length) return t('phase.' + p.phase);
        const to = giveTarget(p);
        return t('dal.giveHint', { n: gives[0].split(' ').length - 1, who: to ? who(to) : '?' });
      }
      default:
        return t('phase.' + p.phase);
    }
  }

  /** The turn alert: the tab title, an announcement, an optional sound and notification. */
  function turnAlert() {
    const now = myTurn();
    const base = RR.gameName(isDal() ? 'dalmuti' : 'bigcheese') + ' · ratrace';
    document.title = (now ? '● ' + t('alert.title') + ' · ' : '') + base;
    const started = !waiting();
    const say = [];
    if (T.started === false && started && !T.st.over) say.push(t('table.started'));
    T.started = started;
    if (now && !T.mine) {
      say.push(t('table.yourTurn') + ' ' + prompt());
      if (pref('sound')) beep();
      if (pref('notify') && document.hidden && window.Notification && Notification.permission === 'granted') {
        try {
          new Notification(t('alert.title'), { body: prompt(), tag: 'ratrace-' + T.id });
        } catch (e) {
          /* notifications refused by the browser */
        }
      }
    }
    if (T.st.over && T.wasOver === false) say.push(resultHead());
    T.wasOver = !!T.st.over;
    T.mine = now;
    if (say.length) announce(say.join(' '));
  }

  const pref = (k) => localStorage.getItem('ratrace.alert.' + k) === '1';

  function beep() {
    try {
      const C = window.AudioContext || window.webkitAudioContext;
      T.audio = T.audio || new C();
      const a = T.audio;
      const o = a.createOscillator();
      const g = a.createGain();
      o.frequency.value = 660;
      g.gain.setValueAtTime(0.08, a.currentTime);
      g.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + 0.3);
      o.connect(g).connect(a.destination);
      o.start();
      o.stop(a.currentTime + 0.3);
    } catch (e) {
      /* no audio here */
    }
  }

  /** The alert switches, for a seated player. */
  function renderAlerts() {
    const show = me() != null && !T.st.over;
    $('alerts').classList.toggle('hidden', !show);
    if (!show) return RR.fill('alerts');
    const box = (k, text, onOn) =>
      el(
        'label',
        {},
        el('input', {
          type: 'checkbox',
          checked: pref(k),
          onchange: (e) => {
            localStorage.setItem('ratrace.alert.' + k, e.target.checked ? '1' : '0');
            if (e.target.checked && onOn) onOn();
          },
        }),
        ' ' + text
      );
    const askNotify = () => {
      if (window.Notification && Notification.permission === 'default') Notification.requestPermission();
    };
    RR.fill('alerts', el('span', { class: 'mute', text: t('alert.onMyTurn') }), box('sound', t('alert.sound'), beep), window.Notification ? box('notify', t('alert.notify'), askNotify) : null);
  }

  /** Controls for whatever is legal and not drawn by the game's own controls. */
  function rest(used) {
    const left = legal().filter((a) => !used.has(a));
    return left.length ? el('div', { class: 'row' }, left.map((a) => btn(RR.actionWords(a), a, { class: 'alt' }))) : null;
  }

  /** The player's own area: the hand and the controls, always in the same place. */
  function renderMine() {
    const box = $('mine');
    if (!T.st || me() == null || T.st.over || waiting()) {
      box.classList.add('hidden');
      return RR.fill('mine');
    }
    box.classList.remove('hidden');
    const used = new Set();
    const parts = isDal() ? dalMine(used) : bcMine(used);
    const turn = myTurn();
    RR.fill('mine', el('h2', { class: turn ? 'turn' : '', text: turn ? '👉 ' + prompt() : t('table.yours') }), parts, turn ? rest(used) : null, T.msg ? el('div', { class: 'err', text: T.msg }) : null);
  }

  /** An event of this table's log in words. */
  const evText = (ev) => RR.eventText(isDal() ? 'dalmuti' : 'bigcheese', ev, T.st.seats);
  const isRoll = (ev) => !isDal() && RR.ROLL_KINDS.includes(ev.kind);

  /** The log: new lines are appended, old ones kept (no redraw, no announcements). */
  function renderLog() {
    const ol = $('log');
    const start = Math.max(0, T.log.length - 300);
    const items = T.log.slice(start).map((ev, k) => {
      const i = start + k;
      const cls = [isRoll(ev) ? 'roll' : '', i >= T.seen && T.seen > 0 ? 'new' : ''].join(' ');
      return el('li', { class: cls.trim(), value: i + 1, 'data-k': String(i), 'data-kind': ev.kind, text: evText(ev) });
    });
    const atEnd = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 30;
    RR.morph(ol, items);
    if (atEnd) ol.scrollTop = ol.scrollHeight;
  }

  function renderRules() {
    const game = isDal() ? 'dalmuti' : 'bigcheese';
    const lines = RR.tv('rules.' + game) || [];
    RR.fill('rulesText', el('ul', {}, lines.map((l) => el('li', { text: l }))));
  }

  /** The invite link and its copy button. */
  function inviteRow() {
    const key = RR.key(T.id);
    const url = location.origin + '/t/' + T.id + (key ? '?k=' + encodeURIComponent(key) : '');
    const input = el('input', { id: 'inviteUrl', value: url, readonly: true, class: 'grow', onfocus: (e) => e.target.select() });
    const copy = () => {
      const live = $('inviteUrl');
      live.select();
      if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => document.execCommand('copy'));
      else document.execCommand('copy');
    };
    return el('div', { class: 'row' }, el('label', { for: 'inviteUrl', class: 'sr', text: t('table.invite') }), input, el('button', { class: 'alt', text: t('table.copy'), onclick: copy }));
  }

  /** At the bottom: the link to share for watching, while the game runs, and the commitment. */
  function renderInvite() {
    const share = !T.st.over && !waiting();
    RR.fill('invite', share ? [el('h2', { text: t('table.share') }), inviteRow()] : null, el('p', { class: 'mute mono', text: t('table.seedHash') + ' ' + T.st.seed_hash }));
  }

  /** The creator may give a seat whose human never came to a bot. */
  function fillRows() {
    const creator = RR.creator(T.id);
    if (!creator || T.st.over) return null;
    return freeSeats().map((s) => {
      const err = el('span', { class: 'err' });
      const go = async (e) => {
        try {
          await RR.api('/api/tables/' + encodeURIComponent(T.id) + '/fill', 'POST', { seat: s.seat, creator, bot: 'heuristic' });
        } catch (x) {
          e.target.parentNode.querySelector('.err').textContent = RR.errText(x);
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
    if (T.st) renderMine();
  }

  /* ---------- seats ---------- */

  /** The table's seat entry (kind, bot, taken, connected) for a seat id. */
  const seatInfo = (id) => (T.st.seats || []).find((x) => RR.seatId(x.seat) === RR.seatId(id));

  /** A seat's head line: name, "you", bot level, presence. */
  function seatHead(id, extra) {
    const s = seatInfo(id);
    const tags = [];
    if (isMe(id)) tags.push(el('span', { class: 'tag you', text: t('tag.you') }));
    if (s && s.kind === 'bot' && s.bot) tags.push(el('span', { class: 'tag bot', text: '🤖 ' + RR.botLevel(s.bot) }));
    if (s && s.kind === 'human' && !s.taken) tags.push(el('span', { class: 'tag', text: t('tag.free') }));
    else if (s && s.kind === 'human' && !s.connected) tags.push(el('span', { class: 'tag pass', text: t('tag.away') }));
    if (toMove(id)) tags.push(el('span', { class: 'tag turn', text: '⏳ ' + t('tag.turn') }));
    return el('div', { class: 'head' }, el('span', { class: 'nm', text: (extra || '') + who(id) }), tags);
  }

  function seatClass(id) {
    let c = 'seat';
    if (toMove(id)) c += ' turn';
    if (isMe(id)) c += ' me';
    return c;
  }

  // Counts that change (chips, score, cards left) are keyed by their value:
  // a new value is a new node, and the CSS plays its change on it.

  /**
   * What each seat did last in the current auction or trick, from the log:
   * seat id → event. The log is read back to the start of the auction
   * (Big Cheese) or of the trick (Dalmuti).
   */
  function lastActs() {
    const out = {};
    const acts = isDal() ? ['play', 'pass', 'out'] : ['bid', 'pass', 'veto'];
    const stop = isDal() ? ['leads', 'deal', 'hand-over'] : ['auction', 'take', 'all-pass'];
    for (let i = T.log.length - 1; i >= 0; i--) {
      const ev = T.log[i];
      if (stop.includes(ev.kind)) break;
      if (acts.includes(ev.kind) && ev.seat != null && !out[RR.seatId(ev.seat)]) out[RR.seatId(ev.seat)] = ev;
    }
    return out;
  }

  /** Every seat's tile, in order around the table; the log is read once for all of them. */
  function drawSeats() {
    const acts = lastActs();
    return seatsInOrder().map((id) => (isDal() ? dalSeat(id, acts) : bcSeat(id, acts)));
  }

  /** The speech bubble by a seat: its bid, its pass, the set it played. */
  function bubble(ev) {
    if (!ev) return null;
    let body;
    if (ev.kind === 'bid') body = t('act.bid', { n: ev.amount });
    else if (ev.kind === 'pass') body = t('act.pass');
    else if (ev.kind === 'veto') body = '⛔ ' + t('act.veto');
    else if (ev.kind === 'play') body = el('span', { class: 'mini' }, setCards(ev.play).map((c) => dalCard(c, { mini: true })), ' ', RR.setWords(ev.play));
    else if (ev.kind === 'out') body = t('tag.out', { n: ev.place });
    return el('div', { class: 'bubble' + (ev.kind === 'pass' ? ' pass' : ''), 'data-k': ev.kind + ':' + T.log.indexOf(ev) }, body);
  }

  /* ---------- result and rematch ---------- */

  function outcome() {
    return T.st.outcome || pv().outcome || { winners: [], places: [], scores: [] };
  }

  function resultHead() {
    const o = outcome();
    const won = o.winners.map(RR.seatId);
    return o.capped ? t('res.capped') : won.length ? t('res.won', { who: won.map(who).join(' & ') }) : t('res.nobody');
  }

  function renderResult() {
    const st = T.st;
    const box = $('result');
    box.classList.toggle('hidden', !st.over);
    if (!st.over) return RR.fill('result');
    const o = outcome();
    const seats = o.scores.map((_, i) => i).sort((a, b) => o.places[a] - o.places[b]);
    const won = o.winners.map(RR.seatId);
    const rows = seats.map((i) => el('tr', { class: won.includes(RR.seatId(i)) ? 'ok' : '' }, el('td', { text: o.places[i] }), el('td', { text: who(i) }), el('td', { text: o.scores[i] })));
    RR.fill(
      'result',
      el('h2', { text: '🏁 ' + resultHead() }),
      el('table', { class: 'res' }, el('tr', {}, el('th', { scope: 'col', text: t('res.place') }), el('th', { scope: 'col', text: t('res.player') }), el('th', { scope: 'col', text: t('res.score') })), rows),
      el('p', { class: 'mono' }, st.secret ? [t('res.secret') + ' ' + st.secret, el('br')] : null, t('res.seed') + ' ' + (st.seed || '?'), el('br'), t('table.seedHash') + ' ' + st.seed_hash),
      st.secret && RR.contribution(T.id) ? el('p', { class: 'mute', text: t('res.mine', { c: RR.contribution(T.id).slice(0, 16) + '…' }) }) : null,
      el('p', { class: 'row' }, el('a', { href: '/replay/' + T.id, text: t('res.replay') }), el('a', { href: '/api/tables/' + T.id + '/record', download: 'ratrace-' + T.id + '.json', text: t('res.download') }), el('a', { href: '/verify?id=' + T.id, text: t('res.verify') }), el('a', { href: '/', text: t('res.lobby') })),
      me() != null ? el('p', { class: 'row' }, el('button', { text: t('res.rematch'), onclick: rematch }), el('span', { id: 'rerr', class: 'err' })) : null
    );
  }

  /** Every player of this table comes along (social.js). */
  const rematch = () => RR.social.rematch(T.id, $('rerr'));

  /* ---------- The Big Cheese ---------- */

  function bcCard(c, big) {
    const sp = c === 'V' || c === 'BC';
    const name = RR.bcName(c);
    return el(
      'span',
      { class: 'card bc' + (sp ? ' sp' : '') + (big ? ' big' : ''), role: 'img', 'aria-label': sp ? name : t('bc.projectCard', { n: c }) },
      el('b', { class: 'ix', text: sp ? (c === 'V' ? '⛔' : '🧀') : c }),
      ' ',
      el('small', { text: sp ? name : t('bc.project') })
    );
  }

  /** The die a roll uses: the card's own (polyhedral), else d6. */
  const dieSides = (card) => (((pv().options || {}).dice || 'polyhedral') === 'polyhedral' ? Number(card) || 6 : 6);

  /** One die: its face and size; a button when it can be picked for a re-roll. */
  function die(face, sides, opts) {
    const o = opts || {};
    // the visible text is the name ("5 d6"): no label that could differ from it
    const kids = [el('b', { text: face }), ' ', el('small', { text: 'd' + sides })];
    const label = t('bc.die', { face, sides });
    const cls = 'die' + (o.sel ? ' sel' : '') + (o.fresh ? ' rolling' : '');
    if (o.onclick) return el('button', { class: cls, 'aria-pressed': o.sel ? 'true' : 'false', title: label, 'data-k': o.key, onclick: o.onclick }, kids);
    return el('span', { class: cls, role: 'img', 'aria-label': label, 'data-k': o.key }, kids);
  }

  function bcBoard() {
    const p = pv();
    const discards = (p.discards || []).reduce((n, [, k]) => n + k, 0);
    const a = p.auction;
    const top = el(
      'div',
      { class: 'row center-row' },
      el('div', { class: 'col deck' }, el('span', { class: 'mute', text: t('bc.top') }), p.top ? bcCard(p.top, true) : el('span', { text: t('bc.noTop') })),
      el(
        'div',
        { class: 'col grow' },
        a ? el('b', { text: t('bc.auction', { card: RR.bcName(a.card) }) }) : null,
        a ? el('div', { class: 'bidline', text: a.bidder ? t('bc.high', { n: a.high, who: who(a.bidder) }) : t('bc.noBid') }) : null,
        el('span', { class: 'mute', text: t('bc.deck', { n: p.deck_size }) + ' · ' + t('bc.discards', { n: discards }) }),
        el('span', { class: 'mute', text: t('bc.target', { n: p.target }) + (p.options && p.options.exact ? ' ' + t('bc.exact') : '') }),
        el('span', { class: 'mute', text: t('bc.dice.' + ((p.options && p.options.dice) || 'polyhedral')) })
      )
    );
    return [top, bcRoll(p), bcLastRolls()];
  }

  /** The roll on the table; its owner picks dice to re-roll in their own area. */
  function bcRoll(p) {
    const r = p.roll;
    const q = p.to_resolve || [];
    if (!r && !q.length) return null;
    const key = rollKey();
    const sides = r ? dieSides(r.card) : 6;
    return el(
      'div',
      { class: 'roll box' },
      r && el('div', {}, t('bc.roll', { who: who(r.owner), card: RR.bcName(r.card) }), ' ', el('b', { text: t('bc.pays', { n: r.payout }) })),
      r && !isMe(r.owner) ? el('div', { class: 'dice' }, r.dice.map((d, i) => die(d, sides, { key: key + ':' + i, fresh: true }))) : null,
      r && !isMe(r.owner) ? el('div', { class: 'mute', text: t('bc.rollWait', { who: who(r.owner) }) }) : null,
      q.length ? el('div', { class: 'mute', text: t('bc.toResolve', { list: q.map(([s, c]) => RR.bcName(c) + ' (' + who(s) + ')').join(', ') }) }) : null
    );
  }

  /** Identifies the roll shown (a new roll, a re-roll): new dice nodes roll, old ones stay. */
  function rollKey() {
    let n = 0;
    T.log.forEach((ev, i) => {
      if (ev.kind === 'roll' || ev.kind === 'reroll') n = i;
    });
    return 'r' + n;
  }

  /** The latest dice events of the log, as they happen. */
  function bcLastRolls() {
    const rolls = T.log.filter(isRoll).slice(-3);
    if (!rolls.length) return null;
    return el('div', { class: 'box last' }, el('h3', { text: '🎲 ' + t('bc.lastRolls') }), rolls.map((ev) => el('div', { text: evText(ev) })));
  }

  function bcSeat(id, acts) {
    const p = pv();
    const s = (p.seats || []).find((x) => RR.seatId(x.seat) === id);
    if (!s) return null;
    const a = p.auction;
    const tags = [];
    if (a && RR.seatId(a.leader) === id) tags.push(el('span', { class: 'tag', text: t('tag.leader') }));
    if (a && a.bidder && RR.seatId(a.bidder) === id) tags.push(el('span', { class: 'tag hi', text: t('tag.high', { n: a.high }) }));
    // a pass shows in the seat's bubble; without a log (the replay) as a tag
    if (a && a.passed.map(RR.seatId).includes(id) && !acts[id]) tags.push(el('span', { class: 'tag pass', text: t('tag.passed') }));
    const projects = s.projects.map(([c, k]) => el('span', { class: 'proj', title: t('bc.maturesIn', { n: k }), 'data-k': c }, bcCard(c), el('span', { class: 'chips', 'aria-label': t('bc.chipsOn', { n: k }), 'data-k': 'k' + k }, '🐭', el('b', { text: k }))));
    const hand = [];
    for (let i = 0; i < s.vetos; i++) hand.push(bcCard('V'));
    for (let i = 0; i < s.cheeses; i++) hand.push(bcCard('BC'));
    const pct = Math.min(100, Math.round((100 * s.score) / (p.target || 1)));
    return el(
      'div',
      { class: seatClass(id), 'data-seat': id, 'data-k': id },
      seatHead(id),
      tags.length ? el('div', {}, tags) : null,
      bubble(acts[id]),
      el('div', { class: 'score', 'data-k': 's' + s.score, text: t('bc.score', { n: s.score, target: p.target, k: s.scored }) }),
      el('div', { class: 'bar', role: 'presentation' }, el('i', { style: { width: pct + '%' } })),
      el('div', { class: 'chipline', 'data-k': 'f' + s.free }, '🐭 ', t('bc.free', { n: s.free }), s.hired ? ' · ' + t('bc.hired', { n: s.hired }) : ''),
      projects.length ? el('div', { class: 'projects' }, projects) : null,
      hand.length ? el('div', { class: 'specials' }, el('span', { class: 'mute', text: t('bc.hand') + ' ' }), hand) : null
    );
  }

  /** The legal bids, lowest first. */
  const bidList = () =>
    legal()
      .filter((a) => /^bid \d+$/.test(a))
      .map((a) => Number(a.slice(4)))
      .sort((a, b) => a - b);

  /** The player's own Big Cheese area: one bid control, pass, veto, and the dice to re-roll. */
  function bcMine(used) {
    const p = pv();
    const out = [];
    const bids = bidList();
    if (bids.length) {
      bids.forEach((n) => used.add('bid ' + n));
      const lo = bids[0];
      const hi = bids[bids.length - 1];
      if (T.bid == null || T.bid < lo || T.bid > hi) T.bid = lo;
      const set = (v) => {
        T.bid = Math.max(lo, Math.min(hi, v));
        renderMine();
      };
      const ok = bids.includes(T.bid);
      out.push(
        el(
          'div',
          { class: 'row bid', role: 'group', 'aria-label': t('bc.bidAmount') },
          el('button', { class: 'alt step', 'aria-label': t('bc.less'), disabled: T.pending || T.bid <= lo, onclick: () => set(T.bid - 1) }, '−'),
          el('input', { id: 'bidN', type: 'number', min: lo, max: hi, step: 1, value: String(T.bid), 'aria-label': t('bc.bidAmount'), oninput: (e) => (T.bid = Number(e.target.value)), onchange: (e) => set(Number(e.target.value)), onkeydown: (e) => e.key === 'Enter' && ok && act('bid ' + T.bid) }),
          el('button', { class: 'alt step', 'aria-label': t('bc.more'), disabled: T.pending || T.bid >= hi, onclick: () => set(T.bid + 1) }, '+'),
          el('button', { id: 'bidGo', disabled: T.pending || !ok, onclick: () => act('bid ' + T.bid) }, t('bc.bidMin', { n: T.bid }))
        )
      );
    }
    const row = el('div', { class: 'row' });
    if (has('pass')) {
      used.add('pass');
      RR.append(row, [btn(t('bc.pass'), 'pass', { class: 'alt' })]);
    }
    if (has('veto')) {
      used.add('veto');
      RR.append(row, [btn('⛔ ' + t('bc.useVeto', { card: RR.bcName(p.auction ? p.auction.card : p.top) }), 'veto')]);
    }
    if (p.roll && isMe(p.roll.owner)) out.push(myDice(p.roll, used));
    if (has('keep')) {
      used.add('keep');
      RR.append(row, [btn(t('bc.keep', { n: p.roll ? p.roll.payout : '' }), 'keep')]);
    }
    if (has('reroll')) {
      used.add('reroll');
      RR.append(row, [btn('🧀 ' + t('bc.reroll'), 'reroll', { class: 'alt' })]);
    }
    out.push(row);
    const s = (p.seats || []).find((x) => isMe(x.seat));
    if (s && (s.vetos || s.cheeses)) {
      const hand = [];
      for (let i = 0; i < s.vetos; i++) hand.push(bcCard('V'));
      for (let i = 0; i < s.cheeses; i++) hand.push(bcCard('BC'));
      out.push(el('div', { class: 'specials' }, el('span', { class: 'mute', text: t('bc.hand') + ' ' }), hand));
    }
    return out;
  }

  /**
   * The player's own roll: the dice drawn, and when a Big Cheese may
   * re-roll some of them, each die a toggle; one button re-rolls the
   * picked dice. Never more controls than dice (20 at most).
   */
  function myDice(r, used) {
    const key = rollKey();
    if (T.dkey !== key) {
      T.dkey = key;
      T.dsel = [];
    }
    const faces = legal().filter((a) => a.startsWith('reroll '));
    faces.forEach((a) => used.add(a));
    const sides = dieSides(r.card);
    const pick = faces.length > 0 && !T.pending;
    const toggle = (i) => {
      const k = T.dsel.indexOf(i);
      if (k >= 0) T.dsel.splice(k, 1);
      else T.dsel.push(i);
      renderMine();
    };
    const chosen = T.dsel.map((i) => r.dice[i]).sort((a, b) => a - b);
    const action = 'reroll ' + chosen.join(',');
    const ok = chosen.length > 0 && faces.includes(action);
    const dice = r.dice.map((d, i) => die(d, sides, { key: key + ':' + i, sel: T.dsel.includes(i), fresh: true, onclick: pick ? () => toggle(i) : null }));
    return el(
      'div',
      { class: 'roll mine' },
      el('div', { class: 'dice', role: pick ? 'group' : null, 'aria-label': t('bc.yourDice') }, dice),
      faces.length
        ? el(
            'div',
            { class: 'row' },
            el('button', { class: 'alt', disabled: T.pending || !ok, onclick: () => act(action) }, '🧀 ' + t('bc.rerollPicked', { n: chosen.length })),
            el('span', { class: ok ? 'ok' : 'mute', text: !chosen.length ? t('bc.pickDice') : ok ? '' : t('bc.diceNotLegal') })
          )
        : null
    );
  }

  /* ---------- The Great Dalmuti ---------- */

  const rankOf = (c) => (c === 'J' ? 13 : Number(c));

  function dalCard(c, opts) {
    const o = opts || {};
    const cls = 'card dal r' + (c === 'J' ? 'j' : c) + (o.sel ? ' sel' : '') + (o.mini ? ' mini' : '');
    const name = RR.rankName(c);
    const label = c === 'J' ? name : c + ' ' + name;
    const kids = [el('b', { class: 'ix', text: c === 'J' ? '🃏' : c }), o.mini || c === 'J' ? null : el('i', { class: 'emb', 'aria-hidden': 'true', text: RR.rankIcon(c) }), o.mini ? null : [' ', el('small', { text: name })]];
    // a button is named by its text ("5 Abbess"), a drawn card by its label
    if (o.onclick) return el('button', { class: cls, onclick: o.onclick, onkeydown: o.onkeydown, onfocus: o.onfocus, tabindex: o.tabindex, 'aria-pressed': o.sel ? 'true' : 'false', 'data-k': o.key }, kids);
    return el('span', { class: cls, role: 'img', 'aria-label': label, 'data-k': o.key }, kids);
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
    T.cursor = i;
    renderMine();
  }

  /** The action the chosen cards make now (a play or a gift), if legal. */
  function chosenAction() {
    const set = selSet();
    if (set && has('play ' + set)) return 'play ' + set;
    const gift = selGift();
    if (gift && has('give ' + gift)) return 'give ' + gift;
    return null;
  }

  /**
   * The hand: one tab stop (roving focus); arrows move, Space or a click
   * picks a card, Enter plays or gives the picked cards when they are
   * legal. Cards can be picked ahead of the turn.
   */
  function dalHand() {
    const cards = handCards();
    if (!cards.length) return el('p', { class: 'mute', text: t('dal.noCards') });
    T.cursor = Math.max(0, Math.min(T.cursor, cards.length - 1));
    const seen = {};
    const move = (to) => {
      const all = $('mine').querySelectorAll('.hand button.card');
      if (!all.length) return;
      T.cursor = (to + all.length) % all.length;
      all.forEach((b, k) => b.setAttribute('tabindex', k === T.cursor ? '0' : '-1'));
      all[T.cursor].focus();
    };
    const keys = (i) => (e) => {
      if (e.key === ' ') {
        // pick (or unpick) the card; after a pick the cursor moves on, so
        // that a pair is Space, Space
        const picking = !T.sel.includes(i);
        toggle(i);
        if (picking && i + 1 < cards.length) move(i + 1);
      } else if (/^[0-9jJ]$/.test(e.key)) {
        // type-ahead: a rank's digits ("7", "1" "0") or J jump to its first card
        const now = Date.now();
        T.ahead = (now - (T.aheadAt || 0) < 900 ? T.ahead || '' : '') + e.key.toUpperCase();
        T.aheadAt = now;
        let k = cards.indexOf(T.ahead);
        if (k < 0) k = cards.findIndex((c) => c.startsWith(T.ahead));
        if (k >= 0) move(k);
      } else if (e.key === 'ArrowRight' || e.key === 'ArrowDown') move(i + 1);
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') move(i - 1);
      else if (e.key === 'Home') move(0);
      else if (e.key === 'End') move(cards.length - 1);
      else if (e.key === 'Enter') {
        const a = chosenAction();
        if (a && !T.pending) act(a);
        else toggle(i);
      } else return;
      // handled here: no click from the key as well
      e.preventDefault();
    };
    const items = cards.map((c, i) => {
      seen[c] = (seen[c] || 0) + 1;
      return dalCard(c, { sel: T.sel.includes(i), key: c + '#' + seen[c], tabindex: i === T.cursor ? '0' : '-1', onclick: () => toggle(i), onkeydown: keys(i), onfocus: () => (T.cursor = i) });
    });
    return el('div', { class: 'hand', role: 'group', 'aria-label': t('dal.yourHand') + ' · ' + t('dal.keys') }, items);
  }

  function dalBoard() {
    const p = pv();
    const v = T.st.view || {};
    const o = p.options || {};
    const head = t('dal.handNo', { n: p.hand_number, of: o.hands }) + (o.target ? ' · ' + t('dal.target', { n: o.target }) : '');
    return [el('div', { class: 'mute', text: head }), dalRevolution(p), dalTrick(p), p.phase !== 'play' ? dalExchanges(p, v) : null];
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
    if (!p.trick) return el('div', { class: 'trick empty' }, el('b', { text: t('dal.noTrick') }));
    const key = p.trick.play + '@' + RR.seatId(p.trick.by) + '#';
    return el(
      'div',
      { class: 'trick' },
      el('div', { class: 'mute', text: t('dal.toBeat', { who: who(p.trick.by) }) }),
      el('div', { class: 'cards', 'data-k': p.trick.play + ':' + RR.seatId(p.trick.by) }, setCards(p.trick.play).map((c, i) => dalCard(c, { key: key + i }))),
      el('div', { text: RR.setWords(p.trick.play) }),
      p.passed.length ? el('div', { class: 'mute', text: t('dal.passedSince', { who: p.passed.map(who).join(', ') }) }) : null
    );
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

  function dalSeat(id, acts) {
    const p = pv();
    const i = RR.seatIndex(id);
    const pos = (p.order || []).map(RR.seatId).indexOf(id);
    const role = p.roles[i];
    const tags = [];
    const fin = p.finished.map(RR.seatId).indexOf(id);
    if (fin >= 0) tags.push(el('span', { class: 'tag out', text: t('tag.out', { n: fin + 1 }) }));
    if (p.passed.map(RR.seatId).includes(id) && !acts[id]) tags.push(el('span', { class: 'tag pass', text: t('tag.passed') }));
    const left = p.cards_left[i];
    return el(
      'div',
      { class: seatClass(id), 'data-seat': id, 'data-k': id },
      seatHead(id, pos + 1 + '. '),
      el('div', { class: 'role' }, (RR.roleIcon(role) + ' ' + RR.roleName(role)).trim()),
      el('div', { class: 'left', 'data-k': 'l' + left + ':' + p.scores[i] }, el('span', { class: 'backs', 'aria-hidden': 'true' }, Array.from({ length: Math.min(left, 8) }, (_, k) => el('i', { 'data-k': String(k) }))), t('dal.cardsLeft', { n: left }), ' · ', t('dal.points', { n: p.scores[i] })),
      tags.length ? el('div', {}, tags) : null,
      p.phase === 'play' ? bubble(acts[id]) : null
    );
  }

  /** The player's own Dalmuti area: the hand (always), and the controls of the moment. */
  function dalMine(used) {
    const p = pv();
    const v = T.st.view || {};
    const L = legal();
    const out = [];
    const plays = L.filter((a) => a.startsWith('play '));
    const gives = L.filter((a) => a.startsWith('give '));
    const markets = L.filter((a) => a.startsWith('market '));
    if (v.hand !== undefined) out.push(dalHand());
    const row = el('div', { class: 'row' });
    if (plays.length) RR.append(row, [dalPlayButton(plays, used)]);
    if (gives.length) RR.append(row, [dalGiveButton(gives, used)]);
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
    return [el('button', { id: 'playGo', text: t('dal.play'), disabled: T.pending || !ok, onclick: () => act('play ' + set) }), el('span', { class: ok ? 'ok' : 'mute', text: note })];
  }

  /** Who receives the cards given in a tax or market phase. */
  const giveTarget = (p) => (p.phase === 'market-return' ? (p.exchanges.find((e) => e.kind === 'market') || {}).from : p.phase === 'greater-tax' ? p.order[p.order.length - 1] : p.order[p.order.length - 2]);

  function dalGiveButton(gives, used) {
    gives.forEach((a) => used.add(a));
    const gift = selGift();
    const ok = gives.includes('give ' + gift);
    return [el('button', { text: t('dal.give'), disabled: T.pending || !ok, onclick: () => act('give ' + gift) }), el('span', { class: ok ? 'ok' : 'mute', text: ok ? RR.cardsWords(gift) : '' })];
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
    // The skip link: straight to the hand (or the first control) from the top of the page.
    $('skip').addEventListener('click', (e) => {
      e.preventDefault();
      if (!$('mine').classList.contains('hidden')) focusMine();
      else $('felt').focus();
    });
    RR.initPage(() => {
      onStatus($('conn').className.split(' ')[1] || 'connecting');
      render();
    });
    if (!T.id) return msg(t('err.noTable'));
    T.conn = RR.connect(T.id, {
      onMessage: (m) => (RR.social && RR.social.onMessage(m), m.type === 'state' ? onWhole(m) : m.type === 'update' ? onUpdate(m) : m.type === 'error' ? onError(m) : m.type === 'presence' ? onPresence(m) : m.type === 'notice' ? onNotice(m) : null),
      onStatus,
    });
    // The turn timer's length (when the table has one), and a clock for it.
    RR.api('/api/tables/' + encodeURIComponent(T.id))
      .then((info) => {
        T.info = info;
        const w = T.leftAtWhole;
        if (w && info.turn_timer_ms) T.turnAt = w.at - (info.turn_timer_ms - w.left);
        if (info.turn_timer_ms && T.st) renderTurn();
        if (info.turn_timer_ms) {
          setInterval(tickTimer, 1000);
        }
      })
      .catch(() => {});
  }

  /* ---------- for the replay page ---------- */

  /**
   * The board and the seats of any state (the replay's positions, drawn
   * as a spectator sees them), with this page's own renderers.
   */
  RR.tableBoard = function (st) {
    T.st = st;
    T.log = st.log || [];
    return { board: isDal() ? dalBoard() : bcBoard(), players: drawSeats() };
  };

  // The replay page borrows the renderers; it has no table to connect to.
  if (document.body.dataset.page !== 'replay') RR.boot(start);
})();
