// Unit tests of the update in place (web/dom.js: el, morph, live) on a
// fake document: the nodes that stay are kept (so focus and a half-made
// choice survive), keyed children move instead of being rebuilt, and
// handlers, attributes and styles follow the fresh nodes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeDocument } from './fake-dom.mjs';

const document = fakeDocument();
const { el, morph, live } = await import('../../web/dom.js');

const root = () => document.createElement('div');
const texts = (n) => n.childNodes.map((c) => c.textContent);

test('el builds attributes, classes, properties, styles, handlers and children', () => {
  let clicked = 0;
  const b = el('button', { class: 'alt', text: 'Go', disabled: true, 'data-k': 'go', onclick: () => clicked++ }, null, false);
  assert.equal(b.nodeName, 'BUTTON');
  assert.equal(b.className, 'alt');
  assert.equal(b.textContent, 'Go');
  assert.equal(b.disabled, true);
  assert.equal(b.getAttribute('data-k'), 'go');
  b.fire('click');
  assert.equal(clicked, 1);
  const d = el('div', { style: { width: '50%' }, hidden: true }, 'a', [1, ['b']]);
  assert.equal(d.style.cssText, 'width: 50%;');
  assert.equal(d.getAttribute('hidden'), '');
  assert.deepEqual(texts(d), ['a', '1', 'b']);
});

test('morph keeps the nodes that stay and changes only what differs', () => {
  const box = root();
  morph(box, [el('p', { class: 'a', text: 'one' }), el('span', { text: 'two' })]);
  const [p, span] = box.childNodes;
  morph(box, [el('p', { class: 'b', text: 'uno' }), el('span', { text: 'two' }), el('i', { text: 'three' })]);
  assert.equal(box.childNodes[0], p, 'the paragraph is the same node');
  assert.equal(box.childNodes[1], span);
  assert.equal(p.className, 'b');
  assert.deepEqual(texts(box), ['uno', 'two', 'three']);
  morph(box, [el('div', { text: 'other' })]);
  assert.notEqual(box.childNodes[0], p, 'another tag is a new node');
  assert.deepEqual(texts(box), ['other']);
});

test('attributes the fresh node lacks are removed; styles follow it', () => {
  const box = root();
  morph(box, [el('p', { title: 'x', 'aria-pressed': 'true', style: { width: '10%' } })]);
  const p = box.childNodes[0];
  morph(box, [el('p', { style: { width: '20%' } })]);
  assert.equal(box.childNodes[0], p);
  assert.equal(p.hasAttribute('title'), false);
  assert.equal(p.hasAttribute('aria-pressed'), false);
  assert.equal(p.style.cssText, 'width: 20%;');
});

test('keyed children are moved, not rebuilt, and a new key is a new node', () => {
  const box = root();
  const cards = (keys) => keys.map((k) => el('button', { 'data-k': k, text: k }));
  morph(box, cards(['7#1', '7#2', 'J#1']));
  const [a, b, j] = box.childNodes;
  morph(box, cards(['J#1', '7#1', '7#2']));
  assert.deepEqual(box.childNodes, [j, a, b]);
  morph(box, cards(['7#2', 'J#1']));
  assert.deepEqual(box.childNodes, [b, j], 'a played card goes, the others stay');
  morph(box, [el('b', { 'data-k': 's12', text: '12' })]);
  const score = box.childNodes[0];
  morph(box, [el('b', { 'data-k': 's14', text: '14' })]);
  assert.notEqual(box.childNodes[0], score, 'a count keyed by its value is a new node when it changes');
});

test('a kept node takes the fresh handlers; live() gives the node on the page', () => {
  const box = root();
  const calls = [];
  morph(box, [el('button', { onclick: () => calls.push('first'), onfocus: () => calls.push('focus') })]);
  const button = box.childNodes[0];
  const fresh = el('button', { onclick: () => calls.push('second') });
  morph(box, [fresh]);
  assert.equal(box.childNodes[0], button);
  button.fire('click');
  button.fire('focus');
  assert.deepEqual(calls, ['second'], 'the old click handler and the dropped focus handler are gone');
  assert.equal(live(fresh), button);
  const other = el('i');
  assert.equal(live(other), other, 'a node never put on the page is itself');
});

test('what the user typed survives a redraw; what the page set follows it', () => {
  const box = root();
  morph(box, [el('input', { value: 'Ann' })]);
  const input = box.childNodes[0];
  morph(box, [el('input', { value: 'Ann' })]);
  input.value = 'Bo'; // typed by the player
  morph(box, [el('input', { value: 'Ann' })]);
  assert.equal(box.childNodes[0], input);
  assert.equal(input.value, 'Bo', 'typed text is the player’s');
  input.value = 'Ann';
  morph(box, [el('input', { value: 'Cy' })]);
  assert.equal(input.value, 'Cy', 'a value the page set follows the page');
  morph(box, [el('input', { type: 'checkbox', checked: true, disabled: true })]);
  assert.equal(input.checked, true);
  assert.equal(input.disabled, true);
});

test('morph removes every child the fresh list lacks, and text nodes update in place', () => {
  const box = root();
  morph(box, ['a', el('b'), 'c']);
  const first = box.childNodes[0];
  morph(box, ['z']);
  assert.equal(box.childNodes.length, 1);
  assert.equal(box.childNodes[0], first);
  assert.equal(first.nodeValue, 'z');
  morph(box, []);
  assert.equal(box.childNodes.length, 0);
});
