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
   moves. Actions carry the `seq` of the state they answer and are never
   resent blindly.

   What both games share is here; each game's own part is in its file
   (table-bigcheese.js, table-dalmuti.js, registered with RR.tableGame),
   the turn alert in table-alerts.js. The game is named by the table's
   facts (GET /api/tables/{id}), asked for beside the connection. */
(function () {
  'use strict';
  const RR = window.RR;
  const { t, el, $ } = RR;
  const T = (RR.table = { id: RR.pageId(), game: null, st: null, log: [], seen: 0, pending: false, sel: [], dsel: [], dkey: '', hand: '', msg: '', cursor: 0, bid: null, mine: false, started: null, turnAt: 0, info: null });
  // A private table's invite link carries its key (?k=...): keep it for
  // joining and for the invite box. The address bar keeps it too (and gets
  // it back when the page was opened without it), so what a player copies
  // from there is a link that seats a friend. No referrer leaves the site.
  const linkKey = new URLSearchParams(location.search).get('k');
  if (linkKey && T.id) RR.saveKey(T.id, linkKey);
  else if (T.id && RR.key(T.id)) history.replaceState(null, '', '/t/' + T.id + '?k=' + encodeURIComponent(RR.key(T.id)));

  /* ---------- small helpers ---------- */

  const pv = () => (T.st.view && T.st.view.public) || T.st.view || {};
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

  /* ---------- the games ---------- */

  /**
   * RR.tableGame(name, make): make(K) gets the shared helpers (K, filled
   * at the end) and returns the game's part: board() the middle of the
   * felt; order() the seat ids in turn order; seat(id, acts) a seat's
   * tile; mine(used) the hand and controls, adding each legal action drawn
   * to `used` (the rest get generic buttons); prompt() this player's
   * decision and hint() the others'; idle() the banner when nobody is to
   * move; acts, the event kinds a bubble shows, read back in the log to
   * one of stop; speech(ev) a bubble's content (a pass is drawn here);
   * logClass(ev) a log line's class.
   */
  const games = {};
  const K = {};
  RR.tableGame = (name, make) => (games[name] = make(K));
  /** The game of this table, once its name is known; null before. */
  const G = () => games[T.game] || null;

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
      T.aheadAt = 0; // digits typed before it do not run into the next ones
    }
    // a person who concedes is said once, when it happens (not on a reload)
    if (T.st) {
      for (const s of m.seats || []) {
        if (s.conceded && !hasConceded(s.seat)) RR.tableAlerts.say(isMe(s.seat) ? t('table.youConceded') : t('table.concededWho', { who: who(s.seat) }));
      }
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
    // a private table, opened without its key: nothing to watch, and no
    // point in asking again; the page says whose table it is
    if (m.code === 'forbidden' && !T.st) {
      T.conn.closed = true;
      T.locked = true;
      return renderLocked();
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

  /** A private table this browser has no key for: whose it is, and whom to ask (its public description names the host). */
  function renderLocked() {
    const seats = (T.info && T.info.seats) || [];
    const host = seats.find((x) => x.kind === 'human' && x.taken && x.name);
    const text = host ? t('table.privateText', { name: host.name }) : t('table.privateAnon');
    $('join').classList.remove('hidden');
    RR.fill('join', el('h2', { text: '🔒 ' + t('table.privateTitle') }), el('p', { id: 'privateText', text }));
  }

  function render() {
    if (T.locked) return renderLocked();
    // nothing is drawn before the table's game is known
    if (!T.st || !G()) return;
    $('title').textContent = RR.gameName(T.game);
    $('skip').classList.toggle('hidden', me() == null || T.st.over);
    renderWaiting();
    renderJoin();
    renderTurn();
    RR.fill('board', waiting() ? el('p', { class: 'predeal', text: t('table.dealSoon') }) : G().board());
    RR.fill('players', drawSeats());
    renderMine();
    renderLog();
    renderRules();
    renderResult();
    renderInvite();
    RR.tableAlerts.draw();
    RR.tableAlerts.turn();
    drawTabs();
    keepFocus();
  }

  /**
   * The side column: beside the game on a wide screen (every panel shown),
   * below it on a narrow one, where tabs show one panel at a time. A tab
   * whose panel is hidden (no chat here) is hidden too.
   */
  function drawTabs() {
    const side = $('side');
    const tabs = [...side.querySelectorAll('[role=tab]')];
    const panelOf = (b) => side.querySelector('.panel[data-panel="' + b.dataset.panel + '"]');
    const shown = tabs.filter((b) => panelOf(b) && !panelOf(b).classList.contains('hidden'));
    if (!shown.some((b) => b.dataset.panel === side.dataset.tab) && shown.length) side.dataset.tab = shown[0].dataset.panel;
    for (const b of tabs) {
      const on = b.dataset.panel === side.dataset.tab;
      b.setAttribute('aria-selected', on ? 'true' : 'false');
      b.tabIndex = on ? 0 : -1;
      b.classList.toggle('hidden', !shown.includes(b));
      if (panelOf(b)) panelOf(b).classList.toggle('off', !on);
    }
  }

  RR.tableTabs = () => $('side') && drawTabs();

  function setupTabs() {
    const side = $('side');
    const tabs = () => [...side.querySelectorAll('[role=tab]:not(.hidden)')];
    const pick = (b) => {
      side.dataset.tab = b.dataset.panel;
      drawTabs();
      b.focus();
    };
    side.querySelectorAll('[role=tab]').forEach((b) => {
      b.addEventListener('click', () => pick(b));
      // arrows move between tabs, as in any tab list
      b.addEventListener('keydown', (e) => {
        const all = tabs();
        const k = all.indexOf(b);
        if (e.key === 'ArrowRight') pick(all[(k + 1) % all.length]);
        else if (e.key === 'ArrowLeft') pick(all[(k - 1 + all.length) % all.length]);
        else return;
        e.preventDefault();
      });
    });
  }

  /**
   * Focus in the player's own area stays there: when the focused card or
   * button was played, went away or was disabled while an action is on
   * its way, focus would fall to the page (a screen reader loses its
   * place). `T.inMine` says the player was last in that area: set when
   * focus enters it, cleared when focus or a click goes elsewhere.
   */
  function keepFocus() {
    const a = document.activeElement;
    const fell = !a || a === document.body || a.disabled || !a.isConnected;
    if (!T.inMine || !fell) return;
    if (!$('mine').classList.contains('hidden')) focusMine();
    else if (T.st && T.st.over && !$('result').classList.contains('hidden')) $('result').focus({ preventScroll: true });
  }

  /** Focus into the player's own area: the card under the cursor, else its first enabled control, else the area itself. */
  function focusMine() {
    const cards = $('mine').querySelectorAll('.hand button.card');
    if (cards.length) {
      T.cursor = Math.min(T.cursor, cards.length - 1);
      return cards[T.cursor].focus({ preventScroll: true });
    }
    const b = $('mine').querySelector('button:not(:disabled), input:not(:disabled)');
    (b || $('mine')).focus({ preventScroll: true });
  }

  /** Seat ids around the table: from the player's left, the player last (at the bottom). */
  function seatsInOrder() {
    const ids = G().order();
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
    if (T.info && T.info.public === false && !RR.key(T.id)) {
      // without the key the server refuses the seat: say so before the
      // visitor types a name, and whom to ask
      const host = (T.st.seats || []).find((x) => x.kind === 'human' && x.taken && x.name);
      const text = host ? t('table.privateText', { name: host.name }) : t('table.privateAnon');
      return RR.fill('join', el('h2', { text: '🔒 ' + t('table.privateTitle') }), el('p', { id: 'privateText', text }));
    }
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
    else if (st.to_move) text = t('table.waiting', { who: who(st.to_move) }) + ' ' + G().hint();
    else text = G().idle();
    if (me() == null && !st.over) text = '👀 ' + t('table.spectating') + (text ? ' · ' + text : '');
    else if (!st.over && hasConceded(me())) text = t('table.youConceded') + (text ? ' · ' + text : '');
    const timer = timerText();
    // a stand-in's move for a person, said for a few seconds
    const note = T.standIn && Date.now() - T.standIn.at < 8000 ? el('span', { id: 'standIn', class: 'warn', text: T.standIn.text }) : null;
    RR.fill('turn', el('span', { text }), note, timer ? el('span', { id: 'timer', class: 'timer', title: t('table.timerHint'), text: timer }) : null);
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

  /** Controls for whatever is legal and not drawn by the game's own controls. */
  function rest(used) {
    const left = legal().filter((a) => !used.has(a));
    return left.length ? el('div', { class: 'row' }, left.map((a) => btn(RR.actionWords(a), a, { class: 'alt' }))) : null;
  }

  /** The player's own area: the hand and the controls, always in the same place. */
  function renderMine() {
    const box = $('mine');
    if (!G()) return;
    if (!T.st || me() == null || T.st.over || waiting()) {
      box.classList.add('hidden');
      return RR.fill('mine');
    }
    box.classList.remove('hidden');
    const used = new Set();
    const parts = G().mine(used);
    const turn = myTurn();
    RR.fill('mine', el('h2', { class: turn ? 'turn' : '', text: turn ? '👉 ' + G().prompt() : t('table.yours') }), parts, turn ? rest(used) : null, T.msg ? el('div', { class: 'err', text: T.msg }) : null);
    keepFocus();
  }

  /** An event of this table's log in words. */
  const evText = (ev) => RR.eventText(T.game, ev, T.st.seats);

  /** The log: new lines are appended, old ones kept (no redraw, no announcements). */
  function renderLog() {
    const ol = $('log');
    const start = Math.max(0, T.log.length - 300);
    const items = T.log.slice(start).map((ev, k) => {
      const i = start + k;
      const cls = [G().logClass(ev), i >= T.seen && T.seen > 0 ? 'new' : ''].join(' ');
      return el('li', { class: cls.trim(), value: i + 1, 'data-k': String(i), 'data-kind': ev.kind, text: evText(ev) });
    });
    const atEnd = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 30;
    RR.morph(ol, items);
    if (atEnd) ol.scrollTop = ol.scrollHeight;
    // the last few events on the felt, where a narrow screen has no room for the log
    RR.fill('recent', T.log.slice(-3).map((ev, k) => el('div', { 'data-k': String(T.log.length - 3 + k), text: evText(ev) })));
  }

  function renderRules() {
    const lines = RR.tv('rules.' + T.game) || [];
    RR.fill('rulesText', el('ul', {}, lines.map((l) => el('li', { text: l }))));
  }

  /** The invite link and its copy button. */
  function inviteRow() {
    const key = RR.key(T.id);
    const url = location.origin + '/t/' + T.id + (key ? '?k=' + encodeURIComponent(key) : '');
    return RR.copyRow('inviteUrl', t('table.invite'), url, render);
  }

  /** At the bottom: the link to share for watching, while the game runs, and the commitment. */
  function renderInvite() {
    const share = !T.st.over && !waiting();
    RR.fill('invite', share ? [el('h2', { text: t('table.share') }), inviteRow()] : null, el('p', { class: 'mute mono', text: t('table.seedHash') + ' ' + T.st.seed_hash }), concedeBox());
  }

  /**
   * Conceding, for a seated person while the game runs: a bot plays their
   * seat to the end and they are rated last. It asks once more first, in
   * the page (a second button), since it cannot be undone.
   */
  function concedeBox() {
    if (me() == null || T.st.over || waiting() || T.st.started === false || hasConceded(me())) return null;
    const ask = () => {
      T.confirmConcede = true;
      render();
      const yes = $('concedeYes');
      if (yes) yes.focus();
    };
    const back = () => {
      T.confirmConcede = false;
      render();
      const again = $('concede');
      if (again) again.focus();
    };
    const yes = () => {
      T.confirmConcede = false;
      if (!T.conn.send({ type: 'concede' })) msg(t('err.offline'));
    };
    const body = T.confirmConcede
      ? el('div', {}, el('p', { id: 'concedeSure', text: t('table.concedeSure') }), el('div', { class: 'row' }, el('button', { id: 'concedeYes', 'aria-describedby': 'concedeSure', text: t('table.concedeYes'), onclick: yes }), el('button', { id: 'concedeNo', class: 'alt', text: t('table.concedeNo'), onclick: back })))
      : el('button', { id: 'concede', class: 'alt', text: t('table.concede'), onclick: ask });
    return [el('h2', { text: t('table.concedeTitle') }), body];
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
      // the server takes a fill only some time after the table was made:
      // until then the button waits, saying how long
      const left = Math.ceil(((T.fillAt || 0) - Date.now()) / 1000);
      const label = left > 0 ? t('table.fillIn', { s: left }) : t('table.fill');
      return el('p', { class: 'row' }, el('span', { text: t('table.fillText', { seat: RR.seatId(s.seat) }) }), el('button', { class: 'alt', text: label, disabled: left > 0, onclick: go }), err);
    });
  }

  function onPresence(m) {
    if (!T.st) return;
    T.st.seats = m.seats;
    render();
  }

  /** A person's decision was made by the stand-in bot (their time ran out, or they were away). */
  function onStandIn(m) {
    if (!T.st) return;
    const mine = isMe(m.seat);
    const key = (m.away ? 'table.standInAway' : 'table.standInTime') + (mine ? 'Me' : '');
    const text = '⏱ ' + t(key, { who: who(m.seat) });
    T.standIn = { text, at: Date.now() };
    RR.tableAlerts.say(text);
    renderTurn();
    setTimeout(renderTurn, 8100);
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
  /** Whether the seat's person conceded (a bot plays it now). */
  const hasConceded = (id) => !!(id != null && T.st && (seatInfo(id) || {}).conceded);

  /** A seat's head line: name, "you", bot level, presence. */
  function seatHead(id, extra) {
    const s = seatInfo(id);
    const tags = [];
    if (isMe(id)) tags.push(el('span', { class: 'tag you', text: t('tag.you') }));
    if (s && s.kind === 'bot' && s.bot) tags.push(el('span', { class: 'tag bot', text: '🤖 ' + RR.botLevel(s.bot) }));
    if (s && s.kind === 'human' && !s.taken) tags.push(el('span', { class: 'tag', text: t('tag.free') }));
    else if (s && s.conceded) tags.push(el('span', { class: 'tag pass', text: t('tag.conceded') }));
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
    const { acts, stop } = G();
    for (let i = T.log.length - 1; i >= 0; i--) {
      const ev = T.log[i];
      if (stop.includes(ev.kind)) break;
      if (acts.includes(ev.kind) && ev.seat != null && !out[RR.seatId(ev.seat)]) out[RR.seatId(ev.seat)] = ev;
    }
    return out;
  }

  /** Every seat's tile, in order around the table; the log is read once for all of them. */
  function drawSeats() {
    // before the start nothing is dealt: the engine's view of a deal to
    // come (roles, the first auction) would only mislead; names only
    if (waiting()) return seatsInOrder().map((id) => el('div', { class: seatClass(id), 'data-seat': id, 'data-k': id }, seatHead(id, '')));
    const acts = lastActs();
    return seatsInOrder().map((id) => G().seat(id, acts));
  }

  /** The speech bubble by a seat: its bid, its pass, the set it played. */
  function bubble(ev) {
    if (!ev) return null;
    const body = ev.kind === 'pass' ? t('act.pass') : G().speech(ev);
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
      el('p', { class: 'row' }, el('a', { href: '/replay/' + T.id, text: t('res.replay') }), el('a', { href: '/api/tables/' + T.id + '/record' + RR.seeQuery(T.id), download: 'ratrace-' + T.id + '.json', text: t('res.download') }), el('a', { href: '/verify?id=' + T.id, text: t('res.verify') }), el('a', { href: '/', text: t('res.lobby') })),
      me() != null ? el('p', { class: 'row' }, el('button', { text: t('res.rematch'), onclick: rematch }), el('span', { id: 'rerr', class: 'err' })) : null
    );
  }

  /** Every player of this table comes along (social.js). */
  const rematch = () => RR.social.rematch(T.id, $('rerr'));

  /* ---------- start ---------- */

  /**
   * The table's facts: its game (nothing is drawn before) and its turn
   * timer, with a clock for it. Asked again after a failure, less and less
   * often; an unknown table is said by the connection.
   */
  function loadInfo(wait) {
    RR.api('/api/tables/' + encodeURIComponent(T.id)).then(
      (info) => {
        T.info = info;
        T.fillAt = Date.now() + (info.fill_in_s || 0) * 1000;
        if (info.fill_in_s > 0) {
          const tick = setInterval(() => {
            if (Date.now() > T.fillAt + 1000) clearInterval(tick);
            if (T.st && G()) renderWaiting();
          }, 1000);
        }
        T.game = info.game;
        const w = T.leftAtWhole;
        if (w && info.turn_timer_ms) T.turnAt = w.at - (info.turn_timer_ms - w.left);
        if (info.turn_timer_ms) setInterval(tickTimer, 1000);
        render();
      },
      (e) => {
        if (e.status !== 404) setTimeout(() => loadInfo(Math.min(10000, wait * 2)), wait);
      }
    );
  }

  function start() {
    setupTabs();
    // where the player was last: in their own area or elsewhere (keepFocus)
    document.addEventListener('focusin', (e) => {
      if (e.target !== document.body) T.inMine = $('mine').contains(e.target);
    });
    document.addEventListener('pointerdown', (e) => {
      if (!$('mine').contains(e.target)) T.inMine = false;
    });
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
      onMessage: (m) => (RR.social && RR.social.onMessage(m), m.type === 'state' ? onWhole(m) : m.type === 'update' ? onUpdate(m) : m.type === 'error' ? onError(m) : m.type === 'presence' ? onPresence(m) : m.type === 'notice' ? onNotice(m) : m.type === 'stand_in' ? onStandIn(m) : null),
      onStatus,
    });
    loadInfo(500);
  }

  /* ---------- for the replay page ---------- */

  /** The board and the seats of any state of `game` (the replay's positions, as a spectator sees them). */
  RR.tableBoard = function (st, game) {
    T.game = game;
    T.st = st;
    T.log = st.log || [];
    return { board: G().board(), players: drawSeats() };
  };

  // What the table's other files (the games', the turn alert) use of this one.
  Object.assign(K, { T, pv, legal, has, who, me, isMe, myTurn, waiting, act, btn, renderMine, seatHead, seatClass, bubble, evText, resultHead, prompt: () => G().prompt() });
  RR.tableKit = K;

  // The replay page borrows the renderers; it has no table to connect to.
  if (document.body.dataset.page !== 'replay') RR.boot(start);
})();
