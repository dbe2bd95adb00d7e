/* The DOM helpers every page draws with: el() builds nodes, morph()
   updates the page in place to look like freshly built ones.

   A page draws its whole state as fresh nodes with el(), and morph() makes
   the live DOM look like them while keeping every node it can: the focused
   button keeps focus, a selection stays, a half-typed name survives other
   players' moves, and a screen reader is not told the page changed.
   Children are matched by position, or by their data-k key when they have
   one (cards in a hand). Handlers are kept on the element (__on) behind
   one listener, so that morph() can swap the handlers of a node it keeps;
   a handler that needs the live node of one it built (an input's typed
   value) asks live(node). Only standard DOM calls are used, so the unit
   tests run it on a small fake document in node. */

/** The element with id `id`. */
export const $ = (id) => document.getElementById(id);

/** Removes every child of `node`. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

const PROPS = ['value', 'checked', 'disabled', 'selected', 'href', 'htmlFor'];

/** The one listener of every element made by el(): it calls the element's current handler. */
function dispatch(e) {
  const f = this.__on && this.__on[e.type];
  return f ? f.call(this, e) : undefined;
}

/** el('button', {class, text, onclick, ...}, ...children): a new element. */
export function el(tag, attrs, ...kids) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === 'text') n.textContent = v;
    else if (k === 'class') n.className = v;
    // CSSOM, not a style attribute: the CSP allows no inline style; a
    // custom property ("--n") is set by name
    else if (k === 'style')
      for (const [p, x] of Object.entries(v)) p.startsWith('--') ? n.style.setProperty(p, String(x)) : (n.style[p] = x);
    else if (k.startsWith('on')) {
      // kept on the element, so that morph() can swap the handler of a node it keeps
      (n.__on = n.__on || {})[k.slice(2)] = v;
      n.addEventListener(k.slice(2), dispatch);
    } else if (PROPS.includes(k)) n[k] = v;
    else n.setAttribute(k, v === true ? '' : v);
  }
  append(n, kids);
  return n;
}

/** Appends `kids` (nested lists; null and false skipped; other values as text) to `n`. */
export function append(n, kids) {
  for (const k of kids.flat(Infinity)) {
    if (k == null || k === false) continue;
    n.appendChild(typeof k === 'object' ? k : document.createTextNode(String(k)));
  }
  return n;
}

/** Whether live node `a` may be kept for fresh node `b`: the same kind, tag and key. */
const keyOf = (n) => n.getAttribute('data-k') || '';
const same = (a, b) =>
  a.nodeType === b.nodeType && a.nodeName === b.nodeName && (a.nodeType !== 1 || keyOf(a) === keyOf(b));

/** Copies `b`'s attributes, inline style and handlers onto `a`. */
function morphAttributes(a, b) {
  for (const at of Array.from(a.attributes)) {
    if (at.name !== 'style' && !b.hasAttribute(at.name)) a.removeAttribute(at.name);
  }
  for (const at of Array.from(b.attributes)) {
    if (at.name !== 'style' && a.getAttribute(at.name) !== at.value) a.setAttribute(at.name, at.value);
  }
  if (a.style.cssText !== b.style.cssText) a.style.cssText = b.style.cssText;
  const on = b.__on || {};
  for (const ty of Object.keys(a.__on || {})) if (!on[ty]) delete a.__on[ty];
  for (const ty of Object.keys(on)) {
    (a.__on = a.__on || {})[ty] = on[ty];
    a.addEventListener(ty, dispatch);
  }
}

function morphNode(a, b) {
  b.__live = a;
  if (a.nodeType !== 1) {
    if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
    return;
  }
  morphAttributes(a, b);
  if (a.disabled !== b.disabled) a.disabled = b.disabled;
  if (a.nodeName === 'INPUT' || a.nodeName === 'TEXTAREA') {
    if (a.checked !== b.checked) a.checked = b.checked;
    // What the page last put there: a value the user has typed over is theirs.
    if (a.__set === undefined) a.__set = a.defaultValue;
    if (a.value === a.__set && a.value !== b.value) a.value = b.value;
    a.__set = b.value;
    return;
  }
  if (a.nodeName === 'SELECT') {
    const mine = a.__set !== undefined && a.value !== a.__set;
    const keep = a.value;
    morphKids(a, b);
    a.value = mine ? keep : b.value;
    a.__set = b.value;
    return;
  }
  morphKids(a, b);
}

function morphKids(a, b) {
  const want = Array.from(b.childNodes);
  want.forEach((nb, i) => {
    let na = a.childNodes[i];
    const key = nb.nodeType === 1 && nb.getAttribute('data-k');
    if (key && !(na && same(na, nb))) {
      const found = Array.from(a.childNodes)
        .slice(i)
        .find((x) => same(x, nb));
      if (found) {
        a.insertBefore(found, na || null);
        na = found;
      }
    }
    if (!na) a.appendChild(nb);
    else if (!same(na, nb)) a.replaceChild(nb, na);
    else morphNode(na, nb);
  });
  while (a.childNodes.length > want.length) a.removeChild(a.lastChild);
}

/** Makes the children of `node` look like `kids`, keeping the nodes it can. */
export function morph(node, kids) {
  const fresh = append(document.createElement(node.nodeName), [kids]);
  morphKids(node, fresh);
  return node;
}

/** The node on the page that a node built for morph() became. */
export const live = (n) => (n && n.__live) || n;

/** Updates the children of element `id` in place to `kids`. */
export const fill = (id, ...kids) => morph($(id), kids);
