/* A tournament's page (tournament.html, served at /tournament/{id}):
   GET /api/tournaments/{id} with this browser's identity every 2 s, drawn
   as its head (kind, game, where it stands, a countdown), the person's
   part (enter under a name, leave, start it early if they made it), the
   standings and its tables (watch a live one, replay a finished one).

   When the tournament seats the person at a new table, the page goes
   there (/t/{id}#back: the table page takes the seat their identity
   holds, from any device); the table's result links back here, and the
   next table follows. A table this browser went to already is never gone
   to again by itself (its result may not be counted yet when the person
   comes back), only by its link. window.RR is the page's handle for the
   browser tests; nothing in the client reads it. */

import { $, el, fill } from './dom.js';
import { boot, t } from './i18n.js';
import { api, errText } from './connection.js';
import { initPage } from './page.js';
import { gameName } from './names.js';
import * as store from './store.js';

/** The tournament once read, the last error, what the last change said. */
const T = { data: null, error: null, said: '', now: Date.now() };
window.RR = { T };

const POLL_MS = 2000;
const WENT = 'ratrace.tables-gone-to';

const tid = () => {
  const m = location.pathname.match(/^\/tournament\/([^/]+)$/);
  return m ? decodeURIComponent(m[1]) : '';
};
const me = () => ({ 'X-Ratrace-Key': store.identity() });
const path = (tail = '') => '/api/tournaments/' + encodeURIComponent(tid()) + tail;

/** Tables this browser went to (the newest 50). */
const wentTo = () => {
  try {
    return JSON.parse(sessionStorage.getItem(WENT) || '[]');
  } catch {
    return [];
  }
};
function goTo(table) {
  sessionStorage.setItem(WENT, JSON.stringify([table, ...wentTo()].slice(0, 50)));
  location.href = '/t/' + encodeURIComponent(table) + '#back';
}

/** "3:05" for `ms` milliseconds (never below 0). */
function clock(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
}

/** Where it stands, in words. */
function stands(d) {
  const now = Date.now();
  if (d.status === 'open') return t('tour.startsIn', { t: clock(d.starts_ms - now) });
  if (d.status === 'finished') return d.note || t('tour.over');
  if (d.kind === 'arena') return t('tour.endsIn', { t: clock((d.ends_ms || now) - now) });
  return t('tour.round', { r: d.round, n: d.rounds });
}

function head(d) {
  return [
    el('h2', { id: 'tName', text: d.name }),
    el(
      'p',
      {},
      el('span', { class: 'tag', text: t('tour.kind.' + d.kind) }),
      ' ',
      gameName(d.game) + ' · ' + t('lobby.nPlayers', { n: d.players }) + ' · ' + t('tour.entrants', { n: d.entrants })
    ),
    el('p', { class: 'mute', text: t('tour.about.' + d.kind) }),
    el('p', { id: 'tStatus', role: 'status', text: stands(d) }),
  ];
}

/** Enters, leaves or starts; the answer is the tournament as it is now. */
async function change(tail, body) {
  T.said = '';
  try {
    T.data = await api(path(tail), 'POST', body, me());
  } catch (e) {
    T.said = errText(e);
  }
  render();
}

