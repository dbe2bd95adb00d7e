/* Motion you can follow (table page and replay): what an update changed
   on the felt is played as a short move, so that the eye sees where it
   came from. A set played flies from its seat, or from the player's hand,
   into the trick; a trick won is swept towards its winner; a Big Cheese
   bid slides a chip from the bidder's seat to the card up for bid, the
   card taken goes to its winner's seat, a card vetoed or passed by all
   fades away; a score or points that went up count up.

   It is decoration over the final page, never in its way: the page takes
   the update and draws it at once (the state, the DOM, the buttons live
   at once), and only then does this module animate, FLIP-style: before()
   measures what will move (and copies what will leave) on the page as it
   was, after() measures where things are now and plays the difference
   with the Web Animations API, on transform and opacity alone, each move
   300 ms at most. What leaves the page flies as a copy (a "ghost",
   fixed over the page, aria-hidden, pointer-events none) that is removed
   when it lands. A count-up is drawn on a copy laid over the score, its
   digits in a data attribute shown by CSS, so the score's own text (what
   a screen reader and the tests read) is the final one from the start.

   Nothing runs, nothing is even measured, when the tab is hidden or the
   player asked for reduced motion (prefers-reduced-motion: reduce).

   motion() keeps no state of the game: before() reads the page, after()
   gets the events the update brought (the table page: the log since the
   last state; the replay: the step's events). Each move is noted in
   `moves` (kind, the rectangles it went from and to, what from and to),
   the last 100, for the browser tests (window.RR.motion on the table
   page). */

import { el } from './dom.js';
import { chip } from './card-art.js';
import { seatId } from './names.js';

/** How long each move lasts, in ms (300 at most, so a move never lags the game). */
const FLY_MS = 280;
const SWEEP_MS = 260;
const CHIP_MS = 260;
const COUNT_MS = 300;
const EASE = 'cubic-bezier(.2,.7,.3,1)';

/** The events after which the trick on the table is over (Dalmuti): it is swept to its winner. */
const TRICK_ENDS = ['leads', 'hand-over', 'deal', 'first-out', 'session-over'];
/** The events that discard the card up for bid (Big Cheese): it fades away. */
const CARD_DROPS = ['veto', 'all-pass'];

/** Whether motion may run now: a visible tab, and no wish for reduced motion. */
export function motionAllowed() {
  if (typeof document === 'undefined' || document.hidden) return false;
  if (typeof Element === 'undefined' || typeof Element.prototype.animate !== 'function') return false;
  const mq = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)');
  return !(mq && mq.matches);
}

const box = (r) => ({ left: r.left, top: r.top, width: r.width, height: r.height });
const rectOf = (n) => box(n.getBoundingClientRect());
const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];
/** The smallest rectangle around `rs`. */
function union(rs) {
  const l = Math.min(...rs.map((r) => r.left));
  const t = Math.min(...rs.map((r) => r.top));
  const r = Math.max(...rs.map((x) => x.left + x.width));
  const b = Math.max(...rs.map((x) => x.top + x.height));
  return { left: l, top: t, width: r - l, height: b - t };
}

const q = (sel) => document.querySelector(sel);
const seatNode = (id) => q('#players [data-seat="' + id + '"]');
/** A seat's rectangle now, or null. */
const seatRect = (id) => {
  const n = id == null ? null : seatNode(id);
  return n ? rectOf(n) : null;
};
/** "P2" from a seat as the events give it (an index or "P2"). */
const seatOf = (s) => (s == null ? null : seatId(s));

/**
 * A copy of `n` to fly over the page once `n` is gone: each of its
 * pictures keeps its size (the rules that sized them no longer reach it),
 * and nothing in it is read out.
 */
