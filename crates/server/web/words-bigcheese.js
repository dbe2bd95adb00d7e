/* The Big Cheese in words: its cards ("2".."20", Veto, Big Cheese) and its
   rolls, as the events (words.js) and the table (table-bigcheese.js) say
   them. Apart from the table's drawing so that the replay's moves and the
   unit tests of the event texts need no table. */

import { t } from './i18n.js';

/** A Big Cheese card ("2".."20", "V", "BC") in words. */
export function bcName(c) {
  if (c === 'V') return t('bc.veto');
  if (c === 'BC') return t('bc.cheese');
  return String(c);
}

/** A Big Cheese roll of an event ({card, roll: {mode, dice, payout}}) in words. */
export function rollWords(ev) {
  const r = ev.roll || {};
  const dice = r.dice || [];
  const value = Number(ev.card) || 0;
  return t('roll.' + (r.mode || 'polyhedral'), {
    sides: value,
    value,
    d: dice[0],
    dice: dice.join(' · '),
    best: dice[dice.length - 1],
    half: Math.floor(value / 2),
    sum: Math.floor((r.payout || 0) / 2),
    pay: r.payout,
  });
}

/** Big Cheese event kinds that show dice or a payout. */
export const ROLL_KINDS = ['hire', 'roll', 'payout', 'payout-ignored', 'keep', 'keep-ignored', 'reroll'];
