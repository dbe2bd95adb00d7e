/* The Big Cheese's part of the table (table page and replay): the middle
   of the felt (the card up for auction, the bids, the roll and its dice),
   each seat's score, chips and projects, the player's own controls (one
   bid control, pass, veto, keep, and the dice to pick for a Big Cheese
   re-roll) and the prompts written for the moment.

   bigCheese(K) gets the table's shared helpers (table-view.js: the state,
   act, btn, seatHead, bubble...) and returns the members table-view.js
   asks every game for (docs/web.md, "One file per game"). The player's
   picks (the bid, the dice) are transitions of the table's state. */

import { append, el } from './dom.js';
import { t } from './i18n.js';
import { seatId } from './names.js';
import { bcName, ROLL_KINDS } from './words-bigcheese.js';
import { cheeseFace, dieFace } from './card-art.js';

/** The Big Cheese's part of the table, drawn with the table's helpers `K`. */
export function bigCheese(K) {
  const { state, pv, legal, has, who, isMe, act, btn, redrawMine: renderMine } = K;
  const { both, seatHead, seatClass, bubble, evText } = K;
  const isRoll = (ev) => ROLL_KINDS.includes(ev.kind);

  function bcCard(c, big) {
    const sp = c === 'V' || c === 'BC';
    const name = bcName(c);
    // the card's face (card-art.js: its value and its die's outline, or
    // the Veto's and the Big Cheese's signs), named as the card
    return el(
      'span',
      { class: 'card bc' + (sp ? ' sp' : '') + (big ? ' big' : ''), 'data-card': c },
      cheeseFace(c, { label: sp ? name : t('bc.projectCard', { n: c }) })
    );
  }

  /** The die a roll uses: the card's own (polyhedral), else d6. */
  const dieSides = (card) => (((pv().options || {}).dice || 'polyhedral') === 'polyhedral' ? Number(card) || 6 : 6);

  /** One die: its face and size; a button when it can be picked for a re-roll. */
  function die(face, sides, opts) {
    const o = opts || {};
    // its face drawn (card-art.js: a d6's pips, another die's number on
    // its outline), the die's size beside it unless it is a d6
    const kids = [
      dieFace(sides, face, { decorative: true }),
      sides === 6 ? null : el('small', { text: 'd' + sides }),
    ];
    const label = t('bc.die', { face, sides });
    const cls = 'die' + (o.sel ? ' sel' : '') + (o.best ? ' best' : '') + (o.fresh ? ' rolling' : '');
    if (o.onclick)
      return el(
        'button',
        {
          class: cls,
          'aria-pressed': o.sel ? 'true' : 'false',
          'aria-label': label,
          title: label,
          'data-face': face,
          'data-k': o.key,
          onclick: o.onclick,
        },
        kids
      );
    return el('span', { class: cls, role: 'img', 'aria-label': label, 'data-k': o.key }, kids);
  }

  function bcBoard() {
    const p = pv();
    const discards = (p.discards || []).reduce((n, [, k]) => n + k, 0);
    const a = p.auction;
    const top = el(
      'div',
      { class: 'row center-row' },
      el(
        'div',
        { class: 'col deck' },
        el('span', { class: 'mute long', text: t('bc.top') }),
        p.top ? bcCard(p.top, true) : el('span', { text: t('bc.noTop') })
      ),
      el(
        'div',
        { class: 'col grow' },
        a ? el('b', { text: t('bc.auction', { card: bcName(a.card) }) }) : null,
        a
          ? el('div', {
              class: 'bidline',
              text: a.bidder ? t('bc.high', { n: a.high, who: who(a.bidder) }) : t('bc.noBid'),
            })
          : null,
        el('span', {
          class: 'mute',
          text: t('bc.deck', { n: p.deck_size }) + ' · ' + t('bc.discards', { n: discards }),
        }),
        el('span', {
          class: 'mute',
          text: t('bc.target', { n: p.target }) + (p.options && p.options.exact ? ' ' + t('bc.exact') : ''),
        }),
        el('span', { class: 'mute', text: t('bc.dice.' + ((p.options && p.options.dice) || 'polyhedral')) })
      )
    );
    return [top, bcRoll(p), bcLastRolls()];
  }

  /** The roll on the table; its owner picks dice to re-roll in their own area. */
  function bcRoll(p) {
    const r = p.roll;
    const q = p.to_resolve || [];
    if (!r && !q.length) return null;
    const key = rollKey();
    const sides = r ? dieSides(r.card) : 6;
    return el(
      'div',
      { class: 'roll box' },
      r &&
        el(
          'div',
          {},
          t('bc.roll', { who: who(r.owner), card: bcName(r.card) }),
          ' ',
          el('b', { text: t('bc.pays', { n: r.payout }) })
        ),
      r && !isMe(r.owner)
        ? el(
            'div',
            { class: 'dice' },
            r.dice.map((d, i) => die(d, sides, { key: key + ':' + i, fresh: true }))
          )
        : null,
      r && !isMe(r.owner) ? el('div', { class: 'mute', text: t('bc.rollWait', { who: who(r.owner) }) }) : null,
      q.length
        ? el('div', {
            class: 'mute',
            text: t('bc.toResolve', { list: q.map(([s, c]) => bcName(c) + ' (' + who(s) + ')').join(', ') }),
          })
        : null
    );
  }

  /** Identifies the roll shown (a new roll, a re-roll): new dice nodes roll, old ones stay. */
  function rollKey() {
    let n = 0;
    state.log.forEach((ev, i) => {
      if (ev.kind === 'roll' || ev.kind === 'reroll') n = i;
    });
    return 'r' + n;
  }

  /** The latest dice events of the log, as they happen. */
  function bcLastRolls() {
    const rolls = state.log.filter(isRoll).slice(-3);
    if (!rolls.length) return null;
    return el(
      'div',
      { class: 'box last' },
      el('h3', { text: '🎲 ' + t('bc.lastRolls') }),
      rolls.map((ev) => el('div', { text: evText(ev) }))
    );
  }

  /**
   * A seat's tile: name and tags (leads, high bid) on the head line; its
   * score with the bar to the target, its chips and what it bid in this
   * auction (or that it passed) on the second; its projects and its Vetos
   * and Big Cheeses under them. On a phone the score and chips are numbers
   * and a card is its value or its sign (`both`): the words and the cards'
   * names are still read out.
   */
  function bcSeat(id, acts) {
    const p = pv();
    const s = (p.seats || []).find((x) => seatId(x.seat) === id);
    if (!s) return null;
    const a = p.auction;
    // the auction's leader and high bidder, by the name (on a phone ▶ and ▲N)
    const auction = [];
    if (a && seatId(a.leader) === id)
      auction.push(el('span', { class: 'tag', title: t('tag.leader') }, both('▶', t('tag.leader'))));
    if (a && a.bidder && seatId(a.bidder) === id) {
      const high = t('tag.high', { n: a.high });
      auction.push(el('span', { class: 'tag hi', title: high }, both('▲' + a.high, high)));
    }
    const tags = [];
    // a pass shows in the seat's bubble; without a log (the replay) as a tag
    if (a && a.passed.map(seatId).includes(id) && !acts[id])
      tags.push(el('span', { class: 'tag pass', text: t('tag.passed') }));
    const projects = s.projects.map(([c, k]) =>
      el(
        'span',
        { class: 'proj', title: t('bc.maturesIn', { n: k }), 'data-k': c },
        both(el('b', { class: 'ix', text: c }), bcCard(c)),
        el(
          'span',
          { class: 'chips', 'aria-label': t('bc.chipsOn', { n: k }), 'data-k': 'k' + k },
          '🐭',
          el('b', { text: k })
        )
      )
    );
    const hand = [];
    for (let i = 0; i < s.vetos; i++) hand.push(both('⛔', bcCard('V')));
    for (let i = 0; i < s.cheeses; i++) hand.push(both('🧀', bcCard('BC')));
    const pct = Math.min(100, Math.round((100 * s.score) / (p.target || 1)));
    return el(
      'div',
      { class: seatClass(id), 'data-seat': id, 'data-k': id },
      seatHead(id, '', auction),
      el(
        'div',
        { class: 'stat' },
        el(
          'span',
          { class: 'score', 'data-k': 's' + s.score },
          both(
            s.score + '/' + p.target + (s.scored ? ' ✔' + s.scored : ''),
            t('bc.score', { n: s.score, target: p.target, k: s.scored })
          )
        ),
        el(
          'span',
          { class: 'chipline', 'data-k': 'f' + s.free },
          '🐭',
          both(
            s.free + (s.hired ? '+' + s.hired : ''),
            ' ' + t('bc.free', { n: s.free }) + (s.hired ? ' · ' + t('bc.hired', { n: s.hired }) : '')
          )
        ),
        tags,
        bubble(acts[id])
      ),
      el('div', { class: 'bar', role: 'presentation' }, el('i', { style: { width: pct + '%' } })),
      projects.length || hand.length
        ? el(
            'div',
            { class: 'goods' },
            projects.length ? el('span', { class: 'projects' }, projects) : null,
            hand.length
              ? el('span', { class: 'specials' }, el('span', { class: 'long mute', text: t('bc.hand') + ' ' }), hand)
              : null
          )
        : null
    );
  }

  /** The legal bids, lowest first. */
  const bidList = () =>
    legal()
      .filter((a) => /^bid \d+$/.test(a))
      .map((a) => Number(a.slice(4)))
      .sort((a, b) => a - b);

  /** The player's own Big Cheese area: one bid control, pass, veto, and the dice to re-roll. */
  function bcMine(used) {
    const p = pv();
    const out = [];
    // the bid control, pass and veto share one row: the area stays short
    const row = el('div', { class: 'row' });
    const bids = bidList();
    if (bids.length) {
      bids.forEach((n) => used.add('bid ' + n));
      const lo = bids[0];
      const hi = bids[bids.length - 1];
      const bid = state.bidWithin(lo, hi);
      const set = (v) => {
        state.bidTo(v, lo, hi);
        renderMine();
      };
      const ok = bids.includes(bid);
      append(row, [
        el(
          'div',
          { class: 'row bid', role: 'group', 'aria-label': t('bc.bidAmount') },
          el(
            'button',
            {
              class: 'alt step',
              'aria-label': t('bc.less'),
              disabled: state.pending || bid <= lo,
              onclick: () => set(bid - 1),
            },
            '−'
          ),
          el('input', {
            id: 'bidN',
            type: 'number',
            min: lo,
            max: hi,
            step: 1,
            value: String(bid),
            'aria-label': t('bc.bidAmount'),
            oninput: (e) => state.bidTo(Number(e.target.value)),
            onchange: (e) => set(Number(e.target.value)),
            onkeydown: (e) => e.key === 'Enter' && ok && act('bid ' + state.bid),
          }),
          el(
            'button',
            {
              class: 'alt step',
              'aria-label': t('bc.more'),
              disabled: state.pending || bid >= hi,
              onclick: () => set(bid + 1),
            },
            '+'
          ),
          el(
            'button',
            { id: 'bidGo', disabled: state.pending || !ok, onclick: () => act('bid ' + state.bid) },
            t('bc.bidMin', { n: bid })
          )
        ),
      ]);
    }
    if (has('pass')) {
      used.add('pass');
      append(row, [btn(t('bc.pass'), 'pass', { class: 'alt' })]);
    }
    if (has('veto')) {
      used.add('veto');
      append(row, [btn('⛔ ' + t('bc.useVeto', { card: bcName(p.auction ? p.auction.card : p.top) }), 'veto')]);
    }
    if (p.roll && isMe(p.roll.owner)) out.push(myDice(p.roll, used));
    if (has('keep')) {
      used.add('keep');
      append(row, [btn(t('bc.keep', { n: p.roll ? p.roll.payout : '' }), 'keep')]);
    }
    if (has('reroll')) {
      used.add('reroll');
      append(row, [btn('🧀 ' + t('bc.reroll'), 'reroll', { class: 'alt' })]);
    }
    // the Vetos and Big Cheeses in hand are on the player's own seat
    out.push(row);
    return out;
  }

  /**
   * The player's own roll: the dice drawn, and when a Big Cheese may
   * re-roll some of them, each die a toggle; one button re-rolls the
   * picked dice. Never more controls than dice (20 at most).
   */
  function myDice(r, used) {
    const key = rollKey();
    state.diceFor(key);
    const faces = legal().filter((a) => a.startsWith('reroll '));
    faces.forEach((a) => used.add(a));
    const sides = dieSides(r.card);
    const pick = faces.length > 0 && !state.pending;
    const toggle = (i) => {
      state.toggleDie(i);
      renderMine();
    };
    const chosen = state.dsel.map((i) => r.dice[i]).sort((a, b) => a - b);
    const action = 'reroll ' + chosen.join(',');
    const ok = chosen.length > 0 && faces.includes(action);
    // half-of-n pays the best half of the dice: mark the ones that count
    const best = new Set();
    if (((pv().options || {}).dice || '') === 'half-of-n') {
      const order = r.dice.map((d, i) => [d, i]).sort((a, b) => b[0] - a[0]);
      order.slice(0, Math.floor(r.dice.length / 2)).forEach(([, i]) => best.add(i));
    }
    const dice = r.dice.map((d, i) =>
      die(d, sides, {
        key: key + ':' + i,
        sel: state.dsel.includes(i),
        best: best.has(i),
        fresh: true,
        onclick: pick ? () => toggle(i) : null,
      })
    );
    return el(
      'div',
      { class: 'roll mine' },
      el('div', { class: 'dice', role: pick ? 'group' : null, 'aria-label': t('bc.yourDice') }, dice),
      best.size ? el('p', { class: 'mute', text: t('bc.bestHalf', { n: best.size }) }) : null,
      faces.length
        ? el(
            'div',
            { class: 'row' },
            el(
              'button',
              { class: 'alt', disabled: state.pending || !ok, onclick: () => act(action) },
              '🧀 ' + (chosen.length ? t('bc.rerollPicked', { n: chosen.length }) : t('bc.rerollNone'))
            ),
            el('span', {
              class: ok ? 'ok' : 'mute',
              text: !chosen.length ? t('bc.pickDice') : ok ? '' : t('bc.diceNotLegal'),
            })
          )
        : null
    );
  }

  /* ---------- the prompts ---------- */

  /** What the others are doing, when it is not this player's turn. */
  function hint() {
    const p = pv();
    if (p.roll) return t('bc.hintRoll');
    return p.auction ? t('bc.hintBid', { card: bcName(p.auction.card) }) : '';
  }

  /** This player's decision, in words written for the moment. */
  function prompt() {
    const p = pv();
    if (p.roll) {
      const vars = { card: bcName(p.roll.card), n: p.roll.payout };
      if (legal().some((a) => a.startsWith('reroll '))) return t('bc.promptDice', vars);
      return t(has('reroll') ? 'bc.promptRoll' : 'bc.promptKeep', vars);
    }
    const a = p.auction;
    if (!a) return '';
    const bids = bidList();
    const card = bcName(a.card);
    let s;
    if (!bids.length) s = a.bidder ? t('bc.promptCannot', { who: who(a.bidder), high: a.high }) : t('bc.promptNoChips');
    else if (a.bidder) s = t('bc.promptOutbid', { who: who(a.bidder), high: a.high, n: bids[0] });
    else s = t('bc.promptOpen', { card, n: bids[0] });
    if (has('veto')) s += ' ' + t('bc.promptVeto', { card });
    return s;
  }

  /** A seat's bubble for a bid or a veto (a pass is drawn by table.js). */
  function speech(ev) {
    if (ev.kind === 'bid') return t('act.bid', { n: ev.amount });
    if (ev.kind === 'veto') return '⛔ ' + t('act.veto');
    return null;
  }

  return {
    board: bcBoard,
    order: () => (pv().seats || []).map((s) => seatId(s.seat)),
    seat: bcSeat,
    mine: bcMine,
    prompt,
    hint,
    idle: () => '',
    // the middle holds the card, the auction and the roll side by side:
    // every other seat sits along the top of the felt
    wide: true,
    // a seat's bubble: what it did since the auction began
    acts: ['bid', 'pass', 'veto'],
    stop: ['auction', 'take', 'all-pass'],
    speech,
    // dice events are marked in the log
    logClass: (ev) => (isRoll(ev) ? 'roll' : ''),
  };
}