function ghostOf(n) {
  const g = n.cloneNode(true);
  const from = [n, ...n.querySelectorAll('*')];
  const to = [g, ...g.querySelectorAll('*')];
  from.forEach((a, i) => {
    const b = to[i];
    b.removeAttribute('data-k');
    b.removeAttribute('id');
    // the pictures and the cards around them keep their measured size
    if (a === n || a.nodeName.toLowerCase() === 'svg' || a.parentNode === n) {
      const r = a.getBoundingClientRect();
      b.style.width = r.width + 'px';
      b.style.height = r.height + 'px';
      b.style.flex = 'none';
    }
  });
  g.setAttribute('class', 'motion-ghost');
  g.setAttribute('aria-hidden', 'true');
  return { node: g, rect: rectOf(n) };
}

/** Ghost `g` goes when `anim` ends (or a moment later, whatever happens: a tab hidden mid-flight). */
function land(g, anim) {
  const done = () => g.remove();
  anim.onfinish = done;
  anim.oncancel = done;
  setTimeout(done, 1000);
}

/** Puts ghost `g` over the page at rectangle `r`. */
function place(g, r) {
  g.style.left = r.left + 'px';
  g.style.top = r.top + 'px';
  g.style.width = r.width + 'px';
  g.style.height = r.height + 'px';
  document.body.appendChild(g);
}

/** The transform that draws rectangle `to` as `from` (its centre on from's, scaled to fit inside it). */
function flip(from, to, floor) {
  const s = Math.max(floor || 0.2, Math.min(1, from.width / to.width, from.height / to.height));
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(to);
  const shown = { left: fx - (to.width * s) / 2, top: fy - (to.height * s) / 2, width: to.width * s, height: to.height * s };
  return { transform: 'translate(' + (fx - tx) + 'px,' + (fy - ty) + 'px) scale(' + s + ')', shown };
}

/** The number in a count's key ("s12", "p3"), or null. */
const keyNumber = (k) => {
  const m = /^[a-z](\d+)$/.exec(k || '');
  return m ? Number(m[1]) : null;
};

