/* ratrace social client, loaded after app.js on the
   lobby and table pages: the rematch that brings every player along, the
   in-table chat with emotes, the identity key this browser keeps (32
   random bytes, made once, sent when joining; the server keeps only its
   hash), and on the lobby "My games" and the leaderboard. The table page
   hands the `chat` and `rematch` messages here (RR.social.onMessage) and
   its Rematch button calls RR.social.rematch; everything else draws into
   sections this file adds to the page itself. */
(function () {
  'use strict';
  const RR = window.RR;
  const { t, el, $ } = RR;
  const store = window.localStorage;
  const S = (RR.social = { chat: [], readable: false });

  /* ---------- identity ---------- */

  /** Replaces the children of element `node` by `kids`. */
  const put = (node, ...kids) => RR.append(RR.clear(node), kids);

  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const random32 = () => {
    const b = new Uint8Array(32);
    crypto.getRandomValues(b);
    return hex(b);
  };

  /** This browser's identity key: 64 hex digits, made once and kept. */
  RR.identity = function () {
    let k = store.getItem('ratrace.identity');
    if (!/^[0-9a-f]{64}$/.test(k || '')) {
      k = random32();
      store.setItem('ratrace.identity', k);
    }
    return k;
  };

  /* ---------- rematch ---------- */

  /**
   * Moves this browser to the rematch `to` of table `from`, already seated:
   * the seat and its token, the private table's key, the creator's token
   * and a fresh contribution to the new fair deal (sent with hello).
   */
  function follow(from, to, seat, token) {
    RR.saveSeat(to, seat, token);
    if (RR.key(from)) RR.saveKey(to, RR.key(from));
    if (RR.creator(from)) RR.saveCreator(to, RR.creator(from));
    if (!RR.contribution(to)) store.setItem('ratrace.contrib.' + to, random32());
    store.setItem('ratrace.rematched.' + from, to);
    location.href = '/t/' + to;
  }

  /** The Rematch button: asks for the rematch of table `id` for everyone. */
  S.rematch = async function (id, errBox) {
    try {
      const r = await RR.api('/api/tables/' + encodeURIComponent(id) + '/rematch', 'POST', { token: RR.token(id) });
      follow(id, r.id, r.seat, r.token);
    } catch (e) {
      if (errBox) errBox.textContent = RR.errText(e);
    }
  };

  /** Somebody asked for a rematch: go (once), or show the way there. */
  function onRematch(m) {
    const from = RR.table && RR.table.id;
    if (!from || !m.table) return;
    const box = rematchBox();
    // only a rematch made while this page looks on moves it: one told on
    // arrival leaves the finished table open, with a link
    if (m.token && m.live !== false && store.getItem('ratrace.rematched.' + from) !== m.table) {
      put(box, el('p', { class: 'banner', text: '🔁 ' + t('social.rematchMoving') }));
      setTimeout(() => follow(from, m.table, m.seat, m.token), 800);
      return;
    }
    const text = m.token ? t('social.rematchGo') : t('social.rematchWatch');
    put(box, el('p', {}, el('a', { href: '/t/' + m.table, text: '🔁 ' + text })));
  }

  function rematchBox() {
    let box = $('rematchLink');
    if (!box) {
      box = el('div', { id: 'rematchLink' });
      const result = $('result');
      (result ? result.parentNode : document.querySelector('main')).insertBefore(box, result ? result.nextSibling : null);
    }
    return box;
  }

  /* ---------- chat ---------- */

  const EMOTES = { hi: '👋', gg: '🤝', wp: '👏', thanks: '🙏', oops: '😅', wow: '😮', think: '🤔', laugh: '😂' };

  function chatBox() {
    let box = $('chat');
    if (!box) {
      box = el('section', { id: 'chat', class: 'chat hidden' });
      const before = $('board');
      document.querySelector('main').insertBefore(box, before ? before.nextSibling : null);
    }
    return box;
  }

  /** Whether this page may read and write the chat: a seated player, or a spectator who received some. */
  const canChat = () => !!(RR.table && RR.table.st && (RR.table.st.seat || S.readable));

  function who(line) {
    const seats = RR.table && RR.table.st ? RR.table.st.seats : [];
    if (!line.seat) return t('chat.spectator');
    return line.name ? line.name + ' (' + RR.seatId(line.seat) + ')' : RR.seatLabel(line.seat, seats);
  }

  function lineText(line) {
    if (line.emote) return (EMOTES[line.emote] || '') + ' ' + t('chat.emote.' + line.emote);
    return line.text;
  }

  function renderChatLines() {
    const list = $('chatLines');
    if (!list) return;
    // in place: lines already there stay, so the live region reads only new ones
    const items = S.chat.map((line, i) => el('li', { class: line.emote ? 'emote' : '', 'data-k': 'c' + i }, el('b', { text: who(line) + ': ' }), el('span', { text: lineText(line) })));
    RR.morph(list, items.length ? items : el('li', { class: 'mute', text: t('chat.empty') }));
    list.parentNode.scrollTop = list.parentNode.scrollHeight;
  }

  function send(msg, err) {
    err.textContent = '';
    if (!RR.table.conn || !RR.table.conn.send(Object.assign({ type: 'chat' }, msg))) err.textContent = t('err.offline');
  }

  /** Draws the chat panel once (the input keeps what is typed); then only its lines change. */
  function renderChat() {
    const box = chatBox();
    const show = canChat();
    box.classList.toggle('hidden', !show);
    // the side column's tabs show a tab for the chat only while it shows
    if (RR.tableTabs) RR.tableTabs();
    if (!show) return;
    if (!$('chatLines') || box.dataset.lang !== RR.lang) {
      box.dataset.lang = RR.lang;
      const err = el('span', { id: 'chatErr', class: 'err', role: 'status' });
      const input = el('input', { id: 'chatText', maxlength: 200, class: 'grow', placeholder: t('chat.placeholder'), 'aria-label': t('chat.label'), autocomplete: 'off' });
      const say = () => {
        const text = input.value.trim();
        if (!text) return;
        send({ text }, err);
        input.value = '';
      };
      input.addEventListener('keydown', (e) => e.key === 'Enter' && say());
      // the buttons in words: the emotes' own icons load with the first one said
      const emotes = Object.keys(EMOTES).map((code) => el('button', { class: 'alt emote', text: t('chat.emote.' + code), onclick: () => send({ emote: code }, err) }));
      put(
        box,
        el('h2', { text: t('chat.title') }),
        // the log role on a wrapper: a list keeps its list semantics inside it
        el('div', { role: 'log', 'aria-live': 'polite', 'aria-label': t('chat.title'), tabindex: 0, style: { maxHeight: '12em', overflowY: 'auto' } }, el('ul', { id: 'chatLines', class: 'plain chatlines' })),
        el('div', { class: 'row' }, input, el('button', { text: t('chat.send'), onclick: say })),
        el('div', { class: 'row', role: 'group', 'aria-label': t('chat.emotes') }, emotes),
        err
      );
    }
    renderChatLines();
  }

  function onChat(m) {
    const lines = m.messages || [];
    // the history kept by the table comes after hello: it replaces what was shown
    if (m.history) S.chat = lines;
    else S.chat = S.chat.concat(lines).slice(-50);
    S.readable = true;
    renderChat();
  }

  /** The table page's hook: the messages this file handles. */
  S.onMessage = function (m) {
    if (m.type === 'chat') onChat(m);
    else if (m.type === 'rematch') onRematch(m);
    // the table page takes the state after this hook: draw once it has
    else if (m.type === 'state') queueMicrotask(renderChat);
    else if (m.type === 'error' && m.code === 'rate_limited' && $('chatErr')) $('chatErr').textContent = RR.errText(m);
  };

  if (RR.onLang) RR.onLang(() => $('chat') && renderChat());

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
    const open = S.showLink;
    const link = location.origin + '/#me=' + RR.identity();
    const copy = () => {
      $('meLink').select();
      if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => document.execCommand('copy'));
      else document.execCommand('copy');
      S.copiedAt = Date.now();
      renderMine();
      setTimeout(renderMine, 2100);
    };
    const copied = Date.now() - (S.copiedAt || 0) < 2000;
    return el(
      'details',
      { id: 'device', open: open || null, ontoggle: (e) => (S.showLink = e.target.open) },
      el('summary', { text: t('me.other') }),
      el('p', { class: 'mute', text: t('me.otherText') }),
      el('div', { class: 'row' }, el('label', { for: 'meLink', class: 'sr', text: t('me.other') }), el('input', { id: 'meLink', class: 'grow mono', readonly: true, value: link, onfocus: (e) => e.target.select() }), el('button', { class: 'alt', text: t('table.copy'), onclick: copy }), el('span', { class: 'ok', role: 'status', text: copied ? '✓ ' + t('table.copied') : '' }))
    );
  }

  /** Opened from another device's link (#me=KEY): offers to become that player here. */
  function takeIdentity() {
    const m = location.hash.match(/^#me=([0-9a-f]{64})$/);
    if (!m) return;
    history.replaceState(null, '', location.pathname + location.search);
    if (m[1] === RR.identity() || $('takeMe')) return;
    const box = el(
      'section',
      { id: 'takeMe', class: 'waitbox', role: 'region', 'aria-label': t('me.takeTitle') },
      el('h2', { text: t('me.takeTitle') }),
      el('p', { text: t('me.takeText') }),
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
