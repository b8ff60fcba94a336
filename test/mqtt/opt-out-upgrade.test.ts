// A 0.4 home whose opt-out list holds what a forged shared change wrote there (issue 44 item 3:
// `at` 9007199254740991 made GET /api/opt-outs answer 500 for good), opened by today's gateway:
// the list answers 200, a time that is not a date or is far ahead is repaired to the upgrade's
// time (so a later proven change can still take the number off), and the changes the phone made
// itself are published once at the first connect, with their proof. The 0.4.0 fixture home
// (test/fixtures/homes/0.4.0/) holds no forged shared change (0.4.0 wrote it through its own
// API, with no broker), so the test writes the schema 0.4 left and the rows its code wrote:
// the only SQL here.
import t from 'tap';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mqtt from 'mqtt';
import { migrate } from '../../src/store/database.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { MIGRATIONS_0_5 } from '../../src/store/migrations-0-5.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/paths.js';
import { listen, noBroker, startBroker, waitFor } from './broker.js';
import { optOutGateway, proofOf, SECRET } from './opt-out-gateway.js';

const OWN = '+15550004001';
const FORGED = '+15550002003';
const GARBLED = '+15550004003';
const AHEAD = '+15550004004';

/** A home at 0.4's schema: one row of the phone's own, three whose time is not a date or lies far ahead. */
function home04(now: number): string {
  const home = tempDir(t);
  const db = new Database(join(home, 'gateway.db'));
  migrate(db, MIGRATIONS.slice(0, MIGRATIONS.length - MIGRATIONS_0_5.length));
  const insert = db.prepare('INSERT INTO opt_outs (number, opted_out, at, by) VALUES (?, ?, ?, ?)');
  insert.run(OWN, 1, now - 86_400_000, 'sms');
  insert.run(FORGED, 1, Number.MAX_SAFE_INTEGER, 'mqtt');
  insert.run(GARBLED, 1, 'not a time', 'mqtt');
  insert.run(AHEAD, 1, now + 365 * 86_400_000, 'mqtt');
  db.close();
  return home;
}

t.test(
  'a 0.4 home with a forged time: the list answers, the times are repaired, own changes are shared',
  { skip: noBroker },
  async (t) => {
    const start = Date.now(); // the upgrade repairs with the machine's own clock
    const broker = await startBroker(t);
    const { heard } = await listen(t, broker.url, ['sms-gateway/opt-outs/+']);
    const home = home04(start);
    const a = await optOutGateway(t, broker.url, 'gw1', { home, clock: fakeClock(start) });
    const repairedBy = Date.now();

    const res = await a.app.get('/api/opt-outs?limit=100');
    t.equal(res.statusCode, 200, 'GET /api/opt-outs answers 200');
    const rows = res.json().data as { number: string; at: string }[];
    t.same(rows.map((r) => r.number).sort(), [FORGED, OWN, GARBLED, AHEAD].sort(), 'every number still listed');
    for (const r of rows.filter((x) => x.number !== OWN)) {
      const at = Date.parse(r.at);
      t.ok(at >= start - 1000 && at <= repairedBy, `${r.number}: repaired to the upgrade's time (${r.at})`);
    }
    t.equal(rows.find((r) => r.number === OWN)!.at, new Date(start - 86_400_000).toISOString(), 'a good time is kept');

    await waitFor(
      () => heard.some((h) => h.topic === 'sms-gateway/opt-outs/%2B15550004001'),
      "the phone's own change published",
    );
    const own = JSON.parse(heard.find((h) => h.topic === 'sms-gateway/opt-outs/%2B15550004001')!.payload) as object;
    t.same(own, {
      optedOut: true,
      at: start - 86_400_000,
      by: 'sms',
      proof: proofOf(SECRET, OWN, true, start - 86_400_000),
    });
    t.equal(
      heard.filter((h) => h.topic !== 'sms-gateway/opt-outs/%2B15550004001').length,
      0,
      'what came from the broker is not',
    );

    // The forged number is no longer pinned: a proven removal dated after the upgrade takes it off.
    a.app.clock.advance(10_000);
    const at = a.app.clock.now();
    const pub = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    t.teardown(() => pub.endAsync(true));
    const removal = { optedOut: false, at, by: 'api', proof: proofOf(SECRET, FORGED, false, at) };
    await pub.publishAsync('sms-gateway/opt-outs/%2B15550002003', JSON.stringify(removal), { qos: 1 });
    await waitFor(async () => !(await a.listed()).numbers.includes(FORGED), 'the forged number taken off');
    t.equal((await a.listed()).status, 200);
  },
);
