/* The table page's panels around the game: the waiting room with the
   invite link and the creator's "give it to a bot", the join form, a
   private table's notice, the side column's link and commitment with
   "Concede this game", and the result with its links and the rematch.

   tablePanels(state, view, page) draws them from the table's state; the
   page gives render() (draw everything again), send(msg) (on the table's
   connection) and rematch(errBox). What the player does here goes through
   the state's transitions (the concede question) or the server. */

import { $, el, fill, live } from './dom.js';
import { t } from './i18n.js';
import { api, errText, join } from './connection.js';
import { copyRow } from './page.js';
import { seatId } from './names.js';
import { placeText } from './friends.js';
import { contribution, creator, key, myName, seeQuery } from './store.js';

export function tablePanels(state, view, page) {
  const { who } = view;

  /** Whose private table this is, and whom to ask for its link. */
  function privateNotice(seats) {
    const host = (seats || []).find((x) => x.kind === 'human' && x.taken && x.name);
    const text = host ? t('table.privateText', { name: host.name }) : t('table.privateAnon');
    return [el('h2', { text: '🔒 ' + t('table.privateTitle') }), el('p', { id: 'privateText', text })];
  }

  /** A private table this browser has no key for: whose it is (its public description names the host). */
  function locked() {
    $('join').classList.remove('hidden');
    fill('join', privateNotice(state.info && state.info.seats));
  }

  /** The invite link and its copy button. */
  function inviteRow() {
    const k = key(state.id);
    const url = location.origin + '/t/' + state.id + (k ? '?k=' + encodeURIComponent(k) : '');
    return copyRow('inviteUrl', t('table.invite'), url, page.render);
  }

  /** What the last invitation from here came to (sent, or why not). */
  let inviteSaid = '';

  /**
   * Invite someone one follows who is online (friends.js): a seated
   * player, before the game's end. Without anyone online it says so.
   */
  function friendRow() {
    const d = page.friends && page.friends.data();
    if (!d || state.me() == null || state.st.over) return null;
    const on = d.follows.filter((f) => f.place);
    if (!on.length) return el('p', { id: 'inviteNone', class: 'mute', text: t('friends.noneOnline') });
    const pick = el(
      'select',
      { id: 'inviteWho' },
      on.map((f) => el('option', { value: f.player, text: (f.name || f.player) + ' · ' + placeText(f.place) }))
    );
    const go = async () => {
      const seat = state.seatInfo(state.me());
      const name = (seat && seat.name) || myName() || '?';
      const err = await page.friends.invite(live(pick).value, state.id, key(state.id), name);
      inviteSaid = err || t('friends.sent');
      page.render();
    };
    return el(
      'div',
      { class: 'row' },
      el('label', { for: 'inviteWho', text: t('friends.inviteLabel') }),
      pick,
      el('button', { id: 'inviteGo', class: 'alt', text: t('friends.invite'), onclick: go }),
      el('span', { id: 'inviteSaid', role: 'status', text: inviteSaid })
    );
  }

  /** The creator may give a seat whose human never came to a bot. */
  function fillRows() {
    const c = creator(state.id);
    if (!c || state.st.over) return null;
    return state.freeSeats().map((s) => {
      const err = el('span', { class: 'err' });
      const go = async (e) => {
        try {
          await api('/api/tables/' + encodeURIComponent(state.id) + '/fill', 'POST', {
            seat: s.seat,
            creator: c,
            bot: 'heuristic',
          });
        } catch (x) {
          e.target.parentNode.querySelector('.err').textContent = errText(x);
        }
      };
      // the server takes a fill only some time after the table was made:
      // until then the button waits, saying how long
      const left = Math.ceil((state.fillAt - Date.now()) / 1000);
      const label = left > 0 ? t('table.fillIn', { s: left }) : t('table.fill');
      return el(
        'p',
        { class: 'row' },
        el('span', { text: t('table.fillText', { seat: seatId(s.seat) }) }),
        el('button', { class: 'alt', text: label, disabled: left > 0, onclick: go }),
        err
      );
    });
  }

  /** The waiting room: until every human seat is taken, the invite is at the top. */
  function waiting() {
    const show = state.waiting();
    $('waiting').classList.toggle('hidden', !show);
    if (!show) return fill('waiting');
    const n = state.freeSeats().length;
    const head = el('h2', { text: '⏳ ' + t('table.waitPlayers', { n }) });
    fill('waiting', head, el('p', { text: t('table.waitText') }), inviteRow(), friendRow(), fillRows());
  }

  /** The join form, for a visitor while a seat is free. */
  function joinForm() {
    const free = state.freeSeats();
    const show = state.me() == null && !state.st.over && free.length > 0;
    $('join').classList.toggle('hidden', !show);
    if (!show) return fill('join');
    // without the key the server refuses the seat: say so before the
    // visitor types a name, and whom to ask
    if (state.info && state.info.public === false && !key(state.id)) return fill('join', privateNotice(state.st.seats));
    const name = el('input', {
      id: 'joinName',
      value: myName(),
      maxlength: 24,
      placeholder: t('lobby.namePh'),
      autocomplete: 'nickname',
    });
    const go = async () => {
      const typed = live(name).value.trim();
      if (!typed) return ($('joinErr').textContent = t('lobby.needName'));
      try {
        await join(state.id, typed);
        state.conn.restart();
      } catch (e) {
        $('joinErr').textContent = errText(e);
      }
    };
    fill(
      'join',
      el('h2', { text: t('table.joinTitle') }),
      el('p', { text: t('table.joinText', { n: free.length }) }),
      el(
        'div',
        { class: 'row' },
        el('label', { for: 'joinName', class: 'sr', text: t('lobby.name') }),
        name,
        el('button', { text: t('lobby.join'), onclick: go }),
        el('span', { class: 'err', id: 'joinErr' })
      )
    );
  }

  /**
   * Conceding, for a seated person while the game runs: a bot plays their
   * seat to the end and they are rated last. It asks once more first, in
   * the page (a second button), since it cannot be undone.
   */
  function concedeBox() {
    const st = state.st;
    if (state.me() == null || st.over || state.waiting() || st.started === false || state.hasConceded(state.me()))
      return null;
    const answer = (on, focus) => () => {
      state.confirming(on);
      page.render();
      if ($(focus)) $(focus).focus();
    };
    const yes = () => {
      state.confirming(false);
      if (!page.send({ type: 'concede' })) page.msg(t('err.offline'));
    };
    const sure = el('p', { id: 'concedeSure', text: t('table.concedeSure') });
    const buttons = el(
      'div',
      { class: 'row' },
      el('button', { id: 'concedeYes', 'aria-describedby': 'concedeSure', text: t('table.concedeYes'), onclick: yes }),
      el('button', { id: 'concedeNo', class: 'alt', text: t('table.concedeNo'), onclick: answer(false, 'concede') })
    );
    const body = state.confirmConcede
      ? el('div', {}, sure, buttons)
      : el('button', { id: 'concede', class: 'alt', text: t('table.concede'), onclick: answer(true, 'concedeYes') });
    return [el('h2', { text: t('table.concedeTitle') }), body];
  }

  /** At the bottom: the link to share for watching, while the game runs, and the commitment. */
  function invite() {
    // a game in this browser: nobody to share it with, nothing to concede
    if (state.info && state.info.local) {
      const missing = page.local.noNetwork ? el('p', { id: 'noNetwork', class: 'warn', text: t('local.noNetwork') }) : null;
      return fill('invite', el('p', { class: 'mute', text: t('local.about') }), missing);
    }
    const share = !state.st.over && !state.waiting();
    fill(
      'invite',
      share ? [el('h2', { text: t('table.share') }), inviteRow(), friendRow()] : null,
      // a tutorial's deal is fixed and published: its hash commits to nothing secret
      el('p', { class: 'mute mono', text: t(state.info && state.info.tutorial ? 'table.tutorialHash' : 'table.seedHash') + ' ' + state.st.seed_hash }),
      concedeBox()
    );
  }

  /** The links under the result: replay, record, fairness check, lobby. */
  function resultLinks() {
    const id = state.id;
    if (state.info && state.info.local) return localLinks();
    const record = '/api/tables/' + id + '/record' + seeQuery(id);
    return el(
      'p',
      { class: 'row' },
      el('a', { href: '/replay/' + id, text: t('res.replay') }),
      el('a', { href: record, download: 'ratrace-' + id + '.json', text: t('res.download') }),
      el('a', { href: '/verify?id=' + id, text: t('res.verify') }),
      // a tournament's table: its next table is found from the tournament's page
      state.info && state.info.tournament
        ? el('a', { id: 'toTournament', href: '/tournament/' + encodeURIComponent(state.info.tournament), text: t('res.tournament') })
        : null,
      el('a', { href: '/', text: t('res.lobby') })
    );
  }

  /**
   * A finished local game's links: its record (asked of the worker once:
   * it holds the seed, so only a finished game's is given), a new game
   * with the same settings, the lobby.
   */
  function localLinks() {
    const L = page.local;
    if (!L.record && !L.asked) {
      L.asked = true;
      page.send({ type: 'record' });
    }
    return el(
      'p',
      { class: 'row' },
      L.record ? el('a', { id: 'localRecord', href: L.record, download: 'ratrace-' + state.id + '.json', text: t('res.download') }) : null,
      el('button', { id: 'again', text: t('local.again'), onclick: page.again }),
      el('a', { href: '/', text: t('res.lobby') })
    );
  }

  /** The result: places and scores, the seed revealed, the links and the rematch. */
  function result() {
    const st = state.st;
    $('result').classList.toggle('hidden', !st.over);
    if (!st.over) return fill('result');
    const o = state.outcome();
    const seats = o.scores.map((_, i) => i).sort((a, b) => o.places[a] - o.places[b]);
    const won = o.winners.map(seatId);
    const row = (i) =>
      el(
        'tr',
        { class: won.includes(seatId(i)) ? 'ok' : '' },
        el('td', { text: o.places[i] }),
        el('td', { text: who(i) }),
        el('td', { text: o.scores[i] })
      );
    const th = (k) => el('th', { scope: 'col', text: t(k) });
    const mine = contribution(state.id);
    const rematch = () => page.rematch($('rerr'));
    // who won and how, what to do next; the deal's numbers (for the
    // fairness check) last, folded
    fill(
      'result',
      el('h2', { text: '🏁 ' + view.resultHead() }),
      el('table', { class: 'res' }, el('tr', {}, th('res.place'), th('res.player'), th('res.score')), seats.map(row)),
      resultLinks(),
      state.me() != null && !(state.info && state.info.local)
        ? el(
            'p',
            { class: 'row' },
            el('button', { text: t('res.rematch'), onclick: rematch }),
            el('span', { id: 'rerr', class: 'err' })
          )
        : null,
      el(
        'details',
        { class: 'fair' },
        el('summary', { text: t('res.deal') }),
        el(
          'p',
          { class: 'mono' },
          st.secret ? [t('res.secret') + ' ' + st.secret, el('br')] : null,
          t('res.seed') + ' ' + (st.seed || '?'),
          el('br'),
          t('table.seedHash') + ' ' + st.seed_hash
        ),
        st.secret && mine ? el('p', { class: 'mute', text: t('res.mine', { c: mine.slice(0, 16) + '…' }) }) : null
      )
    );
  }

  return { locked, waiting, joinForm, invite, result };
}
