// Unit tests of the table page's JSON Patch applier (web/patch.js): the
// operations the server sends (add, with `-` to append; replace; remove)
// on objects and arrays, RFC 6901 escapes, a whole-document replace, and
// a throw for anything that does not apply, which makes the page resync.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch } from '../../web/patch.js';

const view = () => ({ public: { seats: [{ score: 1 }, { score: 2 }], roll: null, 'a/b': 1, 'c~d': 2 }, hand: '3 7 7' });

test('add, replace and remove on objects and arrays, in order', () => {
  const doc = view();
  const out = applyPatch(doc, [
    { op: 'replace', path: '/public/seats/1/score', value: 5 },
    { op: 'add', path: '/public/seats/-', value: { score: 0 } },
    { op: 'add', path: '/public/seats/0', value: { score: 9 } },
    { op: 'add', path: '/public/auction', value: { high: 3 } },
    { op: 'replace', path: '/public/roll', value: { dice: [4] } },
    { op: 'remove', path: '/hand' },
    { op: 'remove', path: '/public/seats/1' },
  ]);
  assert.equal(out, doc, 'patched in place');
  assert.deepEqual(out, {
    public: { seats: [{ score: 9 }, { score: 5 }, { score: 0 }], roll: { dice: [4] }, auction: { high: 3 }, 'a/b': 1, 'c~d': 2 },
  });
});

test('~1 and ~0 in a path are / and ~', () => {
  const out = applyPatch(view(), [
    { op: 'replace', path: '/public/a~1b', value: 10 },
    { op: 'replace', path: '/public/c~0d', value: 20 },
  ]);
  assert.equal(out.public['a/b'], 10);
  assert.equal(out.public['c~d'], 20);
});

test('an empty path replaces the whole document', () => {
  assert.deepEqual(applyPatch(view(), [{ op: 'replace', path: '', value: { x: 1 } }]), { x: 1 });
  assert.deepEqual(applyPatch(null, [{ op: 'add', path: '', value: [1] }]), [1]);
  assert.throws(() => applyPatch(view(), [{ op: 'remove', path: '' }]), /bad patch/);
});

test('a patch that does not apply throws (the page then asks for the whole state)', () => {
  const bad = [
    { op: 'replace', path: '/public/nothing', value: 1 },
    { op: 'remove', path: '/public/nothing' },
    { op: 'add', path: '/nothing/deeper', value: 1 },
    { op: 'add', path: '/hand/deeper', value: 1 },
    { op: 'move', from: '/hand', path: '/other' },
    { op: 'test', path: '/hand', value: '3 7 7' },
  ];
  for (const op of bad) assert.throws(() => applyPatch(view(), [op]), /bad patch/, JSON.stringify(op));
});

test('the operations before a bad one are applied: the caller drops the document', () => {
  const doc = view();
  assert.throws(() => applyPatch(doc, [{ op: 'replace', path: '/hand', value: '' }, { op: 'remove', path: '/x' }]));
  assert.equal(doc.hand, '');
});
