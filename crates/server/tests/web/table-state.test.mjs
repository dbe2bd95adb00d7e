// Unit tests of the table page's state (web/table-state.js): message by
// message, with a clock of the test's own, what each transition changes
// and what it asks the page to do (a resync, a restart, who conceded).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TableState } from '../../web/table-state.js';

const seats = (extra = {}) => [
  { seat: 'P1', kind: 'human', taken: true, connected: true, name: 'Ann', ...extra },
  { seat: 'P2', kind: 'bot', bot: 'heuristic', taken: true },
];
/** A whole state as the server sends it after hello. */
const whole = (over = {}) => ({
  type: 'state',
  rev: 1,
  seq: 4,
  seat: 'P1',
  started: true,
  over: false,
  to_move: 'P1',
  legal: ['pass', 'bid 2', 'bid 3'],
  view: { public: { seats: [{ score: 0 }, { score: 0 }] }, hand: '3 7' },
  seats: seats(),
  log: [{ kind: 'auction' }, { kind: 'bid', seat: 'P2', amount: 1 }],
  log_from: 0,
  seed_hash: 'ab',
  ...over,
});
/** An update after `st`: the next rev, a patch, the small fields. */
const update = (st, over = {}) => ({
  type: 'update',
  rev: st.rev + 1,
  seq: st.seq + 1,
  patch: [{ op: 'replace', path: '/public/seats/1/score', value: 5 }],
  legal: [],
  to_move: 'P2',
  started: true,
  over: false,
  log: [{ kind: 'pass', seat: 'P1' }],
  log_from: st.log.length,
  ...over,
});

test('a whole state is shown, its log taken, a decision started', () => {
  const s = new TableState('abc');
  const done = s.whole(whole(), 1000);
  assert.deepEqual(done, { gap: false, decision: true, moved: false, conceded: [] });
  assert.equal(s.st.seq, 4);
  assert.equal(s.log.length, 2);
  assert.equal(s.turnAt, 1000);
  assert.equal(s.me(), 'P1');
  assert.ok(s.myTurn() && s.has('bid 2') && !s.has('veto'));
  assert.ok(s.isMe('P1') && s.isMe(0) && !s.isMe('P2'));
  assert.ok(s.toMove('P1') && !s.toMove('P2'));
  assert.deepEqual(s.pv(), { seats: [{ score: 0 }, { score: 0 }] });
});

test('an update applies its patch and small fields; its events join the log', () => {
  const s = new TableState('abc');
  s.whole(whole(), 1000);
  const done = s.update(update(s.st), 2000);
  assert.deepEqual(done, { gap: false, decision: true, moved: true, conceded: [] });
  assert.equal(s.st.view.public.seats[1].score, 5);
  assert.equal(s.st.rev, 2);
  assert.equal(s.st.seq, 5);
  assert.equal(s.st.to_move, 'P2');
  assert.equal(s.st.outcome, null);
  assert.equal(s.st.seat, 'P1', 'what an update does not carry is kept');
  assert.deepEqual(s.log.map((e) => e.kind), ['auction', 'bid', 'pass']);
  assert.equal(s.seen, 2, 'the events before it are not new');
  assert.equal(s.updates, 1);
  assert.equal(s.turnAt, 2000);
  assert.ok(!s.myTurn());
});

test('a missed update asks for a resync once; updates wait for the whole state', () => {
  const s = new TableState('abc');
  s.whole(whole(), 0);
  const skipped = update(s.st, { rev: 3 });
  assert.deepEqual(s.update(skipped, 0), { resync: true });
  assert.equal(s.update(update(s.st), 0), null, 'ignored while the resync is on its way');
  assert.equal(s.st.rev, 1);
  s.whole(whole({ rev: 7, seq: 9 }), 0);
  assert.ok(s.update(update(s.st), 0).decision, 'after the whole state, updates apply again');
  assert.equal(s.st.rev, 8);
});

test('a patch that does not apply asks for a resync too', () => {
  const s = new TableState('abc');
  s.whole(whole(), 0);
  const bad = update(s.st, { patch: [{ op: 'remove', path: '/nowhere' }] });
  assert.deepEqual(s.update(bad, 0), { resync: true });
  assert.deepEqual(s.update(update(s.st), 0), null);
});

