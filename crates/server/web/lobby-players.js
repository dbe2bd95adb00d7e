/* The lobby's players' side (index.html, beside lobby.js): who played
   and who won in the table lists, "My games" with this browser's ratings
   and a link to its profile, the identity carried to another device by a
   link, and the leaderboard, each name a link to that person's profile.

   lobbyPlayers(ladder) is made by lobby.js, which gives the games' bot
   ladders (from /api/games: a bot's level is its place there) and shows
   tableExtra() in its lists. What it shows (my games, the leaderboard,
   the other-device link open or not) is its own state. */

import { $, append, clear, el } from './dom.js';
import { onLang, t } from './i18n.js';
import { api, errText } from './connection.js';
import { copyRow } from './page.js';
import { botName, gameName, seatId, when, winnersWords } from './names.js';
import { identity, keptIdentity, saveIdentity, saveName } from './store.js';
import { addPasskey, passkeySignIn, passkeysHere, removePasskey } from './passkeys.js';

/** Replaces the children of element `node` by `kids`. */
const put = (node, ...kids) => append(clear(node), kids);

/**
 * The players' side of the lobby. `ladder(game)` is the game's bots in
 * ladder order (from /api/games; [] before it came), which numbers the
 * bots' levels. Returns tableExtra(tb) for the lines of the table lists,
 * start(), and redraw() for when the ladder came.
 */
