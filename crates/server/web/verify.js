/* ratrace fairness check (verify.html, served at /verify): takes a game
   record (pasted, uploaded, or fetched from a finished table with ?id=),
   POSTs it to /api/verify and shows the answer: whether the server's
   secret matches its commitment and every player's contribution went into
   the seed (this browser's own one is marked), every shuffle and roll is
   reproduced and the outcome matches, or the first mismatch. */
(function () {
  'use strict';
  const RR = window.RR;
  const { t, el, $ } = RR;
  const V = (RR.verify = { res: null, table: null });

  /** The answer {ok, checks:[..], chance:[..], error} of /api/verify. */
  function renderResult() {
    const r = V.res;
    const box = $('out');
    if (!r) return box.classList.add('hidden');
    box.classList.remove('hidden');
    const chance = r.chance || [];
    RR.fill(
      'out',
      el('h2', { class: r.ok ? 'ok' : 'err', text: r.ok ? '✔ ' + t('verify.good') : '✘ ' + t('verify.bad') }),
      r.error ? el('p', { class: 'err', text: t('verify.mismatch') + ' ' + r.error }) : null,
      el('h3', { text: t('verify.checks') }),
      el('ul', {}, (r.checks || []).map((c) => el('li', { text: c }))),
      contributions(r),
      el('details', {}, el('summary', { text: t('verify.chance', { n: chance.length }) }), el('ol', { class: 'mono' }, chance.map((c) => el('li', { text: c }))))
    );
  }

  /** Each player's contribution that went into the seed; this browser's own marked. */
  function contributions(r) {
    const list = r.contributions || [];
    if (!list.length) return null;
    const mine = V.table && RR.contribution(V.table);
    return [
      el('h3', { text: t('verify.contribs') }),
      el('ul', { class: 'mono' }, list.map((c) => el('li', { class: c.value === mine ? 'ok' : '', text: c.seat + ' ' + c.value + (c.value === mine ? ' ← ' + t('verify.yours') : '') }))),
    ];
  }

  async function check() {
    const text = $('rec').value.trim();
    $('msg').textContent = '';
    V.res = null;
    renderResult();
    if (!text) return ($('msg').textContent = t('verify.empty'));
    try {
      JSON.parse(text);
    } catch (e) {
      return ($('msg').textContent = t('verify.notJson') + ' ' + e.message);
    }
    $('check').disabled = true;
    try {
      V.res = await RR.api('/api/verify', 'POST', text);
      renderResult();
    } catch (e) {
      $('msg').textContent = RR.errText(e);
    }
    $('check').disabled = false;
  }

  async function loadTable(id) {
    $('msg').textContent = '';
    try {
      const rec = await RR.api('/api/tables/' + encodeURIComponent(id) + '/record');
      $('rec').value = JSON.stringify(rec, null, 1);
      V.table = id;
    } catch (e) {
      $('msg').textContent = RR.errText(e);
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
    RR.initPage(renderResult);
    $('file').onchange = readFile;
    $('check').onclick = check;
    $('load').onclick = () => $('tid').value.trim() && loadTable($('tid').value.trim());
    const id = RR.pageId();
    if (id) {
      $('tid').value = id;
      await loadTable(id);
      if ($('rec').value) check();
    }
  }

  RR.boot(start);
})();
