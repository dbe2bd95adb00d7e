/* The table page's state, owned by one object: what the server said (the
   state, its log, the table's facts), what the player is doing (the cards
   and dice picked, the bid, the cursor in the hand, an action on its way)
   and the page's own moments (the turn timer's start, a stand-in's note,
   the concede question, where focus was last).

   Its fields are private and read through getters; they change only by
   the named transitions below, each one thing that happened (a whole
   state came, an update, an action sent, a card picked...). A transition
   does no IO: it returns what the page must do about it (ask for a
   resync, restart the connection, say who conceded), and the page
   (table.js) sends, draws and announces. So the unit tests drive it
   message by message, with their own clock. The queries (legal(),
   myTurn(), waiting()...) are what both games' drawing reads. */

import { applyPatch } from './patch.js';
import { seatId } from './names.js';

/** How long typed digits run together into one rank ("1" "0" is 10), in ms. */
const TYPE_AHEAD_MS = 900;

export class TableState {
  #id;
  #game = null;
  #info = null;
  #fillAt = 0;
  #st = null;
  #log = [];
  #seen = 0;
  #updates = 0;
  #resyncing = false;
  #pending = false;
  #held = false;
  #msg = '';
  #locked = false;
  #hand = '';
  #sel = [];
  #cursor = 0;
  #ahead = '';
  #aheadAt = 0;
  #bid = null;
  #dsel = [];
  #dkey = '';
  #turnAt = 0;
  #leftAtWhole = null;
  #standIn = null;
  #confirmConcede = false;
  #passAskedAt = -1;
  #autoPassedAt = -1;
  #inMine = false;
  #said = [];
  #notes = [];
  #conn = null;

  constructor(id) {
    this.#id = id;
  }

  /* ---------- fields, read only ---------- */

  /** The table's id. */
  get id() {
    return this.#id;
  }
  /** The game's name ('bigcheese', 'dalmuti'); null until the table's facts come. */
  get game() {
    return this.#game;
  }
  /** The table's facts (GET /api/tables/{id}): its game, turn timer, whether it is public... */
  get info() {
    return this.#info;
  }
  /** When the creator may give a free seat to a bot (ms since the epoch). */
  get fillAt() {
    return this.#fillAt;
  }
  /** The state shown: the last `state` message with the `update`s after it applied. */
  get st() {
    return this.#st;
  }
  /** The events this page has seen, in order. */
  get log() {
    return this.#log;
  }
  /** How many of them were there before the last state (the rest are new). */
  get seen() {
    return this.#seen;
  }
  /** How many updates were applied (a test reads it). */
  get updates() {
    return this.#updates;
  }
  /** An action is on its way: controls wait for its answer. */
  get pending() {
    return this.#pending;
  }
  /** The server holds the player's decision a moment (a D7 notice). */
  get held() {
    return this.#held;
  }
  /** The message shown to the player (an error, a notice). */
  get msg() {
    return this.#msg;
  }
  /** A private table this browser has no key for: nothing to show but whose it is. */
  get locked() {
    return this.#locked;
  }
  /** The indexes of the cards picked in the hand. */
  get sel() {
    return this.#sel;
  }
  /** The index of the card under the hand's cursor. */
  get cursor() {
    return this.#cursor;
  }
  /** The bid shown in the bid control; null until drawn for a decision. */
  get bid() {
    return this.#bid;
  }
  /** The indexes of the dice picked for a re-roll. */
  get dsel() {
    return this.#dsel;
  }
  /** When the decision shown began (the turn timer counts from it). */
  get turnAt() {
    return this.#turnAt;
  }
  /** A stand-in's move for a person: {text, at}, or null. */
  get standIn() {
    return this.#standIn;
  }
  /** The concede question is asked (its Yes and No shown). */
  /** Whether the page is about to pass for the player at the position shown. */
  get autoPassing() {
    return !!this.#st && this.#autoPassedAt === this.#st.seq && !this.#pending;
  }
  /** Whether "really pass?" is asked at the position shown. */
  get passAsked() {
    return !!this.#st && this.#passAskedAt === this.#st.seq;
  }
  get confirmConcede() {
    return this.#confirmConcede;
  }
  /** Focus was last in the player's own area. */
  get inMine() {
    return this.#inMine;
  }
  /** What the live region said, the last 20 (a test reads it). */
  /**
   * What the table noted beside the game's events (a stand-in's move for a
   * person out of time or away, a concession): {after, text}, `after`
   * being the number of events before it. Kept for this page only.
   */
  get notes() {
    return this.#notes;
  }
  get said() {
    return this.#said;
  }
  /** The table's connection (connection.js), once the page made it. */
  get conn() {
    return this.#conn;
  }

  /* ---------- queries ---------- */