export function lobbyPlayers(ladder) {
  /** What this browser's player has played (GET /api/me/games); null before it came. */
  let mine = null;
  /** The leaderboard shown: its game, and its rows once they came. */
  const board = { game: 'bigcheese', data: null };
  /** Whether the other-device link is open. */
  let showLink = false;
  /** This identity's passkeys as the server says ({offered, passkeys}), and what the last passkey action said. */
  const keys = { mine: null, said: '' };

  /* ---------- lobby: players and winner, my games, leaderboard ---------- */

  /** A seat of a table list in words: a person's name, a bot by its level name. */
  const seatName = (s, game) =>
    s.kind === 'bot' ? '🤖 ' + botName(s.bot, ladder(game)) : s.name || (s.kind === 'human' ? t('lobby.freeSeat') : seatId(s.seat));
  const byId = (seats, id) => (seats || []).find((s) => seatId(s.seat) === seatId(id));

  /**
   * Who sat at table `tb`, in the words of 'lobby.with': a finished
   * game's people with an identity as links to their profiles.
   */
  function withWhom(tb) {
    const [pre, post] = t('lobby.with', { who: '\u0000' }).split('\u0000');
    const names = [];
    tb.seats.forEach((s, i) => {
      if (i) names.push(', ');
      const name = seatName(s, tb.game);
      names.push(
        tb.status === 'finished' && s.kind === 'human' && s.player && s.name
          ? el('a', { href: '/p/' + s.player, text: name, 'aria-label': t('profile.of', { name }) })
          : name
      );
    });
    return [pre, names, post];
  }

  /** What a line of a table list adds: who plays, and who won (lobby.js hook). */
  function tableExtra(tb) {
    if (!tb.seats || !tb.seats.length) return null;
    const parts = [];
    if (tb.winners)
      parts.push(
        tb.winners.length
          ? t('lobby.winner', {
              who: winnersWords(tb.winners, tb.seats, (w) => seatName(byId(tb.seats, w) || { seat: w }, tb.game)),
            })
          : t('lobby.nobody')
      );
    return el('span', { class: 'mute' }, withWhom(tb), parts.map((x) => ' · ' + x));
  }

  function section(id, after) {
    let box = $(id);
    if (!box) {
      box = el('section', { id });
      const ref = $(after);
      ref.parentNode.insertBefore(box, ref.nextSibling);
    }
    return box;
  }

  function renderMine() {
    const box = section('mine', 'create');
    const m = mine;
    const rows = [];
    if (m && m.games.length) {
      m.games.forEach((g) => {
        const status =
          g.status === 'finished'
            ? g.winners
              ? g.winners.length
                ? t('lobby.winner', {
                    who: winnersWords(g.winners, g.seats, (w) => seatName(byId(g.seats, w) || { seat: w }, g.game)),
                  })
                : t('lobby.nobody')
              : ''
            : t(g.status === 'abandoned' ? 'mine.abandoned' : g.status === 'open' ? 'mine.open' : 'mine.live');
        const links =
          g.status === 'finished'
            ? [
                el('a', { href: '/replay/' + g.id, text: t('lobby.replay') }),
                el('a', { href: '/t/' + g.id, text: t('lobby.result') }),
              ]
            : [el('a', { href: '/t/' + g.id + '#back', text: t('lobby.back', { seat: seatId(g.seat) }) })];
        rows.push(
          el(
            'li',
            {},
            el('b', { text: gameName(g.game) }),
            el('span', { class: 'mute', text: when(g.created_at) }),
            el('span', { text: t('mine.you', { seat: seatId(g.seat) }) }),
            g.status === 'finished' && g.seats ? el('span', { class: 'mute' }, withWhom(g)) : null,
            el('span', { text: status }),
            el('span', { class: 'grow' }),
            links
          )
        );
      });
    } else rows.push(el('li', { class: 'mute', text: m ? t('mine.none') : '…' }));
    const ratings = m
      ? m.ratings.map((r) =>
          el('p', {
            text:
              t('mine.rating', {
                game: gameName(r.game),
                r: Math.round(r.rating) + ' ± ' + Math.round(r.uncertainty),
              }) +
              ' · ' +
              t('board.games', { n: r.games }),
          })
        )
      : [];
    // this browser's own profile, once it is rated (a profile is a rated person's)
    const profile =
      m && m.player && m.ratings.length
        ? el('p', {}, el('a', { id: 'myProfile', href: '/p/' + m.player, text: t('profile.mine') }))
        : null;
    put(
      box,
      el('h2', { text: t('mine.title') }),
      ratings,
      profile,
      el('ul', { id: 'mineList', class: 'plain' }, rows),
      deviceBox()
    );
  }

  /**
   * Your identity on another device: a link that carries this browser's
   * identity key in its fragment (never sent to the server), shown on
   * request; opened elsewhere, it offers to make that browser the same
   * player (its games, its rating).
   */
  function deviceBox() {
    const link = location.origin + '/#me=' + identity();
    return el(
      'details',
      { id: 'device', open: showLink || null, ontoggle: (e) => (showLink = e.target.open) },
      el('summary', { text: t('me.other') }),
      el('p', { class: 'mute', text: t('me.otherText') }),
      copyRow('meLink', t('me.other'), link, renderMine, 'mono'),
      passkeyBox()
    );
  }

  /**
   * Passkeys, when the server offers them and the browser can: keep this
   * identity with one, or sign in with one (this browser becomes its
   * identity). A cancelled prompt is said as such.
   */
  function passkeyBox() {
    if (!passkeysHere() || !keys.mine || !keys.mine.offered) return null;
    // the server's refusals are sentences of their own; the browser's are said here
    const said = (e) => (e && e.name === 'NotAllowedError' ? t('me.passkeyCancelled') : e && e.code ? e.message || errText(e) : String((e && e.message) || e));
    const run = (work) => async () => {
      try {
        keys.said = await work();
      } catch (e) {
        keys.said = said(e);
      }
      loadMine();
    };
    const n = keys.mine.passkeys.length;
    return el(
      'div',
      { id: 'passkeys' },
      el('p', { class: 'mute', text: t('me.passkeyText') + ' ' + t('me.passkeyCount', { n }) }),
      el(
        'p',
        { class: 'row' },
        el('button', { id: 'passkeyAdd', class: 'alt', text: t('me.passkeyAdd'), onclick: run(async () => (await addPasskey(), t('me.passkeyAdded'))) }),
        el('button', {
          id: 'passkeySignIn',
          class: 'alt',
          text: t('me.passkeySignIn'),
          onclick: run(async () => t('me.passkeySigned', { id: await passkeySignIn() })),
        })
      ),
      n
        ? el(
            'ul',
            { id: 'passkeyList', class: 'plain' },
            keys.mine.passkeys.map((k, i) =>
              el(
                'li',
                { class: 'row', 'data-k': k.id },
                el('span', {
                  text:
                    t('me.passkeyN', { n: i + 1 }) +
                    ' · ' +
                    t('me.passkeyMade', { when: when(k.created_at) }) +
                    (k.used_at ? ' · ' + t('me.passkeyUsed', { when: when(k.used_at) }) : ''),
                }),
                el('button', {
                  class: 'alt',
                  'aria-label': t('me.passkeyRemoveN', { n: i + 1 }),
                  text: t('me.passkeyRemove'),
                  onclick: run(async () => (await removePasskey(k.id), t('me.passkeyRemoved'))),
                })
              )
            )
          )
        : null,
      el('p', { id: 'passkeySaid', role: 'status', text: keys.said })
    );
  }

  /**
   * Who the identity `key` is, as the server knows it: {name, games} (its
   * latest name, its most rated games or games listed), or null for one
   * with no game.
   */
  async function whoIs(key) {
    try {
      const r = await fetch('/api/me/games', { headers: { 'X-Ratrace-Key': key } });
      const m = r.ok ? await r.json() : null;
      if (!m || !m.games.length) return null;
      const g = m.games[0];
      const seat = (g.seats || []).find((s) => seatId(s.seat) === seatId(g.seat));
      const name = (m.ratings[0] && m.ratings[0].name) || (seat && seat.name) || '?';
      return { name, games: Math.max(m.games.length, ...m.ratings.map((x) => x.games)) };
    } catch (e) {
      return null;
    }
  }

  /**
   * Opened from another device's link (#me=KEY): says whose identity it
   * is (its name and games), and what it would replace here, and asks
   * before making this browser that player. A link someone else sends
   * is their identity, not yours: it is said so before anything changes.
   */
  async function takeIdentity() {
    const m = location.hash.match(/^#me=([0-9a-f]{64})$/);
    if (!m) return;
    history.replaceState(null, '', location.pathname + location.search);
    const had = keptIdentity();
    if (m[1] === had || $('takeMe')) return;
    const [theirs, mine] = await Promise.all([whoIs(m[1]), had ? whoIs(had) : null]);
    const games = (w) => t('board.games', { n: w.games });
    const box = el(
      'section',
      { id: 'takeMe', class: 'waitbox', role: 'region', 'aria-label': t('me.takeTitle') },
      el('h2', { text: t('me.takeTitle') }),
      el('p', {
        id: 'takeWho',
        text: theirs ? t('me.takeWho', { name: theirs.name, games: games(theirs) }) : t('me.takeNobody'),
      }),
      mine
        ? el('p', { id: 'takeReplaces', class: 'warn', text: t('me.replace', { name: mine.name, games: games(mine) }) })
        : null,
      el('p', { class: 'mute', text: t('me.takeText') }),
      el(
        'p',
        { class: 'row' },
        el('button', {
          text: t('me.take'),
          onclick: () => {
            saveIdentity(m[1]);
            // the name comes along: the one that identity last played under
            if (theirs && theirs.name !== '?') {
              saveName(theirs.name);
              if ($('name')) $('name').value = theirs.name;
            }
            box.remove();
            loadMine();
          },
        }),
        el('button', { class: 'alt', text: t('me.keep'), onclick: () => box.remove() })
      )
    );
    const main = document.querySelector('main');
    main.insertBefore(box, main.firstChild);
  }

  function renderBoard() {
    const box = section('leaderboard', 'mine');
    const b = board;
    const pick = el(
      'select',
      { 'aria-label': t('lobby.game'), onchange: (e) => loadBoard(e.target.value) },
      ['bigcheese', 'dalmuti'].map((g) => el('option', { value: g, text: gameName(g), selected: g === b.game }))
    );
    const me = mine && mine.player;
    let body;
    if (!b.data) body = el('p', { class: 'mute', text: '…' });
    else {
      // two people of one name are told apart by the start of their id
      const named = {};
      b.data.players.forEach((p) => (named[p.name] = (named[p.name] || 0) + 1));
      const nameCell = (p) =>
        el(
          'td',
          {},
          el('a', { href: '/p/' + p.player, text: p.name, 'aria-label': t('profile.of', { name: p.name }) }),
          named[p.name] > 1 ? el('span', { class: 'mute', text: ' #' + p.player.slice(0, 4) }) : null,
          p.player === me ? ' (' + t('board.you') + ')' : ''
        );
      const rows = b.data.players.map((p, i) =>
        el(
          'tr',
          { class: p.player === me ? 'ok' : '' },
          el('td', { text: i + 1 }),
          nameCell(p),
          el('td', { text: Math.round(p.rating) + ' ± ' + Math.round(p.uncertainty) }),
          el('td', { text: t('board.games', { n: p.games }) })
        )
      );
      const bots = b.data.bots.map((x) =>
        el(
          'tr',
          { class: 'mute' },
          el('td', { text: '' }),
          el('td', { text: '🤖 ' + botName(x.bot, ladder(b.game)) }),
          el('td', { text: String(Math.round(x.rating)) }),
          el('td', { text: '' })
        )
      );
      body = [
        b.data.players.length ? null : el('p', { class: 'mute', text: t('board.none') }),
        el(
          'table',
          { class: 'res' },
          el(
            'tr',
            {},
            el('th', { text: '#' }),
            el('th', { text: t('board.player') }),
            el('th', { text: t('board.rating') }),
            el('th', { text: t('board.played') })
          ),
          rows,
          bots
        ),
      ];
    }
    put(
      box,
      el('h2', { text: t('board.title') }),
      el('p', { class: 'row' }, pick),
      body,
      el('p', { class: 'mute', text: t('board.about') })
    );
  }

  async function loadMine() {
    const me = { headers: { 'X-Ratrace-Key': identity() } };
    try {
      const r = await fetch('/api/me/games', me);
      mine = r.ok ? await r.json() : { player: null, games: [], ratings: [] };
    } catch (e) {
      mine = { player: null, games: [], ratings: [] };
    }
    try {
      const r = await fetch('/api/me/passkeys', me);
      keys.mine = r.ok ? await r.json() : null;
    } catch (e) {
      keys.mine = null;
    }
    renderMine();
    renderBoard();
  }

  async function loadBoard(game) {
    board.game = game;
    try {
      board.data = await api('/api/leaderboard/' + encodeURIComponent(game));
    } catch (e) {
      board.data = { players: [], bots: [] };
    }
    renderBoard();
  }

  /** Starts the players' side (the page's texts are loaded). */
  function start() {
    takeIdentity();
    // the link opened in a tab already at the lobby changes only the fragment
    window.addEventListener('hashchange', takeIdentity);
    renderMine();
    renderBoard();
    onLang(() => {
      renderMine();
      renderBoard();
    });
    loadMine();
    loadBoard(board.game);
  }

  /** Draws again what names bots by their level (the ladder came). */
  function redraw() {
    renderMine();
    renderBoard();
  }

  return { tableExtra, start, redraw };
}
