// The inbox watcher and the phone's time (issue 34, cases 3, 4 and 9), against a real temp
// database and the fake termux-sms-list's inbox mode (a store paged by date, newest first,
// as Termux:API does; its `received` printed in the locale's digits when told): the first
// poll waits for the phone's zone and takes everything present as old (judged by _id, also
// when dated after the start), dates in Arabic-Indic or Persian digits, a reused _id with
// an unreadable date, and a new _id below the pages a poll reads (found by the deep sweep).
import t, { type Test } from 'tap';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/database.js';
import { createOutboxStore } from '../../src/store/outbox.js';
import { createWebhookTargetsTable } from '../../src/store/webhook-targets.js';
import { createInboxStore } from '../../src/store/inbox.js';
import { createMetaStore } from '../../src/store/meta.js';
import { createInboxWatcher, type InboxWatcherOptions } from '../../src/events/inbox-watcher.js';
import { SWEEP_EVERY_MS } from '../../src/events/inbox-sweep.js';
import { localTimeText, type listSms, type SmsEntry } from '../../src/device/sms-list.js';
import { fakeClock, letSettle } from '../helpers/fake-clock.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { tempDir } from '../helpers/paths.js';
import { wireBody } from '../../src/events/wire-bodies.js';

const ARABIC = '٠ ١ ٢ ٣ ٤ ٥ ٦ ٧ ٨ ٩';
const PERSIAN = '۰ ۱ ۲ ۳ ۴ ۵ ۶ ۷ ۸ ۹';

type Sms = { from: string; at: number; body: string };

