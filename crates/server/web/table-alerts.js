/* The table page's turn alert (after table.js, which calls it on every
   render): the tab title, what #announce (the only live region) says, the
   optional sound and notification, and their switches. */
(function () {
  'use strict';
  const RR = window.RR;
  const { t, el, $ } = RR;
  const { T, myTurn, waiting, me, prompt, resultHead } = RR.tableKit;

  /** Says `text` to a screen reader (the polite live region), once. */
  function announce(text) {
    const box = $('announce');
    if (!box || !text) return;
    // what comes in one burst of updates is said together, not overwritten
    T.say = (T.say ? T.say + ' ' : '') + text;
    T.said = (T.said || []).concat(text).slice(-20);
    box.textContent = '';
    clearTimeout(T.sayTimer);
    T.sayTimer = setTimeout(() => {
      box.textContent = T.say;
      T.say = '';
    }, 50);
  }

  /** The turn alert: the tab title, an announcement, an optional sound and notification. */
  function turnAlert() {
    const now = myTurn();
    const base = RR.gameName(T.game) + ' · ratrace';
    document.title = (now ? '● ' + t('alert.title') + ' · ' : '') + base;
    const started = !waiting();
    const say = [];
    if (T.started === false && started && !T.st.over) say.push(t('table.started'));
    T.started = started;
    if (now && !T.mine) {
      say.push(t('table.yourTurn') + ' ' + prompt());
      if (pref('sound')) beep();
      if (pref('notify') && document.hidden && window.Notification && Notification.permission === 'granted') {
        try {
          new Notification(t('alert.title'), { body: prompt(), tag: 'ratrace-' + T.id });
        } catch (e) {
          /* notifications refused by the browser */
        }
      }
    }
    if (T.st.over && T.wasOver === false) say.push(resultHead());
    T.wasOver = !!T.st.over;
    T.mine = now;
    if (say.length) announce(say.join(' '));
  }

  const pref = (k) => localStorage.getItem('ratrace.alert.' + k) === '1';

  function beep() {
    try {
      const C = window.AudioContext || window.webkitAudioContext;
      T.audio = T.audio || new C();
      const a = T.audio;
      const o = a.createOscillator();
      const g = a.createGain();
      o.frequency.value = 660;
      g.gain.setValueAtTime(0.08, a.currentTime);
      g.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + 0.3);
      o.connect(g).connect(a.destination);
      o.start();
      o.stop(a.currentTime + 0.3);
    } catch (e) {
      /* no audio here */
    }
  }

  /** The alert switches, for a seated player. */
  function renderAlerts() {
    const show = me() != null && !T.st.over;
    $('alerts').classList.toggle('hidden', !show);
    if (!show) return RR.fill('alerts');
    const box = (k, text, onOn) =>
      el(
        'label',
        {},
        el('input', {
          type: 'checkbox',
          checked: pref(k),
          onchange: (e) => {
            localStorage.setItem('ratrace.alert.' + k, e.target.checked ? '1' : '0');
            if (e.target.checked && onOn) onOn();
          },
        }),
        ' ' + text
      );
    const askNotify = () => {
      if (window.Notification && Notification.permission === 'default') Notification.requestPermission();
    };
    RR.fill('alerts', el('span', { class: 'mute', text: t('alert.onMyTurn') }), box('sound', t('alert.sound'), beep), window.Notification ? box('notify', t('alert.notify'), askNotify) : null);
  }

  // A new language: what the live region says now is said again in it
  // (an English sentence would otherwise stay there until the next one).
  RR.onLang(() => {
    if (!T.st || !$('announce')) return;
    $('announce').textContent = '';
    if (myTurn()) announce(t('table.yourTurn') + ' ' + prompt());
  });

  RR.tableAlerts = { turn: turnAlert, draw: renderAlerts, say: announce };
})();
