/* ratrace web client, shared by every page: i18n helpers (t, language
   switch), DOM helpers (el, $), HTTP API calls, seat tokens in
   localStorage, the WebSocket client with reconnect and backoff, and
   actions and events in words (each game's cards in words are in its
   table file). Loaded first; it loads the language file in use
   (i18n-LANG.js) and RR.boot starts the page then; everything lives on
   the one namespace object window.RR. */
(function () {
  'use strict';
  const RR = (window.RR = window.RR || {});
  RR.I18N = RR.I18N || {};
  const LANGS = ['en', 'it', 'fr'];
  const store = window.localStorage;

  /* ---------- i18n ---------- */

  function pickLang() {
    const saved = store.getItem('ratrace.lang');
    if (LANGS.includes(saved)) return saved;
    const nav = (navigator.language || 'en').slice(0, 2).toLowerCase();
    return LANGS.includes(nav) ? nav : 'en';
  }
  RR.lang = pickLang();
  document.documentElement.lang = RR.lang;

  /** The raw entry (string, array or object) for `key` in the current language. */
  RR.tv = function (key) {
    const own = (RR.I18N[RR.lang] || {})[key];
    return own != null ? own : (RR.I18N.en || {})[key];
  };

  const plurals = {};
  /** The plural category ('one', 'other', ...) of `n` in the current language. */
  RR.plural = function (n) {
    const rules = plurals[RR.lang] || (plurals[RR.lang] = new Intl.PluralRules(RR.lang));
    return rules.select(Number(n));
  };

  /**
   * The text for `key`, with {name} placeholders filled from `vars`. An
   * entry may be an object of plural forms ({one, other}, and in Italian
   * or French the same two), chosen by `vars.n` or by the variable its `n`
   * names: "1 chip", "2 chips".
   */
  RR.t = function (key, vars) {
    let s = RR.tv(key);
    if (s == null) s = key;
    if (s && typeof s === 'object' && !Array.isArray(s)) {
      // Plural forms: chosen by the variable the entry names (n: 'cards'), else by vars.n.
      const count = vars ? vars[s.n || 'n'] : 0;
      s = s[RR.plural(count != null ? count : 0)] || s.other;
    }
    if (vars) s = String(s).replace(/\{(\w+)\}/g, (m, k) => (vars[k] != null ? vars[k] : m));
    return s;
  };

  const langHooks = [];
  /** Calls `fn` whenever the language changes. */
  RR.onLang = (fn) => langHooks.push(fn);

  /** Loads one language's strings (static/i18n-LANG.js) once; resolves when they are there. */
  const loading = {};
  RR.loadLang = function (l) {
    if (RR.I18N && RR.I18N[l]) return Promise.resolve();
    if (!loading[l]) {
      loading[l] = new Promise((resolve, reject) => {
        const s = document.createElement('script');
        s.src = '/static/i18n-' + l + '.js';
        s.onload = () => resolve();
        s.onerror = () => {
          delete loading[l];
          reject(new Error('could not load the ' + l + ' texts'));
        };
        document.head.appendChild(s);
      });
    }
    return loading[l];
  };

  /**
   * Starts a page once the texts of its language are loaded: only the
   * language in use is downloaded, never all three.
   */
  RR.boot = function (start) {
    RR.I18N = RR.I18N || {};
    RR.loadLang(RR.lang).then(start, () => {
      // The strings did not come (offline?): fall back to English, then give up.
      RR.lang = 'en';
      RR.loadLang('en').then(start);
    });
  };

  RR.setLang = function (l) {
    if (!LANGS.includes(l)) return;
    RR.loadLang(l).then(() => {
      RR.lang = l;
      store.setItem('ratrace.lang', l);
      document.documentElement.lang = l;
      RR.applyStatic(document);
      langHooks.forEach((fn) => fn());
    });
  };

  /** Fills elements marked data-t (text), data-tp (placeholder), data-tt (title), data-ta (aria-label). */
  RR.applyStatic = function (root) {
    root.querySelectorAll('[data-t]').forEach((n) => (n.textContent = RR.t(n.dataset.t)));
    root.querySelectorAll('[data-tp]').forEach((n) => (n.placeholder = RR.t(n.dataset.tp)));
    root.querySelectorAll('[data-tt]').forEach((n) => (n.title = RR.t(n.dataset.tt)));
    root.querySelectorAll('[data-ta]').forEach((n) => n.setAttribute('aria-label', RR.t(n.dataset.ta)));
    if (document.body.dataset.title) document.title = RR.t(document.body.dataset.title) + ' · ratrace';
  };

  /** The EN/IT/FR switch, drawn into #lang. */
  RR.langSwitch = function () {
    const box = RR.$('lang');
    if (!box) return;
    RR.clear(box);
    LANGS.forEach((l) =>
      box.appendChild(
        RR.el('button', {
          class: l === RR.lang ? 'on' : '',
          text: l.toUpperCase(),
          title: RR.t('lang.' + l),
          onclick: () => RR.setLang(l),
        })
      )
    );
  };

  /** Page start-up: static texts, the language switch, re-render on switch. */
  RR.initPage = function (render) {
    RR.applyStatic(document);
    RR.langSwitch();
    RR.onLang(RR.langSwitch);
    if (render) RR.onLang(render);
  };

  /* ---------- DOM ---------- */

  RR.$ = (id) => document.getElementById(id);
  RR.clear = function (node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  };

  const PROPS = ['value', 'checked', 'disabled', 'selected', 'href', 'htmlFor'];
  /** The one listener of every element made by el(): it calls the element's current handler. */
  function dispatch(e) {
    const f = this.__on && this.__on[e.type];
    return f ? f.call(this, e) : undefined;
  }
  /** el('button', {class, text, onclick, ...}, ...children) */
  RR.el = function (tag, attrs, ...kids) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k === 'text') n.textContent = v;
      else if (k === 'class') n.className = v;
      // CSSOM, not a style attribute: the CSP allows no inline style.
      else if (k === 'style') Object.assign(n.style, v);
      else if (k.startsWith('on')) {
        // Kept on the element so that an update in place (RR.morph) can
        // swap the handler of a node it keeps.
        (n.__on = n.__on || {})[k.slice(2)] = v;
        n.addEventListener(k.slice(2), dispatch);
      } else if (PROPS.includes(k)) n[k] = v;
      else n.setAttribute(k, v === true ? '' : v);
    }
    RR.append(n, kids);
    return n;
  };
  RR.append = function (n, kids) {
    for (const k of kids.flat(Infinity)) {
      if (k == null || k === false) continue;
      n.appendChild(typeof k === 'object' ? k : document.createTextNode(String(k)));
    }
    return n;
  };

  /*
   * Update in place. A page draws its whole state as fresh nodes with el(),
   * and RR.morph makes the live DOM look like them while keeping every
   * node it can: the focused button keeps focus, a selection stays, a
   * half-typed name survives other players' moves, and a screen reader is
   * not told the page changed. Children are matched by position, or by
   * their data-k key when they have one (cards in a hand). A handler that
   * needs the live node of one it built (an input's typed value) asks
   * RR.live(node).
   */
  const same = (a, b) =>
    a.nodeType === b.nodeType && a.nodeName === b.nodeName && (a.nodeType !== 1 || (a.getAttribute('data-k') || '') === (b.getAttribute('data-k') || ''));

  function morphNode(a, b) {
    b.__live = a;
    if (a.nodeType !== 1) {
      if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
      return;
    }
    for (const at of Array.from(a.attributes)) if (at.name !== 'style' && !b.hasAttribute(at.name)) a.removeAttribute(at.name);
    for (const at of Array.from(b.attributes)) if (at.name !== 'style' && a.getAttribute(at.name) !== at.value) a.setAttribute(at.name, at.value);
    if (a.style.cssText !== b.style.cssText) a.style.cssText = b.style.cssText;
    const on = b.__on || {};
    for (const ty of Object.keys(a.__on || {})) if (!on[ty]) delete a.__on[ty];
    for (const ty of Object.keys(on)) {
      (a.__on = a.__on || {})[ty] = on[ty];
      a.addEventListener(ty, dispatch);
    }
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
  RR.morph = function (node, kids) {
    const fresh = RR.append(document.createElement(node.nodeName), [kids]);
    morphKids(node, fresh);
    return node;
  };
  /** The node on the page that a node built for RR.morph became. */
  RR.live = (n) => (n && n.__live) || n;
  /** Updates the children of element `id` in place to `kids`. */
  RR.fill = (id, ...kids) => RR.morph(RR.$(id), kids);
  const copiedAt = {};
  /**
   * A link to copy: a read-only box `id` with `value`, its label for
   * screen readers, a Copy button, and a status line that says "Copied"
   * (seen and heard) for two seconds. `redraw` draws the row again.
   */
  RR.copyRow = function (id, label, value, redraw, cls) {
    const copy = () => {
      RR.$(id).select();
      if (navigator.clipboard) navigator.clipboard.writeText(value).catch(() => document.execCommand('copy'));
      else document.execCommand('copy');
      copiedAt[id] = Date.now();
      redraw();
      setTimeout(redraw, 2100);
    };
    const copied = Date.now() - (copiedAt[id] || 0) < 2000;
    return RR.el(
      'div',
      { class: 'row' },
      RR.el('label', { for: id, class: 'sr', text: label }),
      RR.el('input', { id, value, readonly: true, class: 'grow' + (cls ? ' ' + cls : ''), onfocus: (e) => e.target.select() }),
      RR.el('button', { class: 'alt', text: RR.t('table.copy'), onclick: copy }),
      RR.el('span', { id: id + 'Copied', class: 'ok', role: 'status', text: copied ? '✓ ' + RR.t('table.copied') : '' })
    );
  };

  /**
   * Scrolls the box `box` (a scrolling list) just enough to show `item`,
   * and nothing else: scrollIntoView would scroll the page too, taking the
   * controls the player is pressing away.
   */
  RR.scrollWithin = function (box, item) {
    if (!box || !item) return;
    const b = box.getBoundingClientRect();
    const r = item.getBoundingClientRect();
    if (r.top < b.top) box.scrollTop -= b.top - r.top;
    else if (r.bottom > b.bottom) box.scrollTop += Math.min(r.bottom - b.bottom, r.top - b.top);
  };

  /* ---------- HTTP API ---------- */

  /** fetch + JSON; throws an Error with .code, .status on failure. */
  RR.api = async function (path, method, body) {
    const opts = { method: method || 'GET', headers: {} };
    if (body !== undefined) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, opts);
    } catch (e) {
      throw Object.assign(new Error(''), { code: 'network' });
    }
    const text = await res.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch (e) {
      data = null;
    }
    if (!res.ok) {
      const er = (data && data.error) || {};
      throw Object.assign(new Error(er.message || ''), { code: er.code || 'http_' + res.status, status: res.status });
    }
    return data;
  };

  /** An error (thrown or a protocol `error` message) in words. */
  RR.errText = function (e) {
    const code = e.code || 'unknown';
    const known = RR.tv('err.' + code);
    const head = known != null ? known : RR.t('err.unknown', { code });
    return e.message ? head + ' — ' + e.message : head;
  };

  /* ---------- seats, tokens, ids ---------- */

  RR.token = (id) => store.getItem('ratrace.token.' + id);
  /** What shows the server this browser may see a private table's game (its record, replay, analysis): '?k=' its invite key, else '?t=' a seat's token, else nothing. */
  RR.seeQuery = (id) => {
    const k = store.getItem('ratrace.key.' + id);
    if (k) return '?k=' + encodeURIComponent(k);
    const tok = RR.token(id);
    return tok ? '?t=' + encodeURIComponent(tok) : '';
  };
  RR.mySeat = (id) => store.getItem('ratrace.seat.' + id);
  RR.saveSeat = function (id, seat, token) {
    store.setItem('ratrace.token.' + id, token);
    store.setItem('ratrace.seat.' + id, seat);
  };
  RR.forgetSeat = function (id) {
    store.removeItem('ratrace.token.' + id);
    store.removeItem('ratrace.seat.' + id);
  };
  RR.myName = () => store.getItem('ratrace.name') || '';
  RR.saveName = (n) => store.setItem('ratrace.name', n);

  /** Joins table `id` (optionally at `seat`) as `name`; keeps the token. */
  /** A private table's invite key (from its link), kept per table. */
  RR.key = (id) => store.getItem('ratrace.key.' + id);
  RR.saveKey = (id, k) => k && store.setItem('ratrace.key.' + id, k);
  /** The contribution this browser made to a table's fair deal. */
  RR.contribution = (id) => store.getItem('ratrace.contrib.' + id);
  /** The commitment this browser was shown when it contributed at table `id` (the first one kept: the verify page compares the record's with it). */
  RR.commitment = (id) => store.getItem('ratrace.commit.' + id);
  RR.saveCommitment = (id, c) => {
    if (c && /^[0-9a-f]{64}$/.test(c) && !RR.commitment(id)) store.setItem('ratrace.commit.' + id, c);
  };
  /** The key this server signs its commitments with, as this browser first saw it when it sat down (the verify page trusts it). */
  RR.serverKey = () => store.getItem('ratrace.serverkey');
  RR.saveServerKey = (k) => {
    if (k && /^[0-9a-f]{64}$/.test(k) && !RR.serverKey()) store.setItem('ratrace.serverkey', k);
  };
  /** The creator's token of a table this browser created. */
  RR.creator = (id) => store.getItem('ratrace.creator.' + id);
  RR.saveCreator = (id, c) => c && store.setItem('ratrace.creator.' + id, c);

  RR.join = async function (id, name, seat) {
    const body = { name };
    if (seat) body.seat = seat;
    if (RR.key(id)) body.key = RR.key(id);
    // The fair deal: this browser's own randomness goes into the seed.
    const bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    body.contribution = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    // the identity key this browser keeps (social.js): the server stores only its hash
    if (RR.identity) body.player = RR.identity();
    const r = await RR.api('/api/tables/' + encodeURIComponent(id) + '/join', 'POST', body);
    RR.saveSeat(id, r.seat, r.token);
    store.setItem('ratrace.contrib.' + id, body.contribution);
    RR.saveCommitment(id, r.commitment);
    RR.saveServerKey(r.key);
    RR.saveName(name);
    return r;
  };

  /** The table id of this page: /t/{id}, /replay/{id}, ?/t/{id} or ?id={id}. */
  RR.pageId = function () {
    const s = decodeURIComponent(location.pathname + location.search);
    const m = s.match(/\/(?:t|replay)\/([A-Za-z0-9_-]+)/) || s.match(/[?&]id=([A-Za-z0-9_-]+)/);
    return m ? m[1] : null;
  };

  /** A seat as text: "P3" from "P3" or from a 0-based number. */
  RR.seatId = (s) => (typeof s === 'number' ? 'P' + (s + 1) : String(s));
  /** Index 0.. of a seat written "P3". */
  RR.seatIndex = (s) => (typeof s === 'number' ? s : parseInt(String(s).slice(1), 10) - 1);

  /** "Ann (P2)", "🤖 P3" from the `seats` list of a state or table summary. */
  RR.seatLabel = function (seat, seats) {
    const id = RR.seatId(seat);
    const s = (seats || []).find((x) => RR.seatId(x.seat) === id);
    if (s && s.kind === 'bot') return '🤖 ' + id;
    if (s && s.name) return s.name + ' (' + id + ')';
    return id;
  };

  /** A player's name in the log: a human's display name, else the label ("🤖 P3"). */
  RR.seatName = function (seat, seats) {
    const id = RR.seatId(seat);
    const s = (seats || []).find((x) => RR.seatId(x.seat) === id);
    return s && s.kind !== 'bot' && s.name ? s.name : RR.seatLabel(seat, seats);
  };

  /* ---------- WebSocket client ---------- */

  /**
   * Connects to /ws/{id}; sends hello (with the stored token) on every
   * (re)connect and reconnects with backoff after a drop. Handlers:
   * onMessage(msg), onStatus('connecting'|'live'|'off').
   */
  /**
   * Applies an RFC 6902 JSON Patch (the `patch` of an `update` message) to
   * `doc`, in place where it can; returns the patched document. The
   * server's patches use `add` (`-` appends to an array), `replace` and
   * `remove`; anything else, or a path that is not there, throws, and the
   * page asks for the whole state again.
   */
  RR.applyPatch = function (doc, ops) {
    for (const op of ops) {
      if (op.path === '') {
        if (op.op !== 'add' && op.op !== 'replace') throw new Error('bad patch');
        doc = op.value;
        continue;
      }
      const keys = op.path.split('/').slice(1).map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
      const last = keys.pop();
      let parent = doc;
      for (const k of keys) {
        parent = parent[k];
        if (parent === null || typeof parent !== 'object') throw new Error('bad patch path ' + op.path);
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
  };

  RR.connect = function (id, h) {
    const c = { ws: null, tries: 0, closed: false, timer: null, ping: null };
    const url = () =>
      (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws/' + encodeURIComponent(id);
    function retry() {
      h.onStatus('off');
      const wait = Math.min(10000, 500 * 2 ** c.tries) * (0.75 + Math.random() / 2);
      c.tries++;
      clearTimeout(c.timer);
      c.timer = setTimeout(open, wait);
    }
    function open() {
      h.onStatus('connecting');
      let ws;
      try {
        ws = new WebSocket(url());
      } catch (e) {
        return retry();
      }
      c.ws = ws;
      ws.onopen = () => {
        c.hello();
        h.onStatus('live');
        c.ping = setInterval(() => c.send({ type: 'ping' }), 25000);
      };
      ws.onmessage = (ev) => {
        let m;
        try {
          m = JSON.parse(ev.data);
        } catch (e) {
          return;
        }
        if (m.type === 'state' || m.type === 'update') c.tries = 0;
        h.onMessage(m);
      };
      ws.onclose = () => {
        clearInterval(c.ping);
        if (c.ws === ws) c.ws = null;
        if (!c.closed) retry();
      };
    }
    c.send = function (m) {
      if (!c.ws || c.ws.readyState !== 1) return false;
      c.ws.send(JSON.stringify(m));
      return true;
    };
    // a seated player's contribution goes with hello: a rematch waits for each (social.js)
    // a spectator of a private table shows its invite key
    c.hello = () => c.send({ type: 'hello', token: RR.token(id) || undefined, contribution: (RR.token(id) && RR.contribution(id)) || undefined, key: RR.key(id) || undefined, lang: RR.lang });
    /** Drops the connection and reconnects at once (after a join). */
    c.restart = function () {
      c.tries = 0;
      if (c.ws) c.ws.close();
      else c.now();
    };
    c.now = function () {
      if (c.ws) return;
      c.tries = 0;
      clearTimeout(c.timer);
      open();
    };
    window.addEventListener('online', c.now);
    document.addEventListener('visibilitychange', () => !document.hidden && c.now());
    open();
    return c;
  };

  /* ---------- actions and events in words ---------- */

  // Each game's cards, roles and rolls in words are in its table file
  // (table-bigcheese.js, table-dalmuti.js), which every page that shows
  // a game loads: RR.bcName, RR.rollWords, RR.ROLL_KINDS; RR.rankName,
  // RR.roleName, RR.roleIcon, RR.setWords, RR.cardsWords.

  /** An action in notation ("bid 3", "P2 play 2x7+J") in words. */
  RR.actionWords = function (action) {
    let a = String(action).trim();
    let who = '';
    const pm = a.match(/^(P\d+)\s+(.*)$/);
    if (pm) {
      who = pm[1] + ': ';
      a = pm[2];
    }
    const [verb, ...rest] = a.split(/\s+/);
    const arg = rest.join(' ');
    const t = RR.t;
    const words = {
      bid: () => t('act.bid', { n: arg }),
      pass: () => t('act.pass'),
      veto: () => t('act.veto'),
      keep: () => t('act.keep'),
      reroll: () => (arg ? t('act.rerollDice', { d: arg }) : t('act.reroll')),
      play: () => t('act.play', { set: RR.setWords(arg) }),
      give: () => t('act.give', { cards: RR.cardsWords(arg) }),
      revolution: () => t('act.revolution'),
      'no-revolution': () => t('act.noRevolution'),
      'no-market': () => t('act.noMarket'),
      market: () =>
        rest.length > 1
          ? t('act.market', { seat: rest[0], cards: RR.cardsWords(rest[1]) })
          : t('act.blackMarket', { seat: rest[0] }),
      'seat-new': () => t(arg === 'above' ? 'act.seatAbove' : 'act.seatBelow'),
    };
    return who + (words[verb] ? words[verb]() : a);
  };

  /**
   * A game event ({kind, ...fields} from the server) in the current
   * language, from the template `ev.GAME.KIND` (i18n.js): each {field} is
   * the event's field in words: seats by the player's name, cards by name,
   * lists joined, the roll in words. An unknown kind shows as its name.
   */
  RR.eventText = function (game, ev, seats) {
    const t = RR.t;
    const name = (s) => RR.seatName(s, seats);
    const names = (list) => {
      const n = (list || []).map(name);
      return n.length > 1 ? n.slice(0, -1).join(', ') + t('ev.and') + n[n.length - 1] : n.join('');
    };
    const card = (c) => (game === 'bigcheese' ? RR.bcName(c) : RR.cardsWords(c));
    const words = {
      card,
      lost: card,
      got: card,
      top: (c) => (c == null ? t('bc.noTop') : card(c)),
      cards: (v) => (typeof v === 'string' ? RR.cardsWords(v) : v),
      hand: (v) => RR.cardsWords(String(v).replace(/\|/g, ' ')),
      play: (v) => RR.setWords(v),
      role: (v) => RR.roleName(v),
      side: (v) => t('ev.side.' + v),
      roll: () => RR.rollWords(ev),
      rerolled: (v) => v.join(', '),
      draws: (v) => v.map((d) => name(d.seat) + ' ' + card(d.card)).join(', '),
      order: (v) => v.map(name).join(', '),
      scores: (v) => v.map((x, i) => name(i) + ' ' + x).join(', '),
      winners: names,
      tied: names,
    };
    let tpl = RR.tv('ev.' + game + '.' + ev.kind);
    if (tpl == null) return String(ev.kind);
    // plural forms, chosen by the field the entry names (n: 'count')
    if (typeof tpl === 'object') tpl = tpl[RR.plural(ev[tpl.n || 'n'] || 0)] || tpl.other;
    return String(tpl).replace(/\{(\w+)\}/g, (m, k) => {
      const v = ev[k];
      if (v === undefined) return m;
      if (words[k]) return words[k](v);
      return typeof v === 'string' && /^P\d+$/.test(v) ? name(v) : String(v);
    });
  };

  /** A game's display name. */
  RR.gameName = (g) => RR.t('game.' + g);
  /** A bot's name in the lobby: a ladder level, or a bot program the server offers (`ratrace serve --bot`). */
  RR.botName = (b) => (RR.tv('bot.' + b) != null ? RR.t('bot.' + b) : RR.t('bot.external', { name: b }));
  /** A bot's short tag at the table. */
  RR.botLevel = (b) => (RR.tv('botLevel.' + b) != null ? RR.t('botLevel.' + b) : RR.t('botLevel.external', { name: b }));

  /** Date from unix seconds, short. */
  RR.when = (s) => (s ? new Date(s * 1000).toLocaleString(RR.lang) : '');
})();
