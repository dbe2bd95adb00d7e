/* The table page (table.html, served at /t/{id}): play or watch one live
   table. It connects to /ws/{id}, takes the `state` messages (the whole
   state, on hello and resync) and the `update`s after them (a patch of
   the view, the new events and the small fields) into the table's state,
   and draws it.

   The page is a game table: the seats around a felt, the cards, chips and
   dice in the middle, and the player's own hand and controls below, built
   only from the `legal` list. Every state is drawn whole and put on the
   page with morph() (dom.js), which updates in place: focus, a chosen
   card, the dice picked for a re-roll and a half-typed name survive other
   players' moves. Actions carry the `seq` of the state they answer and
   are never resent blindly.

   The state is one TableState (table-state.js), changed only by its
   transitions; this module does what they ask (a resync, a restart, an
   announcement) and draws. The drawing both games share is table-view.js,
   each game's in its file, the panels around the game in table-panels.js,
   the turn alert in table-alerts.js, chat and rematch in social.js, a
   tutorial table's coach in tutorial.js, and the moves played over an
   update once it is drawn in motion.js. The
   game is named by the table's facts (GET /api/tables/{id}), asked for
   beside the connection; nothing is drawn before it is known.

   window.RR is the page's handle for the browser tests and the console:
   the table's state and a few helpers. Nothing in the client reads it. */

import { $, el, fill, morph } from './dom.js';
import { boot, t, tv } from './i18n.js';
import { api, connect, errText, join, reclaim } from './connection.js';
import { initPage, linkKey, pageId } from './page.js';
import { gameName } from './names.js';
import { actionWords } from './words.js';
import * as store from './store.js';
import { TableState } from './table-state.js';
import { tableView } from './table-view.js';
import { tablePanels } from './table-panels.js';
import { tableAlerts } from './table-alerts.js';
import { tableSocial } from './social.js';
import { motion } from './motion.js';
import { tutorialCoach } from './tutorial.js';
import { friends, inviteList } from './friends.js';
import { connectLocal, isLocal, localUrl, makeLocal } from './local.js';
import { replayAnalysis } from './replay-analysis.js';

const state = new TableState(pageId());
// a local game (engine.js): the hint asked for this decision, the
// finished game's record (a file to download) and its analysis
const local = { hint: null, record: null, asked: false, an: { status: 'none' } };
let pendTimer = null;
// "Back to your seat" (My games, `#back`): this person comes back to the
// seat their identity holds here, from this device or another one; read
// before the address bar is rewritten below
const back = location.hash === '#back';
if (back) history.replaceState(null, '', location.pathname + location.search);

// A private table's invite link carries its key (?k=...): keep it for
// joining and for the invite box. The address bar keeps it too (and gets
// it back when the page was opened without it), so what a player copies
// from there is a link that seats a friend. No referrer leaves the site.
if (linkKey() && state.id) store.saveKey(state.id, linkKey());
else if (state.id && store.key(state.id)) {
  history.replaceState(null, '', '/t/' + state.id + '?k=' + encodeURIComponent(store.key(state.id)));
}

const view = tableView(state, { act, keepTurn, redrawMine: renderMine });
const game = view.game;
// the people followed (to invite them here) and the invitations waiting
// for this person, asked every 15 s from here: they are at this table
const pals = friends('?at=table&table=' + encodeURIComponent(state.id || ''), drawFriends);
const panels = tablePanels(state, view, {
  local,
  again,
  render,
  send: (m) => state.conn.send(m),
  msg,
  rematch: (errBox) => social.rematch(state.id, errBox),
  friends: pals,
});
const alerts = tableAlerts(state, view);
const social = tableSocial(
  state,
  () => $('side') && drawTabs(),
  // a seat whose person this browser blocks (friends.js): their chat is not shown
  (seat) => {
    const d = pals.data();
    const s = state.seatInfo(seat);
    return !!(d && s && s.player && d.blocks.some((b) => b.player === s.player));
  }
);
const moves = motion();
// the analysis of a finished local game, by this browser's engine, drawn
// as the replay page draws the server's
const analysis = replayAnalysis(state.id, (seat) => view.who(seat), null, {
  get: async () => local.an,
  start: async () => {
    state.conn.send({ type: 'analyze' });
    return (local.an = { status: 'running', done: 0, total: 0 });
  },
});
const coach = tutorialCoach(state, view);

