/* ratrace lobby, the players' side (index.html, after social.js, before
   lobby.js): who played and who won in the table lists, "My games" with
   this browser's ratings, the identity carried to another device by a
   link, and the leaderboard. Kept out of social.js, which the table page
   loads too: none of this is drawn there. */
(function () {
  'use strict';
  const RR = window.RR;
  const { t, el, $ } = RR;
  const store = window.localStorage;
  const S = RR.social;

  /** Replaces the children of element `node` by `kids`. */
  const put = (node, ...kids) => RR.append(RR.clear(node), kids);

  /* ---------- lobby: players and winner, my games, leaderboard ---------- */

  /** A seat of a table list in words: a person's name, a bot by its level name. */
  const seatName = (s) => (s.kind === 'bot' ? '🤖 ' + RR.botName(s.bot) : s.name || RR.seatId(s.seat));
  const byId = (seats, id) => (seats || []).find((s) => RR.seatId(s.seat) === RR.seatId(id));

  /** What a line of a table list adds: who plays, and who won (lobby.js hook). */
  S.tableExtra = function (tb) {
    if (!tb.seats || !tb.seats.length) return null;
    const names = tb.seats.map(seatName).join(', ');
    const parts = [t('lobby.with', { who: names })];
    if (tb.winners) parts.push(tb.winners.length ? t('lobby.winner', { who: tb.winners.map((w) => seatName(byId(tb.seats, w) || { seat: w })).join(' & ') }) : t('lobby.nobody'));
    return el('span', { class: 'mute', text: parts.join(' · ') });
  };

  function section(id, after) {
    let box = $(id);
    if (!box) {
      box = el('section', { id });
      const ref = $(after);
      ref.parentNode.insertBefore(box, ref.nextSibling);
    }
    return box;
  }

  S.mine = null;
  S.board = { game: 'bigcheese', data: null };

  function renderMine() {
    const box = section('mine', 'create');
    const m = S.mine;
    const rows = [];
    if (m && m.games.length) {
      m.games.forEach((g) => {
        const status =
          g.status === 'finished'
            ? g.winners
              ? g.winners.length
                ? t('lobby.winner', { who: g.winners.map((w) => seatName(byId(g.seats, w) || { seat: w })).join(' & ') })
                : t('lobby.nobody')
              : ''
            : t(g.status === 'abandoned' ? 'mine.abandoned' : g.status === 'open' ? 'mine.open' : 'mine.live');
        const links = g.status === 'finished' ? [el('a', { href: '/replay/' + g.id, text: t('lobby.replay') }), el('a', { href: '/t/' + g.id, text: t('lobby.result') })] : [el('a', { href: '/t/' + g.id, text: t('lobby.back', { seat: RR.seatId(g.seat) }) })];
        rows.push(el('li', {}, el('b', { text: RR.gameName(g.game) }), el('span', { class: 'mute', text: RR.when(g.created_at) }), el('span', { text: t('mine.you', { seat: RR.seatId(g.seat) }) }), el('span', { text: status }), el('span', { class: 'grow' }), links));
      });
    } else rows.push(el('li', { class: 'mute', text: m ? t('mine.none') : '…' }));
    const ratings = m ? m.ratings.map((r) => el('p', { text: t('mine.rating', { game: RR.gameName(r.game), r: Math.round(r.rating) + ' ± ' + Math.round(r.uncertainty) }) + ' · ' + t('board.games', { n: r.games }) })) : [];
    put(box, el('h2', { text: t('mine.title') }), ratings, el('ul', { id: 'mineList', class: 'plain' }, rows), deviceBox());
  }

  /**
   * Your identity on another device: a link that carries this browser's
   * identity key in its fragment (never sent to the server), shown on
   * request; opened elsewhere, it offers to make that browser the same
   * player (its games, its rating).
   */
  function deviceBox() {
    const link = location.origin + '/#me=' + RR.identity();
    return el(
      'details',
      { id: 'device', open: S.showLink || null, ontoggle: (e) => (S.showLink = e.target.open) },
      el('summary', { text: t('me.other') }),
      el('p', { class: 'mute', text: t('me.otherText') }),
      RR.copyRow('meLink', t('me.other'), link, renderMine, 'mono')
    );
  }

  /** Who the identity `key` is, as the server knows it: {name, games} (its latest name, its most rated games or games listed), or null for one with no game. */
  async function whoIs(key) {
    try {
      const r = await fetch('/api/me/games', { headers: { 'X-Ratrace-Key': key } });
      const m = r.ok ? await r.json() : null;
      if (!m || !m.games.length) return null;
      const g = m.games[0];
      const seat = (g.seats || []).find((s) => RR.seatId(s.seat) === RR.seatId(g.seat));
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
    const had = store.getItem('ratrace.identity');
    if (m[1] === had || $('takeMe')) return;
    const [theirs, mine] = await Promise.all([whoIs(m[1]), had ? whoIs(had) : null]);
    const games = (w) => t('board.games', { n: w.games });
    const box = el(
      'section',
      { id: 'takeMe', class: 'waitbox', role: 'region', 'aria-label': t('me.takeTitle') },
      el('h2', { text: t('me.takeTitle') }),
      el('p', { id: 'takeWho', text: theirs ? t('me.takeWho', { name: theirs.name, games: games(theirs) }) : t('me.takeNobody') }),
      mine ? el('p', { id: 'takeReplaces', class: 'warn', text: t('me.replace', { name: mine.name, games: games(mine) }) }) : null,
      el('p', { class: 'mute', text: t('me.takeText') }),
      el(
        'p',
        { class: 'row' },
        el('button', {
          text: t('me.take'),
          onclick: () => {
            store.setItem('ratrace.identity', m[1]);
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
    const b = S.board;
    const pick = el(
      'select',
      { 'aria-label': t('lobby.game'), onchange: (e) => loadBoard(e.target.value) },
      ['bigcheese', 'dalmuti'].map((g) => el('option', { value: g, text: RR.gameName(g), selected: g === b.game }))
    );
    const me = S.mine && S.mine.player;
    let body;
    if (!b.data) body = el('p', { class: 'mute', text: '…' });
    else {
      // two people of one name are told apart by the start of their id
      const named = {};
      b.data.players.forEach((p) => (named[p.name] = (named[p.name] || 0) + 1));
      const nameCell = (p) => el('td', {}, p.name, named[p.name] > 1 ? el('span', { class: 'mute', text: ' #' + p.player.slice(0, 4) }) : null, p.player === me ? ' (' + t('board.you') + ')' : '');
      const rows = b.data.players.map((p, i) => el('tr', { class: p.player === me ? 'ok' : '' }, el('td', { text: i + 1 }), nameCell(p), el('td', { text: Math.round(p.rating) + ' ± ' + Math.round(p.uncertainty) }), el('td', { text: t('board.games', { n: p.games }) })));
      const bots = b.data.bots.map((x) => el('tr', { class: 'mute' }, el('td', { text: '' }), el('td', { text: '🤖 ' + t('bot.' + x.bot) }), el('td', { text: String(Math.round(x.rating)) }), el('td', { text: '' })));
      body = [
        b.data.players.length ? null : el('p', { class: 'mute', text: t('board.none') }),
        el('table', { class: 'res' }, el('tr', {}, el('th', { text: '#' }), el('th', { text: t('board.player') }), el('th', { text: t('board.rating') }), el('th', { text: t('board.played') })), rows, bots),
      ];
    }
    put(box, el('h2', { text: t('board.title') }), el('p', { class: 'row' }, pick), body, el('p', { class: 'mute', text: t('board.about') }));
  }

  async function loadMine() {
    try {
      const r = await fetch('/api/me/games', { headers: { 'X-Ratrace-Key': RR.identity() } });
      S.mine = r.ok ? await r.json() : { player: null, games: [], ratings: [] };
    } catch (e) {
      S.mine = { player: null, games: [], ratings: [] };
    }
    renderMine();
    renderBoard();
  }

  async function loadBoard(game) {
    S.board.game = game;
    try {
      S.board.data = await RR.api('/api/leaderboard/' + encodeURIComponent(game));
    } catch (e) {
      S.board.data = { players: [], bots: [] };
    }
    renderBoard();
  }

  if ($('create')) {
    RR.boot(() => {
      takeIdentity();
      // the link opened in a tab already at the lobby changes only the fragment
      window.addEventListener('hashchange', takeIdentity);
      renderMine();
      renderBoard();
      RR.onLang(() => {
        renderMine();
        renderBoard();
      });
      loadMine();
      loadBoard(S.board.game);
    });
  }
})();
