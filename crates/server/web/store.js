/* What this browser keeps (localStorage), by table: the seat and its
   token, a private table's invite key, the creator's token, the
   contribution to the fair deal and the commitment shown with it, a
   tutorial's coach, the server's key, the player's name and identity key.

   One module for every key name, so that the pages and the rematch (which
   carries a seat to the new table) agree on them, and the tests of the
   browser read the same values. The commitment and the server key keep
   the first value seen: the fairness check compares later ones with it. */

const store = () => window.localStorage;
const get = (k) => store().getItem(k);
const set = (k, v) => store().setItem(k, v);
const HEX64 = /^[0-9a-f]{64}$/;

/** 32 random bytes in hex. */
export function random32() {
  const b = new Uint8Array(32);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** This browser's seat token at table `id`. */
export const token = (id) => get('ratrace.token.' + id);
/** This browser's seat at table `id` ("P2"). */
export const mySeat = (id) => get('ratrace.seat.' + id);
export function saveSeat(id, seat, tok) {
  set('ratrace.token.' + id, tok);
  set('ratrace.seat.' + id, seat);
}
export function forgetSeat(id) {
  store().removeItem('ratrace.token.' + id);
  store().removeItem('ratrace.seat.' + id);
}

/** A tutorial's coach at table `id` (tutorial.js): the steps started and read, and whether it is hidden. */
export function coachSteps(id) {
  try {
    return JSON.parse(get('ratrace.coach.' + id) || 'null');
  } catch {
    return null;
  }
}
export const saveCoachSteps = (id, v) => set('ratrace.coach.' + id, JSON.stringify(v));

/** The name this browser last sat down with. */
export const myName = () => get('ratrace.name') || '';
export const saveName = (n) => set('ratrace.name', n);

/** A private table's invite key (from its link), kept per table. */
export const key = (id) => get('ratrace.key.' + id);
export const saveKey = (id, k) => k && set('ratrace.key.' + id, k);

/** The creator's token of a table this browser created. */
export const creator = (id) => get('ratrace.creator.' + id);
export const saveCreator = (id, c) => c && set('ratrace.creator.' + id, c);

/** The contribution this browser made to a table's fair deal. */
export const contribution = (id) => get('ratrace.contrib.' + id);
export const saveContribution = (id, c) => set('ratrace.contrib.' + id, c);

/** The commitment this browser was shown when it contributed at table `id` (the first one kept). */
export const commitment = (id) => get('ratrace.commit.' + id);
export function saveCommitment(id, c) {
  if (c && HEX64.test(c) && !commitment(id)) set('ratrace.commit.' + id, c);
}

/** The key this server signs its commitments with, as this browser first saw it (the verify page trusts it). */
export const serverKey = () => get('ratrace.serverkey');
export function saveServerKey(k) {
  if (k && HEX64.test(k) && !serverKey()) set('ratrace.serverkey', k);
}

/** This browser's identity key: 64 hex digits, made once and kept (the server keeps only its hash). */
export function identity() {
  let k = get('ratrace.identity');
  if (!HEX64.test(k || '')) {
    k = random32();
    set('ratrace.identity', k);
  }
  return k;
}
export const saveIdentity = (k) => set('ratrace.identity', k);
/** The identity key kept here, or null: never makes one. */
export const keptIdentity = () => get('ratrace.identity');

/** The table a rematch of table `from` moved this browser to. */
export const rematched = (from) => get('ratrace.rematched.' + from);
export const saveRematched = (from, to) => set('ratrace.rematched.' + from, to);

/**
 * What shows the server this browser may see a private table's game (its
 * record, replay, analysis): '?k=' its invite key, else '?t=' a seat's
 * token, else nothing.
 */
export function seeQuery(id) {
  const k = key(id);
  if (k) return '?k=' + encodeURIComponent(k);
  const tok = token(id);
  return tok ? '?t=' + encodeURIComponent(tok) : '';
}

/** The switches of the table page ('sound', 'notify', 'autoPass', 'confirmPass'). */
/** A switch of the table page: on when saved so, else its default (`autoPass` is on by default, the others off). */
const SWITCH_ON = { autoPass: true };
export const alertOn = (k) => {
  const v = get('ratrace.alert.' + k);
  return v == null ? !!SWITCH_ON[k] : v === '1';
};
export const saveAlert = (k, on) => set('ratrace.alert.' + k, on ? '1' : '0');
