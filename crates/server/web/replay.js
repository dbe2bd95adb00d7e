/* The replay page (replay.html, served at /replay/{id}): a finished
   game, position by position. The server rebuilds every position from
   the record (GET /api/tables/{id}/replay/{from}, 100 a request: the
   public view, every seat's hand, each step's events); this page fetches
   them all once, then steps with buttons, the slider, the arrow keys
   (Home/End too) or a move number, and draws the board with the table
   page's own renderers (table-view.js and the game's file) on a
   spectator's state of its own. The log is split into sections: an
   auction (The Big Cheese), a hand and its tricks (Dalmuti). The analysis
   by the strongest bot is replay-analysis.js. A step forward plays its
   moves over the board as the table page does (motion.js). */

import { $, el, fill } from './dom.js';
import { boot, t } from './i18n.js';
import { api, errText } from './connection.js';
import { initPage, linkKey, pageId, scrollWithin } from './page.js';
import { gameName, optionsWords, seatId, seatLabel, winnersWords } from './names.js';
import { saveKey, seeQuery } from './store.js';
import { actionWords, eventText } from './words.js';
import { cardsWords } from './words-dalmuti.js';
import { TableState } from './table-state.js';
import { tableView } from './table-view.js';
import { replayAnalysis } from './replay-analysis.js';
import { motion } from './motion.js';
import { replayRoom } from './replay-room.js';

/**
 * The page's state: the table's id, its record and summary, every
 * position (`pos`, `total` steps) and the step shown (`i`).
 */
const R = { id: pageId(), rec: null, sum: null, pos: [], total: 0, i: 0 };
// a private table's replay link carries its key (?k=...), as its invite link does
if (linkKey() && R.id) saveKey(R.id, linkKey());
/** The positions are drawn with the table's own renderers, on a spectator's state of their own. */
const board = new TableState(R.id);
const boardView = tableView(board, { act: () => {}, redrawMine: () => {} });
/** A step forward plays what its events changed (a set into the trick, a bid's chip, a score counting up). */
const moves = motion();
// the page's handle for the browser tests and the console (nothing in the client reads it)
window.RR = { motion: moves.moves };
/** Watch together: a room whose leader moves this replay for everyone (replay-room.js). */
const room = replayRoom(R.id, { step: () => R.i, show: (i) => show(i, true) });
const analysis = replayAnalysis(
  R.id,
  (s) => who(s),
  (i) => !room.following() && show(i),
  undefined,
  () => R.rec
);
window.RR.analysis = () => analysis.data();

const who = (s) => seatLabel(s, R.sum && R.sum.seats);
const game = () => (R.rec && R.rec.game) || 'bigcheese';
const evText = (ev) => eventText(game(), ev, R.sum && R.sum.seats);

/** "P3 bid 2" in words with the player's name. */
function moveText(line) {
  const m = String(line).match(/^(P\d+)\s+(.*)$/);
  return m ? who(m[1]) + ': ' + actionWords(m[2]) : actionWords(line);
}