window.RR = { table: state, actionWords, join, motion: moves.moves, local, ...store };

/** The page's message: an error or a notice, shown until the next decision. */
function msg(text) {
  state.say(text);
  $('msg').textContent = state.msg;
}

/** Sends `action` against the state we are showing; one at a time. */
function act(action) {
  if (state.pending || !state.st) return;
  // "ask before I pass": the first press asks, the second passes
  if (action === 'pass' && store.alertOn('confirmPass') && !state.passAsked) {
    state.askPass(true);
    return renderMine();
  }
  state.askPass(false);
  if (!state.conn.send({ type: 'act', seq: state.st.seq, action })) return msg(t('err.offline'));
  msg('');
  state.sending();
  clearTimeout(pendTimer);
  pendTimer = setTimeout(() => {
    state.gaveUp();
    render();
  }, 10000);
  renderMine();
}

/** "Really pass?" put away: the turn stays the player's, nothing is sent. */
function keepTurn() {
  state.askPass(false);
  renderMine();
}

/**
 * A forced pass (pass is the only legal action) is made for the player
 * when "pass for me when I cannot play" is on (the default), once per
 * position, after a moment in which the player's area says so.
 */
function autoPass() {
  const L = state.legal();
  if (!state.myTurn() || L.length !== 1 || L[0] !== 'pass' || state.pending) return;
  if (!store.alertOn('autoPass') || !state.autoPassNow()) return;
  const seq = state.st.seq;
  renderMine();
  setTimeout(() => {
    if (state.st && state.st.seq === seq && state.myTurn() && !state.pending) {
      state.askPass(false);
      act('pass');
    }
  }, AUTO_PASS_MS);
}

/** How long a forced pass is shown before the page makes it. */
const AUTO_PASS_MS = 700;

/* ---------- messages ---------- */

/** A new state was taken: what it asks for, then the page drawn again. */
function took(done) {
  if (!done) return;
  if (done.resync) return state.conn.send({ type: 'resync' });
  // a gap in the log: ask for the whole log again
  if (done.gap) state.conn.restart();
  clearTimeout(pendTimer);
  if (done.moved) msg('');
  // a person who concedes is said once, when it happens (not on a reload)
  for (const s of done.conceded) {
    const text = state.isMe(s) ? t('table.youConceded') : t('table.concededWho', { who: view.who(s) });
    state.noted('🏳 ' + text);
    alerts.say(text);
  }
  render();
}

/** The whole state (the answer to hello or resync): updates apply to it again. */
function onWhole(m) {
  // a rematch's contribution goes with hello: the commitment shown with it is kept too
  if (store.contribution(state.id)) store.saveCommitment(state.id, m.seed_hash);
  took(state.whole(m, Date.now()));
  tickTimer();
}

/**
 * An update: drawn at once, then what it changed is played over the page
 * as it is now (motion.js; measured before the drawing, cued by the
 * events it brought). A whole state (a reload, a resync) is not played.
 */
function onUpdate(m) {
  const snap = moves.before();
  const done = state.update(m, Date.now());
  took(done);
  if (done && !done.resync && !done.gap) moves.after(snap, state.log.slice(state.seen));
}

function onError(m) {
  state.refused();
  if (m.code === 'bad_token') {
    store.forgetSeat(state.id);
    state.conn.restart();
  }
  // a private table, opened without its key: nothing to watch, and no
  // point in asking again; the page says whose table it is
  if (m.code === 'forbidden' && !state.st) {
    state.conn.closed = true;
    state.lock();
    return panels.locked();
  }
  if (m.code === 'unknown_table') state.conn.closed = true;
  msg(m.code === 'stale' ? t('err.stale') : errText(m));
  if (state.st) renderMine();
}

function onStatus(s) {
  const c = $('conn');
  c.className = 'status ' + s;
  c.textContent = t('conn.' + s);
}

function onPresence(m) {
  if (!state.st) return;
  state.presence(m.seats);
  render();
}

/** A person's decision was made by the stand-in bot (their time ran out, or they were away). */
function onStandIn(m) {
  if (!state.st) return;
  const key = (m.away ? 'table.standInAway' : 'table.standInTime') + (state.isMe(m.seat) ? 'Me' : '');
  const text = '⏱ ' + t(key, { who: view.who(m.seat) });
  state.stoodIn(text, Date.now());
  state.noted(text);
  alerts.say(text);
  // drawn once the table's game is known (its description may come
  // after the first state); render() draws the note then
  const turn = () => game() && renderTurn();
  if (game()) renderLog();
  turn();
  setTimeout(turn, 8100);
}