  /** The public part of the view (the whole view of a spectator). */
  pv() {
    const v = this.#st && this.#st.view;
    return (v && v.public) || v || {};
  }
  /** The actions this page may send now. */
  legal() {
    return (this.#st && this.#st.legal) || [];
  }
  has(action) {
    return this.legal().includes(action);
  }
  /** This page's seat ("P2"), or null for a spectator. */
  me() {
    return this.#st ? this.#st.seat : null;
  }
  isMe(id) {
    return this.me() != null && seatId(this.me()) === seatId(id);
  }
  /** The human seats nobody has taken yet. */
  freeSeats() {
    return ((this.#st && this.#st.seats) || []).filter((s) => s.kind === 'human' && !s.taken);
  }
  /** Before the game starts: a human seat is still free. */
  waiting() {
    const st = this.#st;
    return !!st && !st.over && !st.started && this.freeSeats().length > 0;
  }
  /** Whether this page's player has a decision to make now. */
  myTurn() {
    return !!this.#st && !this.#st.over && this.legal().length > 0;
  }
  /** Whether seat `id` is to move. */
  toMove(id) {
    const st = this.#st;
    return st.started !== false && !st.over && st.to_move != null && seatId(st.to_move) === seatId(id);
  }
  /** The table's seat entry (kind, bot, taken, connected) for a seat id. */
  seatInfo(id) {
    return ((this.#st && this.#st.seats) || []).find((x) => seatId(x.seat) === seatId(id));
  }
  /** Whether the seat's person conceded (a bot plays it now). */
  hasConceded(id) {
    return !!(id != null && this.#st && (this.seatInfo(id) || {}).conceded);
  }
  /** The game's outcome (scores, places, winners), once over. */
  outcome() {
    return this.#st.outcome || this.pv().outcome || { winners: [], places: [], scores: [] };
  }

  /* ---------- transitions: the server ---------- */

  /** The page made its connection. */
  attach(conn) {
    this.#conn = conn;
  }

  /** The table's facts came: its game, its turn timer, when a free seat may go to a bot. */
  facts(info, now) {
    this.#info = info;
    this.#game = info.game;
    this.#fillAt = now + (info.fill_in_s || 0) * 1000;
    const w = this.#leftAtWhole;
    if (w && info.turn_timer_ms) this.#turnAt = w.at - (info.turn_timer_ms - w.left);
  }

  /**
   * A whole state came (the answer to hello or resync): updates apply to it
   * again. After a reload mid-turn the turn timer goes on from what the
   * server says is left. Returns what take() returns.
   */
  whole(m, now) {
    this.#resyncing = false;
    const done = this.take(m, now);
    if (m.turn_left_ms != null && this.#info && this.#info.turn_timer_ms) {
      this.#turnAt = now - (this.#info.turn_timer_ms - m.turn_left_ms);
    } else if (m.turn_left_ms != null) this.#leftAtWhole = { left: m.turn_left_ms, at: now };
    return done;
  }

  /**
   * An update came: its patch applied to the view shown, its small fields
   * taken whole. One missed (its `rev` is not the next) or one that does
   * not apply: returns {resync: true} once, and updates are ignored (null)
   * until the whole state comes. Else returns what take() returns.
   */
  update(m, now) {
    if (this.#resyncing) return null;
    let view;
    try {
      if (!this.#st || m.rev !== this.#st.rev + 1) throw new Error('missed an update');
      view = applyPatch(this.#st.view, m.patch);
    } catch (e) {
      this.#resyncing = true;
      return { resync: true };
    }
    const st = Object.assign({}, this.#st, {
      view,
      rev: m.rev,
      seq: m.seq,
      legal: m.legal,
      to_move: m.to_move,
      log_from: m.log_from,
      log: m.log,
      over: m.over,
      started: m.started,
      abandoned: !!m.abandoned,
      outcome: m.outcome === undefined ? null : m.outcome,
      seed: m.seed === undefined ? null : m.seed,
      secret: m.secret,
    });
    if (m.seats) st.seats = m.seats;
    this.#updates++;
    return this.take(st, now);
  }

  /**
   * A new state to show. Its events join the log (a gap in them: `gap`,
   * the page asks for the whole log again). A new decision (another seq)
   * starts the turn timer again, the bid control at the lowest bid, and
   * typed digits afresh. A new hand drops the cards picked, and so does
   * the answer to the player's own action: a gift that brings the same
   * ranks back leaves the hand as it was, and the cards picked for it
   * must not stay picked for the next decision. Returns
   * {gap, decision, moved, conceded}: `moved` a new decision after an
   * earlier one (the page's message goes), `conceded` the seats whose
   * person conceded since the last state (none on the first).
   */
  take(m, now) {
    const gap = !this.#mergeLog(m);
    const moved = !!this.#st && m.seq !== this.#st.seq;
    const decision = !this.#st || moved;
    if (decision) {
      this.#turnAt = now;
      this.#bid = null;
      this.#aheadAt = 0;
    }
    const answered = this.#pending && moved;
    const conceded = this.#st
      ? (m.seats || []).filter((s) => s.conceded && !this.hasConceded(s.seat)).map((s) => s.seat)
      : [];
    this.#st = m;
    this.#pending = false;
    this.#held = false;
    const hand = (m.view && m.view.hand) || '';
    if (hand !== this.#hand || answered) this.#sel = [];
    this.#hand = hand;
    return { gap, decision, moved, conceded };
  }

  /** Adds the state's new events to the log; false when some are missing before them. */
  #mergeLog(m) {
    const from = m.log_from || 0;
    if (from > this.#log.length) return false;
    this.#seen = this.#log.length;
    this.#log = this.#log.slice(0, from).concat(m.log || []);
    return true;
  }

  /** Who is connected changed (a `presence` message). */
  presence(seats) {
    if (this.#st) this.#st.seats = seats;
  }

  /** A position to draw as a spectator sees it (the replay's), with its game. */
  show(st, game) {
    this.#game = game;
    this.#st = st;
    this.#log = st.log || [];
  }

  /* ---------- transitions: the player's actions and their answers ---------- */

  /** An action was sent: controls wait for its answer. */
  sending() {
    this.#pending = true;
    this.#msg = '';
  }
  /** The answer did not come in time: the controls are given back. */
  gaveUp() {
    this.#pending = false;
  }
  /** The server refused something (an `error` message): the controls are given back. */
  refused() {
    this.#pending = false;
  }
  /** A `notice` came: a decision held a moment (D7), or a word from the server. */
  noticed(m) {
    this.#pending = false;
    this.#held = m.code === 'held';
    this.#msg = m.message || '';
  }
  /** The page's message, set (or cleared with ''). */
  say(text) {
    this.#msg = text || '';
  }
  /** A private table refused this browser (no key): nothing more to show. */
  lock() {
    this.#locked = true;
  }

  /* ---------- transitions: the hand, the bid, the dice ---------- */

  /** Drops every card picked. */
  clearCards() {
    this.#sel = [];
  }
  /** Picks card `i` of the hand, or unpicks it; the cursor goes there. */
  toggleCard(i) {
    const k = this.#sel.indexOf(i);
    if (k >= 0) this.#sel.splice(k, 1);
    else this.#sel.push(i);
    this.#cursor = i;
  }
  /** Moves the hand's cursor to `i` of `n` cards, round the ends; returns where it is. */
  moveCursor(i, n) {
    this.#cursor = n ? (i + n) % n : 0;
    return this.#cursor;
  }
  /** Keeps the cursor on one of `n` cards; returns where it is. */
  cursorWithin(n) {
    this.#cursor = Math.max(0, Math.min(this.#cursor, n - 1));
    return this.#cursor;
  }
  /** A rank's digit or J typed in the hand: returns the rank typed so far ("1", then "10"). */
  typeAhead(key, now) {
    this.#ahead = (now - this.#aheadAt < TYPE_AHEAD_MS ? this.#ahead : '') + key.toUpperCase();
    this.#aheadAt = now;
    return this.#ahead;
  }
  /** Any other key: the next digit starts a new rank. */
  endTypeAhead() {
    this.#aheadAt = 0;
  }

  /** The bid control within the legal bids lo..hi: it starts at lo. Returns the bid. */
  bidWithin(lo, hi) {
    if (this.#bid == null || this.#bid < lo || this.#bid > hi) this.#bid = lo;
    return this.#bid;
  }
  /** The bid typed or stepped to; kept within lo..hi when they are given. */
  bidTo(v, lo, hi) {
    this.#bid = lo == null ? v : Math.max(lo, Math.min(hi, v));
  }

  /** The roll shown, by its key: a new roll drops the dice picked for the last one. */
  diceFor(key) {
    if (this.#dkey !== key) {
      this.#dkey = key;
      this.#dsel = [];
    }
  }
  /** Picks die `i` for a re-roll, or unpicks it. */
  toggleDie(i) {
    const k = this.#dsel.indexOf(i);
    if (k >= 0) this.#dsel.splice(k, 1);
    else this.#dsel.push(i);
  }

  /* ---------- transitions: the page's moments ---------- */

  /** A stand-in bot moved for a person: the banner says so for a few seconds. */
  stoodIn(text, now) {
    this.#standIn = { text, at: now };
  }
  /** "Really pass?" asked (true) at the position shown, or put away (false). */
  askPass(on) {
    this.#passAskedAt = on && this.#st ? this.#st.seq : -1;
  }
  /** Whether the page may pass for the player at the position shown: once. */
  autoPassNow() {
    if (!this.#st || this.#autoPassedAt === this.#st.seq) return false;
    this.#autoPassedAt = this.#st.seq;
    return true;
  }
  /** The concede question asked (true) or put away (false). */
  confirming(on) {
    this.#confirmConcede = on;
  }
  /** Focus (or a click) went into the player's own area (true) or elsewhere (false). */
  focusIn(inMine) {
    this.#inMine = inMine;
  }
  /** A note for the log, after the events so far (the last 50 kept). */
  noted(text) {
    this.#notes = this.#notes.concat({ after: this.#log.length, text }).slice(-50);
  }
  /** The live region said `text`. */
  announced(text) {
    this.#said = this.#said.concat(text).slice(-20);
  }
}
