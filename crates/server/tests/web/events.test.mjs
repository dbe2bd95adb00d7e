// Unit tests of the game events in words (web/words.js, eventText) for
// both games in English, Italian and French: one example of every event
// kind (as the server sends them, the examples of each game's
// `GameEvent::examples`), each put in words with its seats by name, its
// cards and rolls in words, no placeholder left; a few texts checked word
// for word, plural forms included. Also the bots' names in the lobby,
// whose level is counted from the ladder, never written in a text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addTexts, useLang } from '../../web/i18n.js';
import { eventText, actionWords } from '../../web/words.js';
import { botLevel, botName, winnersWords } from '../../web/names.js';

const LANGS = ['en', 'it', 'fr'];
const TEXTS = {};
for (const l of LANGS) {
  TEXTS[l] = (await import(`../../web/i18n-${l}.js`)).default;
  addTexts(l, TEXTS[l]);
}

const SEATS = [
  { seat: 'P1', kind: 'human', name: 'Ann' },
  { seat: 'P2', kind: 'human', name: 'Bo' },
  { seat: 'P3', kind: 'bot', bot: 'search' },
  { seat: 'P4', kind: 'human', name: 'Cy' },
  { seat: 'P5', kind: 'human', name: 'Di' },
  { seat: 'P6', kind: 'human', name: 'Ed' },
];
const roll = { mode: 'd6', dice: [5], payout: 60 };

const EXAMPLES = {
  bigcheese: [
    { kind: 'shuffled', cards: 36, top: '8', leader: 'P2' },
    { kind: 'auction', card: '8', leader: 'P1' },
    { kind: 'reshuffled', cards: 12 },
    { kind: 'stuck' },
    { kind: 'nothing-to-reveal' },
    { kind: 'to-hand', owner: 'P1', card: 'V' },
    { kind: 'hire', owner: 'P1', chips: 2, hired: 2, total: 4 },
    { kind: 'roll', owner: 'P1', card: '12', roll },
    { kind: 'payout', owner: 'P1', card: '12', roll, amount: 60, total: 72 },
    { kind: 'payout-ignored', owner: 'P1', card: '12', roll, amount: 60, target: 30 },
    { kind: 'keep', owner: 'P1', card: '12', new_roll: false, amount: 60, total: 72 },
    { kind: 'keep-ignored', owner: 'P1', card: '12', new_roll: true, amount: 60, target: 30 },
    { kind: 'reroll', owner: 'P1', card: '12', rerolled: [2], roll },
    { kind: 'bid', seat: 'P2', amount: 3 },
    { kind: 'pass', seat: 'P2' },
    { kind: 'all-pass', card: '20' },
    { kind: 'veto', seat: 'P2', card: '20' },
    { kind: 'take', seat: 'P2', card: '4', chips: 3 },
    { kind: 'tie-broken', tied: ['P1', 'P2'], score: 41, face: 2, winner: 'P2' },
    { kind: 'win', winners: ['P1', 'P2'], score: 41 },
  ],
  dalmuti: [
    { kind: 'role', seat: 'P1', role: 'greater-dalmuti' },
    { kind: 'seating-draw', draws: [{ seat: 'P1', card: '5' }, { seat: 'P2', card: 'J' }] },
    { kind: 'seating-redraw', draws: [{ seat: 'P1', card: '5' }, { seat: 'P2', card: 'J' }] },
    { kind: 'joins', seat: 'P6' },
    { kind: 'sits', seat: 'P6', place: 3, role: 'merchant' },
    { kind: 'deal', number: 1, cards: 80 },
    { kind: 'dealt', seat: 'P1', hand: '1 3 3 12 J' },
    { kind: 'revolution-pending' },
    { kind: 'both-jesters', seat: 'P3' },
    { kind: 'no-taxes' },
    { kind: 'tax-paid', from: 'P5', to: 'P1', count: 2 },
    { kind: 'tax-returned', from: 'P2', to: 'P4', count: 1 },
    { kind: 'you-give', from: 'P1', to: 'P5', cards: '3 12' },
    { kind: 'you-get', from: 'P5', to: 'P1', cards: '3 12' },
    { kind: 'leads', seat: 'P1' },
    { kind: 'play', seat: 'P2', play: '2x7+J' },
    { kind: 'pass', seat: 'P3' },
    { kind: 'out', seat: 'P2', place: 1, points: 4 },
    { kind: 'last', seat: 'P4' },
    { kind: 'greater-peon-rises', peon: 'P5', dalmuti: 'P1' },
    { kind: 'lesser-peon-rises', peon: 'P4', dalmuti: 'P2' },
    { kind: 'elected', seat: 'P5' },
    { kind: 'hand-over', number: 1, order: ['P2', 'P1', 'P3'], scores: [1, 2, 0] },
    { kind: 'session-over', hands: 20, winners: ['P2'], points: 31 },
    { kind: 'first-out', seat: 'P2' },
    { kind: 'tax-chosen', seat: 'P1' },
    { kind: 'will-give', seat: 'P1', cards: '3 12', role: 'greater-peon' },
    { kind: 'market-return', from: 'P4', to: 'P3' },
    { kind: 'great-revolution', seat: 'P5' },
    { kind: 'revolution', seat: 'P3' },
    { kind: 'declined', seat: 'P3' },
    { kind: 'no-revolution' },
    { kind: 'market-trade', seat: 'P3', partner: 'P4' },
    { kind: 'black-market', seat: 'P3', partner: 'P4' },
    { kind: 'black-market-draw', seat: 'P3', other: 'P4', lost: '7', got: '11' },
    { kind: 'no-trade', seat: 'P3' },
    { kind: 'seats-newcomer', seat: 'P1', side: 'above' },
  ],
};

