/* Actions and events in words, for both games: an action in notation
   ("bid 3", "P2 play 2x7+J") as the generic buttons and the replay's moves
   say it, and a game event ({kind, ...fields} from the server) from its
   template `ev.GAME.KIND` in the language in use.

   Events are data, not sentences (docs/server.md): each field is put in
   words here, seats by the player's name, cards by name, lists joined, a
   roll in words; each game's cards are its words module's. */

import { form, t, tv } from './i18n.js';
import { seatName } from './names.js';
import { bcName, rollWords } from './words-bigcheese.js';
import { cardsWords, roleName, setWords } from './words-dalmuti.js';

/** An action in notation ("bid 3", "P2 play 2x7+J") in words. */
export function actionWords(action) {
  let a = String(action).trim();
  let who = '';
  const pm = a.match(/^(P\d+)\s+(.*)$/);
  if (pm) {
    who = pm[1] + ': ';
    a = pm[2];
  }
  const [verb, ...rest] = a.split(/\s+/);
  const arg = rest.join(' ');
  const market = () =>
    rest.length > 1
      ? t('act.market', { seat: rest[0], cards: cardsWords(rest[1]) })
      : t('act.blackMarket', { seat: rest[0] });
  const words = {
    bid: () => t('act.bid', { n: arg }),
    pass: () => t('act.pass'),
    veto: () => t('act.veto'),
    keep: () => t('act.keep'),
    reroll: () => (arg ? t('act.rerollDice', { d: arg }) : t('act.reroll')),
    play: () => t('act.play', { set: setWords(arg) }),
    give: () => t('act.give', { cards: cardsWords(arg) }),
    revolution: () => t('act.revolution'),
    'no-revolution': () => t('act.noRevolution'),
    'no-market': () => t('act.noMarket'),
    market,
    'seat-new': () => t(arg === 'above' ? 'act.seatAbove' : 'act.seatBelow'),
  };
  return who + (words[verb] ? words[verb]() : a);
}

/**
 * A game event of `game` in the language in use, its seats named from
 * `seats` (the table's seats list). An unknown kind shows as its name.
 */
export function eventText(game, ev, seats) {
  const name = (s) => seatName(s, seats);
  const names = (list) => {
    const n = (list || []).map(name);
    return n.length > 1 ? n.slice(0, -1).join(', ') + t('ev.and') + n[n.length - 1] : n.join('');
  };
  const card = (c) => (game === 'bigcheese' ? bcName(c) : cardsWords(c));
  const words = {
    card,
    lost: card,
    got: card,
    top: (c) => (c == null ? t('bc.noTop') : card(c)),
    cards: (v) => (typeof v === 'string' ? cardsWords(v) : v),
    hand: (v) => cardsWords(String(v).replace(/\|/g, ' ')),
    play: (v) => setWords(v),
    role: (v) => roleName(v),
    side: (v) => t('ev.side.' + v),
    roll: () => rollWords(ev),
    rerolled: (v) => v.join(', '),
    draws: (v) => v.map((d) => name(d.seat) + ' ' + card(d.card)).join(', '),
    order: (v) => v.map(name).join(', '),
    scores: (v) => v.map((x, i) => name(i) + ' ' + x).join(', '),
    winners: names,
    tied: names,
  };
  let tpl = tv('ev.' + game + '.' + ev.kind);
  if (tpl == null) return String(ev.kind);
  // plural forms, chosen by the field the entry names (n: 'count')
  if (typeof tpl === 'object') tpl = form(tpl, ev[tpl.n || 'n'] || 0);
  return String(tpl).replace(/\{(\w+)\}/g, (m, k) => {
    const v = ev[k];
    if (v === undefined) return m;
    if (words[k]) return words[k](v);
    return typeof v === 'string' && /^P\d+$/.test(v) ? name(v) : String(v);
  });
}
