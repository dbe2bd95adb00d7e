/* The lobby's "Play now" (quick pairing, docs/server.md "Quick pairing"):
   a preset from GET /api/games (`pairing`), the wait before bots and their
   level, then POST /api/pairing puts this browser in that preset's pool.
   While it waits, the page asks GET /api/pairing/{ticket}?wait=1 again as
   soon as it is answered: the server holds the answer until something
   changes (someone came or left, the seat is ready) or 20 s pass, so the
   seat is known at once; the asking is also the ticket's heartbeat (a
   closed page stops asking and its ticket expires). It shows "2 of 4
   here" with the time waited, counted on here between answers; once
   seated it keeps the seat's token as a join would and goes to the
   table.

   The ticket and the choice it was made with are kept in localStorage, so
   a reload finds the wait again. A ticket the server no longer knows (a
   restart lost the pools: they are soft state) is asked for again with
   the same choice if this page asked about it within the last minute, and
   forgotten otherwise (a page closed long ago does not rejoin a pool). */

import { $, clear, el } from './dom.js';
import { t } from './i18n.js';
import { api, errText } from './connection.js';
import { botName, gameName } from './names.js';
import * as store from './store.js';

const KEPT = 'ratrace.pairing';
/** How long after its last answer a lost ticket is still asked for again. */
const REJOIN_MS = 60000;
/** The pause before asking again after an answer that came at once (seating, a network blip). */
const RETRY_MS = 500;

const kept = () => {
  try {
    return JSON.parse(localStorage.getItem(KEPT) || 'null');
  } catch {
    return null;
  }
};
const keep = (v) => (v ? localStorage.setItem(KEPT, JSON.stringify(v)) : localStorage.removeItem(KEPT));

/**
 * The "Play now" part of the lobby: `games()` gives /api/games' answer
 * (empty before it came). Returns { redraw, resume }.
 */
