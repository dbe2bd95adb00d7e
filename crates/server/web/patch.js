/* The JSON Patch applier of the table page (RFC 6902, the `patch` of an
   `update` message; docs/server.md, "Updates").

   The server's patches use `add` (`-` appends to an array), `replace` and
   `remove`, with RFC 6901 pointers. Anything else, or a path that is not
   there, throws: the page then asks for the whole state again rather than
   draw a state the server never had. Pure: no DOM, no page state, so the
   unit tests call it as the page does. */

/** The keys of an RFC 6901 pointer ("/a/b~1c" is ["a", "b/c"]). */
const pointer = (path) =>
  path
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));

/** Applies `ops` to `doc`, in place where it can; returns the patched document, or throws. */
export function applyPatch(doc, ops) {
  for (const op of ops) {
    if (op.path === '') {
      if (op.op !== 'add' && op.op !== 'replace') throw new Error('bad patch');
      doc = op.value;
      continue;
    }
    const keys = pointer(op.path);
    const last = keys.pop();
    let parent = doc;
    for (const k of keys) {
      if (parent === null || typeof parent !== 'object') throw new Error('bad patch path ' + op.path);
      parent = parent[k];
    }
    if (parent === null || typeof parent !== 'object') throw new Error('bad patch path ' + op.path);
    const list = Array.isArray(parent);
    if (op.op === 'add' && list) {
      if (last === '-') parent.push(op.value);
      else parent.splice(+last, 0, op.value);
    } else if (op.op === 'add' || (op.op === 'replace' && last in parent)) parent[last] = op.value;
    else if (op.op === 'remove' && last in parent) {
      if (list) parent.splice(+last, 1);
      else delete parent[last];
    } else throw new Error('bad patch op ' + op.op + ' ' + op.path);
  }
  return doc;
}