test('an update before any state asks for the whole state', () => {
  const s = new TableState('abc');
  assert.deepEqual(s.update(update({ rev: 0, seq: 0, log: [] }), 0), { resync: true });
});

test('events missing before the new ones: a gap, and the log is left as it was', () => {
  const s = new TableState('abc');
  s.whole(whole(), 0);
  const done = s.update(update(s.st, { log_from: 5 }), 0);
  assert.equal(done.gap, true);
  assert.equal(s.log.length, 2);
});

test('the same decision keeps the bid and the typed digits; a new one starts them again', () => {
  const s = new TableState('abc');
  s.whole(whole(), 0);
  assert.equal(s.bidWithin(2, 3), 2, 'the bid control starts at the lowest legal bid');
  s.bidTo(9, 2, 3);
  assert.equal(s.bid, 3, 'kept within the legal bids');
  s.bidTo(7);
  assert.equal(s.bid, 7, 'typed, not yet clamped');
  assert.equal(s.bidWithin(2, 3), 2, 'out of range: back to the lowest');
  s.bidTo(3, 2, 3);
  s.whole(whole({ rev: 2 }), 10);
  assert.equal(s.bid, 3, 'a state of the same decision (seq) keeps it');
  assert.equal(s.turnAt, 0, 'and its timer');
  s.whole(whole({ rev: 3, seq: 5 }), 20);
  assert.equal(s.bid, null);
  assert.equal(s.turnAt, 20);
});

test('cards picked stay until the hand changes; the cursor follows the picks', () => {
  const s = new TableState('abc');
  s.whole(whole({ view: { public: {}, hand: '3 7 7 J' } }), 0);
  s.toggleCard(1);
  s.toggleCard(2);
  assert.deepEqual(s.sel, [1, 2]);
  assert.equal(s.cursor, 2);
  s.toggleCard(1);
  assert.deepEqual(s.sel, [2]);
  s.whole(whole({ seq: 5, view: { public: {}, hand: '3 7 7 J' } }), 0);
  assert.deepEqual(s.sel, [2], 'picked ahead of the turn: kept');
  s.whole(whole({ seq: 6, view: { public: {}, hand: '3 J' } }), 0);
  assert.deepEqual(s.sel, [], 'another hand: dropped');
  assert.equal(s.moveCursor(-1, 4), 3, 'round the left end');
  assert.equal(s.moveCursor(4, 4), 0, 'round the right end');
  s.moveCursor(3, 4);
  assert.equal(s.cursorWithin(2), 1, 'kept on a shorter hand');
});

test("the answer to the player's own action drops the cards picked for it, even when the hand reads the same", () => {
  const s = new TableState('abc');
  s.whole(whole({ seq: 1, view: { public: {}, hand: '2 3 7' } }), 0);
  s.toggleCard(0);
  s.sending();
  // "give 2", and a 2 given back in tax: the same hand
  s.whole(whole({ seq: 3, view: { public: {}, hand: '2 3 7' } }), 0);
  assert.deepEqual(s.sel, [], 'the gift was made: nothing stays picked');
  s.toggleCard(2);
  s.whole(whole({ seq: 4, view: { public: {}, hand: '2 3 7' } }), 0);
  assert.deepEqual(s.sel, [2], "another seat's move: a pick ahead of the turn stays");
  s.sending();
  s.whole(whole({ seq: 4, rev: 9, view: { public: {}, hand: '2 3 7' } }), 0);
  assert.deepEqual(s.sel, [2], 'a state of the same position (no answer yet) keeps it');
});

test('digits typed within a moment run into one rank; any other key starts afresh', () => {
  const s = new TableState('abc');
  assert.equal(s.typeAhead('1', 1000), '1');
  assert.equal(s.typeAhead('0', 1500), '10');
  assert.equal(s.typeAhead('2', 3000), '2', 'too late: a new rank');
  s.endTypeAhead();
  assert.equal(s.typeAhead('j', 3100), 'J');
  s.whole(whole(), 3200);
  assert.equal(s.typeAhead('1', 3300), '1', 'a new decision starts afresh');
});

