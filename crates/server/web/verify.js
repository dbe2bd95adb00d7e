/* The fairness check page (verify.html, served at /verify): takes a game
   record (pasted, uploaded, or fetched from a finished table with ?id=),
   POSTs it to /api/verify (trusting the server key this browser kept when
   it sat down, else the server's own) and shows the verdict: verified,
   unverifiable (no commitment to its seed that the server signed), or
   failed, with what was checked (the server's secret against its
   commitment, every player's contribution in the seed, every shuffle and
   roll reproduced, the outcome) or the first mismatch.

   Opened for a table, it also checks that the record is that table's (its
   id, and the commitment this browser was shown when it sat down there)
   before marking this browser's own contribution. window.RR is the page's
   handle for the browser tests; nothing in the client reads it. */

import { $, el, fill } from './dom.js';
import { boot, t } from './i18n.js';
import { api, errText, join } from './connection.js';
import { initPage, linkKey, pageId } from './page.js';
import * as store from './store.js';
import { commitment, contribution, saveKey, seeQuery, serverKey } from './store.js';

window.RR = { join, ...store };

/** What the page shows: the answer, the table it was opened for, the record checked. */
const V = { res: null, table: null, record: null };

/** The answer {ok, verdict, checks:[..], chance:[..], error} of /api/verify. */
function renderResult() {
  const r = V.res;
  const box = $('out');
  if (!r) return box.classList.add('hidden');
  box.classList.remove('hidden');
  const chance = r.chance || [];
  const other = otherTable();
  const verdict = other ? 'failed' : r.verdict || (r.ok ? 'verified' : 'failed');
  const head = {
    verified: ['ok', '✔ ' + t('verify.good')],
    unverifiable: ['warn', '⚠ ' + t('verify.unverifiable')],
    failed: ['err', '✘ ' + t('verify.bad')],
  }[verdict];
  fill(
    'out',
    el('h2', { id: 'verdict', class: head[0], 'data-verdict': verdict, text: head[1] }),
    other ? el('p', { class: 'err', text: other }) : null,
    r.error
      ? el('p', {
          class: verdict === 'failed' ? 'err' : 'mute',
          text: (verdict === 'failed' ? t('verify.mismatch') + ' ' : '') + r.error,
        })
      : null,
    el('h3', { text: t('verify.checks') }),
    el(
      'ul',
      {},
      (r.checks || []).map((c) => el('li', { text: c }))
    ),
    contributions(r, !other),
    el(
      'details',
      {},
      el('summary', { text: t('verify.chance', { n: chance.length }) }),
      el(
        'ol',
        { class: 'mono' },
        chance.map((c) => el('li', { text: c }))
      )
    )
  );
}

/**
 * Why the record checked is not the one of the table this page was opened
 * for, as this browser took part in it, if it is not: it carries no fair
 * deal, names another table, has another commitment than the one shown
 * when this browser sat down, or lacks this browser's contribution.
 * Nothing to compare for a table this browser did not sit at.
 */
function otherTable() {
  if (!V.table || !V.record) return null;
  const mine = contribution(V.table);
  const shown = commitment(V.table);
  if (!mine && !shown) return null;
  const f = V.record.fairness;
  if (!f) return t('verify.noFairness', { want: V.table });
  if (f.table && f.table !== V.table) return t('verify.otherTable', { want: V.table, got: f.table });
  if (shown && f.commitment !== shown)
    return t('verify.otherCommitment', {
      want: V.table,
      shown: shown.slice(0, 16) + '…',
      got: String(f.commitment).slice(0, 16) + '…',
    });
  if (mine && !(f.contributions || []).some((c) => c.value === mine))
    return t('verify.notMine', { want: V.table, mine: mine.slice(0, 16) + '…' });
  return null;
}

/** Each player's contribution that went into the seed; this browser's own marked, when the record is this table's. */
function contributions(r, ours) {
  const list = r.contributions || [];
  if (!list.length) return null;
  const mine = ours && V.table && contribution(V.table);
  return [
    el('h3', { text: t('verify.contribs') }),
    el(
      'ul',
      { class: 'mono' },
      list.map((c) =>
        el('li', {
          class: c.value === mine ? 'ok' : '',
          text: c.seat + ' ' + c.value + (c.value === mine ? ' ← ' + t('verify.yours') : ''),
        })
      )
    ),
  ];
}

async function check() {
  const text = $('rec').value.trim();
  $('msg').textContent = '';
  V.res = null;
  renderResult();
  if (!text) return ($('msg').textContent = t('verify.empty'));
  try {
    V.record = JSON.parse(text);
  } catch (e) {
    return ($('msg').textContent = t('verify.notJson') + ' ' + e.message);
  }
  $('check').disabled = true;
  try {
    // the server's key this browser kept when it sat down, if any: a record signed by another key is not verified
    const key = serverKey();
    V.res = await api('/api/verify' + (key ? '?key=' + key : ''), 'POST', text);
    renderResult();
  } catch (e) {
    $('msg').textContent = errText(e);
  }
  $('check').disabled = false;
}

async function loadTable(id) {
  $('msg').textContent = '';
  try {
    const rec = await api('/api/tables/' + encodeURIComponent(id) + '/record' + seeQuery(id));
    $('rec').value = JSON.stringify(rec, null, 1);
    V.table = id;
  } catch (e) {
    $('msg').textContent = errText(e);
  }
}

function readFile(e) {
  const f = e.target.files[0];
  if (!f) return;
  const rd = new FileReader();
  rd.onload = () => ($('rec').value = rd.result);
  rd.readAsText(f);
}

async function start() {
  initPage(renderResult);
  $('file').onchange = readFile;
  $('check').onclick = check;
  $('load').onclick = () => $('tid').value.trim() && loadTable($('tid').value.trim());
  const id = pageId();
  if (linkKey() && id) saveKey(id, linkKey());
  if (id) {
    $('tid').value = id;
    await loadTable(id);
    if ($('rec').value) check();
  }
}

boot(start);
