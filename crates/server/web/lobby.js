/* The lobby (index.html, served at /): "Play now" (lobby-pairing.js);
   the new table form built from GET /api/games (game, players, every
   option with its default in words, each seat human or bot), then POST /api/tables and a join as P1; the
   lists of open, live and finished tables from GET /api/tables, refreshed
   every 5 s; "Learn to play", a tutorial table of the game chosen
   (POST /api/tutorial, coached by tutorial.js); and the players' side
   (lobby-players.js).

   The bots are offered by level, counted from each game's ladder in
   /api/games (weakest first), then the bot programs the operator offers.
   window.RR is the page's handle for the browser tests; nothing in the
   client reads it. */

import { $, clear, el, fill } from './dom.js';
import { boot, t, tv } from './i18n.js';
import { api, errText, join } from './connection.js';
import { initPage, offlineWorker } from './page.js';
import { botName, gameName, when } from './names.js';
import * as store from './store.js';
import { myName, mySeat, saveCreator, saveKey, token } from './store.js';
import { lobbyPlayers } from './lobby-players.js';
import { lobbyPairing } from './lobby-pairing.js';
import { lobbyTournaments } from './lobby-tournaments.js';
import { localGames, localUrl, makeLocal } from './local.js';
import { friends, friendsPanel } from './friends.js';

window.RR = { join, ...store };

/** The lobby's state: the games (GET /api/games), each seat's choice, each game's options, the tables listed. */
const L = { games: [], seats: [], opts: {}, tables: [] };
/** A game's bots in ladder order ([] before /api/games came): a bot's level is its place there. */
const ladder = (name) => (L.games.find((g) => g.name === name) || {}).bots || [];
const players = lobbyPlayers(ladder);
const pairing = lobbyPairing(() => L.games);
/** The tournaments listed, and the form that makes one (lobby-tournaments.js). */
const tournaments = lobbyTournaments(() => L.games);
/** The people followed and the invitations waiting (friends.js), drawn in #friendsBox. */
const pals = friends('', drawFriends);

function drawFriends() {
  fill('friendsBox', friendsPanel($('friendsBox'), pals, drawFriends));
}

const game = () => L.games.find((g) => g.name === $('game').value) || L.games[0];

/* ---------- create form ---------- */

function renderGames() {
  const cur = $('game').value || (L.games[0] && L.games[0].name);
  clear($('game'));
  L.games.forEach((g) =>
    $('game').appendChild(el('option', { value: g.name, text: gameName(g.name), selected: g.name === cur }))
  );
  renderAbout();
}

/** What the game chosen is, in a line, for a newcomer, and its tutorial. */
function renderAbout() {
  $('gameAbout').textContent = t('about.' + game().name);
  const g = game();
  $('learn').textContent = t('tutorial.learn', { game: gameName(g.name) });
  $('learn').classList.toggle('hidden', !g.tutorial);
}

/**
 * "Learn to play": a tutorial table of the game chosen (POST
 * /api/tutorial: the game's fixed deal against bots), joined in P1 under
 * the name given, or a learner's if none is; its page coaches the game
 * (tutorial.js).
 */
async function learn() {
  const g = game();
  $('lerr').textContent = '';
  $('learn').disabled = true;
  try {
    const r = await api('/api/tutorial', 'POST', { game: g.name });
    saveKey(r.id, r.key);
    saveCreator(r.id, r.creator);
    await join(r.id, $('name').value.trim() || t('tutorial.name'), 'P1');
    location.href = '/t/' + r.id;
  } catch (e) {
    $('lerr').textContent = errText(e);
    $('learn').disabled = false;
  }
}

function renderPlayers() {
  const g = game();
  const cur = Number($('players').value) || g.default_players;
  clear($('players'));
  for (let n = g.players[0]; n <= g.players[1]; n++) {
    $('players').appendChild(
      el('option', {
        value: n,
        text: n,
        selected: n === (cur >= g.players[0] && cur <= g.players[1] ? cur : g.default_players),
      })
    );
  }
}