/** The motion of one page: before() and after() around each update's drawing. */
export function motion() {
  const moves = [];
  const note = (m) => {
    moves.push(m);
    if (moves.length > 100) moves.shift();
    return m;
  };

  /**
   * What may move, measured on the page as it is (before an update is
   * drawn): the trick and the card up for bid (copied, in case they
   * leave), the cards picked in the hand, each seat's counts. Null when
   * motion is off.
   */
  function before() {
    if (!motionAllowed()) return null;
    const trick = q('#board .trick .cards');
    const card = q('#board .deck .card');
    const picked = [...document.querySelectorAll('#mine .hand button.card[aria-pressed="true"]')].map(rectOf);
    const counts = {};
    for (const s of document.querySelectorAll('#players [data-seat]')) {
      const c = s.querySelector('.score[data-k], .pts[data-k]');
      if (c) counts[s.dataset.seat] = c.getAttribute('data-k');
    }
    return {
      trick: trick ? { ...ghostOf(trick), key: trick.getAttribute('data-k') || '' } : null,
      card: card ? ghostOf(card) : null,
      picked,
      counts,
    };
  }

  /** Plays the moves from `snap` (before()) to the page as it is now, cued by `events`. */
  function after(snap, events) {
    if (!snap || !motionAllowed()) return;
    const evs = events || [];
    const kinds = evs.map((e) => e.kind);
    const plays = evs.filter((e) => e.kind === 'play');
    if (snap.trick && kinds.some((k) => TRICK_ENDS.includes(k))) sweep(snap.trick);
    if (plays.length) fly(plays[plays.length - 1], snap);
    evs.filter((e) => e.kind === 'bid').forEach((e) => chipSlide(seatOf(e.seat), snap));
    const take = evs.find((e) => e.kind === 'take');
    if (take && snap.card) cardTo(snap.card, seatOf(take.seat), take.card);
    else if (snap.card && kinds.some((k) => CARD_DROPS.includes(k))) drop(snap.card);
    countUps(snap.counts);
  }

  /** The set just played flies into the trick: from the player's picked cards, or from its seat. */
  function fly(ev, snap) {
    const target = q('#board .trick .cards');
    if (!target) return;
    const who = seatOf(ev.seat);
    const mine = q('#players .seat.me');
    const fromHand = mine && mine.dataset.seat === who && snap.picked.length > 0;
    const src = fromHand ? union(snap.picked) : seatRect(who);
    if (!src) return;
    // the set's cards (the row is as wide as the middle; they sit at its centre, as the transform's origin)
    const cards = [...target.children].map(rectOf);
    const to = cards.length ? union(cards) : rectOf(target);
    const { transform, shown } = flip(src, to);
    // the cards' own entrance (app.css `slide`) gives way to the flight
    for (const a of target.getAnimations({ subtree: true })) if (a.animationName) a.cancel();
    target.animate([{ transform, opacity: 0.5 }, { transform: 'none', opacity: 1 }], {
      duration: FLY_MS,
      easing: EASE,
      id: 'motion-fly',
    });
    note({ kind: 'fly', ms: FLY_MS, from: shown, to, src: fromHand ? 'hand' : who, srcRect: src, target: 'trick' });
  }

  /** The trick that was on the table goes to its winner (the last to play on it), shrinking and fading. */
  function sweep(t) {
    const who = t.key.split(':')[1] || null;
    const seat = seatRect(who);
    const { node, rect } = t;
    place(node, rect);
    const end = seat || { left: rect.left, top: rect.top - rect.height, width: rect.width, height: rect.height };
    const { transform, shown } = flip(end, rect, 0.25);
    const anim = node.animate([{ transform: 'none', opacity: 1 }, { transform, opacity: 0 }], {
      duration: SWEEP_MS,
      easing: 'ease-in',
      id: 'motion-sweep',
    });
    land(node, anim);
    note({ kind: 'sweep', ms: SWEEP_MS, from: rect, to: shown, seat: who });
  }

  /** A chip slides from the bidder's seat (its chips) to the card up for bid. */
  function chipSlide(who, snap) {
    const seat = seatNode(who);
    const card = q('#board .deck .card');
    const to = card ? rectOf(card) : snap.card && snap.card.rect;
    if (!seat || !to) return;
    const from = rectOf(seat.querySelector('.chipline') || seat);
    const g = el('span', { class: 'motion-ghost motion-chip', 'aria-hidden': 'true' }, chip({ decorative: true }));
    const size = 22;
    const start = { left: from.left + from.width / 2 - size / 2, top: from.top + from.height / 2 - size / 2, width: size, height: size };
    place(g, start);
    const [fx, fy] = centre(start);
    const [tx, ty] = centre(to);
    const anim = g.animate(
      // seen all the way, fading only as it lands on the card
      [
        { transform: 'none', opacity: 1 },
        { opacity: 1, offset: 0.75 },
        { transform: 'translate(' + (tx - fx) + 'px,' + (ty - fy) + 'px) scale(.8)', opacity: 0.3 },
      ],
      { duration: CHIP_MS, easing: EASE, id: 'motion-chip' }
    );
    land(g, anim);
    // the seat's and the card's places as they were when it moved (the
    // tests check the move against them: later updates move the seats)
    const deck = q('#board .deck');
    note({ kind: 'chip', ms: CHIP_MS, from: start, to, seat: who, srcRect: from, target: 'card', seatRect: rectOf(seat), deckRect: deck ? rectOf(deck) : null });
  }

  /** The card taken goes from the middle to its winner's seat (to its new project there when drawn). */
  function cardTo(c, who, card) {
    const seat = seatNode(who);
    if (!seat) return;
    const proj = card != null ? seat.querySelector('.proj[data-k="' + card + '"]') : null;
    const to = rectOf(proj || seat);
    place(c.node, c.rect);
    const { transform, shown } = flip(to, c.rect, 0.15);
    const anim = c.node.animate([{ transform: 'none', opacity: 1 }, { transform, opacity: 0.3 }], {
      duration: FLY_MS,
      easing: EASE,
      id: 'motion-card',
    });
    land(c.node, anim);
    note({ kind: 'card', ms: FLY_MS, from: c.rect, to: shown, seat: who, target: proj ? 'project' : 'seat', seatRect: rectOf(seat) });
  }

  /** The card nobody took (a veto, everyone passed) drops away. */
  function drop(c) {
    place(c.node, c.rect);
    const anim = c.node.animate(
      [
        { transform: 'none', opacity: 1 },
        { transform: 'translateY(' + c.rect.height / 2 + 'px) scale(.8)', opacity: 0 },
      ],
      { duration: SWEEP_MS, easing: 'ease-in', id: 'motion-drop' }
    );
    land(c.node, anim);
    note({ kind: 'drop', ms: SWEEP_MS, from: c.rect, to: null });
  }

  /**
   * A score (Big Cheese) or points (Dalmuti) that went up count up from
   * the old number to the new: on a copy laid over the count, whose text
   * is in data attributes (drawn by CSS, read by nobody); the count's own
   * text is final from the start and hidden while the copy counts.
   */
  function countUps(old) {
    for (const s of document.querySelectorAll('#players [data-seat]')) {
      const c = s.querySelector('.score[data-k], .pts[data-k]');
      const from = keyNumber(old[s.dataset.seat]);
      const to = c && keyNumber(c.getAttribute('data-k'));
      if (c && from != null && to != null && to > from) countUp(s, c, from, to);
    }
  }

  function countUp(seat, c, from, to) {
    const copy = c.cloneNode(true);
    copy.setAttribute('class', 'motion-count');
    copy.setAttribute('aria-hidden', 'true');
    copy.removeAttribute('data-k');
    // every text of the copy becomes a template: the final number's first
    // place in it is where the running number goes
    const whole = new RegExp('(^|\\D)' + to + '(?!\\d)');
    const texts = [];
    const walk = (n) => {
      for (const k of [...n.childNodes]) {
        if (k.nodeType === 3) {
          const span = document.createElement('span');
          span.className = 'motion-n';
          texts.push([span, k.nodeValue]);
          n.replaceChild(span, k);
        } else walk(k);
      }
    };
    walk(copy);
    const draw = (v) => {
      for (const [span, text] of texts) span.setAttribute('data-t', text.replace(whole, (m, pre) => pre + v));
    };
    draw(from);
    // over the count, in the seat's box (the seat is positioned); the
    // offsets leave out the count's own entrance (app.css `tick` scales it)
    let [x, y] = [c.offsetLeft, c.offsetTop];
    if (c.offsetParent !== seat) {
      const r = c.getBoundingClientRect();
      const at = seat.getBoundingClientRect();
      [x, y] = [r.left - at.left - seat.clientLeft, r.top - at.top - seat.clientTop];
    }
    copy.style.left = x + 'px';
    copy.style.top = y + 'px';
    seat.appendChild(copy);
    const hide = c.animate([{ opacity: 0 }, { opacity: 0 }], { duration: COUNT_MS, id: 'motion-count-hide' });
    const anim = copy.animate([{ opacity: 1 }, { opacity: 1 }], { duration: COUNT_MS, id: 'motion-count' });
    const step = () => {
      if (!copy.isConnected) return;
      const k = Math.min(1, (anim.currentTime || 0) / COUNT_MS);
      draw(Math.round(from + (to - from) * k));
      if (k < 1 && anim.playState === 'running') requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
    const done = () => {
      copy.remove();
      hide.cancel();
    };
    anim.onfinish = done;
    anim.oncancel = done;
    setTimeout(done, 1000);
    note({ kind: 'count', ms: COUNT_MS, seat: seat.dataset.seat, from, to });
  }

  return { before, after, moves };
}