/** The seats the fields of `ev` that its template `tpl` puts in words name, and the words each must be said by. */
const named = (ev, tpl) =>
  [...JSON.stringify(tpl).matchAll(/\{(\w+)\}/g)]
    .map((m) => ev[m[1]])
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .flatMap((v) => (v && typeof v === 'object' ? [v.seat] : [v]))
    .filter((v) => typeof v === 'string' && /^P\d$/.test(v))
    .map((s) => SEATS.find((x) => x.seat === s))
    .map((s) => (s.kind === 'bot' ? '🤖 ' + s.seat : s.name));

for (const game of Object.keys(EXAMPLES)) {
  test(`${game}: every event kind has an example here`, () => {
    const kinds = Object.keys(TEXTS.en).filter((k) => k.startsWith(`ev.${game}.`)).map((k) => k.slice(`ev.${game}.`.length));
    assert.deepEqual(EXAMPLES[game].map((e) => e.kind).sort(), kinds.sort());
  });
  for (const l of LANGS) {
    test(`${game}, ${l}: every event in words, its seats by name, no placeholder left`, () => {
      useLang(l);
      for (const ev of EXAMPLES[game]) {
        const text = eventText(game, ev, SEATS);
        assert.ok(text.length > 5, `${ev.kind}: ${text}`);
        assert.doesNotMatch(text, /[{}]|undefined|NaN|\[object|\bnull\b/, `${ev.kind}: ${text}`);
        for (const who of named(ev, TEXTS[l][`ev.${game}.${ev.kind}`])) {
          assert.ok(text.includes(who), `${ev.kind} names ${who}: ${text}`);
        }
      }
    });
  }
}

const say = (l, game, ev) => {
  useLang(l);
  return eventText(game, ev, SEATS);
};

test('The Big Cheese word for word: plural forms, cards and rolls in words', () => {
  assert.equal(say('en', 'bigcheese', { kind: 'take', seat: 'P2', card: '4', chips: 3 }), 'Bo takes 4 for 3 chips.');
  assert.equal(say('en', 'bigcheese', { kind: 'take', seat: 'P3', card: 'BC', chips: 1 }), '🤖 P3 takes Big Cheese for 1 chip.');
  const payout = { kind: 'payout', owner: 'P1', card: '12', roll, amount: 60, total: 72 };
  assert.equal(say('en', 'bigcheese', payout), "Ann's 12 matures: the d6 rolls 5: 5 × 12 = 60; Ann scores 60 (total 72).");
  assert.equal(say('en', 'bigcheese', { kind: 'win', winners: ['P1', 'P2', 'P4'], score: 41 }), 'Won by Ann, Bo and Cy with 41 points!');
  assert.equal(say('it', 'bigcheese', { kind: 'bid', seat: 'P1', amount: 3 }), 'Ann offre 3.');
  assert.equal(say('fr', 'bigcheese', { kind: 'bid', seat: 'P1', amount: 3 }), 'Ann enchérit 3.');
  assert.equal(say('en', 'bigcheese', { kind: 'brand-new', seat: 'P1' }), 'brand-new', 'an unknown kind shows as its name');
});

test('The Great Dalmuti word for word: sets, cards and lists', () => {
  assert.equal(say('en', 'dalmuti', { kind: 'play', seat: 'P2', play: '2x7+J' }), 'Bo plays 2 × 7 Seamstress + 1 × Jester.');
  assert.equal(say('en', 'dalmuti', { kind: 'you-get', from: 'P5', to: 'P1', cards: '3 12' }), 'Di gives you 3 Earl Marshal, 12 Peasant.');
  const over = { kind: 'hand-over', number: 1, order: ['P2', 'P1'], scores: [1, 2] };
  assert.equal(say('en', 'dalmuti', over), 'Hand 1 is over. Finishing order: Bo, Ann. Scores: Ann 1, Bo 2.');
  assert.equal(say('en', 'dalmuti', { kind: 'tax-paid', from: 'P5', to: 'P1', count: 1 }), 'Di pays 1 card of tax to Ann.');
  assert.equal(say('fr', 'dalmuti', { kind: 'tax-paid', from: 'P5', to: 'P1', count: 0 }).includes('0 carte '), true, 'French: 0 is singular');
});

test('actions in words in each language', () => {
  useLang('en');
  assert.equal(actionWords('bid 3'), 'bids 3');
  assert.equal(actionWords('P2 play 2x7+J'), 'P2: plays 2 × 7 Seamstress + 1 × Jester');
  assert.equal(actionWords('frobnicate'), 'frobnicate');
  for (const l of LANGS) {
    useLang(l);
    for (const a of ['pass', 'veto', 'keep', 'reroll', 'reroll 2,5', 'give 3 12', 'revolution', 'no-market', 'seat-new above']) {
      assert.doesNotMatch(actionWords(a), /[{}]|undefined/, `${l}: ${a}`);
    }
  }
});

test('a bot level is counted from the ladder, in every language; no text holds a level number', () => {
  const ladder = ['random', 'heuristic', 'strong', 'learned', 'search'];
  useLang('en');
  assert.equal(botName('search', ladder), 'bot level 5: search (expert)');
  assert.equal(botName('search', ['random', 'search']), 'bot level 2: search (casual)', 'a shorter ladder renumbers');
  assert.equal(botName('random', ladder), 'bot level 1: random (beginner)');
  assert.equal(botName('search'), 'search', 'before the ladder came: the description alone');
  assert.equal(botName('pyrandom', ladder), 'bot program: pyrandom');
  // Dalmuti's measured order puts the network below `strong`: the word
  // follows the level, not the bot
  const dalmuti = ['random', 'heuristic', 'learned', 'strong', 'search'];
  assert.equal(botName('learned', dalmuti), 'bot level 3: trained network (good)');
  assert.equal(botName('strong', dalmuti), 'bot level 4: strong heuristic (advanced)');
  assert.equal(botLevel('strong', 4), 'advanced bot');
  assert.equal(botLevel('strong'), 'strong heuristic', 'no level: the description');
  assert.equal(botLevel('pyrandom'), 'bot program pyrandom');
  useLang('it');
  assert.equal(botName('strong', ladder), 'bot livello 3: euristico forte (bravo)');
  useLang('fr');
  assert.equal(botName('learned', ladder), 'bot niveau 4 : réseau entraîné (avancé)');
  for (const l of LANGS) {
    for (const [k, v] of Object.entries(TEXTS[l])) {
      if (k.startsWith('bot.') || k.startsWith('tier.') || k.startsWith('botTier.')) assert.doesNotMatch(String(v), /\d/, `${l}: ${k} names a number`);
    }
    for (let n = 1; n <= 5; n++) assert.ok(TEXTS[l]['tier.' + n] && TEXTS[l]['botTier.' + n], `${l}: level ${n} has its words`);
  }
});

test('a winner whose person conceded is said to have won through the bot that played on, in every language', () => {
  const seats = [
    { seat: 'P1', kind: 'human', name: 'Ann', conceded: true },
    { seat: 'P2', kind: 'human', name: 'Bo' },
  ];
  const name = (s) => seats.find((x) => x.seat === s).name;
  const said = { en: 'who conceded', it: 'ha abbandonato', fr: 'a abandonné' };
  for (const l of LANGS) {
    useLang(l);
    const both = winnersWords(['P1', 'P2'], seats, name);
    assert.ok(both.startsWith('Ann, '), `${l}: ${both}`);
    assert.ok(both.includes(said[l]), `${l}: ${both}`);
    assert.ok(both.endsWith(' & Bo'), `${l}: Bo did not concede: ${both}`);
    assert.equal(winnersWords(['P2'], seats, name), 'Bo', l);
  }
  useLang('en');
});

test('French says "enchérir" for a bid everywhere, as its rulebook does, and names the game in French', () => {
  const fr = TEXTS.fr;
  const texts = Object.entries(fr)
    .filter(([k]) => k.startsWith('bc.') || k.startsWith('act.') || k.startsWith('ev.bigcheese'))
    .flatMap(([, v]) => (typeof v === 'object' && !Array.isArray(v) ? Object.values(v) : [v]))
    .filter((v) => typeof v === 'string');
  const mise = texts.filter((v) => /\bmis(e|ez|er)\b/.test(v));
  assert.deepEqual(mise, [], 'no "mise" beside "enchérit"');
  assert.ok(texts.some((v) => /enchéri/.test(v)));
  assert.match(fr['game.bigcheese'], /Fromage/);
});
