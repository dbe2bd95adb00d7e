// Unit tests of the card art (web/card-art.js) on the fake document, and
// of the sprite it draws from (web/cards.svg), read as text: every
// Dalmuti rank and the Jester, every Big Cheese card, a d6's six faces
// and the other dice each give an <svg> with a size, the symbols of its
// number and emblem, and an accessible name in words (or none, hidden,
// when the caller names it); every symbol a face uses is in the sprite and
// every symbol of the sprite is used; the numbers' ink has at least 4.5:1
// against every ground it is drawn on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fakeDocument } from './fake-dom.mjs';

fakeDocument();
const { addTexts, useLang } = await import('../../web/i18n.js');
const en = (await import('../../web/i18n-en.js')).default;
const fr = (await import('../../web/i18n-fr.js')).default;
addTexts('en', en);
addTexts('fr', fr);
useLang('en');
const { dalmutiFace, cheeseFace, dieFace, chip, SPRITE } = await import('../../web/card-art.js');

const SVG_NS = 'http://www.w3.org/2000/svg';
const sprite = readFileSync(new URL('../../web/cards.svg', import.meta.url), 'utf8');

/** The symbols of the sprite: id to its text. */
const SYMBOLS = new Map(
  Array.from(sprite.matchAll(/<symbol id="([^"]+)"[^>]*>([\s\S]*?)<\/symbol>/g), (m) => [m[1], m[2]])
);

/** The ids an element's <use> children name, in order. */
function uses(svg) {
  return svg.childNodes.map((u) => {
    assert.equal(u.nodeName, 'use');
    const href = u.getAttribute('href');
    assert.ok(href.startsWith(SPRITE + '#'), href);
    return href.slice(SPRITE.length + 1);
  });
}

/** Checks what every face is: an SVG image with a size in em and a name. */
function isFace(svg, cls, name) {
  assert.equal(svg.nodeName, 'svg');
  assert.equal(svg.namespaceURI, SVG_NS);
  assert.ok(svg.getAttribute('class').split(' ').includes('art'));
  for (const c of cls.split(' ')) assert.ok(svg.getAttribute('class').split(' ').includes(c), cls);
  assert.match(svg.getAttribute('viewBox'), /^0 0 \d+ \d+$/);
  for (const side of ['width', 'height']) assert.ok(parseFloat(svg.getAttribute(side)) > 0, side);
  assert.match(svg.getAttribute('width'), /em$/);
  assert.equal(svg.getAttribute('role'), 'img');
  assert.equal(svg.getAttribute('aria-label'), name);
  assert.equal(svg.getAttribute('aria-hidden'), null);
  for (const id of uses(svg)) assert.ok(SYMBOLS.has(id), 'cards.svg has no symbol ' + id);
}

const digits = (text) => Array.from(String(text), (c) => (c === 'J' ? 'nj' : 'n' + c));

const RANK_NAMES = en['dal.ranks'];
const EMBLEMS = [null, 'dal-1', 'dal-2', 'dal-3', 'dal-4', 'dal-5', 'dal-6', 'dal-7', 'dal-8', 'dal-9', 'dal-10', 'dal-11', 'dal-12'];

test('every Dalmuti rank has its number, its own emblem, its group and its name', () => {
  const seen = new Set();
  for (let r = 1; r <= 12; r++) {
    for (const rank of [r, String(r)]) {
      const svg = dalmutiFace(rank);
      isFace(svg, 'art-dal art-r' + r, r + ' ' + RANK_NAMES[r]);
      const ids = uses(svg);
      const bg = r <= 3 ? 'bg-hi' : r >= 10 ? 'bg-lo' : 'bg-mid';
      assert.deepEqual(ids, [bg, ...digits(r), EMBLEMS[r]]);
      seen.add(ids[ids.length - 1]);
      const mini = dalmutiFace(rank, { mini: true });
      isFace(mini, 'art-dal art-r' + r + ' art-mini', r + ' ' + RANK_NAMES[r]);
      assert.deepEqual(uses(mini), ids);
      assert.ok(parseFloat(mini.getAttribute('width')) < parseFloat(svg.getAttribute('width')));
    }
  }
  assert.equal(seen.size, 12, 'twelve emblems, one per rank');
  assert.equal(dalmutiFace(1).getAttribute('aria-label'), '1 Dalmuti');
  assert.equal(dalmutiFace(12).getAttribute('aria-label'), '12 Peasant');
});

test('the Jester is J, as 13 or "J", with its cap', () => {
  for (const rank of [13, '13', 'J']) {
    const svg = dalmutiFace(rank);
    isFace(svg, 'art-dal art-rj', 'Jester');
    assert.deepEqual(uses(svg), ['bg-j', 'nj', 'dal-j']);
  }
  isFace(dalmutiFace('J', { mini: true }), 'art-dal art-rj art-mini', 'Jester');
});

test('a face in a button the caller names is hidden; a label of the caller replaces the name', () => {
  const hidden = dalmutiFace(7, { decorative: true });
  assert.equal(hidden.getAttribute('aria-hidden'), 'true');
  assert.equal(hidden.getAttribute('role'), null);
  assert.equal(hidden.getAttribute('aria-label'), null);
  for (const make of [() => cheeseFace('V', { decorative: true }), () => dieFace(6, 3, { decorative: true }), () => chip({ decorative: true })])
    assert.equal(make().getAttribute('aria-hidden'), 'true');
  assert.equal(dieFace(6, 3, { label: 'die showing 3, picked' }).getAttribute('aria-label'), 'die showing 3, picked');
});

