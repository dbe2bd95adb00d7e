/* The Great Dalmuti's part of the table (table page and replay): the
   middle of the felt (the trick to beat, a revolution, the exchanges of
   taxes and the market), each seat's role, cards left and points, the
   player's hand (one tab stop with a moving cursor, Space picks, a rank's
   number jumps, Enter plays; its cards overlap to fit the width, app.css)
   with play, give, market and revolution, and the prompts written for
   the moment.

   dalmuti(K) gets the table's shared helpers (table-view.js: the state,
   act, btn, seatHead, bubble...) and returns the members table-view.js
   asks every game for (docs/web.md, "One file per game"). The cards
   picked, the cursor and the digits typed are transitions of the table's
   state. */

import { $, append, el } from './dom.js';
import { t } from './i18n.js';
import { seatId, seatIndex } from './names.js';
import { cardsWords, rankName, roleIcon, roleName, setCards, setWords } from './words-dalmuti.js';
import { dalmutiFace } from './card-art.js';

/** The Great Dalmuti's part of the table, drawn with the table's helpers `K`. */
export function dalmuti(K) {
  const { state, pv, legal, has, who, act, btn, redrawMine: renderMine, both, seatHead, seatClass, bubble } = K;

  const rankOf = (c) => (c === 'J' ? 13 : Number(c));

  function dalCard(c, opts) {
    const o = opts || {};
    const cls = 'card dal r' + (c === 'J' ? 'j' : c) + (o.sel ? ' sel' : '') + (o.mini ? ' mini' : '');
    const name = rankName(c);
    const label = c === 'J' ? name : c + ' ' + name;
    // the card's face (card-art.js: its number and an emblem of its own);
    // the card itself is named ("5 Abbess") and says its rank (data-rank)
    const face = dalmutiFace(c, { mini: o.mini, decorative: true });
    if (o.onclick)
      return el(
        'button',
        {
          class: cls,
          onclick: o.onclick,
          onkeydown: o.onkeydown,
          onfocus: o.onfocus,
          tabindex: o.tabindex,
          'aria-pressed': o.sel ? 'true' : 'false',
          'aria-label': label,
          'data-rank': c,
          'data-k': o.key,
        },
        face
      );
    return el('span', { class: cls, role: 'img', 'aria-label': label, 'data-rank': c, 'data-k': o.key }, face);
  }

  const handCards = () =>
    String((state.st.view && state.st.view.hand) || '')
      .split(/[\s|]+/)
      .filter((x) => x && x !== 'empty');

  const selCards = () => state.sel.map((i) => handCards()[i]).filter(Boolean);

  /** The selection in notation: "3x7", "2x7+J", "J", "2xJ"; null if mixed ranks. */
  function selSet() {
    const cs = selCards();
    const j = cs.filter((c) => c === 'J').length;
    const nat = cs.filter((c) => c !== 'J');
    if (!cs.length || new Set(nat).size > 1) return null;
    if (!nat.length) return j === 1 ? 'J' : j + 'xJ';
    const n = nat.length;
    const base = n === 1 && !j ? nat[0] : n + 'x' + nat[0];
    return base + (j === 1 ? '+J' : j === 2 ? '+2J' : '');
  }

  /** The selection as a gift: "3 12", best first, Jesters last. */
  const selGift = () =>
    selCards()
      .sort((a, b) => rankOf(a) - rankOf(b))
      .join(' ');

  function toggle(i) {
    state.toggleCard(i);
    renderMine();
  }

  /** The action the chosen cards make now (a play or a gift), if legal. */
  function chosenAction() {
    const set = selSet();
    if (set && has('play ' + set)) return 'play ' + set;
    const gift = selGift();
    if (gift && has('give ' + gift)) return 'give ' + gift;
    return null;
  }

  /**
   * The hand: one tab stop (roving focus); arrows move, Space or a click
   * picks a card, Enter plays or gives the picked cards when they are
   * legal. Cards can be picked ahead of the turn.
   */
  function dalHand() {
    const cards = handCards();
    if (!cards.length) return el('p', { class: 'mute', text: t('dal.noCards') });
    state.cursorWithin(cards.length);
    const seen = {};
    const move = (to) => {
      const all = $('mine').querySelectorAll('.hand button.card');
      if (!all.length) return;
      const at = state.moveCursor(to, all.length);
      all.forEach((b, k) => b.setAttribute('tabindex', k === at ? '0' : '-1'));
      all[at].focus();
    };
    const keys = (i) => (e) => {
      // type-ahead gathers digits typed in a row; any other key starts it afresh
      if (!/^[0-9jJ]$/.test(e.key)) state.endTypeAhead();
      if (e.key === ' ') {
        // pick (or unpick) the card; after a pick the cursor moves on, so
        // that a pair is Space, Space
        const picking = !state.sel.includes(i);
        toggle(i);
        if (picking && i + 1 < cards.length) move(i + 1);
      } else if (/^[0-9jJ]$/.test(e.key)) {
        // type-ahead: a rank's digits ("7", "1" "0") or J jump to its first card
        const typed = state.typeAhead(e.key, Date.now());
        let k = cards.indexOf(typed);
        if (k < 0) k = cards.findIndex((c) => c.startsWith(typed));
        if (k >= 0) move(k);
      } else if (e.key === 'ArrowRight' || e.key === 'ArrowDown') move(i + 1);
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') move(i - 1);
      else if (e.key === 'Home') move(0);
      else if (e.key === 'End') move(cards.length - 1);
      else if (e.key === 'Enter') {
        const a = chosenAction();
        if (a && !state.pending) act(a);
        else toggle(i);
      } else return;
      // handled here: no click from the key as well
      e.preventDefault();
    };
    const items = cards.map((c, i) => {
      seen[c] = (seen[c] || 0) + 1;
      return dalCard(c, {
        sel: state.sel.includes(i),
        key: c + '#' + seen[c],
        tabindex: i === state.cursor ? '0' : '-1',
        onclick: () => toggle(i),
        onkeydown: keys(i),
        onfocus: () => state.moveCursor(i, cards.length),
      });
    });
    // the cards overlap to fit the width (app.css): `--n` of them in one
    // row, or on a narrow screen `--row` a row (13 at most, the rows even)
    const row = Math.ceil(cards.length / Math.ceil(cards.length / 13));
    return el(
      'div',
      {
        class: 'hand',
        role: 'group',
        'aria-label': t('dal.yourHand') + ' · ' + t('dal.keys'),
        style: { '--n': cards.length, '--row': row },
      },
      items
    );
  }

  function dalBoard() {
    const p = pv();
    const v = state.st.view || {};
    const o = p.options || {};
    const head =
      t('dal.handNo', { n: p.hand_number, of: o.hands }) + (o.target ? ' · ' + t('dal.target', { n: o.target }) : '');
    return [
      el('div', { class: 'mute', text: head }),
      dalRevolution(p),
      dalTrick(p),
      p.phase !== 'play' ? dalExchanges(p, v) : null,
    ];
  }

  function dalRevolution(p) {
    if (p.revolution === 'declared')
      return el('div', { class: 'banner', text: '✊ ' + t('dal.revDeclared', { who: who(p.revolution_by) }) });
    if (p.revolution === 'great')
      return el('div', { class: 'banner', text: '🔄 ' + t('dal.revGreat', { who: who(p.revolution_by) }) });
    if (p.revolution_offered && p.phase !== 'revolution')
      return el('div', { class: 'mute', text: t('dal.revDeclined') });
    if (!p.taxes && p.phase === 'play') return el('div', { class: 'mute', text: t('dal.noTaxes') });
    return null;
  }

  function dalTrick(p) {
    if (p.phase !== 'play') return null;
    if (!p.trick) return el('div', { class: 'trick empty' }, el('b', { text: t('dal.noTrick') }));
    const key = p.trick.play + '@' + seatId(p.trick.by) + '#';
    return el(
      'div',
      { class: 'trick' },
      el('div', { class: 'mute', text: t('dal.toBeat', { who: who(p.trick.by) }) }),
      el(
        'div',
        { class: 'cards', 'data-k': p.trick.play + ':' + seatId(p.trick.by) },
        setCards(p.trick.play).map((c, i) => dalCard(c, { key: key + i }))
      ),
      el('div', { text: setWords(p.trick.play) }),
      p.passed.length
        ? el('div', { class: 'mute', text: t('dal.passedSince', { who: p.passed.map(who).join(', ') }) })
        : null
    );
  }

  function dalExchanges(p, v) {
    const lines = (p.exchanges || []).map((e) =>
      t(e.kind === 'tax' ? 'dal.exTax' : 'dal.exMarket', { from: who(e.from), to: who(e.to), n: e.cards })
    );
    (v.transfers || []).forEach((x) => {
      const mine = seatId(x.from) === seatId(v.seat);
      lines.push(
        mine
          ? t('dal.youGave', { cards: cardsWords(x.cards), to: who(x.to) })
          : t('dal.youGot', { cards: cardsWords(x.cards), from: who(x.from) })
      );
    });
    if (v.pending_gift) lines.push(t('dal.willGive', { cards: cardsWords(v.pending_gift) }));
    if (!lines.length) return null;
    return el(
      'div',
      { class: 'mute' },
      lines.map((l) => el('div', { text: l }))
    );
  }

  /**
   * A seat's tile: its place in turn order, name and tags on the head
   * line; its role, cards left and points, its place out or its pass, and
   * what it played in this trick on the second (on a phone the role is
   * its icon before the name). On a phone the role is its
   * icon, the counts are numbers and the set played is one card and a
   * count (`both`): the words are still read out.
   */
  function dalSeat(id, acts) {
    const p = pv();
    const i = seatIndex(id);
    const pos = (p.order || []).map(seatId).indexOf(id);
    const role = p.roles[i];
    const tags = [];
    const fin = p.finished.map(seatId).indexOf(id);
    if (fin >= 0) tags.push(el('span', { class: 'tag out', text: t('tag.out', { n: fin + 1 }) }));
    if (p.passed.map(seatId).includes(id) && !acts[id])
      tags.push(el('span', { class: 'tag pass', text: t('tag.passed') }));
    const left = p.cards_left[i];
    const icon = roleIcon(role);
    return el(
      'div',
      { class: seatClass(id), 'data-seat': id, 'data-k': id },
      seatHead(id, [
        // the place in turn order: a number for the eye (its meaning on
        // hover), the words for a screen reader
        el(
          'span',
          { class: 'pos', title: t('dal.pos', { n: pos + 1 }) },
          el('span', { 'aria-hidden': 'true', text: pos + 1 + '.' }),
          el('span', { class: 'sr', text: t('dal.pos', { n: pos + 1 }) })
        ),
        icon ? el('span', { class: 'role short', title: roleName(role), 'aria-hidden': 'true', text: icon }) : null,
      ]),
      el(
        'div',
        { class: 'stat' },
        el('span', { class: 'role long', text: (icon + ' ' + roleName(role)).trim() }),
        el(
          'span',
          { class: 'left', 'data-k': 'l' + left },
          el(
            'span',
            { class: 'backs', 'aria-hidden': 'true' },
            Array.from({ length: Math.min(left, 8) }, (_, k) => el('i', { 'data-k': String(k) }))
          ),
          both(String(left), t('dal.cardsLeft', { n: left }) + ' ·')
        ),
        el(
          'span',
          { class: 'pts', 'data-k': 'p' + p.scores[i] },
          both('🏆' + p.scores[i], t('dal.points', { n: p.scores[i] }))
        ),
        tags,
        p.phase === 'play' ? bubble(acts[id]) : null
      )
    );
  }

  /** The player's own Dalmuti area: the hand (always), and the controls of the moment. */
  function dalMine(used) {
    const v = state.st.view || {};
    const L = legal();
    const out = [];
    const plays = L.filter((a) => a.startsWith('play '));
    const gives = L.filter((a) => a.startsWith('give '));
    const markets = L.filter((a) => a.startsWith('market '));
    if (v.hand !== undefined) out.push(dalHand());
    const row = el('div', { class: 'row' });
    if (plays.length) append(row, [dalPlayButton(plays, used)]);
    else if (L.includes('pass') && pv().trick) append(row, [cannotBeat()]);
    if (gives.length) append(row, [dalGiveButton(gives, used)]);
    if (markets.length) append(row, [dalMarketButtons(markets, used)]);
    [
      ['pass', 'dal.pass'],
      ['no-market', 'act.noMarket'],
      ['revolution', 'dal.revolution'],
      ['no-revolution', 'dal.noRevolution'],
      ['seat-new above', 'act.seatAbove'],
      ['seat-new below', 'act.seatBelow'],
    ].forEach(([a, k]) => {
      if (!has(a)) return;
      used.add(a);
      append(row, [btn(t(k), a, { class: a === 'pass' || a.startsWith('no-') ? 'alt' : '' })]);
    });
    out.push(row);
    return out;
  }

  function dalPlayButton(plays, used) {
    plays.forEach((a) => used.add(a));
    const set = selSet();
    const ok = set && plays.includes('play ' + set);
    const note = !state.sel.length ? t('dal.pickPlay') : ok ? setWords(set) : t('dal.notLegal');
    return [
      el('button', {
        id: 'playGo',
        text: t('dal.play'),
        disabled: state.pending || !ok,
        onclick: () => act('play ' + set),
      }),
      el('span', { class: ok ? 'ok' : 'mute', text: note }),
      clearButton(),
    ];
  }

  /**
   * With nothing that beats the trick: Play stays, unavailable, and says
   * why in a few words beside it (the prompt above names the set).
   */
  function cannotBeat() {
    return [
      el('button', { id: 'playGo', text: t('dal.play'), disabled: true, 'aria-describedby': 'whyNot' }),
      el('span', { id: 'whyNot', class: 'mute', text: t('dal.cannotBeat') }),
      clearButton(),
    ];
  }

  /** Cards picked can be put back in one tap (or Escape). */
  const clearButton = () =>
    state.sel.length
      ? el('button', {
          class: 'alt',
          text: t('dal.clear'),
          onclick: () => {
            state.clearCards();
            renderMine();
          },
        })
      : null;

  /** Who receives the cards given in a tax or market phase. */
  const giveTarget = (p) =>
    p.phase === 'market-return'
      ? (p.exchanges.find((e) => e.kind === 'market') || {}).from
      : p.phase === 'greater-tax'
        ? p.order[p.order.length - 1]
        : p.order[p.order.length - 2];

  function dalGiveButton(gives, used) {
    gives.forEach((a) => used.add(a));
    const gift = selGift();
    const ok = gives.includes('give ' + gift);
    return [
      el('button', { id: 'giveGo', text: t('dal.give'), disabled: state.pending || !ok, onclick: () => act('give ' + gift) }),
      el('span', { class: ok ? 'ok' : 'mute', text: ok ? cardsWords(gift) : '' }),
    ];
  }

  function dalMarketButtons(markets, used) {
    markets.forEach((a) => used.add(a));
    const seats = [...new Set(markets.map((a) => a.split(' ')[1]))];
    const card = selCards().length === 1 ? selCards()[0] : null;
    return seats.map((s) => {
      const black = markets.includes('market ' + s);
      const a = black ? 'market ' + s : 'market ' + s + ' ' + card;
      const ok = black || (card && markets.includes(a));
      return el('button', {
        text: black ? t('act.blackMarket', { seat: who(s) }) : t('dal.marketTo', { who: who(s) }),
        disabled: state.pending || !ok,
        onclick: () => act(a),
      });
    });
  }

  /** What the others are doing, when it is not this player's turn. */
  const hint = () => (pv().phase === 'play' ? '' : t('phase.' + pv().phase));

  /** This player's decision, in words written for the moment. */
  function prompt() {
    const p = pv();
    switch (p.phase) {
      case 'play':
        return p.trick
          ? t('dal.promptFollow', { set: setWords(p.trick.play), n: setCards(p.trick.play).length })
          : t('dal.promptLead');
      case 'greater-tax':
      case 'lesser-tax':
      case 'market-return': {
        const gives = legal().filter((a) => a.startsWith('give '));
        if (!gives.length) return t('phase.' + p.phase);
        const to = giveTarget(p);
        return t('dal.giveHint', { n: gives[0].split(' ').length - 1, who: to ? who(to) : '?' });
      }
      default:
        return t('phase.' + p.phase);
    }
  }

  /**
   * A seat's bubble for the set it played (its cards and the set in words;
   * on a phone its rank as a card's index and a count, "7×3+J"); a pass
   * is drawn by table-view.js, a place out by the seat's tag.
   */
  function speech(ev) {
    if (ev.kind === 'play') {
      const cards = setCards(ev.play);
      const jesters = cards.filter((c) => c === 'J').length;
      const rank = cards.find((c) => c !== 'J') || 'J';
      const n = rank === 'J' ? jesters : cards.length - jesters;
      return el(
        'span',
        { class: 'mini' },
        both(
          [el('b', { class: 'ix', text: rank }), n > 1 ? '×' + n : '', rank !== 'J' && jesters ? '+J' : ''],
          [cards.map((c) => dalCard(c, { mini: true })), ' ', setWords(ev.play)]
        )
      );
    }
    // a seat that went out says so once, in its tag (not again in a bubble)
    return null;
  }

  return {
    board: dalBoard,
    order: () => (pv().order || []).map(seatId),
    seat: dalSeat,
    mine: dalMine,
    prompt,
    hint,
    // nobody to move while the revolution's secret decision is pending
    idle: () => (pv().phase === 'revolution' ? t('dal.revPending') : ''),
    // a seat's bubble: what it did since the trick was led
    acts: ['play', 'pass', 'out'],
    stop: ['leads', 'deal', 'hand-over'],
    speech,
    logClass: () => '',
  };
}
