/* ratrace fairness check (verify.html, served at /verify): takes a game
   record (pasted, uploaded, or fetched from a finished table with ?id=),
   POSTs it to /api/verify and shows the answer: whether the seed matches
   its published hash, every shuffle and roll is reproduced and the outcome
   matches, or the first mismatch. */
(function () {
  'use strict';
  const RR = window.RR;
  const { t, el, $ } = RR;
  const V = (RR.verify = { res: null });

  /** The checks we know how to name, in the order they are shown. */
  const CHECKS = ['seed_hash', 'seed_hash_ok', 'replayed', 'actions_ok', 'outcome_ok', 'outcome'];

  function line(key, v) {
    const label = RR.tv('verify.k.' + key) || key;
    if (typeof v === 'boolean') return el('li', { class: v ? 'ok' : 'err', text: (v ? '✔ ' : '✘ ') + label });
    const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
    return el('li', {}, el('b', { text: label + ': ' }), el('span', { class: 'mono', text }));
  }

  function renderResult() {
    const r = V.res;
    const box = $('out');
    if (!r) return box.classList.add('hidden');
    box.classList.remove('hidden');
    const ok = r.ok !== undefined ? r.ok : r.valid;
    const keys = Object.keys(r).filter((k) => k !== 'ok' && k !== 'valid');
    keys.sort((a, b) => (CHECKS.indexOf(a) + 1 || 99) - (CHECKS.indexOf(b) + 1 || 99));
    RR.fill('out', el('h2', { class: ok ? 'ok' : 'err', text: ok ? '✔ ' + t('verify.good') : '✘ ' + t('verify.bad') }), el('ul', { class: 'plain' }, keys.map((k) => line(k, r[k]))));
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

  start();
})();