test('names follow the page language', () => {
  useLang('fr');
  try {
    assert.equal(dalmutiFace(11).getAttribute('aria-label'), '11 Tailleur de pierre');
    assert.equal(dalmutiFace('J').getAttribute('aria-label'), 'Bouffon');
  } finally {
    useLang('en');
  }
});

test('not a rank, not a card: an error, not a blank face', () => {
  for (const r of [0, 14, 'x', 2.5, null]) assert.throws(() => dalmutiFace(r), RangeError);
  for (const c of ['3', 'X', '', 'VV']) assert.throws(() => cheeseFace(c), RangeError);
});

test('every Big Cheese card: the number cards with their value and die, the Veto and the Big Cheese', () => {
  const DIE = { 2: 'die-2', 4: 'die-4', 6: 'cube', 8: 'die-8', 10: 'die-10', 12: 'die-12', 20: 'die-20' };
  for (const [v, die] of Object.entries(DIE)) {
    const svg = cheeseFace(v);
    isFace(svg, 'art-bc art-c' + v, 'project card ' + v);
    assert.deepEqual(uses(svg), ['bg-bc', ...digits(v), die]);
    isFace(cheeseFace(v, { mini: true }), 'art-bc art-c' + v + ' art-mini', 'project card ' + v);
  }
  const veto = cheeseFace('V');
  isFace(veto, 'art-bc art-cv', 'Veto');
  assert.deepEqual(uses(veto), ['bg-veto', 'bc-veto', 'bc-veto']);
  const cheese = cheeseFace('BC');
  isFace(cheese, 'art-bc art-cbc', 'Big Cheese');
  assert.deepEqual(uses(cheese), ['bg-cheese', 'bc-cheese', 'bc-cheese']);
  assert.deepEqual(uses(cheeseFace('bc', { mini: true })), ['bg-cheese', 'bc-cheese']);
});

test('a d6 shows its pips, 1 to 6', () => {
  for (let f = 1; f <= 6; f++) {
    const svg = dieFace(6, f);
    isFace(svg, 'art-die art-d6', 'die showing ' + f + ', 6 sides');
    assert.deepEqual(uses(svg), ['die-6', 'pips-' + f]);
    // a real size: 2 em square, not 0 x 0
    assert.equal(svg.getAttribute('width'), '2em');
    assert.equal(svg.getAttribute('height'), '2em');
  }
});

test('the other dice show their number on their outline; an unknown die on a square', () => {
  const cases = [
    [2, 1, 'die-2'],
    [2, 2, 'die-2'],
    [4, 3, 'die-4'],
    [8, 8, 'die-8'],
    [10, 10, 'die-10'],
    [12, 7, 'die-12'],
    [12, 12, 'die-12'],
    [20, 1, 'die-20'],
    [20, 20, 'die-20'],
    [100, 42, 'die-6'],
    [6, 9, 'die-6'],
  ];
  for (const [sides, f, outline] of cases) {
    const svg = dieFace(sides, f);
    isFace(svg, 'art-die art-d' + sides, 'die showing ' + f + ', ' + sides + ' sides');
    assert.deepEqual(uses(svg), [outline, ...digits(f)]);
  }
});

test('a chip is one token named as a count', () => {
  isFace(chip(), 'art-chip', '1 chip');
  isFace(chip({ n: 3 }), 'art-chip', '3 chips');
  assert.deepEqual(uses(chip()), ['chip']);
});

test('every symbol of the sprite is drawn by some face', () => {
  const faces = [
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 'J'].map((r) => dalmutiFace(r)),
    ...['2', '4', '6', '8', '10', '12', '20', 'V', 'BC'].map((c) => cheeseFace(c)),
    ...[1, 2, 3, 4, 5, 6].map((f) => dieFace(6, f)),
    ...[2, 4, 8, 10, 12, 20].map((s) => dieFace(s, s === 10 ? 9 : s)),
    dieFace(20, 10),
    dieFace(20, 15),
    chip(),
  ];
  const used = new Set(faces.flatMap(uses));
  for (const id of SYMBOLS.keys()) assert.ok(used.has(id), 'no face draws ' + id);
  for (const id of used) assert.ok(SYMBOLS.has(id), 'cards.svg has no symbol ' + id);
  // ids are unique in the file
  const ids = Array.from(sprite.matchAll(/ id="([^"]+)"/g), (m) => m[1]);
  assert.equal(new Set(ids).size, ids.length);
});

/** WCAG 2 relative luminance of #rrggbb, and the contrast ratio of two. */
function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lin = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
const long = (hex) => (hex.length === 4 ? '#' + Array.from(hex.slice(1), (c) => c + c).join('') : hex);

test('the numbers have 4.5:1 or more against every ground they are drawn on', () => {
  const inks = new Set();
  for (const [id, body] of SYMBOLS) {
    if (!/^n[0-9j]$/.test(id)) continue;
    for (const m of body.matchAll(/stroke="(#[0-9a-f]+)"/g)) inks.add(long(m[1]));
    assert.doesNotMatch(body, /currentColor/, id + ' takes no colour from the page');
  }
  assert.equal(inks.size, 1, 'one ink for every digit');
  // the card grounds (their first fill) and the dice faces the numbers sit on
  const grounds = [...SYMBOLS].filter(([id]) => /^bg-|^die-/.test(id));
  assert.equal(grounds.length, 7 + 7);
  for (const [id, body] of grounds) {
    const fill = long(body.match(/fill="(#[0-9a-f]+)"/)[1]);
    for (const ink of inks) {
      const ratio = contrast(ink, fill);
      assert.ok(ratio >= 4.5, `${id}: ${ink} on ${fill} is ${ratio.toFixed(2)}:1`);
    }
  }
});
