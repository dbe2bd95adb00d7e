/* ratrace social client, loaded after app.js on the
   lobby and table pages: the rematch that brings every player along, the
   in-table chat with emotes, the identity key this browser keeps (32
   random bytes, made once, sent when joining; the server keeps only its
   hash); the lobby's "My games" and leaderboard are in lobby-players.js.
   The table page
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

})();
