/* Names in words: seats ("Ann (P2)", "🤖 P3"), games, bots and dates.

   A bot's level is counted from the ladder the server gives in /api/games
   (each game's `bots`, weakest first): no text names a level's number,
   so a new level renumbers nobody's translation. A bot program the
   operator offers (`external`) is named as a program. */

import { lang, t, tv } from './i18n.js';

/** A seat as text: "P3" from "P3" or from a 0-based number. */
export const seatId = (s) => (typeof s === 'number' ? 'P' + (s + 1) : String(s));
/**
 * Winners in words, `name(seat)` each: a seat whose person conceded won
 * only through the bot that played on, and says so ("Ann, who conceded (a
 * bot played on)"); `seats` (a state's or a summary's) marks them.
 */
export function winnersWords(winners, seats, name) {
  return winners
    .map((w) => {
      const s = find(w, seats);
      return s && s.conceded ? t('res.conceded', { who: name(w) }) : name(w);
    })
    .join(' & ');
}

/** Index 0.. of a seat written "P3". */
export const seatIndex = (s) => (typeof s === 'number' ? s : parseInt(String(s).slice(1), 10) - 1);

const find = (seat, seats) => (seats || []).find((x) => seatId(x.seat) === seatId(seat));

/** "Ann (P2)", "🤖 P3" from the `seats` list of a state or table summary. */
export function seatLabel(seat, seats) {
  const id = seatId(seat);
  const s = find(seat, seats);
  if (s && s.kind === 'bot') return '🤖 ' + id;
  if (s && s.name) return s.name + ' (' + id + ')';
  return id;
}

/** A player's name in the log: a human's display name, else the label ("🤖 P3"). */
export function seatName(seat, seats) {
  const s = find(seat, seats);
  return s && s.kind !== 'bot' && s.name ? s.name : seatLabel(seat, seats);
}

/** A game's display name. */
export const gameName = (g) => t('game.' + g);

/**
 * A bot's name in the lobby: "bot level 3: strong heuristic (good)", its
 * level being its place in `ladder` (the game's `bots` from /api/games,
 * in the order measured for that game) and the word in brackets that
 * level's; without the ladder, its description alone. A bot program the
 * server offers (`ratrace serve --bot`) is "bot program: NAME".
 */
export function botName(bot, ladder) {
  if (tv('bot.' + bot) == null) return t('bot.external', { name: bot });
  const level = (ladder || []).indexOf(bot) + 1;
  return level > 0 && tv('tier.' + level) != null
    ? t('bot.level', { n: level, bot: t('bot.' + bot), tier: t('tier.' + level) })
    : t('bot.' + bot);
}

/**
 * A bot's short tag at the table ("expert bot"): by its `level` on the
 * game's ladder (the seat's `level`); a bot without one by its
 * description, a bot program by its name.
 */
export function botLevel(b, level) {
  if (level && tv('botTier.' + level) != null) return t('botTier.' + level);
  return tv('bot.' + b) != null ? t('bot.' + b) : t('botLevel.external', { name: b });
}

/** Date from unix seconds, short. */
export const when = (s) => (s ? new Date(s * 1000).toLocaleString(lang()) : '');

/**
 * A table's rules options in words, as the lobby names them ("Payout
 * dice: best half of value-many d6 × 2"); an option or value with no
 * name as it is; the game's defaults (no option) as `none`.
 */
export function optionsWords(game, options, none) {
  const word = (key, raw) => (tv(key) == null ? raw : t(key));
  const words = Object.entries(options || {}).map(
    ([k, v]) => word('optName.' + game + '.' + k, k) + ': ' + (/^[a-z][a-z0-9_-]*$/i.test(v) ? word('val.' + v, v) : v)
  );
  return words.length ? words.join(' · ') : none || '';
}
