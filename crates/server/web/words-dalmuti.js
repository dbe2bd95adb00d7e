/* The Great Dalmuti in words: its ranks (by their rulebook names), roles,
   sets ("2x7+J") and cards, as the events (words.js), the replay and the
   table (table-dalmuti.js) say them. Apart from the table's drawing so
   that the replay's moves and the unit tests of the event texts need no
   table. */

import { t, tv } from './i18n.js';

/** A Dalmuti rank (1..12, 13 or "J" = Jester) as its rulebook name. */
export function rankName(r) {
  const i = r === 'J' ? 13 : Number(r);
  return (tv('dal.ranks') || [])[i] || String(r);
}

/** A role ('greater-dalmuti', ...) in words, and its icon. */
export const roleName = (role) => t('role.' + role);
const ICONS = {
  'greater-dalmuti': '👑',
  'lesser-dalmuti': '🎩',
  merchant: '⚖️',
  'lesser-peon': '🧢',
  'greater-peon': '👒',
};
export const roleIcon = (role) => ICONS[role] || '';

const SET = /^(?:(\d+)x)?(\d+|J)(?:\+(\d*)J)?$/;

/** A set in notation ("3x7", "2x7+J", "J", "2xJ", "7") as its cards: ["7", "7", "J"]; [] if it is none. */
export function setCards(set) {
  const m = String(set).match(SET);
  if (!m) return [];
  const n = m[1] ? Number(m[1]) : 1;
  const j = m[3] !== undefined ? Number(m[3] || 1) : 0;
  return Array(n).fill(m[2]).concat(Array(j).fill('J'));
}

/** A set in notation as words: "3 × 7 Seamstress", "2 × 7 Seamstress + 1 × Jester". */
export function setWords(set) {
  const m = String(set).match(SET);
  if (!m) return set;
  const n = m[1] ? Number(m[1]) : 1;
  const rank = m[2];
  const j = m[3] !== undefined ? Number(m[3] || 1) : 0;
  let s = n + ' × ' + (rank === 'J' ? rankName(13) : rank + ' ' + rankName(rank));
  if (j) s += ' + ' + j + ' × ' + rankName(13);
  return s;
}

/** Cards "3 12" / "J" as words: "3 Archbishop, 12 Peasant". */
export const cardsWords = (txt) =>
  String(txt)
    .split(/\s+/)
    .filter(Boolean)
    .map((c) => (c === 'J' ? rankName(13) : c + ' ' + rankName(c)))
    .join(', ');
