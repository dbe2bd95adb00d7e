/* Watch together (the replay page's #room): a room on this replay whose
   leader moves the step for everyone, with a chat beside it (the server's
   side: crates/server/src/rooms/mod.rs).

   "Watch together" opens a room at the step shown and puts its link in
   the address bar and a copy box (/replay/{id}?room=R, with the table's
   key for a private table). Whoever opens the link follows at once: the
   page asks GET /api/rooms/{room}?rev=N, which the server holds until the
   room changes, and shows the step it says. Joining (a name) puts them in
   the members' list and lets them chat. The leader's steps are sent as
   they are taken (the latest one, one request at a time); a follower's
   step controls are off while someone else leads. The leader may hand
   the lead to any member. A member's id and secret are kept in
   localStorage per room, so a reload is the same member.

   replayRoom(table, hooks) is made once by replay.js: hooks.step() is
   the step shown, hooks.show(i) shows a step the room asked for. It
   returns start(), draw(), stepped(i) (the page showed step i) and
   following() (the controls are someone else's). */

import { el, fill, live } from './dom.js';
import { t } from './i18n.js';
import { api, errText } from './connection.js';
import { copyRow } from './page.js';
import { key, myName, saveName } from './store.js';

const KEEP = 'ratrace.room.';
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

export function replayRoom(table, hooks) {
  /** The room (from the address), this browser's membership in it, the room as last seen, what went wrong. */
  const S = { room: new URLSearchParams(location.search).get('room'), me: null, view: null, err: '', want: null, busy: false };
  const load = (room) => {
    try {
      return JSON.parse(localStorage.getItem(KEEP + room) || 'null');
    } catch (e) {
      return null;
    }
  };
  if (S.room) S.me = load(S.room);
  const secret = () => (S.me ? { 'X-Room-Secret': S.me.secret } : {});
  const leading = () => !!(S.me && S.view && S.view.leader === S.me.member);
  const following = () => !!(S.room && S.view && !leading());
  const nameOf = (id) => ((S.view && S.view.members.find((m) => m.member === id)) || {}).name || '?';

  /** The room's link: this replay, the room, and a private table's key. */
  const link = () => {
    const k = key(table);
    return location.origin + '/replay/' + table + '?room=' + S.room + (k ? '&k=' + encodeURIComponent(k) : '');
  };

  /** A member made (opening or joining): kept, and the room taken. */
  function keep(r) {
    S.room = r.room;
    S.me = { member: r.member, secret: r.secret };
    localStorage.setItem(KEEP + r.room, JSON.stringify(S.me));
    history.replaceState(null, '', link().slice(location.origin.length));
    take(r.view);
  }

  /** The room as the server says: a follower shows its step. */
  function take(v) {
    S.view = v;
    S.err = '';
    if (!leading() && v.step !== hooks.step()) hooks.show(v.step);
    controls();
    draw();
  }

  /** Follows the room: each answer is held by the server until something changes. */
  async function follow() {
    while (S.room) {
      try {
        const rev = S.view ? '?rev=' + S.view.rev : '';
        take(await api('/api/rooms/' + encodeURIComponent(S.room) + rev, 'GET', undefined, secret()));
      } catch (e) {
        S.err = errText(e);
        draw();
        if (e.status === 404) return ((S.view = null), (S.room = null), controls());
        await sleep(3000);
      }
    }
  }

  /** A member's act (`step`, `lead` or `say`); the room it answers, or the error said. */
  async function act(body) {
    try {
      take(await api('/api/rooms/' + encodeURIComponent(S.room) + '/act', 'POST', Object.assign({ secret: S.me.secret }, body)));
      return true;
    } catch (e) {
      S.err = errText(e);
      draw();
      return false;
    }
  }

  /** The leader's step: the latest one is sent, one request at a time. */
  async function stepped(i) {
    if (!leading()) return;
    S.want = i;
    if (S.busy) return;
    S.busy = true;
    while (S.want != null && leading()) {
      const want = S.want;
      S.want = null;
      if (S.view.step !== want) await act({ step: want });
    }
    S.busy = false;
  }

  /** Opens a room here (`open`) or joins the one in the address, as the name typed. */
  async function enter(open) {
    const name = live(nameBox).value.trim();
    if (!name) return ((S.err = t('room.needName')), draw());
    saveName(name);
    try {
      if (open) {
        keep(await api('/api/rooms', 'POST', { table, step: hooks.step(), key: key(table) || undefined, name }));
        follow();
      } else keep(await api('/api/rooms/' + encodeURIComponent(S.room) + '/join', 'POST', { name }));
    } catch (e) {
      S.err = errText(e);
      draw();
    }
  }

  /** A follower's step controls are off while someone else leads (replay.js asks following()). */
  function controls() {
    document.body.dataset.following = following() ? '1' : '';
    hooks.show(hooks.step());
  }

  /** The boxes of the last drawing (their live nodes keep what is typed: dom.js morph). */
  let nameBox = null;
  let sayBox = null;

  function draw() {
    const box = document.getElementById('room');
    if (!box) return;
    nameBox = el('input', { id: 'roomName', maxlength: 24, value: myName(), autocomplete: 'nickname' });
    sayBox = el('input', { id: 'roomSay', maxlength: 300, placeholder: t('room.sayPh') });
    const v = S.view;
    const err = el('p', { id: 'roomErr', class: 'err', role: 'status', text: S.err });
    const nameRow = (label, open) =>
      el(
        'form',
        { class: 'row', onsubmit: (e) => (e.preventDefault(), enter(open)) },
        el('label', { for: 'roomName', text: t('lobby.name') }),
        nameBox,
        el('button', { id: open ? 'roomOpen' : 'roomJoin', type: 'submit', text: label })
      );
    if (!S.room) {
      return fill('room', el('h2', { text: t('room.title') }), el('p', { class: 'mute', text: t('room.intro') }), nameRow(t('room.open'), true), err);
    }
    if (!v) return fill('room', el('h2', { text: t('room.title') }), el('p', { class: 'mute', text: '…' }), err);
    const said = sayBox;
    const say = async (e) => {
      e.preventDefault();
      const text = live(said).value.trim();
      if (text && (await act({ say: text }))) live(said).value = '';
    };
    const members = v.members.map((m) =>
      el(
        'li',
        { class: m.member === v.leader ? 'lead' : '' },
        el('span', { text: m.name + (S.me && m.member === S.me.member ? ' ' + t('room.you') : '') }),
        m.member === v.leader ? el('b', { text: ' · ' + t('room.leader') }) : null,
        leading() && m.member !== v.leader
          ? el('button', { class: 'alt', text: t('room.handOver'), onclick: () => act({ lead: m.member }) })
          : null
      )
    );
    fill(
      'room',
      el('h2', { text: t('room.title') }),
      el('p', { id: 'roomLead', class: 'banner', text: leading() ? t('room.youLead') : t('room.leads', { name: nameOf(v.leader) }) }),
      copyRow('roomLink', t('room.link'), link(), draw),
      S.me ? null : nameRow(t('room.join'), false),
      el('h3', { text: t('room.members', { n: v.members.length }) }),
      el('ul', { id: 'roomMembers', class: 'plain' }, members),
      el(
        'ul',
        { id: 'roomLines', class: 'plain chatlines' },
        v.lines.map((l) => el('li', {}, el('b', { text: l.name + ': ' }), el('span', { text: l.text })))
      ),
      S.me ? el('form', { class: 'row', onsubmit: say }, el('label', { for: 'roomSay', class: 'sr', text: t('room.sayPh') }), sayBox, el('button', { type: 'submit', text: t('chat.send') })) : null,
      err
    );
  }

  return {
    start() {
      draw();
      if (S.room) follow();
    },
    draw,
    stepped,
    following,
  };
}