function renderInfo() {
  const r = R.rec;
  const o = r.outcome;
  // the options in words, as the lobby names them
  const opts = optionsWords(r.game, r.options);
  const res = o
    ? o.capped
      ? t('res.capped')
      : o.winners.length
        ? t('res.won', { who: winnersWords(o.winners, R.sum && R.sum.seats, who) })
        : t('res.nobody')
    : '';
  const scores = o ? o.scores.map((s, i) => who(i) + ' ' + s).join(' · ') : '';
  fill(
    'info',
    el('h2', { text: gameName(r.game) + ' · ' + R.id }),
    el(
      'div',
      { text: t('lobby.nPlayers', { n: r.players }) },
      el('span', { class: 'mute', text: ' · ' + t('replay.rules', { v: r.rules_version }) })
    ),
    el('div', { class: 'mute', text: t('lobby.options') + ': ' + opts }),
    res && el('div', { class: 'ok', text: '🏁 ' + res }),
    scores && el('div', { text: t('res.score') + ': ' + scores }),
    el('div', {
      class: 'mono',
      text:
        t('res.seed') +
        ' ' +
        r.seed +
        (R.sum && R.sum.seed_hash ? ' · ' + t('table.seedHash') + ' ' + R.sum.seed_hash : ''),
    }),
    el(
      'p',
      { class: 'row' },
      el('a', {
        href: '/api/tables/' + R.id + '/record' + seeQuery(R.id),
        download: 'ratrace-' + R.id + '.json',
        text: t('res.download'),
      }),
      el('a', { href: '/verify?id=' + R.id, text: t('res.verify') }),
      el('a', { href: '/t/' + R.id, text: t('replay.table') })
    )
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
  fill(
    'log',
    shown.map((s, j) =>
      el(
        'details',
        { class: 'section ' + s.cls, open: j >= shown.length - 2 },
        el('summary', { text: s.title + ' (' + s.items.length + ')' }),
        el('ol', {}, s.items)
      )
    )
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
  board.show(st, game());
  fill('board', boardView.game().board());
  fill('players', boardView.seats());
  const hands = (p.hands || []).map((h, s) =>
    h == null
      ? null
      : el(
          'div',
          { class: 'player', 'data-seat': seatId(s) },
          el('span', { class: 'nm', text: who(s) + ' ' }),
          el('span', {
            class: 'hand',
            text: h === '' || h === 'empty' ? t('replay.noCards') : cardsWords(String(h).replace(/\|/g, ' ')),
          })
        )
  );
  fill(
    'hands',
    hands.some(Boolean) ? [el('h2', { text: t('replay.hands') }), el('div', { class: 'players' }, hands)] : []
  );
}

function renderMoves() {
  const acts = R.rec.actions;
  fill(
    'moves',
    acts.map((a, k) =>
      el('li', { class: k === R.i - 1 ? 'new' : k >= R.i ? 'mute' : '', text: moveText(a), onclick: () => !room.following() && show(k + 1) })
    )
  );
}

/** Shows step `i`; a step the player took (not one a room's leader took: `fromRoom`) goes to the room. */
function show(i, fromRoom) {
  if (!R.pos.length) return;
  const n = R.total;
  const from = R.i;
  R.i = Math.max(0, Math.min(n, Number.isFinite(i) ? i : n));
  $('slider').max = n;
  $('slider').value = R.i;
  $('jump').max = n;
  $('jump').value = R.i;
  $('step').textContent = t('replay.step', { i: R.i, n });
  $('now').textContent = R.i ? moveText(R.rec.actions[R.i - 1]) : t('replay.start');
  // a step button that disables itself (the end reached) hands focus to
  // its opposite, so the keyboard stays in the controls, never on the page
  // while someone else leads a room here, the controls are theirs
  const had = document.activeElement;
  const frozen = room.following();
  $('prev').disabled = $('first').disabled = frozen || R.i === 0;
  $('next').disabled = $('last').disabled = frozen || R.i === n;
  $('slider').disabled = $('jump').disabled = frozen;
  if (had && had.disabled && !frozen) ($('prev') === had || $('first') === had ? $('next') : $('prev')).focus();
  document.body.dataset.step = String(R.i);
  // one step forward is played as it happened; a jump is drawn as it is
  const snap = R.i === from + 1 ? moves.before() : null;
  renderBoard();
  if (snap) moves.after(snap, (R.pos[R.i] && R.pos[R.i].events) || []);
  renderLog();
  renderMoves();
  if (R.i) scrollWithin($('moves'), $('moves').children[R.i - 1]);
  if (!fromRoom) room.stepped(R.i);
}

function render() {
  if (!R.rec || !R.pos.length) return;
  renderInfo();
  show(R.i, true);
  room.draw();
  if (R.rec) analysis.render();
}

/** Every position, 100 a request. */
async function loadPositions() {
  const pos = [];
  for (let from = 0; ; from += 100) {
    const batch = await api('/api/tables/' + R.id + '/replay/' + from + seeQuery(R.id));
    R.total = batch.steps;
    pos.push(...batch.positions);
    if (pos.length > R.total || !batch.positions.length) break;
  }
  R.pos = pos;
}

async function start() {
  initPage(render);
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
    const step = { ArrowLeft: R.i - 1, ArrowRight: R.i + 1, Home: 0, End: Infinity }[e.key];
    if (step === undefined || room.following()) return;
    // the page does not scroll as well (Home and End would take the
    // board out of view)
    e.preventDefault();
    show(step);
  });
  try {
    R.sum = await api('/api/tables/' + R.id).catch(() => null);
    R.rec = await api('/api/tables/' + R.id + '/record' + seeQuery(R.id));
    await loadPositions();
    render();
    room.start();
    document.body.dataset.ready = '1';
    analysis.load();
  } catch (e) {
    $('msg').textContent = e.status === 409 ? t('replay.notOver') : errText(e);
  }
}

boot(start);
