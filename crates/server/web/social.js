/* The table page's social side: the rematch that brings every player
   along, and the chat with emotes.

   tableSocial(state, tabs, blocked) is made once by the table page, which
   hands it the `chat` and `rematch` messages (onMessage) and calls
   rematch() from its Rematch button; everything else draws into the chat
   panel and a box under the result, which this module adds to the page
   itself. The chat's lines are its own state; `tabs` redraws the side
   column's tabs when the chat panel shows or hides; `blocked(seat)` says
   whether the seat's person is one this browser blocks (their lines are
   not shown; redrawChat() after the blocks change). */

import { $, append, clear, el, morph } from './dom.js';
import { lang, onLang, t } from './i18n.js';
import { api, errText } from './connection.js';
import { seatId, seatLabel } from './names.js';
import {
  contribution,
  creator,
  key,
  random32,
  rematched,
  saveContribution,
  saveCreator,
  saveKey,
  saveRematched,
  saveSeat,
  token,
} from './store.js';

/** Replaces the children of element `node` by `kids`. */
const put = (node, ...kids) => append(clear(node), kids);

const EMOTES = { hi: '👋', gg: '🤝', wp: '👏', thanks: '🙏', oops: '😅', wow: '😮', think: '🤔', laugh: '😂' };

/**
 * Moves this browser to the rematch `to` of table `from`, already seated:
 * the seat and its token, the private table's key, the creator's token
 * and a fresh contribution to the new fair deal (sent with hello).
 */
function follow(from, to, seat, tok) {
  saveSeat(to, seat, tok);
  if (key(from)) saveKey(to, key(from));
  if (creator(from)) saveCreator(to, creator(from));
  if (!contribution(to)) saveContribution(to, random32());
  saveRematched(from, to);
  location.href = '/t/' + to;
}