function part(d) {
  const you = d.you || {};
  const table = you.table;
  const name = el('input', { id: 'tpName', maxlength: 24, autocomplete: 'nickname', value: store.myName() });
  const enter = () => {
    const n = name.value.trim();
    store.saveName(n);
    change('/join', { name: n });
  };
  const open = d.status !== 'finished' && (d.status === 'open' || d.kind === 'arena');
  return [
    el('h2', { text: t('tour.you') }),
    table
      ? el(
          'p',
          { class: 'row' },
          el('strong', { text: t('tour.yourTable') }),
          el('a', { id: 'tGo', class: 'button', href: '/t/' + encodeURIComponent(table) + '#back', text: t('tour.goTable') })
        )
      : null,
    you.entered
      ? el(
          'p',
          { class: 'row' },
          el('span', { id: 'tIn', text: t(d.status === 'finished' ? 'tour.played' : 'tour.entered') }),
          d.status !== 'finished' ? el('button', { id: 'tLeave', class: 'alt', text: t('tour.leave'), onclick: () => change('/leave') }) : null
        )
      : open
        ? el(
            'p',
            { class: 'row' },
            el('label', {}, el('span', { text: t('lobby.name') + ' ' }), name),
            el('button', { id: 'tJoin', text: t('tour.join'), onclick: enter })
          )
        : el('p', { class: 'mute', text: t('tour.closed') }),
    you.creator && d.status === 'open'
      ? el('p', {}, el('button', { id: 'tStart', text: t('tour.start'), onclick: () => change('/start') }))
      : null,
    el('p', { id: 'tSaid', class: 'err', role: 'alert', text: T.said }),
  ];
}

function standings(d) {
  if (!d.standings.length) return el('p', { class: 'mute', text: t('tour.noStandings') });
  const th = (k, num) => el('th', { scope: 'col', class: num ? 'num' : null, text: t(k) });
  const points = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
  return el(
    'table',
    { class: 'res', id: 'tStandings' },
    el('tr', {}, th('tour.place'), th('tour.player'), th('tour.points', 1), th('tour.tables', 1), th('tour.wins', 1), th('tour.standIns', 1)),
    d.standings.map((l) =>
      el(
        'tr',
        { class: l.left ? 'mute' : '' },
        el('td', { text: l.place }),
        el(
          'td',
          {},
          l.short ? el('a', { href: '/p/' + l.short, text: l.name }) : l.name,
          l.left ? el('span', { class: 'mute', text: ' · ' + t('tour.left') }) : null
        ),
        el('td', { class: 'num', text: points(l.points) }),
        el('td', { class: 'num', text: l.tables }),
        el('td', { class: 'num', text: l.firsts }),
        el('td', { class: 'num', text: l.stand_ins })
      )
    )
  );
}

function tableRow(tb) {
  const seat = (name, i) => {
    const place = tb.places ? ' (' + tb.places[i] + ')' : '';
    const stood = tb.stand_in[i] ? ' · ' + t('tour.standIn') : '';
    return name + place + stood;
  };
  const over = tb.places || tb.void;
  return el(
    'li',
    { 'data-k': tb.id },
    el('span', { class: 'tag', text: t('tour.roundN', { r: tb.round }) }),
    ' ',
    el('span', { text: tb.seats.map(seat).join(' · ') }),
    ' ',
    tb.void
      ? el('span', { class: 'mute', text: t('tour.void') })
      : el('a', { href: over ? '/replay/' + tb.id : '/t/' + tb.id, text: t(over ? 'tour.replay' : 'tour.watch') })
  );
}

function render() {
  if (T.error) {
    $('msg').textContent = T.error.status === 404 ? t('tour.unknown') : errText(T.error);
    return;
  }
  $('msg').textContent = '';
  const d = T.data;
  if (!d) return fill('head', el('p', { class: 'mute', text: '…' }));
  document.title = d.name + ' · ratrace';
  fill('head', head(d));
  fill('part', part(d));
  fill('standings', standings(d));
  fill('tables', d.tables.length ? d.tables.map(tableRow) : el('li', { class: 'mute', text: t('tour.noTables') }));
  document.body.dataset.ready = '1';
}

async function load() {
  try {
    T.data = await api(path(), 'GET', undefined, me());
    T.error = null;
  } catch (e) {
    // a blip keeps the page as it was; an unknown tournament says so
    if (e.status === 404 || !T.data) T.error = e;
  }
  const table = T.data && T.data.you && T.data.you.table;
  if (table && !wentTo().includes(table)) return goTo(table);
  render();
}

async function start() {
  initPage(render);
  render();
  await load();
  setInterval(load, POLL_MS);
}

boot(start);
