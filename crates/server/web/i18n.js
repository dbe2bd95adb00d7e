/* The client's texts: the language in use, the strings of each language
   loaded so far, and t(key, vars), which every page draws its words with.

   Only the language in use is downloaded: boot() imports its file
   (i18n-LANG.js, an ES module whose default export is the strings) before
   the page starts, and setLang() imports another on a switch. The state is
   this module's own (the language and the loaded strings), read through
   functions, so that nothing else can change the language behind the
   hooks that redraw on a switch. Nothing here touches the page's DOM:
   the unit tests load strings with addTexts() and call t() in node. */

const LANGS = ['en', 'it', 'fr'];
const texts = {};
const plurals = {};
const hooks = [];
const loading = {};
let current = 'en';

/** The languages the client speaks. */
export const languages = () => LANGS.slice();

/** The language in use ('en', 'it' or 'fr'). */
export const lang = () => current;

/** Adds one language's strings (what its i18n-LANG.js exports). */
export function addTexts(l, strings) {
  texts[l] = strings;
}

/** Makes `l` the language in use, if its strings are loaded, and calls the hooks. */
export function useLang(l) {
  if (!texts[l]) return false;
  current = l;
  hooks.forEach((fn) => fn());
  return true;
}

/** The language saved in this browser, else the browser's own, else English. */
function pickLang() {
  const saved = localStorage.getItem('ratrace.lang');
  if (LANGS.includes(saved)) return saved;
  const nav = (navigator.language || 'en').slice(0, 2).toLowerCase();
  return LANGS.includes(nav) ? nav : 'en';
}

/** The raw entry (string, array or object) for `key` in the current language, English when it has none. */
export function tv(key) {
  const own = (texts[current] || {})[key];
  return own != null ? own : (texts.en || {})[key];
}

/** The plural category ('one', 'other', ...) of `n` in the current language. */
export function plural(n) {
  const rules = plurals[current] || (plurals[current] = new Intl.PluralRules(current));
  return rules.select(Number(n));
}

/** An entry's form: a string as it is; of plural forms, the one `count` takes. */
export function form(entry, count) {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return entry;
  return entry[plural(count != null ? count : 0)] || entry.other;
}

/**
 * The text for `key`, with {name} placeholders filled from `vars`. An
 * entry may be an object of plural forms ({one, other}), chosen by
 * `vars.n` or by the variable its `n` names: "1 chip", "2 chips".
 */
export function t(key, vars) {
  let s = tv(key);
  if (s == null) s = key;
  if (s && typeof s === 'object' && !Array.isArray(s)) s = form(s, vars ? vars[s.n || 'n'] : 0);
  if (vars) s = String(s).replace(/\{(\w+)\}/g, (m, k) => (vars[k] != null ? vars[k] : m));
  return s;
}

/** Calls `fn` whenever the language changes. */
export const onLang = (fn) => hooks.push(fn);

/** Imports one language's strings (/static/i18n-LANG.js) once; resolves when they are there. */
export function loadLang(l) {
  if (texts[l]) return Promise.resolve();
  if (!loading[l]) {
    loading[l] = import('/static/i18n-' + l + '.js').then(
      (m) => addTexts(l, m.default),
      (e) => {
        delete loading[l];
        throw e;
      }
    );
  }
  return loading[l];
}

/** Switches to language `l`: its strings are loaded first; the choice is kept in this browser. */
export function setLang(l) {
  if (!LANGS.includes(l)) return;
  loadLang(l).then(() => {
    localStorage.setItem('ratrace.lang', l);
    document.documentElement.lang = l;
    useLang(l);
  });
}

/** Starts a page once the texts of its language are loaded (English if they do not come). */
export function boot(start) {
  const l = pickLang();
  document.documentElement.lang = l;
  loadLang(l).then(
    () => {
      current = l;
      start();
    },
    () => loadLang('en').then(start)
  );
}
