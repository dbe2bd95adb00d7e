/* The table's drawing shared by both games, and the games it knows: the
   seats around the felt in turn order (each one's head line, bubble and
   tile; on the table page in three groups, up the left side, along the
   top and down the right, with the player's own seat at the bottom),
   buttons that send an action, and the events and result in words. A
   seat says things twice (`both`): as icons and numbers for a phone's
   small tiles, and in words, which are read out at every size and shown
   where there is room (app.css decides).

   tableView(state, page) draws from one TableState (table-state.js); the
   page gives it `act` (send an action) and `redrawMine` (draw the player's
   area again). The table page gives its own; the replay draws spectators'
   positions with its own state and no actions. Each game's file
   (table-bigcheese.js, table-dalmuti.js) is a function of the helpers K
   made here, and returns its part: board(), order(), seat(id, acts),
   mine(used), prompt(), hint(), idle(), acts, stop, speech(ev),
   logClass(ev) and, if its middle needs the felt's width, wide (docs/
   web.md, "One file per game"). A new game is one more line in GAMES. */

import { el } from './dom.js';
import { t } from './i18n.js';
import { botLevel, seatId, seatLabel, winnersWords } from './names.js';
import { eventText } from './words.js';
import { bigCheese } from './table-bigcheese.js';
import { dalmuti } from './table-dalmuti.js';

/** Every game's part of the table, by the game's name. */
const GAMES = { bigcheese: bigCheese, dalmuti };