function setup(t: Test, tz = 'Europe/Berlin') {
  const db = openDatabase(join(tempDir(t), 'gateway.db'));
  t.teardown(() => db.close());
  const outbox = createOutboxStore(db, createWebhookTargetsTable(db));
  outbox.syncTargets(['http://127.0.0.1:9/hook']);
  const fake = fakeTermux(t, ['termux-sms-list']);
  fake.mode('termux-sms-list', 'inbox');
  const clock = fakeClock();
  const lines: Sms[] = [];
  /** The phone's SMS store: one line a message, its _id the line number, dates in the phone's zone. */
  const write = () => {
    const tmp = join(fake.state, 'inbox.tmp');
    writeFileSync(tmp, lines.map((s) => `${s.from}\t${localTimeText(s.at, tz)}\t${s.body}\n`).join(''));
    renameSync(tmp, join(fake.state, 'inbox'));
  };
  write();
  const watcher = (over: Partial<InboxWatcherOptions> = {}) =>
    createInboxWatcher({
      clock,
      meta: createMetaStore(db),
      outbox,
      inbox: createInboxStore(db),
      pollMs: 30_000,
      timeZone: () => tz,
      env: fake.env,
      timeoutMs: 5000,
      ...over,
    });
  const announced: string[] = [];
  /** The bodies of every sms.received event so far, in the order they were made. */
  const events = () => {
    for (let heads = outbox.heads(); heads.length > 0; heads = outbox.heads()) {
      announced.push((JSON.parse(wireBody(heads[0]!)) as { data: { body: string } }).data.body);
      outbox.delivered(heads[0]!, clock.now());
    }
    return [...announced];
  };
  return {
    clock,
    fake,
    watcher,
    events,
    arrive: (...sms: Sms[]) => {
      lines.push(...sms);
      write();
    },
    /** The newest line goes (a deletion): the next message gets its _id again, as Android's SMS store does. */
    deleteLast: () => {
      lines.pop();
      write();
    },
  };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

t.test(
  'case 3: the first poll waits for the phone zone; 30 messages of the last 8 hours (Tokyo) are not announced',
  async (t) => {
    const c = setup(t, 'Asia/Tokyo');
    const start = c.clock.now();
    c.arrive(
      ...range(30).map((i) => ({ from: '+81900000001', at: start - 8 * 3_600_000 + i * 960_000, body: `old ${i}` })),
    );
    // As the gateway sees it: UTC until the probes tell Asia/Tokyo.
    let zone = 'UTC';
    let tell: () => void = () => {};
    const known = new Promise<void>((resolve) => (tell = resolve));
    const w = c.watcher({ timeZone: () => zone, timeZoneKnown: () => known });
    w.start();
    await letSettle(20);
    t.equal(c.fake.calls('termux-sms-list').length, 0, 'no inbox read before the zone is known');
    zone = 'Asia/Tokyo';
    tell();
    await w.pollOnce();
    t.same(c.events(), [], 'none of the 30 announced');
    c.clock.advance(30_000);
    c.arrive({ from: '+81900000002', at: c.clock.now(), body: 'new' });
    await w.pollOnce();
    t.same(c.events(), ['new'], 'a message after the start is');
    await w.stop();
  },
);

for (const count of [3, 150]) {
  t.test(
    `case 3: ${count} messages dated after the start (a phone clock that was ahead) are old: judged by _id`,
    async (t) => {
      const c = setup(t);
      const start = c.clock.now();
      c.arrive(
        ...range(20).map((i) => ({ from: '+4915100000001', at: start - 86_400_000 + i * 1000, body: `old ${i}` })),
      );
      c.arrive(
        ...range(count).map((i) => ({ from: '+4915100000002', at: start + 3_600_000 + i * 1000, body: `ahead ${i}` })),
      );
      const w = c.watcher();
      w.start();
      await w.pollOnce();
      // Polls for half an hour (the deep sweep included), then one new message.
      for (let i = 0; i < 60; i++) {
        c.clock.advance(30_000);
        await w.pollOnce();
      }
      t.same(c.events(), [], 'none announced');
      c.arrive({ from: '+4915100000003', at: c.clock.now(), body: 'new' });
      c.clock.advance(30_000);
      await w.pollOnce();
      t.same(c.events(), ['new'], 'a new one is');
      await w.stop();
    },
  );
}

for (const [name, digits] of [
  ['Arabic-Indic', ARABIC],
  ['Extended Arabic-Indic (Persian)', PERSIAN],
] as const) {
  t.test(`case 4: dates in ${name} digits: a reused _id is announced`, async (t) => {
    const c = setup(t);
    writeFileSync(join(c.fake.state, 'termux-sms-list.digits'), digits);
    const start = c.clock.now();
    c.arrive(
      ...range(5).map((i) => ({ from: '+4915100000001', at: start - 3_600_000 + i * 60_000, body: `old ${i}` })),
    );
    const w = c.watcher();
    await w.pollOnce();
    // Twice: the newest is deleted and the next SMS gets its _id again.
    for (const body of ['first reuse', 'second reuse']) {
      c.deleteLast();
      c.clock.advance(30_000);
      c.arrive({ from: '+4915100000009', at: c.clock.now(), body });
      await w.pollOnce();
      await w.pollOnce();
    }
    t.same(c.events(), ['first reuse', 'second reuse'], '2 of 2, once each');
  });

  t.test(`case 4: dates in ${name} digits: 5 new messages below future-dated ones are announced`, async (t) => {
    const c = setup(t);
    writeFileSync(join(c.fake.state, 'termux-sms-list.digits'), digits);
    const start = c.clock.now();
    c.arrive(...range(3).map((i) => ({ from: '+4915100000001', at: start - 86_400_000 + i * 1000, body: `old ${i}` })));
    const w = c.watcher();
    await w.pollOnce();
    c.clock.advance(30_000);
    const burst = range(150).map((i) => ({
      from: '+4915100000002',
      at: c.clock.now() - 20_000 + i * 100,
      body: `burst ${i}`,
    }));
    c.arrive(...burst);
    await w.pollOnce();
    t.equal(c.events().length, 150);
    // The clock is set back an hour: 5 arrive dated before all 150 (on the second page).
    c.clock.set(c.clock.now() - 3_600_000);
    c.clock.advance(30_000);
    c.arrive(...range(5).map((i) => ({ from: '+4915100000003', at: c.clock.now() + i * 1000, body: `set back ${i}` })));
    await w.pollOnce();
    t.same(
      c.events().slice(150),
      range(5).map((i) => `set back ${i}`),
      '5 of 5, in the poll after they came',
    );
  });
}

/** A list function over fixed entries with dates nobody can read, paged as termux-sms-list does (its order is by date). */
function undatedInbox(rows: () => { id: number; body: string }[]) {
  const list: typeof listSms = async (o) => {
    const newestFirst = [...rows()].reverse();
    const entries: SmsEntry[] = newestFirst
      .slice(o.offset ?? 0, (o.offset ?? 0) + o.limit)
      .reverse()
      .map((r) => ({
        id: r.id,
        threadId: 1,
        type: 'inbox',
        address: '+4915100000000',
        sender: null,
        received: '21/11/2026 غير معروف',
        body: r.body,
        read: false,
      }));
    return { ok: true, entries };
  };
  return list;
}

t.test(
  'case 4: a reused _id with an unreadable date is announced; an old message moved up by a deletion is not',
  async (t) => {
    const c = setup(t);
    // Oldest first, as they sort by date; 150 messages: the top page holds the newest 100.
    let rows = range(150).map((i) => ({ id: i + 1, body: `old ${i + 1}` }));
    const w = c.watcher({ list: undatedInbox(() => rows) });
    await w.pollOnce();
    // 150 (the newest) and 60 are deleted: 50 moves up onto the top page; the next SMS gets _id 150 again.
    rows = [...rows.slice(0, 59), ...rows.slice(60, 149), { id: 150, body: 'new text, reused id' }];
    c.clock.advance(30_000);
    await w.pollOnce();
    await w.pollOnce();
    t.same(c.events(), ['new text, reused id'], 'the reuse once, the old one never');
  },
);

t.test(
  'case 9: a new _id dated older than the 100 newest is found by the deep sweep, within its bound and cost',
  async (t) => {
    const c = setup(t);
    const start = c.clock.now();
    c.arrive(
      ...range(1000).map((i) => ({ from: '+4915100000001', at: start - 86_400_000 + i * 60_000, body: `old ${i}` })),
    );
    const w = c.watcher();
    await w.pollOnce();
    // The phone's clock was set back a day: a new SMS sorts far below the 100 newest.
    c.arrive({ from: '+4915100000002', at: start - 86_400_000 + 500 * 60_000 + 30_000, body: 'deep new' });
    const before = c.fake.calls('termux-sms-list').length;
    let foundAfter: number | null = null;
    for (let ms = 30_000; ms <= 3_600_000; ms += 30_000) {
      c.clock.advance(30_000);
      await w.pollOnce();
      if (foundAfter === null && c.events().length > 0) foundAfter = ms;
    }
    t.same(c.events(), ['deep new'], 'announced, once');
    // 1000 messages: two sweep steps (offsets 90 and 580), 15 minutes apart.
    t.ok(foundAfter !== null && foundAfter <= 2 * SWEEP_EVERY_MS + 30_000, `found within the bound (${foundAfter} ms)`);
    const calls = c.fake.calls('termux-sms-list').length - before;
    // Sweep steps 15 minutes apart from the sweep's first poll: at 15:30, 30:30 and 45:30.
    t.equal(calls, 120 + 3, 'an hour at a 30 s cadence: 120 polls of one page, plus the sweep steps');
    t.ok(calls - 120 <= 4, 'at most 4 sweep calls an hour');
  },
);
