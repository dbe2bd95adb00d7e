/* The coach of a tutorial table ("Learn to play" in the lobby): a small
   box above the felt that walks a newcomer through a guided game, one
   step at a time, each step started by a situation of the game as it first
   happens (the first turn, a trick to beat, the taxes, the Jesters, an
   auction, a payout, the end) and outlining the part of the table it
   speaks of (`.coach-target`). Steps are told in the order they started.

   The table is a tutorial when its facts say so (`tutorial` in
   GET /api/tables/{id}): its deal is the game's fixed, published one, so
   the coach can count on what comes, but it never assumes it: each step
   waits for its situation. A step is read ("Got it") or asks for a move
   (it goes when the move is made, or when its moment has passed). The
   coach never blocks play: the controls stay where they are, the game
   goes on if the player ignores it, and it can be hidden. What was seen and read is kept
   in localStorage per table (store.js), so a reload finds the same step.

   Its text is a role="status" region: a screen reader hears each step.
   table.js calls draw() after each drawing of the page (morph() puts the
   page back as drawn, the outline with it: draw() outlines again). */

import { $, el, fill } from './dom.js';
import { lang, t } from './i18n.js';
import { api, join } from './connection.js';
import { gameName, seatId } from './names.js';
import { bcName } from './words-bigcheese.js';
import { coachSteps, myName, saveCoachSteps, saveCreator, saveKey } from './store.js';

const q = (sel) => document.querySelector(sel);
/** A seat's tile on the felt. */
const seatTile = (s) => q('#players .seat[data-seat="' + seatId(s) + '"]');
/** The row of the player's area holding the button of `action`. */
const rowOf = (action) => {
  const b = q('#mine [data-act="' + action + '"]');
  return b && b.parentElement;
};
/** The first event of `kind` in the log, if any. */
const first = (c, kind) => c.log.find((ev) => ev.kind === kind);
const plays = (c) => c.legal.filter((a) => a.startsWith('play '));

/**
 * The steps of each game, in the order they are told when several start
 * at once. `when(c)` is false, or the words' variables when the step's
 * situation holds (a `move` step asks for a move and lasts while it does);
 * `target(c, vars)` is the part of the table the step outlines.
 */
const STEPS = {
  dalmuti: [
    { id: 'd-welcome', when: () => ({}), target: () => q('#players .seat.me') },
    { id: 'd-cards', when: (c) => c.hand && {}, target: () => q('#mine .hand') },
    {
      id: 'd-revolution',
      move: true,
      when: (c) => c.legal.includes('revolution') && {},
      target: () => rowOf('revolution'),
    },
    {
      id: 'd-give',
      move: true,
      when: (c) => c.legal.some((a) => a.startsWith('give ')) && {},
      target: () => q('#mine .hand'),
    },
    {
      id: 'd-taxes',
      when: (c, seen) => !seen.has('d-give') && first(c, 'tax-paid') && {},
      target: () => q('#board'),
    },
    {
      id: 'd-lead',
      move: true,
      when: (c) => c.myTurn && !c.pv.trick && plays(c).length > 0 && {},
      target: () => q('#mine .hand'),
    },
    {
      id: 'd-beat',
      move: true,
      when: (c) => c.myTurn && c.pv.trick && c.legal.includes('pass') && {},
      target: () => q('#board .trick') || q('#board'),
    },
    {
      id: 'd-trick',
      when: (c) => {
        const k = c.log.findIndex((ev) => ev.kind === 'play');
        return k >= 0 && c.log.slice(k).some((ev) => ev.kind === 'leads') && {};
      },
      target: () => q('#board'),
    },
    {
      id: 'd-out',
      when: (c) => {
        const ev = first(c, 'out');
        return ev && { seat: seatId(ev.seat), place: ev.place };
      },
      target: (c, v) => seatTile(v.seat),
    },
  ],
  bigcheese: [
    { id: 'b-welcome', when: (c) => ({ target: c.pv.target }), target: () => q('#board .deck') },
    { id: 'b-chips', when: () => ({}), target: () => q('#players .seat.me') },
    { id: 'b-cheese', when: (c) => c.upNow('BC') && {}, target: () => q('#board .deck') },
    { id: 'b-veto-card', when: (c) => c.upNow('V') && {}, target: () => q('#board .deck') },
    {
      id: 'b-bid',
      move: true,
      when: (c) => c.legal.some((a) => a.startsWith('bid ')) && {},
      target: () => q('#mine .bid'),
    },
    {
      id: 'b-take',
      when: (c) => {
        const ev = first(c, 'take');
        return ev && { seat: seatId(ev.seat) };
      },
      target: (c, v) => seatTile(v.seat),
    },
    {
      id: 'b-hand',
      when: (c) => {
        const ev = first(c, 'to-hand');
        return ev && { seat: seatId(ev.owner), card: String(ev.card) };
      },
      target: (c, v) => seatTile(v.seat),
    },
    {
      id: 'b-payout',
      when: (c) => {
        const ev = c.log.find((e) => e.kind === 'payout' || e.kind === 'keep');
        return ev && { seat: seatId(ev.owner), amount: ev.amount };
      },
      target: (c, v) => seatTile(v.seat),
    },
    { id: 'b-veto', move: true, when: (c) => c.legal.includes('veto') && {}, target: () => rowOf('veto') },
    {
      id: 'b-reroll',
      move: true,
      when: (c) => c.legal.includes('keep') && c.legal.some((a) => a.startsWith('reroll')) && {},
      target: () => rowOf('keep'),
    },
  ],
};

