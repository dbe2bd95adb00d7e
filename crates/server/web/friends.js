/* Friends and presence, for every page that shows them (the lobby, the
   table page, a profile): this browser's identity asks GET /api/me/friends
   every 15 s, which tells the server where the person is (the lobby or a
   table) and brings back the people they follow with where each is, the
   people they block and the invitations waiting for them.

   friends(at) is one client: its data, its refresh, and the changes
   (follow, block, invite, dismiss), each answered by a refresh. The
   invitations waiting are counted in the tab title, "(2) …", whatever
   else the page writes there (titled() adds the count). friendsPanel(box,
   client) draws the lobby's panel: your id to give, follow by id, the
   invitations with Join and Dismiss, the people followed and where, the
   people blocked. */

import { el, live } from './dom.js';
import { t } from './i18n.js';
import { api, errText } from './connection.js';
import { copyRow } from './page.js';
import { gameName } from './names.js';
import { identity } from './store.js';

/** How often a page asks, in ms. */
const EVERY_MS = 15000;

/** Invitations waiting, as the last answer said (for the tab title). */
let waiting = 0;

/** `title` with the count of invitations waiting in front: "(2) title". */
export function titled(title) {
  const bare = String(title).replace(/^\(\d+\) /, '');
  return waiting ? '(' + waiting + ') ' + bare : bare;
}

/** A place in words: the lobby, a public table (its game), a private table. */
export function placeText(place) {
  if (!place) return t('friends.offline');
  if (place.kind === 'lobby') return t('friends.inLobby');
  if (place.kind === 'table') return t('friends.atTable', { game: gameName(place.game) });
  return t('friends.atPrivate');
}

/**
 * A friends client for the page: `at` is the query that says where the
 * page is ('' for the lobby, '?at=table&table=ID'); `onData(data)` is
 * called with every answer. Returns { data(), refresh(), follow(id, on),
 * block(id, on), invite(to, table, key, name), dismiss(id), start() }.
 */
export function friends(at, onData) {
  let data = null;
  let timer = null;
  const me = () => ({ 'X-Ratrace-Key': identity() });
  async function refresh() {
    clearTimeout(timer);
    timer = setTimeout(refresh, EVERY_MS);
    try {
      data = await api('/api/me/friends' + at, 'GET', undefined, me());
    } catch (e) {
      // a failed ask keeps the last answer; the next one comes in 15 s
      if (!data) return;
    }
    waiting = data.invites.length;
    document.title = titled(document.title);
    onData(data);
  }
  /** A change, then the list again; the error in words, or null. */
  async function change(path, method, body) {
    try {
      await api(path, method, body, me());
    } catch (e) {
      return errText(e);
    } finally {
      refresh();
    }
    return null;
  }
  return {
    data: () => data,
    refresh,
    start() {
      refresh();
      document.addEventListener('visibilitychange', () => !document.hidden && refresh());
    },
    follow: (id, on) => change('/api/me/follows/' + encodeURIComponent(id), on ? 'PUT' : 'DELETE'),
    block: (id, on) => change('/api/me/blocks/' + encodeURIComponent(id), on ? 'PUT' : 'DELETE'),
    invite: (to, table, key, name) => change('/api/me/invites', 'POST', { to, table, key: key || undefined, name }),
    dismiss: (id) => change('/api/me/invites/' + encodeURIComponent(id), 'DELETE'),
  };
}

/** The invitations waiting: who asks, to which game; Join, Dismiss, or Block the sender. */
export function inviteList(client, data) {
  return el(
    'ul',
    { id: 'invites', class: 'plain' },
    data.invites.map((i) =>
      el(
        'li',
        { class: 'invite' },
        el('b', { text: t('friends.invited', { name: i.from_name, game: gameName(i.game) }) }),
        el('span', { class: 'grow' }),
        el('a', { class: 'button', href: i.link, text: t('friends.join') }),
        el('button', { class: 'alt', text: t('friends.dismiss'), onclick: () => client.dismiss(i.id) }),
        el('button', { class: 'alt', text: t('friends.block'), onclick: () => client.block(i.from, true) })
      )
    )
  );
}

/**
 * The lobby's panel into `box`: your id, follow by id, invitations, the
 * people followed (online first) and blocked. `redraw` draws it again
 * (after a copy).
 */
export function friendsPanel(box, client, redraw) {
  const data = client.data();
  const err = el('span', { id: 'followErr', class: 'err', role: 'status', text: client.followErr || '' });
  const input = el('input', {
    id: 'followId',
    maxlength: 8,
    placeholder: '0123abcd',
    autocomplete: 'off',
    spellcheck: 'false',
    class: 'mono',
  });
  // the page keeps its own nodes when it draws again (dom.js morph): the
  // handler reads the live input; the error stays on the client until
  // the next follow
  const follow = async (e) => {
    e.preventDefault();
    const box = live(input);
    const id = box.value.trim().toLowerCase();
    client.followErr = /^[0-9a-f]{8}$/.test(id) ? (await client.follow(id, true)) || '' : t('friends.badId');
    if (!client.followErr) box.value = '';
    redraw();
  };
  const form = el(
    'form',
    { class: 'row', onsubmit: follow },
    el('label', { for: 'followId', text: t('friends.followId') }),
    input,
    el('button', { type: 'submit', text: t('friends.follow') }),
    err
  );
  if (!data) return [el('h2', { text: t('friends.title') }), el('p', { class: 'mute', text: '…' })];
  const online = data.follows.filter((f) => f.place);
  const people = online.concat(data.follows.filter((f) => !f.place));
  const row = (f) =>
    el(
      'li',
      { class: 'friend' + (f.place ? ' on' : '') },
      el('span', { class: 'dot', 'aria-hidden': 'true', text: f.place ? '●' : '○' }),
      el('a', { href: '/p/' + f.player, text: f.name || f.player }),
      el('span', { class: 'mute', text: placeText(f.place) }),
      f.place && f.place.kind === 'table' ? el('a', { href: '/t/' + f.place.table, text: t('friends.watch') }) : null,
      el('span', { class: 'grow' }),
      el('button', { class: 'alt', text: t('friends.unfollow'), onclick: () => client.follow(f.player, false) }),
      el('button', { class: 'alt', text: t('friends.block'), onclick: () => client.block(f.player, true) })
    );
  const blocked = data.blocks.map((f) =>
    el(
      'li',
      {},
      el('span', { text: f.name || f.player }),
      el('span', { class: 'grow' }),
      el('button', { class: 'alt', text: t('friends.unblock'), onclick: () => client.block(f.player, false) })
    )
  );
  return [
    el('h2', { text: t('friends.title') }),
    data.invites.length ? [el('h3', { text: t('friends.invites') }), inviteList(client, data)] : null,
    el('p', { class: 'mute', text: t('friends.yourIdText') }),
    copyRow('myId', t('friends.yourId'), data.player, redraw, 'mono'),
    form,
    el('h3', { text: t('friends.following', { n: online.length, of: people.length }) }),
    people.length
      ? el('ul', { id: 'follows', class: 'plain' }, people.map(row))
      : el('p', { class: 'mute', text: t('friends.none') }),
    blocked.length ? [el('h3', { text: t('friends.blocked') }), el('ul', { class: 'plain' }, blocked)] : null,
  ];
}
