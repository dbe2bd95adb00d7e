/* What every page's chrome shares: the static texts of its HTML
   (data-t attributes), the EN/IT/FR switch, start-up, the table id in the
   address, a copy-to-clipboard row and scrolling within a list.

   Kept apart from the texts (i18n.js) and the DOM helpers (dom.js), which
   know nothing of the pages, so that those two run in the unit tests with
   no page at all. */

import { $, clear, el } from './dom.js';
import { languages, lang, onLang, setLang, t } from './i18n.js';

/** Fills elements marked data-t (text), data-tp (placeholder), data-tt (title), data-ta (aria-label). */
export function applyStatic(root) {
  root.querySelectorAll('[data-t]').forEach((n) => (n.textContent = t(n.dataset.t)));
  root.querySelectorAll('[data-tp]').forEach((n) => (n.placeholder = t(n.dataset.tp)));
  root.querySelectorAll('[data-tt]').forEach((n) => (n.title = t(n.dataset.tt)));
  root.querySelectorAll('[data-ta]').forEach((n) => n.setAttribute('aria-label', t(n.dataset.ta)));
  if (document.body.dataset.title) document.title = t(document.body.dataset.title) + ' · ratrace';
}

/** The EN/IT/FR switch, drawn into #lang. */
function langSwitch() {
  const box = $('lang');
  if (!box) return;
  clear(box);
  for (const l of languages()) {
    const on = l === lang() ? 'on' : '';
    box.appendChild(
      el('button', { class: on, text: l.toUpperCase(), title: t('lang.' + l), onclick: () => setLang(l) })
    );
  }
}

/**
 * The service worker (sw.js), which keeps the site for use offline; its
 * registration, or null where there is none (an old browser, a page not
 * served over http(s) or localhost).
 */
export const offlineWorker = () =>
  'serviceWorker' in navigator ? navigator.serviceWorker.register('/sw.js').catch(() => null) : Promise.resolve(null);

/** Page start-up: static texts, the language switch; both and `render` again on a switch. */
export function initPage(render) {
  offlineWorker();
  applyStatic(document);
  langSwitch();
  onLang(() => applyStatic(document));
  onLang(langSwitch);
  if (render) onLang(render);
}

/** The table id of this page: /t/{id}, /replay/{id}, ?/t/{id} or ?id={id}. */
export function pageId() {
  const s = decodeURIComponent(location.pathname + location.search);
  const m = s.match(/\/(?:t|replay)\/([A-Za-z0-9_-]+)/) || s.match(/[?&]id=([A-Za-z0-9_-]+)/);
  return m ? m[1] : null;
}

/** The invite key a link carries (?k=...), if any. */
export const linkKey = () => new URLSearchParams(location.search).get('k');

const copiedAt = {};
/**
 * A link to copy: a read-only box `id` with `value`, its label for screen
 * readers, a Copy button, and a status line that says "Copied" (seen and
 * heard) for two seconds. `redraw` draws the row again.
 */
export function copyRow(id, label, value, redraw, cls) {
  const copy = () => {
    $(id).select();
    if (navigator.clipboard) navigator.clipboard.writeText(value).catch(() => document.execCommand('copy'));
    else document.execCommand('copy');
    copiedAt[id] = Date.now();
    redraw();
    setTimeout(redraw, 2100);
  };
  const copied = Date.now() - (copiedAt[id] || 0) < 2000;
  return el(
    'div',
    { class: 'row' },
    el('label', { for: id, class: 'sr', text: label }),
    el('input', {
      id,
      value,
      readonly: true,
      class: 'grow' + (cls ? ' ' + cls : ''),
      onfocus: (e) => e.target.select(),
    }),
    el('button', { class: 'alt', text: t('table.copy'), onclick: copy }),
    el('span', { id: id + 'Copied', class: 'ok', role: 'status', text: copied ? '✓ ' + t('table.copied') : '' })
  );
}

/**
 * Scrolls the box `box` (a scrolling list) just enough to show `item`, and
 * nothing else: scrollIntoView would scroll the page too, taking the
 * controls the player is pressing away.
 */
export function scrollWithin(box, item) {
  if (!box || !item) return;
  const b = box.getBoundingClientRect();
  const r = item.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += Math.min(r.bottom - b.bottom, r.top - b.top);
}
