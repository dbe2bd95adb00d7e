/* The card art: each face of both games (a Dalmuti rank, a Big Cheese
   card, a die, a chip) as one small inline <svg> whose parts are <use>
   references into the sprite cards.svg, with its accessible name.

   Why <use> of a file, not symbols pasted into each page or script: the
   sprite is fetched once, when the first face is drawn, and cached on its
   own for a year (the server writes its ?v= into the page's linked
   script, as it does into the pages), so a change to any script does not
   send the art again, nor the art the scripts; a face is a handful of
   nodes that morph (dom.js) updates like any other. The content security
   policy takes it: the file is the server's own.

   Why parts, not whole faces: a card is its background, its number drawn
   with the sprite's digits and its emblem, placed here, so the layouts
   (the full card, the mini card of the log, a die's number on its face)
   are in one place and the sprite holds each shape once.

   A face never tells its rank by colour alone: the number (or J) is on
   every card, beside an emblem of its own; colours only group the ranks
   (gold 1 to 3, cream 4 to 9, blue-grey 10 to 12, lilac for the Jester),
   as the text cards did. Each function returns an <svg> that is
   role="img" with an aria-label in the page's language, or aria-hidden
   when opts.decorative is set (a button named by its own text). Sizes are
   width and height attributes in em, so a face has a real size without a
   style sheet; CSS width and height override them. */

import { t } from './i18n.js';
import { rankName } from './words-dalmuti.js';
import { bcName } from './words-bigcheese.js';

const NS = 'http://www.w3.org/2000/svg';

// double quotes: the server puts the file's version into "/static/NAME" (web.rs, with_versions)
export const SPRITE = "/static/cards.svg";

/** One SVG element with its attributes (numbers rounded to tenths). */
function node(tag, attrs) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null) continue;
    n.setAttribute(k, typeof v === 'number' ? String(Math.round(v * 10) / 10) : v);
  }
  return n;
}

/** A <use> of the sprite's symbol `id` in the box x, y, w, h. */
const use = (id, x, y, w, h) => node('use', { href: SPRITE + '#' + id, x, y, width: w, height: h });

/** The outer <svg>: its classes, view box, size in em and accessible name. */
function outer(cls, box, size, label, opts, parts) {
  const o = opts || {};
  const named = !o.decorative;
  const svg = node('svg', {
    class: 'art ' + cls,
    viewBox: box,
    width: size[0] + 'em',
    height: size[1] + 'em',
    role: named ? 'img' : null,
    'aria-label': named ? o.label || label : null,
    'aria-hidden': named ? null : 'true',
    focusable: 'false',
  });
  for (const p of parts) svg.appendChild(p);
  return svg;
}

/* The sprite's digits are 9 x 16: a number h high is its glyphs side by
   side, each scaled by h / 16. */
const glyph = (ch) => (ch === 'J' ? 'nj' : 'n' + ch);

/** `text` (digits or J) h high, its top left at x, y. */
function number(text, x, y, h) {
  const w = (9 * h) / 16;
  return Array.from(String(text)).map((ch, i) => use(glyph(ch), x + i * w, y, w, h));
}

/** `text` h high, centred on cx, cy. */
function centred(text, cx, cy, h) {
  const w = (9 * h) / 16;
  return number(text, cx - (w * String(text).length) / 2, cy - h / 2, h);
}

/* A card is 40 x 56: the full face has its number in the top left corner
   and its emblem below; the mini face (the log's, a seat's) has a larger
   number centred at the top and a smaller emblem, so it stays legible
   about 20 px wide. */
const CARD = '0 0 40 56';
const FULL = [2.5, 3.5];
const MINI = [1.6, 2.24];

/** A card's parts: background, number (or a small emblem as its index), emblem. */
function cardParts(bg, index, emblem, mini) {
  const parts = [use(bg, 0, 0, 40, 56)];
  if (mini) {
    if (index) parts.push(...centred(index, 20, 14.5, 22));
    parts.push(index ? use(emblem, 8, 28, 24, 24) : use(emblem, 4, 12, 32, 32));
  } else {
    parts.push(...(index ? number(index, 3, 3, 18) : [use(emblem, 3, 3, 13, 13)]));
    parts.push(index ? use(emblem, 5, 22, 30, 30) : use(emblem, 4, 18, 32, 32));
  }
  return parts;
}

/** The background of a Dalmuti rank: its group (high, middle, low, Jester). */
const dalBg = (r) => (r === 13 ? 'bg-j' : r <= 3 ? 'bg-hi' : r >= 10 ? 'bg-lo' : 'bg-mid');