function onNotice(m) {
  // a local game's learned level without its network (offline before it
  // was kept): said in the table's panel, not as the turn's message
  if (m.code === 'no_network') {
    local.noNetwork = true;
    if (state.st && game()) panels.invite();
    return;
  }
  state.noticed(m);
  $('msg').textContent = state.msg;
  if (state.st) renderMine();
}

/** A new local game with this one's settings: the same game, options and bots. */
async function again() {
  const i = state.info;
  const levels = i.seats.filter((s) => s.kind === 'bot').map((s) => s.bot);
  try {
    const spec = { game: i.game, players: i.players, options: i.options, levels, ladder: i.ladder, name: store.myName(), delay: i.bot_delay_ms };
    location.href = localUrl(await makeLocal(spec));
  } catch (e) {
    msg(errText(e));
  }
}

/** A local game's hint: shown in the player's area until the next decision. */
function onHint(m) {
  if (!state.st || m.seq !== state.st.seq) return;
  local.hint = m;
  renderMine();
}

/** A finished local game's record, as a file to download; its analysis, drawn in the result. */
function onRecord(m) {
  local.record = URL.createObjectURL(new Blob([JSON.stringify(m.record, null, 1)], { type: 'application/json' }));
  panels.result();
}

function onAnalysis(m) {
  analysis.took((local.an = { status: 'done', analysis: m.analysis }));
}

function onProgress(m) {
  analysis.took((local.an = { status: 'running', done: m.done, total: m.total }));
}

const HANDLERS = {
  hint: onHint,
  record: onRecord,
  analysis: onAnalysis,
  progress: onProgress,
  state: onWhole,
  update: onUpdate,
  error: onError,
  presence: onPresence,
  notice: onNotice,
  stand_in: onStandIn,
};

function onMessage(m) {
  // a local game has nobody to chat with or rematch
  if (!isLocal()) social.onMessage(m);
  if (HANDLERS[m.type]) HANDLERS[m.type](m);
}

/* ---------- drawing ---------- */

function render() {
  if (state.locked) return panels.locked();
  // nothing is drawn before the table's game is known
  if (!state.st || !game()) return;
  $('title').textContent = gameName(state.game);
  $('skip').classList.toggle('hidden', state.me() == null || state.st.over);
  panels.waiting();
  panels.joinForm();
  renderTurn();
  fill('board', state.waiting() ? el('p', { class: 'predeal', text: t('table.dealSoon') }) : game().board());
  fill('players', view.ring());
  renderMine();
  renderLog();
  renderRules();
  panels.result();
  if (isLocal() && state.st.over) analysis.render();
  panels.invite();
  alerts.draw();
  alerts.turn();
  drawTabs();
  keepFocus();
  coach.draw();
}

/** The invitations waiting for this person (at the top), and the invite panel's friends. */
function drawFriends() {
  const d = pals.data();
  $('invited').classList.toggle('hidden', !(d && d.invites.length));
  fill('invited', d && d.invites.length ? inviteList(pals, d) : null);
  if (state.st && game()) {
    panels.invite();
    panels.waiting();
  }
  social.redrawChat();
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
  if (!shown.some((b) => b.dataset.panel === side.dataset.tab) && shown.length)
    side.dataset.tab = shown[0].dataset.panel;
  for (const b of tabs) {
    const on = b.dataset.panel === side.dataset.tab;
    b.setAttribute('aria-selected', on ? 'true' : 'false');
    b.tabIndex = on ? 0 : -1;
    b.classList.toggle('hidden', !shown.includes(b));
    if (panelOf(b)) panelOf(b).classList.toggle('off', !on);
  }
}

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
 * button was played, went away or was disabled while an action is on its
 * way, focus would fall to the page (a screen reader loses its place).
 * `state.inMine` says the player was last in that area: set when focus
 * enters it, cleared when focus or a click goes elsewhere.
 */
