// The order in which src/http/flood/answer-order.ts lets waiting requests through while the
// answer pace is reached (the turns run by hand, the pace on a fake clock): the requests of
// light addresses first, oldest first, then the heavy addresses one after another. So a caller
// of small answers is served within a turn or two however many pages others asked for, and
// however many new addresses keep arriving (issue 44: a keyed caller waited behind a flood of
// one-request connections from 20 000 addresses).
import t from 'tap';
import { ANSWER_BYTES_BURST, createAnswerOrder, MAX_REMEMBERED_URL } from '../../src/http/flood/answer-order.js';
import { fakeClock } from '../helpers/fake-clock.js';

const PAGE = 936 * 1024;

function turnsByHand() {
  const clock = fakeClock();
  const due: (() => void)[] = [];
  const started: string[] = [];
  const start = (line: { holder: string }) => started.push(line.holder);
  const order = createAnswerOrder<{ holder: string; asking?: string }>({
    clock,
    start,
    defer: (turn) => due.push(turn),
  });
  /** Runs the turns due (one request each), moving the clock past the pace's debt. */
  const run = (n: number) => {
    for (let i = 0; i < n; i++) {
      clock.advance(2000);
      due.shift()?.();
    }
  };
  /** Answers of `bytes` for each address, then a request of each that waits (the pace is reached). */
  const servedThenWaiting = (holders: string[], bytes: number) => {
    for (const holder of holders) order.charge({ holder }, bytes);
    return holders.map((holder) => order.admit({ holder }));
  };
  return { clock, order, started, run, servedThenWaiting };
}

const addresses = (n: number, prefix = '10.0.0') => Array.from({ length: n }, (_, i) => `${prefix}.${i + 1}`);

t.test('nothing waits while the pace is not reached', async (t) => {
  const { order, started } = turnsByHand();
  t.equal(order.admit({ holder: '10.0.0.1' }), true, 'answered at once');
  order.charge({ holder: '10.0.0.1' }, ANSWER_BYTES_BURST - 1);
  t.equal(order.admit({ holder: '10.0.0.2' }), true, 'within the burst: at once');
  order.charge({ holder: '10.0.0.2' }, 2);
  t.equal(order.admit({ holder: '10.0.0.3' }), false, 'in debt: it waits for its turn');
  t.same(started, []);
});

t.test('a newcomer asking small answers goes before addresses that were served pages', async (t) => {
  const { order, started, run, servedThenWaiting } = turnsByHand();
  const busy = addresses(20);
  t.same(new Set(servedThenWaiting(busy, PAGE)), new Set([false]), 'each busy address waits');
  run(3);
  t.equal(order.admit({ holder: '10.0.1.1' }), false, 'the newcomer waits too (the pace is reached)');
  run(1);
  t.equal(started.at(-1), '10.0.1.1', 'the newcomer is served at the next turn');
  run(30);
  t.equal(started.length, busy.length + 1, 'the busy addresses are all served in the end');
});

t.test('one address with many connections does not starve another', async (t) => {
  const { order, started, run } = turnsByHand();
  order.charge({ holder: '10.0.0.1' }, 10 * PAGE);
  order.charge({ holder: '10.0.0.2' }, PAGE);
  for (let i = 0; i < 10; i++) order.admit({ holder: '10.0.0.1' });
  order.admit({ holder: '10.0.0.2' });
  run(3);
  const firstTwo = started.slice(0, 2);
  t.ok(firstTwo.includes('10.0.0.2'), `the other address is among the first two served (${firstTwo.join(' ')})`);
});

t.test('an address served pages that comes back on new connections still goes after a newcomer', async (t) => {
  const { order, started, run, servedThenWaiting } = turnsByHand();
  const busy = addresses(20);
  servedThenWaiting(busy, PAGE);
  order.admit({ holder: '10.0.1.1' });
  run(1);
  t.same(started, ['10.0.1.1'], 'the newcomer first: the pages are remembered by address, not by connection');
});

t.test('a stream of new addresses does not hold back a caller waiting among them', async (t) => {
  const { order, started, run } = turnsByHand();
  order.charge({ holder: '10.9.9.9' }, ANSWER_BYTES_BURST + PAGE); // the pace is reached
  const flood = addresses(250, '10.1.0');
  for (const holder of flood.slice(0, 200)) order.admit({ holder });
  order.admit({ holder: '192.168.1.50' }); // the caller with the key
  // New addresses keep coming, one per turn, each with its one small request.
  for (let i = 0; i < 250 && !started.includes('192.168.1.50'); i++) {
    order.admit({ holder: `10.2.${i >> 8}.${i & 255}` });
    run(1);
  }
  t.equal(started.indexOf('192.168.1.50'), 200, 'served in its turn: after the 200 before it, before every later one');
});

t.test(
  'a new address asking what was lately answered with a page waits behind a newcomer of small answers',
  async (t) => {
    const { order, started, run } = turnsByHand();
    const PAGES = '/api/messages?limit=100';
    order.charge({ holder: '10.9.9.9', asking: PAGES }, ANSWER_BYTES_BURST + PAGE); // the pace is reached
    // 75 addresses never served before, each asking the page (or the same path with another query).
    const flood = addresses(75, '10.1.0');
    flood.forEach((holder, i) => order.admit({ holder, asking: i % 2 ? PAGES : `/api/messages?limit=100&x=${i}` }));
    order.admit({ holder: '192.168.1.60', asking: '/health' });
    run(1);
    t.same(started, ['192.168.1.60'], 'the newcomer asking /health first: the page is judged by what it asks');
  },
);

t.test('a URL answered small stays light while its path is answered with pages', async (t) => {
  const { order, started, run } = turnsByHand();
  order.charge({ holder: '10.9.9.9', asking: '/api/messages?limit=100' }, ANSWER_BYTES_BURST + PAGE);
  order.charge({ holder: '10.9.9.8', asking: '/api/messages?limit=1' }, 900);
  order.admit({ holder: '10.1.0.1', asking: '/api/messages?limit=100' });
  order.admit({ holder: '192.168.1.50', asking: '/api/messages?limit=1' });
  run(1);
  t.same(started, ['192.168.1.50'], 'the caller asking one message is not taken for a page');
  run(1);
  t.same(started, ['192.168.1.50', '10.1.0.1'], 'the page follows in its turn');
});

t.test('a long URL is judged by its path and never remembered', async (t) => {
  const { order, started, run } = turnsByHand();
  order.charge({ holder: '10.9.9.9', asking: '/api/messages?limit=100' }, ANSWER_BYTES_BURST + PAGE);
  const long = `/api/messages?limit=100&pad=${'x'.repeat(MAX_REMEMBERED_URL)}`;
  order.charge({ holder: '10.9.9.8', asking: long }, 300); // answered small: not kept, its path says large
  order.admit({ holder: '10.1.0.1', asking: long });
  order.admit({ holder: '192.168.1.60', asking: '/health' });
  run(1);
  t.same(started, ['192.168.1.60'], 'the long URL waits with the pages');
});