/**
 * A Great Dalmuti card: rank 1..12, or 13 or "J" for the Jester (a number
 * or its text, as sets are written). opts: mini (the compact face),
 * decorative, label (a name of the caller's instead of "7 Seamstress").
 * Returns <svg class="art art-dal art-rN [art-mini]">, rN being r1..r12 or rj.
 */
export function dalmutiFace(rank, opts) {
  const o = opts || {};
  const r = rank === 'J' || rank === 'j' ? 13 : Number(rank);
  if (!(r >= 1 && r <= 13 && Number.isInteger(r))) throw new RangeError('no Dalmuti rank ' + rank);
  const jester = r === 13;
  const id = jester ? 'j' : String(r);
  const label = jester ? rankName(13) : r + ' ' + rankName(r);
  const cls = 'art-dal art-r' + id + (o.mini ? ' art-mini' : '');
  const parts = cardParts(dalBg(r), jester ? 'J' : id, 'dal-' + id, o.mini);
  return outer(cls, CARD, o.mini ? MINI : FULL, label, o, parts);
}

/** The Big Cheese's number cards, each drawn with the outline of its own die. */
const VALUES = ['2', '4', '6', '8', '10', '12', '20'];

/**
 * A Big Cheese card: "2", "4", "6", "8", "10", "12", "20", "V" (Veto) or
 * "BC" (Big Cheese), as the server writes them. A number card has its
 * value in the corner and the outline of its die (the card's own die of
 * the default rules: a coin for 2, a cube for 6, a d20 for 20); a Veto
 * is a no-entry sign, a Big Cheese a crowned wedge of cheese, each also
 * small in the corner. opts: mini, decorative, label. Returns
 * <svg class="art art-bc art-cV [art-mini]">, V being the card's text in
 * lower case (art-c8, art-cv, art-cbc).
 */
export function cheeseFace(card, opts) {
  const o = opts || {};
  const c = String(card).toUpperCase();
  let parts;
  if (c === 'V') parts = cardParts('bg-veto', null, 'bc-veto', o.mini);
  else if (c === 'BC') parts = cardParts('bg-cheese', null, 'bc-cheese', o.mini);
  else if (VALUES.includes(c)) parts = cardParts('bg-bc', c, c === '6' ? 'cube' : 'die-' + c, o.mini);
  else throw new RangeError('no Big Cheese card ' + card);
  const special = c === 'V' || c === 'BC';
  const label = special ? bcName(c) : t('bc.projectCard', { n: c });
  const cls = 'art-bc art-c' + c.toLowerCase() + (o.mini ? ' art-mini' : '');
  return outer(cls, CARD, o.mini ? MINI : FULL, label, o, parts);
}

/* Where a die's number sits on its drawn face (the front face of the
   solid): centre x, centre y and height, in the 32 x 32 box. */
const DIE_NUMBER = {
  2: [16, 16, 14],
  4: [16, 20.5, 12],
  6: [16, 16, 14],
  8: [16, 17, 12],
  10: [16, 14.5, 10],
  12: [16, 16.5, 10.5],
  20: [16, 17.5, 10],
};

/**
 * A die showing `face`, of `sides` sides. A d6 showing 1..6 has its pips;
 * any other die shows its number on its outline (a coin for d2, a
 * triangle for d4, the solids' outlines for d8, d10, d12 and d20; a
 * die of another size, or a face a d6 has not, on a d6's square). Its
 * name is "die showing 5, 6 sides" (bc.die). opts: decorative, label.
 * Returns <svg class="art art-die art-dN">, 2 em square.
 */
export function dieFace(sides, face, opts) {
  const n = Number(sides);
  const f = Number(face);
  const shape = DIE_NUMBER[n] ? n : 6;
  const parts = [use('die-' + shape, 0, 0, 32, 32)];
  if (n === 6 && Number.isInteger(f) && f >= 1 && f <= 6) parts.push(use('pips-' + f, 0, 0, 32, 32));
  else {
    const [cx, cy, h] = DIE_NUMBER[shape];
    parts.push(...centred(String(face).replace(/[^0-9]/g, '') || '0', cx, cy, h));
  }
  const label = t('bc.die', { face, sides });
  return outer('art-die art-d' + n, '0 0 32 32', [2, 2], label, opts, parts);
}

/**
 * A chip (a flunky of The Big Cheese): a token with a mouse's head. Its
 * name is "1 chip", or "N chips" with opts.n (the token is drawn once;
 * a count stays the caller's text). opts: n, decorative, label. Returns
 * <svg class="art art-chip">, 1 em square.
 */
export function chip(opts) {
  const o = opts || {};
  const label = t('bc.chipsOn', { n: o.n == null ? 1 : o.n });
  return outer('art-chip', '0 0 32 32', [1, 1], label, o, [use('chip', 0, 0, 32, 32)]);
}