function keepFocus() {
  const a = document.activeElement;
  const fell = !a || a === document.body || a.disabled || !a.isConnected;
  if (!state.inMine || !fell) return;
  if (!$('mine').classList.contains('hidden')) focusMine();
  else if (state.st && state.st.over && !$('result').classList.contains('hidden'))
    $('result').focus({ preventScroll: true });
}

/** Focus into the player's own area: the card under the cursor, else its first enabled control, else the area. */
function focusMine() {
  const cards = $('mine').querySelectorAll('.hand button.card');
  if (cards.length) return cards[state.cursorWithin(cards.length)].focus({ preventScroll: true });
  const b = $('mine').querySelector('button:not(:disabled), input:not(:disabled)');
  (b || $('mine')).focus({ preventScroll: true });
}

/** The turn timer (when the table has one): time left before a bot plays the seat to move. */
/**
 * The turn timer's seconds left, or null when none runs: a timer times a
 * person (a bot's turn has none, and shows none).
 */
function timerLeft() {
  const ms = state.info && state.info.turn_timer_ms;
  const mover = state.st && state.st.to_move;
  if (!ms || !mover || state.st.over || state.waiting()) return null;
  const s = state.seatInfo(mover);
  if (!s || s.kind !== 'human' || s.conceded) return null;
  return Math.max(0, Math.ceil((state.turnAt + ms - Date.now()) / 1000));
}

function timerText() {
  const left = timerLeft();
  return left == null ? '' : '⏱ ' + Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
}

/** The last seconds of a turn look urgent. */
const TIMER_LOW_S = 10;

/** Redraws the turn timer's text alone (every second, and when its start is corrected). */
function tickTimer() {
  const n = $('timer');
  if (!n) return;
  n.textContent = timerText();
  const left = timerLeft();
  n.classList.toggle('low', left != null && left <= TIMER_LOW_S);
}

/** The banner: whose turn, what they decide, the timer, a stand-in's note. */
function renderTurn() {
  const st = state.st;
  let text;
  if (st.abandoned) text = t('table.abandoned');
  else if (st.over) text = t('table.over');
  else if (state.waiting())
    text = ''; // the waiting room above says it, with the invite
  else if (state.myTurn())
    text = '👉 ' + t('table.yourTurn'); // the prompt itself heads the player's own area
  else if (st.to_move) text = t('table.waiting', { who: view.who(st.to_move) }) + ' ' + game().hint();
  else text = game().idle();
  if (state.me() == null && !st.over) text = '👀 ' + t('table.spectating') + (text ? ' · ' + text : '');
  else if (!st.over && state.hasConceded(state.me())) text = t('table.youConceded') + (text ? ' · ' + text : '');
  const timer = timerText();
  // a stand-in's move for a person, said for a few seconds
  const s = state.standIn;
  const note = s && Date.now() - s.at < 8000 ? el('span', { id: 'standIn', class: 'warn', text: s.text }) : null;
  const low = timer && timerLeft() <= TIMER_LOW_S;
  const clock = timer
    ? el('span', { id: 'timer', class: 'timer' + (low ? ' low' : ''), title: t('table.timerHint'), text: timer })
    : null;
  fill('turn', el('span', { text }), note, clock);
  $('turn').classList.toggle('hidden', !text);
  $('turn').classList.toggle('mine', state.myTurn());
}

/** Controls for whatever is legal and not drawn by the game's own controls. */
function rest(used) {
  const left = state.legal().filter((a) => !used.has(a));
  return left.length
    ? el(
        'div',
        { class: 'row' },
        left.map((a) => view.btn(actionWords(a), a, { class: 'alt' }))
      )
    : null;
}

/** The player's own area: the hand and the controls, always in the same place. */
function renderMine() {
  const box = $('mine');
  if (!game()) return;
  if (!state.st || state.me() == null || state.st.over || state.waiting()) {
    box.classList.add('hidden');
    return fill('mine');
  }
  box.classList.remove('hidden');
  const used = new Set();
  const parts = game().mine(used);
  const turn = state.myTurn();
  const head = el('h2', { class: turn ? 'turn' : '', text: turn ? '👉 ' + game().prompt() : t('table.yours') });
  // a forced pass the page is about to make says so
  const passing = turn && state.autoPassing ? el('p', { id: 'autoPass', class: 'mute', text: t('table.autoPassing') }) : null;
  fill('mine', head, parts, turn ? rest(used) : null, passing, turn && isLocal() ? hintRow() : null, state.msg ? el('div', { class: 'err', text: state.msg }) : null);
  keepFocus();
  autoPass();
  coach.draw();
}