function seatChoice(i) {
  const g = game();
  const sel = el('select', {
    'aria-label': t('lobby.seatN', { n: 'P' + (i + 1) }),
    onchange: (e) => (L.seats[i] = e.target.value),
  });
  sel.appendChild(el('option', { value: 'human', text: t('lobby.human') }));
  g.bots.forEach((b) => sel.appendChild(el('option', { value: 'bot:' + b, text: botName(b, g.bots) })));
  // Bot programs the server's operator offers: levels after the ladder.
  (g.external || []).forEach((b) => sel.appendChild(el('option', { value: 'bot:' + b, text: botName(b, g.bots) })));
  if (!L.seats[i]) L.seats[i] = g.bots.includes('heuristic') ? 'bot:heuristic' : 'bot:' + g.bots[0];
  sel.value = L.seats[i];
  return sel;
}

function renderSeats() {
  const n = Number($('players').value);
  const rows = [el('div', { class: 'row' }, el('b', { text: 'P1' }), t('lobby.you'))];
  for (let i = 1; i < n; i++) rows.push(el('div', { class: 'row' }, el('b', { text: 'P' + (i + 1) }), seatChoice(i)));
  fill('seats', rows);
}

/**
 * An option's allowed values (`auto|1..=10000`, `on|off`, `none|H,H,...`):
 * its words, its number range if any, and whether it takes other text.
 * The range syntax is read here and never shown.
 */
function parseValues(values) {
  const parts = String(values).split('|');
  const words = parts.filter((x) => /^[a-z][a-z0-9_-]*$/i.test(x));
  const r = parts.map((x) => x.match(/^(\d+)\.\.=?(\d*)$/)).find(Boolean);
  return {
    words,
    min: r ? Number(r[1]) : null,
    max: r && r[2] ? Number(r[2]) : null,
    text: parts.length > words.length && !r,
  };
}

/**
 * The control of one option or setting, whose current text is `values[o.key]`:
 * a checkbox (on/off), a list of words, or a number (blank = its word). A
 * number in milliseconds (a key ending in `_ms`) is shown and typed in seconds.
 */
function optControl(values, o, id) {
  const v = parseValues(o.values);
  const cur = values[o.key];
  const set = (x) => (values[o.key] = x);
  const onOff = v.words.length === 2 && v.words.includes('on') && v.words.includes('off');
  if (onOff && v.min == null && !v.text)
    return el('input', {
      id,
      type: 'checkbox',
      checked: cur === 'on',
      onchange: (e) => set(e.target.checked ? 'on' : 'off'),
    });
  if (v.min == null && !v.text)
    return el(
      'select',
      { id, onchange: (e) => set(e.target.value) },
      v.words.map((w) => el('option', { value: w, text: t('val.' + w), selected: w === cur }))
    );
  const blank = v.words[0];
  const scale = o.key.endsWith('_ms') ? 1000 : 1;
  const shown = (x) => (x == null ? x : x / scale);
  const kind =
    v.min != null
      ? { type: 'number', min: shown(v.min), max: shown(v.max), step: scale > 1 ? 0.1 : 1, inputmode: 'decimal' }
      : { type: 'text' };
  const typed = (x) => (scale > 1 && x !== '' ? String(Math.round(Number(x) * scale)) : x);
  return el(
    'input',
    Object.assign(
      {
        id,
        value: blank && cur === blank ? '' : scale > 1 ? String(shown(Number(cur))) : cur,
        size: blank ? 14 : 8,
        placeholder: blank ? t('lobby.blank', { v: t('val.' + blank) }) : '',
        oninput: (e) => set(typed(e.target.value.trim()) || blank || ''),
      },
      kind
    )
  );
}

/** A default in words: "polyhedral (card's own die)", "off", "20". */
const valueWords = (v) => (/^[a-z][a-z0-9_-]*$/i.test(v) ? t('val.' + v) : v);

function renderOptions() {
  const g = game();
  L.opts[g.name] = L.opts[g.name] || Object.fromEntries(g.options.map((o) => [o.key, o.default]));
  const rows = g.options.map((o) => {
    const id = 'opt-' + g.name + '-' + o.key;
    const help = tv('opt.' + g.name + '.' + o.key) || o.help;
    return el(
      'div',
      { class: 'opt' },
      el(
        'div',
        { class: 'row' },
        el('label', { for: id }, el('b', { text: t('optName.' + g.name + '.' + o.key) })),
        optControl(L.opts[g.name], o, id)
      ),
      el('span', { text: help }),
      el('span', {
        class: 'mute',
        text:
          t('lobby.defaultIs', { v: valueWords(o.default) }) +
          ' · ' +
          t('lobby.source', { s: t('src.' + g.name + '.' + o.key) }),
      })
    );
  });
  fill('options', rows);
}