export function lobbyPairing(games) {
  const P = { timer: null, last: null, at: 0, tick: null };
  const presets = () => games().flatMap((g) => (g.pairing || []).map((p) => ({ ...p, game: g.name, g })));
  const preset = (id) => presets().find((p) => p.id === id);

  /** A preset in words: "The Big Cheese · 4 players · rated". */
  function presetText(p) {
    const parts = [gameName(p.game), t('lobby.nPlayers', { n: p.players })];
    for (const o of p.options) {
      const [k, v] = o.split('=');
      parts.push(t('optName.' + p.game + '.' + k) + ': ' + v);
    }
    parts.push(t(p.public ? 'lobby.rated' : 'lobby.casual'));
    return parts.join(' · ');
  }

  /** The bot levels of the preset chosen, and the preset in full (a phone cuts the list's text). */
  function levels() {
    const p = preset($('preset').value);
    $('presetAbout').textContent = p ? presetText(p) : '';
    const cur = $('pbot').value || 'heuristic';
    clear($('pbot'));
    const ladder = (p && p.g.bots) || [];
    ladder.forEach((b) =>
      $('pbot').appendChild(el('option', { value: b, text: botName(b, ladder), selected: b === cur }))
    );
  }

  function renderForm() {
    const list = presets();
    if (!list.length) return;
    const cur = $('preset').value || list[0].id;
    clear($('preset'));
    list.forEach((p) => $('preset').appendChild(el('option', { value: p.id, text: presetText(p), selected: p.id === cur })));
    const g = list[0].g;
    const wait = $('pwait').value || String(g.pairing_wait_s);
    clear($('pwait'));
    (g.pairing_waits_s || []).forEach((s) =>
      $('pwait').appendChild(el('option', { value: s, text: t('lobby.seconds', { n: s }), selected: String(s) === wait }))
    );
    levels();
  }

  /** Shows where ticket `v` stands (a GET or POST answer). */
  function renderWait(v, since = 0) {
    if (!since) {
      P.last = v;
      P.at = Date.now();
    }
    const k = kept();
    const p = k && preset(k.preset);
    $('pairForm').classList.add('hidden');
    $('pairWait').classList.remove('hidden');
    $('pairWhat').textContent = p ? presetText(p) : '';
    if (v.status === 'waiting') {
      $('pairHere').textContent = t('lobby.here', { here: v.here, n: v.players });
      const waited = v.waited_ms + since;
      const botsIn = Math.max(0, v.bots_in_ms - since);
      $('pairTime').textContent =
        t('lobby.waited', { s: Math.round(waited / 1000) }) + ' · ' + t('lobby.botsIn', { s: Math.ceil(botsIn / 1000) });
    } else {
      $('pairHere').textContent = t('lobby.seating');
      $('pairTime').textContent = '';
    }
  }

  /** The time shown moves on between answers. */
  function ticking() {
    clearInterval(P.tick);
    P.tick = setInterval(() => {
      if (P.last && kept()) renderWait(P.last, Date.now() - P.at);
    }, 1000);
  }

  function showForm() {
    clearTimeout(P.timer);
    clearInterval(P.tick);
    P.last = null;
    $('pairForm').classList.remove('hidden');
    $('pairWait').classList.add('hidden');
    $('play').disabled = false;
  }

  /** Seated: keeps what a join keeps, forgets the ticket, goes to the table. */
  function seated(v) {
    const k = kept();
    store.saveSeat(v.table, v.seat, v.token);
    if (k && k.contribution) store.saveContribution(v.table, k.contribution);
    store.saveCommitment(v.table, v.commitment);
    store.saveServerKey(v.key);
    keep(null);
    location.href = '/t/' + v.table;
  }

  /** Asks about the kept ticket; with `hold`, the server answers when something changed. */
  async function poll(hold = true) {
    const k = kept();
    if (!k) return showForm();
    let v;
    // an answer about a ticket cancelled (or replaced) meanwhile is no news
    const stale = () => (kept() || {}).ticket !== k.ticket;
    try {
      v = await api('/api/pairing/' + k.ticket + (hold ? '?wait=1' : ''));
    } catch (e) {
      if (stale()) return;
      if (e.code === 'unknown_ticket') {
        keep(null);
        if (Date.now() - (k.at || 0) < REJOIN_MS) return ask(k);
        return showForm();
      }
      // a network blip: ask again in a moment
      P.timer = setTimeout(poll, RETRY_MS);
      return;
    }
    if (stale()) return;
    k.at = Date.now();
    keep(k);
    if (v.status === 'seated') return seated(v);
    if (v.status === 'failed') {
      keep(null);
      showForm();
      $('perr').textContent = t('lobby.pairingFailed', { m: v.message });
      return;
    }
    renderWait(v);
    P.timer = setTimeout(poll, v.status === 'waiting' ? 0 : RETRY_MS);
  }

  /** Asks for a ticket with choice `c` ({preset, bot, wait_s, name}). */
  async function ask(c) {
    $('perr').textContent = '';
    $('play').disabled = true;
    const contribution = store.random32();
    try {
      const v = await api('/api/pairing', 'POST', {
        preset: c.preset,
        name: c.name,
        player: store.identity(),
        bot: c.bot,
        wait_s: Number(c.wait_s),
        contribution,
      });
      keep({ ...c, ticket: v.ticket, contribution, at: Date.now() });
      renderWait(v);
      ticking();
      // the form is gone: focus goes to what may be done now
      $('pairCancel').focus();
      P.timer = setTimeout(poll, 0);
    } catch (e) {
      showForm();
      $('perr').textContent = errText(e);
    }
  }

  function playNow() {
    const name = $('pname').value.trim();
    if (!name) {
      $('perr').textContent = t('lobby.needName');
      return $('pname').focus();
    }
    store.saveName(name);
    ask({ preset: $('preset').value, bot: $('pbot').value, wait_s: $('pwait').value, name });
  }

  async function cancel() {
    const k = kept();
    clearTimeout(P.timer);
    keep(null);
    if (k) {
      try {
        await api('/api/pairing/' + k.ticket, 'DELETE');
      } catch (e) {
        // seated meanwhile: go to the seat rather than lose it
        if (e.code === 'seat_taken') {
          keep(k);
          return poll();
        }
      }
    }
    showForm();
  }

  $('play').onclick = playNow;
  $('pairCancel').onclick = cancel;
  $('preset').onchange = levels;
  $('pname').value = store.myName();
  return {
    redraw() {
      renderForm();
      const k = kept();
      if (k && P.last) renderWait(P.last);
    },
    resume() {
      renderForm();
      if (kept()) {
        ticking();
        // at once first: the page has nothing to show yet
        poll(false);
      }
    },
  };
}
