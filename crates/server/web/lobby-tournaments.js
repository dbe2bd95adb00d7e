/* The lobby's tournaments (docs/server.md, "Tournaments"): the list from
   GET /api/tournaments (unfinished first), each a link to its page, and
   a form that makes one (POST /api/tournaments with this browser's
   identity, which makes it its creator) and goes to its page: the kind,
   the tables (a quick-pairing preset from /api/games), the rounds of a
   Swiss or duplicate or an arena's minutes, and when it starts. */

import { $, el, fill } from './dom.js';
import { t } from './i18n.js';
import { api, errText } from './connection.js';
import { gameName } from './names.js';
import * as store from './store.js';

const KINDS = ['arena', 'swiss', 'duplicate'];
const MINUTES = [5, 10, 20, 30, 60];
const STARTS_MIN = [1, 2, 5, 10, 30, 60];

/** The lobby's tournaments: `games()` gives /api/games' answer. Returns { start, redraw }. */
export function lobbyTournaments(games) {
  const L = { list: null, error: '' };

  const presets = () => games().flatMap((g) => (g.pairing || []).map((p) => ({ ...p, game: g.name })));

  /** The form's selects, filled once the games are known (and again on a language switch). */
  function form() {
    const keep = (id) => $(id).value;
    const opts = (id, items) => {
      const was = keep(id);
      fill(id, items.map(([v, text]) => el('option', { value: v, text })));
      if (items.some(([v]) => String(v) === was)) $(id).value = was;
    };
    opts('tkind', KINDS.map((k) => [k, t('tour.kind.' + k)]));
    opts(
      'tpreset',
      presets().map((p) => [p.id, gameName(p.game) + ' · ' + t('lobby.nPlayers', { n: p.players }) + (p.options.length ? ' · ' + p.options.join(', ') : '')])
    );
    opts('trounds', [1, 2, 3, 4, 5, 6].map((n) => [n, String(n)]));
    if (!keep('trounds')) $('trounds').value = '3';
    opts('tminutes', MINUTES.map((n) => [n, t('tour.min', { n })]));
    opts('tstart', STARTS_MIN.map((n) => [n * 60, t('tour.min', { n })]));
    kind();
  }

  /** Rounds for a Swiss or duplicate, minutes for an arena; what the kind is. */
  function kind() {
    const k = $('tkind').value;
    $('troundsBox').classList.toggle('hidden', k === 'arena');
    $('tminutesBox').classList.toggle('hidden', k !== 'arena');
    $('tabout').textContent = k ? t('tour.about.' + k) : '';
  }

  async function make() {
    $('terr').textContent = '';
    const k = $('tkind').value;
    const body = {
      name: $('tname').value.trim() || t('tour.namePh'),
      kind: k,
      preset: $('tpreset').value,
      start_in_s: Number($('tstart').value),
    };
    if (k === 'arena') body.minutes = Number($('tminutes').value);
    else body.rounds = Number($('trounds').value);
    try {
      const made = await api('/api/tournaments', 'POST', body, { 'X-Ratrace-Key': store.identity() });
      location.href = '/tournament/' + encodeURIComponent(made.id);
    } catch (e) {
      $('terr').textContent = errText(e);
    }
  }

  function row(x) {
    const when =
      x.status === 'open'
        ? t('tour.startsAt', { t: new Date(x.starts_ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) })
        : t('tour.status.' + x.status);
    return el(
      'li',
      { 'data-k': x.id },
      el('a', { href: '/tournament/' + encodeURIComponent(x.id), text: x.name }),
      ' ',
      el('span', { class: 'tag', text: t('tour.kind.' + x.kind) }),
      el('span', { class: 'mute', text: ' ' + gameName(x.game) + ' · ' + t('tour.entrants', { n: x.entrants }) + ' · ' + when })
    );
  }

  function redraw() {
    if (games().length) form();
    if (L.error) return fill('tlist', el('li', { class: 'err', text: L.error }));
    if (!L.list) return;
    fill('tlist', L.list.length ? L.list.slice(0, 12).map(row) : el('li', { class: 'mute', text: t('tour.none') }));
  }

  async function load() {
    try {
      L.list = (await api('/api/tournaments')).tournaments;
      L.error = '';
    } catch (e) {
      L.error = errText(e);
    }
    redraw();
  }

  function start() {
    $('tkind').onchange = kind;
    $('tgo').onclick = make;
    load();
    setInterval(load, 10000);
  }

  return { start, redraw };
}