test('dice picked for a re-roll belong to one roll', () => {
  const s = new TableState('abc');
  s.diceFor('r4');
  s.toggleDie(0);
  s.toggleDie(3);
  s.toggleDie(0);
  assert.deepEqual(s.dsel, [3]);
  s.diceFor('r4');
  assert.deepEqual(s.dsel, [3], 'the same roll');
  s.diceFor('r9');
  assert.deepEqual(s.dsel, [], 'a new roll');
});

test('an action on its way, and its answers: a state, a refusal, a notice, no answer', () => {
  const s = new TableState('abc');
  s.whole(whole(), 0);
  s.say('something');
  s.sending();
  assert.ok(s.pending);
  assert.equal(s.msg, '');
  s.whole(whole({ seq: 5 }), 0);
  assert.ok(!s.pending, 'a state answers it');
  s.sending();
  s.refused();
  assert.ok(!s.pending);
  s.sending();
  s.noticed({ code: 'held', message: 'wait' });
  assert.ok(!s.pending && s.held);
  assert.equal(s.msg, 'wait');
  s.whole(whole({ seq: 6 }), 0);
  assert.ok(!s.held);
  s.sending();
  s.gaveUp();
  assert.ok(!s.pending);
});

test('who conceded since the last state is said once; the first state says nobody', () => {
  const s = new TableState('abc');
  assert.deepEqual(s.whole(whole({ seats: seats({ conceded: true }) }), 0).conceded, [], 'a reload: nothing said');
  const t = new TableState('abc');
  t.whole(whole(), 0);
  assert.deepEqual(t.update(update(t.st, { seats: seats({ conceded: true }) }), 0).conceded, ['P1']);
  assert.ok(t.hasConceded('P1'));
  assert.deepEqual(t.update(update(t.st), 0).conceded, [], 'said once');
});

test('the waiting room: a free human seat before the start', () => {
  const s = new TableState('abc');
  const free = [{ seat: 'P1', kind: 'human', taken: true }, { seat: 'P2', kind: 'human', taken: false }];
  s.whole(whole({ started: false, seats: free, legal: [] }), 0);
  assert.ok(s.waiting());
  assert.deepEqual(s.freeSeats().map((x) => x.seat), ['P2']);
  assert.ok(!s.toMove('P1'), 'nobody is to move before the start');
  s.presence([{ seat: 'P1', kind: 'human', taken: true }, { seat: 'P2', kind: 'human', taken: true }]);
  assert.ok(!s.waiting(), 'presence changes the seats of the state shown');
});

test('the table facts: its game, when a seat may go to a bot, the turn timer after a reload', () => {
  const s = new TableState('abc');
  s.whole(whole({ turn_left_ms: 20000 }), 5000);
  s.facts({ game: 'dalmuti', fill_in_s: 30, turn_timer_ms: 60000 }, 6000);
  assert.equal(s.game, 'dalmuti');
  assert.equal(s.fillAt, 36000);
  assert.equal(s.turnAt, 5000 - 40000, 'the timer goes on from what was left');
  s.whole(whole({ turn_left_ms: 10000 }), 7000);
  assert.equal(s.turnAt, 7000 - 50000, 'the facts known: at once');
});

test('the page moments: a stand-in, the concede question, focus, what was said', () => {
  const s = new TableState('abc');
  s.stoodIn('⏱ Bo ran out of time', 100);
  assert.deepEqual(s.standIn, { text: '⏱ Bo ran out of time', at: 100 });
  s.confirming(true);
  assert.ok(s.confirmConcede);
  s.focusIn(true);
  assert.ok(s.inMine);
  for (let i = 0; i < 25; i++) s.announced('line ' + i);
  assert.equal(s.said.length, 20);
  assert.equal(s.said[19], 'line 24');
  s.lock();
  assert.ok(s.locked);
});

test('a replay position is shown as a spectator sees it', () => {
  const s = new TableState(null);
  s.show({ view: { seats: [] }, seat: null, legal: [], log: [{ kind: 'deal' }] }, 'dalmuti');
  assert.equal(s.game, 'dalmuti');
  assert.equal(s.me(), null);
  assert.deepEqual(s.pv(), { seats: [] }, 'a spectator’s view is the public one');
  assert.equal(s.log.length, 1);
});

test('its fields cannot be set from outside: only transitions change them', () => {
  const s = new TableState('abc');
  assert.throws(() => {
    s.pending = true;
  }, TypeError);
  assert.equal(s.pending, false);
});
