// The one event path (src/core/dispatcher.ts): listeners hear their event, in the order
// they subscribed; one that throws is reported and the others still hear it; an
// unsubscribed listener hears nothing more; a listener that subscribes during an emit
// hears the next one, not this one.
import t from 'tap';
import { createDispatcher } from '../../src/core/dispatcher.js';

interface TestEvents {
  'a.happened': { n: number };
  'b.happened': string;
}

t.test('listeners hear their own event in order; a throwing one is reported, the rest still run', async (t) => {
  const failures: [string, string][] = [];
  const events = createDispatcher<TestEvents>({
    onListenerError: (err, name) => failures.push([name, (err as Error).message]),
  });
  const heard: string[] = [];
  events.on('a.happened', (p) => heard.push(`first ${p.n}`));
  events.on('a.happened', () => {
    throw new Error('boom');
  });
  events.on('a.happened', (p) => heard.push(`third ${p.n}`));
  events.on('b.happened', (p) => heard.push(`b ${p}`));
  events.emit('a.happened', { n: 1 });
  t.same(heard, ['first 1', 'third 1'], 'only a.happened listeners, in order, past the throwing one');
  t.same(failures, [['a.happened', 'boom']]);
  t.equal(events.listenerCount('a.happened'), 3);
  t.equal(events.listenerCount('b.happened'), 1);
});

t.test('unsubscribing and subscribing while an event is being announced', async (t) => {
  const events = createDispatcher<TestEvents>({
    onListenerError: (err) => {
      throw err;
    },
  });
  const heard: string[] = [];
  const off = events.on('b.happened', (p) => {
    heard.push(`once ${p}`);
    off();
    events.on('b.happened', (q) => heard.push(`late ${q}`));
  });
  events.on('b.happened', (p) => heard.push(`always ${p}`));
  events.emit('b.happened', 'x');
  events.emit('b.happened', 'y');
  t.same(heard, ['once x', 'always x', 'always y', 'late y']);
  events.emit('a.happened', { n: 2 }); // nobody listens: nothing happens
  t.equal(events.listenerCount('a.happened'), 0);
});
