// The order in which http/fair-turns.ts hands waiting requests to the app, turn by turn (the
// turns run by hand, the answer budget on a fake clock): addresses that were served large
// answers wait behind a caller of small ones, however many of them are waiting.
import t from 'tap';
import { createFairTurns } from '../../src/http/fair-turns.js';
import { fakeClock } from '../helpers/fake-clock.js';

const PAGE = 936 * 1024;

function turnsByHand() {
  const clock = fakeClock();
  const due: (() => void)[] = [];
  const started: string[] = [];
  const turns = createFairTurns<{ holder: string }>({ clock, start: (line) => started.push(line.holder), defer: (turn) => due.push(turn) });
  /** Runs the turns due (one request each), moving the clock past the budget's debt. */
  const run = (n: number) => {
    for (let i = 0; i < n; i++) {
      clock.advance(1000);
      due.shift()?.();
    }
  };
  return { turns, started, run };
}

t.test('a newcomer asking small answers goes before addresses that were served pages', async (t) => {
  const { turns, started, run } = turnsByHand();
  const busy = Array.from({ length: 20 }, (_, i) => ({ holder: `10.0.0.${i + 1}` }));
  for (const line of busy) turns.ready(line);
  run(busy.length);
  t.equal(started.length, busy.length, 'each busy address served once');
  // Each was answered a page, and asks again.
  for (const line of busy) turns.charge(line, PAGE);
  for (const line of busy) turns.ready(line);
  run(3);
  const newcomer = { holder: '10.0.1.1' };
  turns.ready(newcomer);
  run(1);
  t.equal(started.at(-1), newcomer.holder, 'the newcomer is served at the next turn');
  run(30);
  t.equal(started.length, 2 * busy.length + 1, 'the busy addresses are all served in the end');
});

t.test('one address with many connections does not starve another', async (t) => {
  const { turns, started, run } = turnsByHand();
  const many = Array.from({ length: 10 }, () => ({ holder: '10.0.0.1' }));
  for (const line of many) turns.ready(line);
  turns.ready({ holder: '10.0.0.2' });
  run(3);
  t.ok(started.slice(0, 3).includes('10.0.0.2'), `the other address is among the first served (${started.join(' ')})`);
});

t.test('an address served pages that comes back on new connections still goes after a newcomer', async (t) => {
  const { turns, started, run } = turnsByHand();
  const busy = Array.from({ length: 20 }, (_, i) => ({ holder: `10.0.0.${i + 1}` }));
  for (const line of busy) turns.ready(line);
  run(busy.length);
  for (const line of busy) turns.charge(line, PAGE);
  // Their connections closed; another address is served pages meanwhile, until their shares are spent...
  const other = { holder: '10.0.2.1' };
  for (let i = 0; i < 3; i++) {
    turns.ready(other);
    run(1);
    turns.charge(other, PAGE);
  }
  // ... then they come back, each on a new connection, as a newcomer asks.
  for (let i = 0; i < busy.length; i++) turns.ready({ holder: `10.0.0.${i + 1}` });
  const newcomer = { holder: '10.0.1.1' };
  turns.ready(newcomer);
  run(2);
  t.ok(started.slice(-2).includes(newcomer.holder), `the newcomer is among the next two served (${started.slice(-2).join(' ')})`);
});

t.test('among addresses never served, one asking on one connection goes before those asking on many', async (t) => {
  const { turns, started, run } = turnsByHand();
  for (let a = 1; a <= 20; a++) for (let c = 0; c < 7; c++) turns.ready({ holder: `10.0.0.${a}` });
  turns.ready({ holder: '10.0.1.1' });
  run(1);
  t.same(started, ['10.0.1.1'], 'the caller on one connection is served first');
});