/** A setting's default in words: in seconds for one in milliseconds, as its control takes it. */
const settingWords = (o) =>
  o.key.endsWith('_ms') && /^\d+$/.test(o.default) ? String(Number(o.default) / 1000) : valueWords(o.default);

/**
 * The table's other settings (public, turn timer, bot delay, spectators'
 * chat), as /api/games describes them, drawn like the rules options.
 */
function renderSettings() {
  const g = game();
  L.settings = L.settings || Object.fromEntries((g.settings || []).map((o) => [o.key, o.default]));
  const rows = (g.settings || []).map((o) => {
    const id = 'set-' + o.key;
    return el(
      'div',
      { class: 'opt' },
      el('div', { class: 'row' }, el('label', { for: id }, el('b', { text: t('set.' + o.key) })), optControl(L.settings, o, id)),
      el('span', { text: tv('setHelp.' + o.key) || o.help }),
      el('span', { class: 'mute', text: t('lobby.defaultIs', { v: settingWords(o) }) })
    );
  });
  fill('settings', rows);
}

/** The settings as POST /api/tables takes them: on/off as booleans, numbers as numbers, a word (auto) left out. */
function settingsBody() {
  const body = {};
  for (const [k, v] of Object.entries(L.settings || {})) {
    if (v === 'on' || v === 'off') body[k] = v === 'on';
    else if (/^\d+$/.test(v)) body[k] = Number(v);
  }
  return body;
}

function renderForm() {
  if (!L.games.length) return;
  renderGames();
  renderPlayers();
  renderSeats();
  renderOptions();
  renderSettings();
}

function seatsBody(n) {
  const seats = [{ kind: 'human' }];
  for (let i = 1; i < n; i++) {
    const v = L.seats[i] || 'human';
    seats.push(v === 'human' ? { kind: 'human' } : { kind: 'bot', bot: v.slice(4) });
  }
  return seats;
}

async function create() {
  const name = $('name').value.trim();
  $('cerr').textContent = '';
  if (!name) {
    $('cerr').textContent = t('lobby.needName');
    return $('name').focus();
  }
  const g = game();
  const players = Number($('players').value);
  $('go').disabled = true;
  try {
    const body = {
      game: g.name,
      players,
      options: L.opts[g.name],
      seats: seatsBody(players),
      ...settingsBody(),
    };
    const r = await api('/api/tables', 'POST', body);
    saveKey(r.id, r.key);
    saveCreator(r.id, r.creator);
    await join(r.id, name, 'P1');
    // the key is kept in this browser; the table page shows the link
    location.href = '/t/' + r.id;
  } catch (e) {
    $('cerr').textContent = errText(e);
    $('go').disabled = false;
  }
}

/**
 * "Play offline against bots": the form's game, players, options and
 * bots, played in this browser (local.js, engine.js) with no server. A
 * seat left to a person gets the ladder's default bot.
 */
async function offline() {
  const g = game();
  const players = Number($('players').value);
  const levels = seatsBody(players)
    .slice(1)
    .map((s) => (s.kind === 'bot' ? s.bot : g.bots.includes('heuristic') ? 'heuristic' : g.bots[0]));
  $('cerr').textContent = '';
  $('offline').disabled = true;
  try {
    const name = $('name').value.trim() || t('local.you');
    const delay = settingsBody().bot_delay_ms;
    const id = await makeLocal({ game: g.name, players, options: L.opts[g.name] || {}, levels, ladder: ladder(g.name), name, delay });
    location.href = localUrl(id);
  } catch (e) {
    $('cerr').textContent = errText(e);
    $('offline').disabled = false;
  }
}

/** The games played in this browser, to go back to (offline too): the ten newest. */
async function drawLocal() {
  const games = (await localGames()).slice(0, 10);
  $('localGames').classList.toggle('hidden', !games.length);
  fill(
    'localList',
    games.map((g) =>
      el(
        'li',
        { class: 'row' },
        el('b', { text: gameName(g.game) }),
        el('span', { text: t('lobby.nPlayers', { n: g.players }) }),
        el('span', { class: 'mute', text: when(Math.floor(g.updated / 1000)) }),
        el('a', { href: localUrl(g.id), text: g.over ? t('lobby.result') : t('local.resume') })
      )
    )
  );
}

