/* A rated person's profile (profile.html, served at /p/{id}, the short id
   the leaderboard shows): GET /api/players/{id}, drawn as one card per
   game (the rating, a graph of its history as inline SVG with a table as
   its text alternative, the results overall and by seat), then their
   recent games at public tables with links to each replay (where the
   analysis is). Phone first: every card is one column that fits 390 px;
   the graph scales to its card, the tables wrap or scroll inside their
   own box, never the page. window.RR is the page's handle for the
   browser tests; nothing in the client reads it. */

import { $, append, clear, el } from './dom.js';
import { boot, t } from './i18n.js';
import { api, errText } from './connection.js';
import { initPage } from './page.js';
import { gameName, optionsWords, seatId, when } from './names.js';
import { friends } from './friends.js';

/** What the page shows: the profile once it came, or the error; what the last follow or block said. */
const P = { data: null, error: null, said: '' };
/** This browser's follows and blocks (friends.js), for the buttons: asked once, again after a change. */
const pals = friends('', render);
window.RR = { P };

const SVGNS = 'http://www.w3.org/2000/svg';
/** An SVG element with attributes and children. */
function svg(tag, attrs, ...kids) {
  const n = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v != null) n.setAttribute(k, v);
  for (const k of kids.flat())
    if (k != null) n.appendChild(typeof k === 'object' ? k : document.createTextNode(String(k)));
  return n;
}

const round = (x) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const mean = (x) => (x > 0 ? x.toFixed(2) : '–');

/** The short id this page is for, from /p/{id}. */
const playerId = () => {
  const m = location.pathname.match(/^\/p\/([^/]+)$/);
  return m ? decodeURIComponent(m[1]) : '';
};

/**
 * The graph of rating history `h` of game `g` (points oldest first): the
 * rating after each game, a band of ± one uncertainty, a marker per game;
 * its text alternative is the table below it (aria-describedby).
 */
function graph(g, h) {
  // as wide as the card, so the text keeps its size on a phone
  const room = ($('out') && $('out').clientWidth - 30) || 640;
  const W = Math.max(300, Math.min(720, room));
  const H = 220;
  const L = 40;
  const Rt = 12;
  const T = 14;
  const B = 30;
  const lows = h.map((p) => p.rating - p.uncertainty);
  const highs = h.map((p) => p.rating + p.uncertainty);
  let lo = Math.floor(Math.min(...lows) / 5) * 5;
  let hi = Math.ceil(Math.max(...highs) / 5) * 5;
  if (hi - lo < 5) hi = lo + 5;
  const n = h.length;
  const x = (i) => (n < 2 ? (L + W - Rt) / 2 : L + ((W - L - Rt) * i) / (n - 1));
  const y = (v) => T + ((H - T - B) * (hi - v)) / (hi - lo);
  const kids = [svg('title', { id: 'pg-title-' + g }, t('profile.graph', { game: gameName(g) }))];
  const step = Math.max(5, Math.ceil((hi - lo) / 5 / 5) * 5);
  for (let v = lo; v <= hi; v += step)
    kids.push(
      svg('line', { class: 'grid', x1: L, y1: y(v), x2: W - Rt, y2: y(v) }),
      svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end' }, String(v))
    );
  kids.push(
    svg('line', { class: 'axis', x1: L, y1: T, x2: L, y2: H - B }),
    svg('line', { class: 'axis', x1: L, y1: H - B, x2: W - Rt, y2: H - B }),
    svg('text', { x: W - Rt, y: H - 6, 'text-anchor': 'end' }, t('profile.axisGame'))
  );
  const band = h
    .map((p, i) => [x(i), y(p.rating + p.uncertainty)])
    .concat(h.map((p, i) => [x(i), y(p.rating - p.uncertainty)]).reverse());
  if (n > 1)
    kids.push(
      svg('polygon', { class: 'pg-band', points: band.map((p) => p.map((c) => c.toFixed(1)).join(',')).join(' ') }),
      svg('polyline', {
        class: 'pg-line',
        fill: 'none',
        points: h.map((p, i) => x(i).toFixed(1) + ',' + y(p.rating).toFixed(1)).join(' '),
      })
    );
  h.forEach((p, i) =>
    kids.push(
      svg(
        'circle',
        { class: 'pg-point' + (p.place === 1 ? ' won' : ''), cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 4 },
        svg('title', {}, t('profile.point', { n: i + 1, r: round(p.rating), place: p.place }))
      )
    )
  );
  return svg(
    'svg',
    {
      class: 'an-graph pg-graph',
      viewBox: `0 0 ${W} ${H}`,
      role: 'img',
      'aria-labelledby': 'pg-title-' + g,
      'aria-describedby': 'pg-text-' + g,
      preserveAspectRatio: 'xMidYMid meet',
    },
    kids
  );
}

