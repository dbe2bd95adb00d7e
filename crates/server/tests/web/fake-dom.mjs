// A small fake DOM for the web client's unit tests: just what dom.js
// (el, append, morph) calls, so the morph is tested in node without a
// browser or a DOM library. Elements keep attributes in order, a style
// object whose cssText reflects its properties, listeners, and the form
// properties morph reads (value, checked, disabled, defaultValue). An
// element made with createElementNS (the card art's SVG) keeps its tag's
// case and its namespace, as in a browser.

class Node {
  constructor(type, name) {
    this.nodeType = type;
    this.nodeName = name;
    this.parentNode = null;
    this.childNodes = [];
  }
  get firstChild() {
    return this.childNodes[0] || null;
  }
  get lastChild() {
    return this.childNodes[this.childNodes.length - 1] || null;
  }
  #detach(n) {
    if (n.parentNode) n.parentNode.childNodes.splice(n.parentNode.childNodes.indexOf(n), 1);
    n.parentNode = this;
  }
  appendChild(n) {
    this.#detach(n);
    this.childNodes.push(n);
    return n;
  }
  insertBefore(n, ref) {
    if (ref == null) return this.appendChild(n);
    this.#detach(n);
    this.childNodes.splice(this.childNodes.indexOf(ref), 0, n);
    return n;
  }
  replaceChild(n, old) {
    this.#detach(n);
    this.childNodes[this.childNodes.indexOf(old)] = n;
    old.parentNode = null;
    return old;
  }
  removeChild(n) {
    this.childNodes.splice(this.childNodes.indexOf(n), 1);
    n.parentNode = null;
    return n;
  }
  get textContent() {
    return this.nodeType === 3 ? this.nodeValue : this.childNodes.map((c) => c.textContent).join('');
  }
  set textContent(v) {
    this.childNodes.forEach((c) => (c.parentNode = null));
    this.childNodes = [];
    if (v !== '') this.appendChild(new Text(String(v)));
  }
}

class Text extends Node {
  constructor(value) {
    super(3, '#text');
    this.nodeValue = value;
  }
}

/** Inline style: any property set on it shows in cssText, as in a browser. */
function style() {
  const s = {};
  Object.defineProperty(s, 'cssText', {
    get: () =>
      Object.entries(s)
        .map(([k, v]) => k + ': ' + v + ';')
        .join(' '),
    set: (text) => {
      for (const k of Object.keys(s)) delete s[k];
      for (const part of String(text).split(';')) {
        const [k, v] = part.split(':').map((x) => x && x.trim());
        if (k) s[k] = v;
      }
    },
  });
  // a custom property ("--n") is set by name, and shows in cssText too
  Object.defineProperty(s, 'setProperty', { value: (k, v) => (s[k] = String(v)) });
  return s;
}

class Element extends Node {
  constructor(tag, ns) {
    super(1, ns ? tag : tag.toUpperCase());
    this.namespaceURI = ns || 'http://www.w3.org/1999/xhtml';
    this.attributes = [];
    this.style = style();
    this.listeners = {};
    this.disabled = false;
    this.checked = false;
    this.defaultValue = '';
    this._value = '';
  }
  get value() {
    if (this.nodeName === 'SELECT') {
      const on = this.childNodes.find((o) => o.selected) || this.childNodes[0];
      return this._value || (on ? on.getAttribute('value') : '');
    }
    return this._value;
  }
  set value(v) {
    this._value = String(v);
  }
  get className() {
    return this.getAttribute('class') || '';
  }
  set className(v) {
    this.setAttribute('class', v);
  }
  getAttribute(name) {
    const a = this.attributes.find((x) => x.name === name);
    return a ? a.value : null;
  }
  setAttribute(name, value) {
    const a = this.attributes.find((x) => x.name === name);
    if (a) a.value = String(value);
    else this.attributes.push({ name, value: String(value) });
  }
  removeAttribute(name) {
    this.attributes = this.attributes.filter((x) => x.name !== name);
  }
  hasAttribute(name) {
    return this.attributes.some((x) => x.name === name);
  }
  addEventListener(type, fn) {
    const list = (this.listeners[type] = this.listeners[type] || []);
    if (!list.includes(fn)) list.push(fn);
  }
  /** Calls the listeners of `type`, as a browser would for an event. */
  fire(type) {
    return (this.listeners[type] || []).map((fn) => fn.call(this, { type, target: this }));
  }
}

/** Installs a fresh fake `document` as a global; returns it. */
export function fakeDocument() {
  const document = {
    createElement: (tag) => new Element(tag),
    createElementNS: (ns, tag) => new Element(tag, ns),
    createTextNode: (text) => new Text(text),
    getElementById: () => null,
  };
  globalThis.document = document;
  return document;
}