/**
 * A new version of the site, kept by the service worker, waits until the
 * person takes it here, in the lobby: never in the middle of a game.
 */
async function offerUpdate() {
  const reg = await offlineWorker();
  if (!reg) return;
  let asked = false;
  const show = () => {
    if (!reg.waiting || !navigator.serviceWorker.controller) return;
    const now = () => {
      asked = true;
      reg.waiting.postMessage('update');
    };
    fill('update', el('span', { text: t('local.update') + ' ' }), el('button', { id: 'updateNow', text: t('local.updateNow'), onclick: now }));
    $('update').classList.remove('hidden');
  };
  show();
  reg.addEventListener('updatefound', () => reg.installing && reg.installing.addEventListener('statechange', show));
  // the new version took over because the person asked: the page is drawn by it
  navigator.serviceWorker.addEventListener('controllerchange', () => asked && location.reload());
}

/* ---------- table lists ---------- */

async function joinTable(id, errBox) {
  const name = $('name').value.trim();
  if (!name) {
    errBox.textContent = t('lobby.needName');
    return $('name').focus();
  }
  try {
    await join(id, name);
    location.href = '/t/' + id;
  } catch (e) {
    errBox.textContent = errText(e);
  }
}

function tableRow(tb) {
  const err = el('span', { class: 'err' });
  const mine = token(tb.id);
  const head = [
    el('b', { text: gameName(tb.game) }),
    el('span', { text: t('lobby.nPlayers', { n: tb.players }) }),
    el('span', { class: 'mute', text: when(tb.created_at) }),
  ];
  let acts;
  if (tb.status === 'finished') {
    acts = [
      el('a', { href: '/replay/' + tb.id, text: t('lobby.replay') }),
      el('a', { href: '/t/' + tb.id, text: t('lobby.result') }),
    ];
  } else if (mine) {
    acts = [el('a', { href: '/t/' + tb.id, text: t('lobby.back', { seat: mySeat(tb.id) || '' }) })];
  } else {
    acts = [
      tb.free_seats > 0 && el('span', { class: 'tag', text: t('lobby.free', { n: tb.free_seats }) }),
      tb.free_seats > 0 && el('button', { text: t('lobby.join'), onclick: () => joinTable(tb.id, err) }),
      el('a', { href: '/t/' + tb.id, text: t('lobby.watch') }),
    ];
  }
  return el('li', {}, head, players.tableExtra(tb), el('span', { class: 'grow' }), acts, err);
}

function renderTables() {
  const by = (st) => L.tables.filter((x) => x.status === st);
  const open = L.tables.filter((x) => x.status !== 'finished' && x.free_seats > 0);
  const live = by('playing').filter((x) => !(x.free_seats > 0));
  const lists = { open, live, done: by('finished').slice(0, 20) };
  for (const [id, list] of Object.entries(lists)) {
    fill(id, list.length ? list.map(tableRow) : el('li', { class: 'mute', text: t('lobby.none') }));
  }
}

async function loadTables() {
  try {
    L.tables = (await api('/api/tables')) || [];
    renderTables();
  } catch (e) {
    fill('open', el('li', { class: 'err', text: errText(e) }));
  }
}

/**
 * A static site (`ratrace site`, no server behind it): its lobby is marked,
 * and shows only what needs no server, the offline game and the games
 * kept in this browser.
 */
const STATIC = !!document.querySelector('meta[name="ratrace-site"]');

async function start() {
  if (STATIC) document.body.classList.add('site');
  else {
    players.start();
    tournaments.start();
    pals.start();
  }
  initPage(() => {
    renderForm();
    renderTables();
    pairing.redraw();
    tournaments.redraw();
    drawFriends();
  });
  $('name').value = myName();
  $('game').onchange = () => {
    L.seats = [];
    renderAbout();
    renderPlayers();
    renderSeats();
    renderOptions();
  };
  $('players').onchange = renderSeats;
  $('go').onclick = create;
  $('offline').onclick = offline;
  $('learn').onclick = learn;
  drawLocal();
  offerUpdate();
  try {
    L.games = await api('/api/games');
    renderForm();
    renderTables();
    if (STATIC) return;
    players.redraw();
    tournaments.redraw();
    pairing.resume();
  } catch (e) {
    $('cerr').textContent = errText(e);
  }
  if (STATIC) return;
  loadTables();
  setInterval(loadTables, 5000);
}

boot(start);