export function tableSocial(state, tabs, blocked = () => false) {
  let chat = [];
  let readable = false;

  /** The Rematch button: asks for the rematch of table `id` for everyone. */
  async function rematch(id, errBox) {
    try {
      const r = await api('/api/tables/' + encodeURIComponent(id) + '/rematch', 'POST', { token: token(id) });
      follow(id, r.id, r.seat, r.token);
    } catch (e) {
      if (errBox) errBox.textContent = errText(e);
    }
  }

  function rematchBox() {
    let box = $('rematchLink');
    if (!box) {
      box = el('div', { id: 'rematchLink' });
      const result = $('result');
      (result ? result.parentNode : document.querySelector('main')).insertBefore(
        box,
        result ? result.nextSibling : null
      );
    }
    return box;
  }

  /** Somebody asked for a rematch: go (once), or show the way there. */
  function onRematch(m) {
    const from = state.id;
    if (!from || !m.table) return;
    const box = rematchBox();
    // a rematch asked for while this page looks on is offered, never
    // imposed: the player goes when they say so, or stays to look at the
    // result (one told on arrival leaves the finished table open, with a
    // link)
    if (m.token && m.live !== false && rematched(from) !== m.table) {
      put(
        box,
        el(
          'div',
          { class: 'waitbox', role: 'region', 'aria-label': t('social.rematchAsked') },
          el('p', { text: '🔁 ' + t('social.rematchAsked') }),
          el(
            'p',
            { class: 'row' },
            el('button', { text: t('social.rematchJoin'), onclick: () => follow(from, m.table, m.seat, m.token) }),
            el('button', { class: 'alt', text: t('social.rematchStay'), onclick: () => put(box, link(m)) })
          )
        )
      );
      return;
    }
    put(box, link(m));
  }

  /** The way to a rematch, as a link: to one's own seat there, or to watch it. */
  function link(m) {
    const text = m.token ? t('social.rematchGo') : t('social.rematchWatch');
    return el('p', {}, el('a', { href: '/t/' + m.table, text: '🔁 ' + text }));
  }



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
  const canChat = () => !!(state.st && (state.st.seat || readable));

  function who(line) {
    if (!line.seat) return t('chat.spectator');
    return line.name
      ? line.name + ' (' + seatId(line.seat) + ')'
      : seatLabel(line.seat, state.st ? state.st.seats : []);
  }

  function lineText(line) {
    if (line.emote) return (EMOTES[line.emote] || '') + ' ' + t('chat.emote.' + line.emote);
    return line.text;
  }

  function renderChatLines() {
    const list = $('chatLines');
    if (!list) return;
    // in place: lines already there stay, so the live region reads only new
    // ones; a seat whose person this browser blocks is not heard
    const items = chat.map((line, i) =>
      line.seat && blocked(line.seat) ? null :
      el(
        'li',
        { class: line.emote ? 'emote' : '', 'data-k': 'c' + i },
        el('b', { text: who(line) + ': ' }),
        el('span', { text: lineText(line) })
      )
    );
    const shown = items.filter(Boolean);
    morph(list, shown.length ? shown : el('li', { class: 'mute', text: t('chat.empty') }));
    list.parentNode.scrollTop = list.parentNode.scrollHeight;
  }

  function send(msg, err) {
    err.textContent = '';
    if (!state.conn || !state.conn.send(Object.assign({ type: 'chat' }, msg))) err.textContent = t('err.offline');
  }

  /** The chat panel's parts, drawn once a language (the input keeps what is typed). */
  function chatPanel() {
    const err = el('span', { id: 'chatErr', class: 'err', role: 'status' });
    const input = el('input', {
      id: 'chatText',
      maxlength: 200,
      class: 'grow',
      placeholder: t('chat.placeholder'),
      'aria-label': t('chat.label'),
      autocomplete: 'off',
    });
    const say = () => {
      const text = input.value.trim();
      if (!text) return;
      send({ text }, err);
      input.value = '';
    };
    input.addEventListener('keydown', (e) => e.key === 'Enter' && say());
    // the buttons in words: the emotes' own icons load with the first one said
    const emotes = Object.keys(EMOTES).map((code) =>
      el('button', { class: 'alt emote', text: t('chat.emote.' + code), onclick: () => send({ emote: code }, err) })
    );
    // the log role on a wrapper: a list keeps its list semantics inside it
    const scroll = { maxHeight: '12em', overflowY: 'auto' };
    const lines = el(
      'div',
      { role: 'log', 'aria-live': 'polite', 'aria-label': t('chat.title'), tabindex: 0, style: scroll },
      el('ul', { id: 'chatLines', class: 'plain chatlines' })
    );
    return [
      el('h2', { text: t('chat.title') }),
      lines,
      el('div', { class: 'row' }, input, el('button', { text: t('chat.send'), onclick: say })),
      el('div', { class: 'row', role: 'group', 'aria-label': t('chat.emotes') }, emotes),
      err,
    ];
  }

  /** Draws the chat panel once a language; then only its lines change. */
  function renderChat() {
    const box = chatBox();
    const show = canChat();
    box.classList.toggle('hidden', !show);
    // the side column's tabs show a tab for the chat only while it shows
    tabs();
    if (!show) return;
    if (!$('chatLines') || box.dataset.lang !== lang()) {
      box.dataset.lang = lang();
      put(box, chatPanel());
    }
    renderChatLines();
  }

  function onChat(m) {
    const lines = m.messages || [];
    // the history kept by the table comes after hello: it replaces what was shown
    chat = m.history ? lines : chat.concat(lines).slice(-50);
    readable = true;
    renderChat();
  }

  /** The table page's hook: the messages this module handles. */
  function onMessage(m) {
    if (m.type === 'chat') onChat(m);
    else if (m.type === 'rematch') onRematch(m);
    // the table page takes the state after this hook: draw once it has
    else if (m.type === 'state') queueMicrotask(renderChat);
    else if (m.type === 'error' && m.code === 'rate_limited' && $('chatErr')) $('chatErr').textContent = errText(m);
  }

  onLang(() => $('chat') && renderChat());

  return { onMessage, rematch, redrawChat: renderChatLines };
}