/** The history of game `g` as a table: the graph's text alternative. */
function historyTable(g, h) {
  const rows = h
    .slice()
    .reverse()
    .map((p) =>
      el(
        'tr',
        {},
        el('td', {}, el('a', { href: '/replay/' + p.table, text: when(p.at) })),
        el('td', { text: String(p.place) }),
        el('td', { text: round(p.rating) + ' ± ' + round(p.uncertainty) })
      )
    );
  return el(
    'details',
    { class: 'pg-details' },
    el('summary', { text: t('profile.historyTable', { n: h.length }) }),
    el(
      'div',
      { class: 'scroll', role: 'region', tabindex: '0', 'aria-label': t('profile.historyTable', { n: h.length }) },
      el(
        'table',
        { class: 'res', id: 'pg-text-' + g },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            el('th', { text: t('profile.when') }),
            el('th', { text: t('profile.place') }),
            el('th', { text: t('board.rating') })
          )
        ),
        el('tbody', {}, rows)
      )
    )
  );
}

/**
 * A table of results, one row per `lines` entry ({label, games, wins,
 * mean_place}), captioned `caption`, its first column headed `head`;
 * it scrolls inside its own box on a phone.
 */
function resultsTable(caption, cls, head, lines) {
  if (!lines.length) return null;
  return el(
    'div',
    { class: 'scroll', role: 'region', tabindex: '0', 'aria-label': caption },
    el(
      'table',
      { class: 'res ' + cls },
      el('caption', { text: caption }),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { text: head }),
          el('th', { text: t('profile.games') }),
          el('th', { text: t('profile.wins') }),
          el('th', { text: t('profile.meanPlace') })
        )
      ),
      el(
        'tbody',
        {},
        lines.map((x) =>
          el(
            'tr',
            {},
            el('td', { text: x.label }),
            el('td', { text: String(x.games) }),
            el('td', { text: String(x.wins) }),
            el('td', { text: mean(x.mean_place) })
          )
        )
      )
    )
  );
}

/** Results overall, by seat and by variant (rules options), as cells that wrap on a phone. */
function statsBox(r) {
  const s = r.stats;
  const tiles = [
    [t('profile.games'), String(s.games)],
    [t('profile.wins'), String(s.wins)],
    [t('profile.meanPlace'), mean(s.mean_place)],
  ];
  const seats = s.seats.map((x) => Object.assign({ label: seatId(x.seat) }, x));
  const variants = (s.variants || []).map((x) => Object.assign({ label: optionsWords(r.game, x.options, t('profile.defaults')) }, x));
  return [
    el('h3', { class: 'pg-sub', text: t('profile.results') }),
    el(
      'dl',
      { class: 'pg-tiles' },
      tiles.map(([k, v]) => el('div', {}, el('dt', { text: k }), el('dd', { text: v })))
    ),
    resultsTable(t('profile.bySeat'), 'pg-seats', t('profile.seat'), seats),
    resultsTable(t('profile.byVariant'), 'pg-variants', t('profile.variant'), variants),
  ];
}

/** One game's card: its rating, its graph and table, its results. */
function gameCard(r) {
  const h = r.history || [];
  return el(
    'section',
    { class: 'pg-card', 'data-game': r.game },
    el('h2', { text: gameName(r.game) }),
    el('p', {
      class: 'pg-rating',
      text:
        t('profile.rating', { r: round(r.rating) + ' ± ' + round(r.uncertainty) }) +
        ' · ' +
        t('board.games', { n: r.games }),
    }),
    h.length
      ? [graph(r.game, h), historyTable(r.game, h)]
      : el('p', { class: 'mute', text: t('profile.noHistory') }),
    statsBox(r),
    accuracyLine(r.accuracy)
  );
}