/** The last step of every tutorial: the end, and a real game. */
const END = { id: 'end', when: (c) => c.st.over && {}, target: () => q('#result') };

/** The coach of the table whose state is `state` (table-state.js); `view` names the seats. */
export function tutorialCoach(state, view) {
  /** What the coach keeps for this table: the steps started (with their words' variables) and those done. */
  let kept = null;
  let opening = false;

  const load = () => {
    if (kept && kept.id === state.id) return kept;
    const saved = coachSteps(state.id) || {};
    kept = { id: state.id, fired: saved.fired || [], done: saved.done || [], hidden: !!saved.hidden };
    return kept;
  };
  const save = () => saveCoachSteps(state.id, { fired: kept.fired, done: kept.done, hidden: kept.hidden });

  /** What the steps read: the state, the view, the legal moves, the log. */
  function situation() {
    const st = state.st;
    const pv = state.pv() || {};
    const up = pv.auction ? pv.auction.card : pv.top;
    return {
      st,
      pv,
      legal: state.legal(),
      myTurn: state.myTurn(),
      log: state.log,
      hand: st.view && st.view.hand && st.view.hand.length > 0,
      upNow: (card) => !st.over && String(up) === card,
    };
  }

  /** Starts the steps whose situation holds now, once each; ends the move steps whose moment passed. */
  function advance(c) {
    const steps = STEPS[state.game].concat([END]);
    const seen = new Set(kept.fired.map((f) => f.id));
    let changed = false;
    for (const s of steps) {
      const now = s.when(c, seen);
      if (!seen.has(s.id) && now) {
        kept.fired.push({ id: s.id, vars: now });
        seen.add(s.id);
        changed = true;
      } else if (s.move && seen.has(s.id) && !now && !kept.done.includes(s.id)) {
        kept.done.push(s.id);
        changed = true;
      }
    }
    if (changed) save();
    return steps;
  }

  /**
   * The step to show: the oldest one not read yet, in the order they
   * started (a move step goes by itself once its moment has passed, so
   * the one shown is never stale).
   */
  function current(steps) {
    const f = kept.fired.find((x) => !kept.done.includes(x.id));
    return f ? { step: steps.find((s) => s.id === f.id), vars: f.vars, n: kept.fired.indexOf(f) + 1 } : null;
  }

  /** A step's words, its variables put in words (seats by name, cards by name). */
  function words(step, vars) {
    const v = Object.assign({}, vars);
    if (v.seat) v.who = view.who(v.seat);
    if (v.card) v.card = bcName(v.card);
    const key = step.id === 'end' ? 'coach.end-' + state.game : 'coach.' + step.id;
    return t(key, v);
  }

  /** Read: the next step. */
  function gotIt(id) {
    if (!kept.done.includes(id)) kept.done.push(id);
    save();
    draw();
    // the button went with its step: focus stays in the coach
    const b = $('coachNext') || $('coachText');
    if (b) b.focus({ preventScroll: true });
  }

  function setHidden(on) {
    kept.hidden = on;
    save();
    draw();
    const b = $(on ? 'coachShow' : 'coachHide');
    if (b) b.focus({ preventScroll: true });
  }

  /**
   * "Play a real game": an ordinary table of the same game, with the
   * game's default players and bots, joined in P1 under the same name;
   * the language is the page's, kept by this browser.
   */
  async function realGame() {
    if (opening) return;
    opening = true;
    try {
      const r = await api('/api/tables', 'POST', { game: state.game });
      saveKey(r.id, r.key);
      saveCreator(r.id, r.creator);
      const mine = ((state.st && state.st.seats) || []).find((s) => state.isMe(s.seat));
      await join(r.id, (mine && mine.name) || myName() || t('tutorial.name'), 'P1');
      location.href = '/t/' + r.id;
    } catch (e) {
      opening = false;
      fill('coachErr', String((e && e.message) || e));
    }
  }

  /** Outlines the step's target (and only it), brought into view if it is not. */
  function outline(target) {
    document.querySelectorAll('.coach-target').forEach((n) => n !== target && n.classList.remove('coach-target'));
    if (!target) return;
    target.classList.add('coach-target');
    const r = target.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) target.scrollIntoView({ block: 'nearest' });
  }

  function buttons(step) {
    if (kept.hidden) return [el('button', { id: 'coachShow', class: 'alt', text: t('coach.show'), onclick: () => setHidden(false) })];
    const main =
      step.id === 'end'
        ? el('button', { id: 'coachReal', text: t('coach.real', { game: gameName(state.game) }), onclick: realGame })
        : step.move
          ? el('span', { class: 'mute', text: t('coach.yourMove') })
          : el('button', { id: 'coachNext', text: t('coach.next'), onclick: () => gotIt(step.id) });
    const hide = step.id === 'end' ? null : el('button', { id: 'coachHide', class: 'alt', text: t('coach.hide'), onclick: () => setHidden(true) });
    return [main, hide];
  }

  /** The coach drawn for the state shown (nothing at a table that is not a tutorial, or for a spectator). */
  function draw() {
    const box = $('coach');
    const on = !!(box && state.info && state.info.tutorial && state.st && state.me() != null && STEPS[state.game]);
    if (!on) {
      if (box) box.classList.add('hidden');
      return;
    }
    load();
    const c = situation();
    const shown = current(advance(c));
    box.classList.remove('hidden');
    box.lang = lang();
    box.classList.toggle('folded', kept.hidden);
    const text = !shown || kept.hidden ? '' : words(shown.step, shown.vars);
    fill(
      'coach',
      el(
        'div',
        { class: 'coach-head' },
        el('h2', { id: 'coachTitle', text: t('coach.title') + (shown && !kept.hidden ? ' · ' + t('coach.step', { n: shown.n }) : '') }),
        // what a tutorial is, said at its first step and at the end (the box stays short on a phone)
        !kept.hidden && shown && (shown.n === 1 || shown.step.id === 'end') ? el('span', { class: 'mute', text: t('coach.deal') }) : null
      ),
      el('p', { id: 'coachText', role: 'status', 'aria-live': 'polite', tabindex: '-1', 'data-step': shown && !kept.hidden ? shown.step.id : '', text }),
      el('div', { class: 'row' }, shown || kept.hidden ? buttons(shown ? shown.step : {}) : null),
      el('p', { id: 'coachErr', class: 'err' })
    );
    outline(shown && !kept.hidden ? shown.step.target(c, shown.vars) : null);
  }

  return { draw };
}