/** A local game's "Hint" button, and the hint once it came: the strongest bot's pick from this seat's view. */
function hintRow() {
  const h = local.hint && local.hint.seq === state.st.seq ? local.hint : null;
  const ask = () => {
    local.hint = { seq: state.st.seq, asking: true };
    state.conn.send({ type: 'hint' });
    renderMine();
  };
  const said = h && h.best ? t('local.hintSays', { bot: h.bot, action: actionWords(h.best) }) : h ? t('local.hintAsking') : '';
  return el(
    'div',
    { class: 'row' },
    el('button', { id: 'hint', class: 'alt', text: t('local.hint'), disabled: !!h, onclick: ask }),
    el('span', { id: 'hintText', role: 'status', text: said })
  );
}

/** The log: new lines are appended, old ones kept (no redraw, no announcements). */
function renderLog() {
  const ol = $('log');
  const log = state.log;
  const start = Math.max(0, log.length - 300);
  const notes = state.notes;
  // the table's notes (a stand-in's move, a concession) after the event
  // they followed, unnumbered
  const noted = (after) =>
    notes
      .map((n, k) => [n, k])
      .filter(([n]) => n.after === after)
      .map(([n, k]) => el('li', { class: 'note', 'data-k': 'note:' + k, text: n.text }));
  const items = log.slice(start).map((ev, k) => {
    const i = start + k;
    const cls = [game().logClass(ev), i >= state.seen && state.seen > 0 ? 'new' : ''].join(' ');
    return [
      el('li', {
        class: cls.trim(),
        value: i + 1,
        'data-k': String(i),
        'data-kind': ev.kind,
        text: view.evText(ev),
      }),
      noted(i + 1),
    ];
  });
  const atEnd = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 30;
  morph(ol, items);
  if (atEnd) ol.scrollTop = ol.scrollHeight;
  // the last few events on the felt, where a narrow screen has no room for the log
  fill(
    'recent',
    log.slice(-3).map((ev, k) => el('div', { 'data-k': String(log.length - 3 + k), text: view.evText(ev) }))
  );
}

function renderRules() {
  const lines = tv('rules.' + state.game) || [];
  fill(
    'rulesText',
    el(
      'ul',
      {},
      lines.map((l) => el('li', { text: l }))
    )
  );
}

/* ---------- start ---------- */

/**
 * The table's facts: its game (nothing is drawn before) and its turn
 * timer, with a clock for it. Asked again after a failure, less and less
 * often; an unknown table is said by the connection.
 */
function loadInfo(wait) {
  api('/api/tables/' + encodeURIComponent(state.id)).then(
    (info) => {
      state.facts(info, Date.now());
      if (info.fill_in_s > 0) {
        const tick = setInterval(() => {
          if (Date.now() > state.fillAt + 1000) clearInterval(tick);
          if (state.st && game()) panels.waiting();
        }, 1000);
      }
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
    if (e.target !== document.body) state.focusIn($('mine').contains(e.target));
  });
  document.addEventListener('pointerdown', (e) => {
    if (!$('mine').contains(e.target)) state.focusIn(false);
  });
  // Escape in the player's area undoes: the cards picked, a "really pass?"
  $('mine').addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !state.st) return;
    state.clearCards();
    state.askPass(false);
    renderMine();
  });
  // The skip link: straight to the hand (or the first control) from the top of the page.
  $('skip').addEventListener('click', (e) => {
    e.preventDefault();
    if (!$('mine').classList.contains('hidden')) focusMine();
    else $('felt').focus();
  });
  initPage(() => {
    onStatus($('conn').className.split(' ')[1] || 'connecting');
    render();
  });
  if (!state.id) return msg(t('err.noTable'));
  if (isLocal()) {
    const onInfo = (info) => {
      state.facts(info, Date.now());
      render();
    };
    return state.attach(connectLocal(state.id, { onMessage, onStatus, onInfo }));
  }
  pals.start();
  // a person coming back (`back`, above) takes the seat their identity
  // holds here before saying hello
  (back ? reclaim(state.id) : Promise.resolve(false)).finally(() => {
    state.attach(connect(state.id, { onMessage, onStatus }));
    loadInfo(500);
  });
}

boot(start);