/** Their decisions in the analysed games (the post-game analysis), if any was analysed. */
function accuracyLine(a) {
  if (!a) return el('p', { class: 'mute pg-accuracy', text: t('profile.noAccuracy') });
  return el('p', {
    class: 'pg-accuracy',
    text: t('profile.accuracy', {
      pct: Math.round(a.accuracy * 100),
      n: a.games,
      d: a.decisions,
      m: a.mistakes,
      b: a.blunders,
    }),
  });
}

/** The recent games: each with its date, seat, result and replay. */
function gamesCard(d) {
  const items = d.games.map((g) => {
    const won = (g.winners || []).some((w) => seatId(w) === seatId(g.seat));
    const result = g.status === 'abandoned' ? t('mine.abandoned') : won ? t('profile.won') : t('profile.lost');
    return el(
      'li',
      { class: 'pg-game' },
      el('b', { text: gameName(g.game) }),
      el('span', { class: 'mute', text: when(g.created_at) }),
      el('span', { text: t('profile.inSeat', { seat: seatId(g.seat) }) }),
      el('span', { text: result }),
      g.status === 'finished' ? el('a', { href: '/replay/' + g.id, text: t('profile.replay') }) : null
    );
  });
  return el(
    'section',
    { class: 'pg-card' },
    el('h2', { text: t('profile.recent') }),
    items.length ? el('ul', { class: 'plain pg-games' }, items) : el('p', { class: 'mute', text: t('profile.noGames') })
  );
}

/**
 * Follow or block this person (not oneself): each button says what it
 * will do, and the line after it what is so now.
 */
function relationRow(d) {
  const mine = pals.data();
  if (!mine || mine.player === d.player) return null;
  const follows = mine.follows.some((f) => f.player === d.player);
  const blocks = mine.blocks.some((f) => f.player === d.player);
  const change = async (what, on) => {
    P.said = (await pals[what](d.player, on)) || '';
    render();
  };
  const now = [follows ? t('friends.youFollow', { name: d.name }) : null, blocks ? t('friends.youBlock', { name: d.name }) : null];
  return el(
    'p',
    { class: 'row' },
    el('button', { id: 'followBtn', text: t(follows ? 'friends.unfollow' : 'friends.follow'), onclick: () => change('follow', !follows) }),
    el('button', { id: 'blockBtn', class: 'alt', text: t(blocks ? 'friends.unblock' : 'friends.block'), onclick: () => change('block', !blocks) }),
    el('span', { id: 'relation', role: 'status', text: now.filter(Boolean).join(' ') }),
    el('span', { class: 'err', text: P.said })
  );
}

function render() {
  const out = $('out');
  if (P.error) {
    $('msg').textContent = P.error.status === 404 ? t('profile.unknown') : errText(P.error);
    return clear(out);
  }
  $('msg').textContent = '';
  const d = P.data;
  if (!d) return append(clear(out), [el('p', { class: 'mute', text: '…' })]);
  document.title = d.name + ' · ratrace';
  append(clear(out), [
    el(
      'section',
      { class: 'pg-card pg-head' },
      el('h2', { id: 'pName' }, d.name, el('span', { class: 'mute', text: ' #' + d.player })),
      el('p', { class: 'mute', text: t('profile.about') }),
      relationRow(d)
    ),
    d.ratings.map(gameCard),
    d.tournaments.length
      ? el(
          'section',
          { class: 'pg-card', id: 'pTournaments' },
          el('h2', { text: t('profile.tournaments') }),
          el(
            'ul',
            { class: 'plain' },
            d.tournaments.map((x) =>
              el(
                'li',
                {},
                el('a', { href: '/tournament/' + encodeURIComponent(x.id), text: x.name }),
                ' ',
                el('span', { class: 'tag', text: t('tour.kind.' + x.kind) }),
                el('span', {
                  class: 'mute',
                  text: ' ' + gameName(x.game) + ' · ' + t(x.status === 'finished' ? 'profile.tPlace' : 'profile.tStanding', { place: x.place, n: x.entrants }),
                })
              )
            )
          )
        )
      : null,
    gamesCard(d),
  ]);
  out.dataset.ready = '1';
}

async function start() {
  initPage(render);
  render();
  pals.refresh();
  try {
    P.data = await api('/api/players/' + encodeURIComponent(playerId()));
  } catch (e) {
    P.error = e;
  }
  render();
}

boot(start);