/** The drawing of the table whose state is `state`; `page` gives act(action) and redrawMine(). */
export function tableView(state, page) {
  const who = (s) => seatLabel(s, state.st.seats);
  const evText = (ev) => eventText(state.game, ev, state.st.seats);
  const plain = (text, action, extra) =>
    el('button', Object.assign({ text, disabled: state.pending, 'data-act': action, onclick: () => page.act(action) }, extra || {}));
  /** A decision's button; the pass asks "really?" first when the player wants it to (then two buttons). */
  function btn(text, action, extra) {
    if (action !== 'pass' || !state.passAsked) return plain(text, action, extra);
    return [
      plain(t('act.passSure'), action, { class: 'warn', 'data-k': 'pass-sure' }),
      el('button', { class: 'alt', text: t('act.passNo'), 'data-k': 'pass-no', onclick: () => page.keepTurn() }),
    ];
  }

  /**
   * The same thing twice: `short` (an icon, a number) where a phone has no
   * room for words, and `long` (the words) where there is room. The words
   * are read out at every size; the short form is for the eye only. Which
   * one shows is app.css's business (`.short`, `.long`).
   */
  const both = (short, long) => [
    el('span', { class: 'short', 'aria-hidden': 'true' }, short),
    el('span', { class: 'long' }, long),
  ];

  /**
   * A seat's head line: `pos`, what goes before the name (Dalmuti: the
   * place in turn order and the role's icon), the name, and
   * the tags: "you", the bot's level (a meter on a phone), away or
   * conceded, to move, then the game's own `more` (a Big Cheese auction's
   * leader and high bid).
   */
  function seatHead(id, pos, more) {
    const s = state.seatInfo(id);
    const tags = [];
    if (state.isMe(id)) tags.push(el('span', { class: 'tag you', text: t('tag.you') }));
    if (s && s.kind === 'bot' && s.bot) {
      const level = botLevel(s.bot, s.level);
      const meter = el('i', { class: 'lv' });
      tags.push(el('span', { class: 'tag bot', 'data-bot': s.bot, 'data-level': s.level || 0, title: level }, both(meter, '🤖 ' + level)));
    }
    if (s && s.kind === 'human' && !s.taken) tags.push(el('span', { class: 'tag', text: t('tag.free') }));
    else if (s && s.conceded)
      tags.push(el('span', { class: 'tag pass', title: t('tag.conceded') }, both('🏳️', t('tag.conceded'))));
    else if (s && s.kind === 'human' && !s.connected)
      tags.push(el('span', { class: 'tag pass', title: t('tag.away') }, both('💤', t('tag.away'))));
    if (state.toMove(id))
      tags.push(el('span', { class: 'tag turn' }, '⏳', el('span', { class: 'long', text: ' ' + t('tag.turn') })));
    return el(
      'div',
      { class: 'head' },
      pos || null,
      // (cut short on a phone: its title says it whole)
      el('span', { class: 'nm', title: who(id), text: who(id) }),
      tags,
      more || null
    );
  }

  function seatClass(id) {
    let c = 'seat';
    if (state.toMove(id)) c += ' turn';
    if (state.isMe(id)) c += ' me';
    return c;
  }

  /** The speech bubble by a seat: its bid, its pass, the set it played. */
  function bubble(ev) {
    if (!ev) return null;
    const body = ev.kind === 'pass' ? t('act.pass') : game().speech(ev);
    if (body == null) return null;
    const cls = 'bubble' + (ev.kind === 'pass' ? ' pass' : '');
    return el('div', { class: cls, 'data-k': ev.kind + ':' + state.log.indexOf(ev) }, body);
  }

  // What each game's file uses of the table. Counts that change (chips,
  // score, cards left) are keyed by their value: a new value is a new
  // node, and the CSS plays its change on it.
  const K = {
    state,
    pv: () => state.pv(),
    legal: () => state.legal(),
    has: (a) => state.has(a),
    isMe: (id) => state.isMe(id),
    who,
    act: (a) => page.act(a),
    redrawMine: () => page.redrawMine(),
    btn,
    both,
    seatHead,
    seatClass,
    bubble,
    evText,
  };
  const parts = {};
  /** The game of this table, once its name is known; null before. */
  function game() {
    const make = GAMES[state.game];
    if (!make) return null;
    return parts[state.game] || (parts[state.game] = make(K));
  }

  /**
   * What each seat did last in the current auction or trick, from the log:
   * seat id → event. The log is read back to the start of the auction
   * (Big Cheese) or of the trick (Dalmuti).
   */
  function lastActs() {
    const out = {};
    const { acts, stop } = game();
    for (let i = state.log.length - 1; i >= 0; i--) {
      const ev = state.log[i];
      if (stop.includes(ev.kind)) break;
      if (acts.includes(ev.kind) && ev.seat != null && !out[seatId(ev.seat)]) out[seatId(ev.seat)] = ev;
    }
    return out;
  }

  /** Seat ids around the table: from the player's left, the player last (at the bottom). */
  function seatsInOrder() {
    const ids = game().order();
    const k = ids.findIndex((id) => state.isMe(id));
    return k < 0 ? ids : ids.slice(k + 1).concat(ids.slice(0, k + 1));
  }

  /** Every seat's tile, in order around the table; the log is read once for all of them. */
  function seats() {
    // before the start nothing is dealt: the engine's view of a deal to
    // come (roles, the first auction) would only mislead; names only
    if (state.waiting()) {
      return seatsInOrder().map((id) =>
        el('div', { class: seatClass(id), 'data-seat': id, 'data-k': id }, seatHead(id))
      );
    }
    const acts = lastActs();
    return seatsInOrder().map((id) => game().seat(id, acts));
  }

  /**
   * How many of `n` other seats sit on the felt's left side, along its
   * top and on its right side: the top alone up to three, then one more
   * pair of sides at 4, 6 and 8, so that the top row stays short (a phone
   * holds three or four across) and the sides stand beside the middle. A
   * game whose middle needs the felt's width (`wide`: the Big Cheese's
   * card, auction and roll side by side) has every seat along the top.
   */
  function ringSplit(n, wide) {
    const side = wide || n < 4 ? 0 : n < 6 ? 1 : n < 8 ? 2 : 3;
    return [side, n - 2 * side, side];
  }

  /**
   * The seats around the felt (the table page): the others from the
   * player's left, up the left side, along the top and down the right
   * side, in turn order, and the player's own seat at the bottom. Three
   * groups and the player's tile; app.css places them around the middle.
   */
  function ring() {
    const ids = seatsInOrder();
    const tiles = seats();
    const others = tiles.filter((_, k) => !state.isMe(ids[k]));
    const own = tiles.filter((_, k) => state.isMe(ids[k]));
    const [l, top] = ringSplit(others.length, game().wide);
    const group = (side, kids) => el('div', { class: 'ring ring-' + side, 'data-k': side }, kids);
    return [
      group('l', others.slice(0, l)),
      group('t', others.slice(l, l + top)),
      group('r', others.slice(l + top)),
      own,
    ];
  }

  /** The result in a line: who won, nobody, or a game stopped for its length. */
  function resultHead() {
    const o = state.outcome();
    const won = o.winners.map(seatId);
    if (o.capped) return t('res.capped');
    const seats = state.st && state.st.seats;
    return won.length ? t('res.won', { who: winnersWords(won, seats, who) }) : t('res.nobody');
  }

  return { game, who, evText, btn, seats, ring, resultHead };
}
