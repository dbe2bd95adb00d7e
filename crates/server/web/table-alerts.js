/* The table page's turn alert: the tab title, what #announce (the only
   live region) says, the optional sound and notification, and their
   switches.

   tableAlerts(state, view) is called once by the table page, which calls
   turn() and draw() on every render and say() for what it announces
   itself. What was said goes into the table's state (announced); the
   moments the alert compares (the game started, the turn came, the game
   ended) and the queue of words said together are this module's own. */

import { $, el, fill } from './dom.js';
import { titled } from './friends.js';
import { gameName } from './names.js';
import { onLang, t } from './i18n.js';
import { alertOn, saveAlert } from './store.js';

export function tableAlerts(state, view) {
  let queued = '';
  let sayTimer = null;
  let started = null;
  let wasOver = null;
  let wasMine = false;
  let audio = null;
  const prompt = () => view.game().prompt();

  /** Says `text` to a screen reader (the polite live region), once. */
  function say(text) {
    const box = $('announce');
    if (!box || !text) return;
    // what comes in one burst of updates is said together, not overwritten
    queued = (queued ? queued + ' ' : '') + text;
    state.announced(text);
    box.textContent = '';
    clearTimeout(sayTimer);
    sayTimer = setTimeout(() => {
      box.textContent = queued;
      queued = '';
    }, 50);
  }

  function beep() {
    try {
      const C = window.AudioContext || window.webkitAudioContext;
      audio = audio || new C();
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.frequency.value = 660;
      g.gain.setValueAtTime(0.08, audio.currentTime);
      g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.3);
      o.connect(g).connect(audio.destination);
      o.start();
      o.stop(audio.currentTime + 0.3);
    } catch (e) {
      /* no audio here */
    }
  }

  /** A notification, when the player asked for them and the tab is hidden. */
  function notify() {
    if (!alertOn('notify') || !document.hidden || !window.Notification || Notification.permission !== 'granted') return;
    try {
      new Notification(t('alert.title'), { body: prompt(), tag: 'ratrace-' + state.id });
    } catch (e) {
      /* notifications refused by the browser */
    }
  }

  /** The turn alert: the tab title, an announcement, an optional sound and notification. */
  function turn() {
    const now = state.myTurn();
    const base = gameName(state.game) + ' · ratrace';
    document.title = titled((now ? '● ' + t('alert.title') + ' · ' : '') + base);
    const startedNow = !state.waiting();
    const words = [];
    if (started === false && startedNow && !state.st.over) words.push(t('table.started'));
    started = startedNow;
    if (now && !wasMine) {
      words.push(t('table.yourTurn') + ' ' + prompt());
      if (alertOn('sound')) beep();
      notify();
    }
    if (state.st.over && wasOver === false) words.push(view.resultHead());
    wasOver = !!state.st.over;
    wasMine = now;
    if (words.length) say(words.join(' '));
  }

  /** The alert switches, for a seated player. */
  function draw() {
    const show = state.me() != null && !state.st.over;
    $('alerts').classList.toggle('hidden', !show);
    if (!show) return fill('alerts');
    const onchange = (k, onOn) => (e) => {
      saveAlert(k, e.target.checked);
      if (e.target.checked && onOn) onOn();
    };
    const box = (k, text, onOn) =>
      el('label', {}, el('input', { type: 'checkbox', checked: alertOn(k), onchange: onchange(k, onOn) }), ' ' + text);
    const askNotify = () => {
      if (window.Notification && Notification.permission === 'default') Notification.requestPermission();
    };
    fill(
      'alerts',
      el('span', { class: 'mute', text: t('alert.onMyTurn') }),
      box('sound', t('alert.sound'), beep),
      window.Notification ? box('notify', t('alert.notify'), askNotify) : null,
      // how the page plays for the player: a forced pass made for them
      // (on by default), and a pass asked twice
      box('autoPass', t('alert.autoPass')),
      box('confirmPass', t('alert.confirmPass'))
    );
  }

  // A new language: what the live region says now is said again in it
  // (an English sentence would otherwise stay there until the next one).
  onLang(() => {
    if (!state.st || !$('announce')) return;
    // what was about to be said in the old language is dropped, not said
    // before the new one
    clearTimeout(sayTimer);
    queued = '';
    $('announce').textContent = '';
    if (state.myTurn()) say(t('table.yourTurn') + ' ' + prompt());
  });

  return { turn, draw, say };
}
