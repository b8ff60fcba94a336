// The inbox watcher against a real temp database and the real termux-sms-list adapter
// talking to a fake termux-sms-list (custom list functions only for the paging cases).
// What it stored is read through the stores' own methods: the events as delivery takes
// them from the outbox (heads, then delivered), the watermark from the meta store.
import t, { type Test } from 'tap';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { openDatabase, type Db } from '../../src/store/database.js';
import { createOutboxStore, type OutboxStore } from '../../src/store/outbox.js';
import { createWebhookTargetsTable } from '../../src/store/webhook-targets.js';
import { createInboxStore } from '../../src/store/inbox.js';
import { createMetaStore } from '../../src/store/meta.js';
import { createInboxWatcher, WATERMARK_KEY, type InboxWatcherOptions } from '../../src/events/inbox-watcher.js';
import { localTimeText, type SmsEntry, type listSms } from '../../src/device/sms-list.js';
import { fakeClock, type FakeClock } from '../helpers/fake-clock.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { tempDir } from '../helpers/paths.js';
import { wireBody } from '../../src/events/wire-bodies.js';

const TARGET = 'http://127.0.0.1:9/hook';

interface RawSms {
  threadid: number;
  type: string;
  read: boolean;
  sender?: string;
  address: string;
  number: string;
  received: string;
  body: string;
  _id: number;
}

/** One element as termux-sms-list prints it. */
function sms(id: number, received: string, body: string, address = '+4915112345678', sender?: string): RawSms {
  return {
    threadid: 7,
    type: 'inbox',
    read: false,
    ...(sender === undefined ? {} : { sender }),
    address,
    number: address,
    received,
    body,
    _id: id,
  };
}

const OLD = [
  sms(101, '2026-11-20 08:00:00', 'old one'),
  sms(104, '2026-11-20 09:15:00', 'old two', '+4917000000001', 'Anna'),
  sms(107, '2026-11-20 10:30:00', 'old three'),
];

interface StoredEvent {
  type: string;
  event: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
}

interface Ctx {
  db: Db;
  path: string;
  outbox: OutboxStore;
  fake: ReturnType<typeof fakeTermux>;
  clock: FakeClock;
  logLines: () => Record<string, unknown>[];
  watcher: (over?: Partial<InboxWatcherOptions>) => ReturnType<typeof createInboxWatcher>;
  /** Every event stored so far, oldest first: what delivery has taken from the outbox, after taking what is new. */
  events: () => StoredEvent[];
  watermarkRow: () => string | undefined;
  setInbox: (list: RawSms[]) => void;
}

function setup(t: Test, targets: string[] = [TARGET]): Ctx {
  const path = join(tempDir(t), 'gateway.db');
  const ctx = { db: openDatabase(path) } as Ctx;
  t.teardown(() => ctx.db.close());
  ctx.path = path;
  ctx.outbox = createOutboxStore(ctx.db, createWebhookTargetsTable(ctx.db));
  ctx.outbox.syncTargets(targets);
  ctx.fake = fakeTermux(t, ['termux-sms-list']);
  ctx.clock = fakeClock();
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (s: string) => void lines.push(s) });
  ctx.logLines = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  ctx.watcher = (over = {}) =>
    createInboxWatcher({
      clock: ctx.clock,
      meta: createMetaStore(ctx.db),
      outbox: ctx.outbox,
      inbox: createInboxStore(ctx.db),
      pollMs: 60_000,
      timeZone: () => 'Europe/Berlin',
      env: ctx.fake.env,
      timeoutMs: 5000,
      logger,
      ...over,
    });
  const taken: StoredEvent[] = [];
  ctx.events = () => {
    // One target at most: its oldest pending delivery is the head, taken one by one as delivery does.
    for (let heads = ctx.outbox.heads(); heads.length > 0; heads = ctx.outbox.heads()) {
      const head = heads[0]!;
      taken.push({ type: head.type, event: JSON.parse(wireBody(head)) });
      ctx.outbox.delivered(head, ctx.clock.now());
    }
    return [...taken];
  };
  ctx.watermarkRow = () => createMetaStore(ctx.db).get(WATERMARK_KEY);
  ctx.setInbox = (list) => ctx.fake.output('termux-sms-list', JSON.stringify(list));
  return ctx;
}

t.test('(a) first start: the old inbox becomes the watermark, no event', async (t) => {
  const c = setup(t);
  c.setInbox(OLD);
  const w = c.watcher();
  t.equal(w.health().watermark, null, 'nothing stored yet');
  await w.pollOnce();
  t.same(c.outbox.heads(), [], 'delivery has no work');
  t.same(c.events(), [], 'no replay of old messages');
  t.equal(c.watermarkRow(), '107');
  t.match(w.health(), {
    lastOk: true,
    consecutiveFailures: 0,
    watermark: 107,
    received: 0,
    lastError: null,
    lastPollAt: c.clock.now(),
  });
  t.same(
    c.fake.calls('termux-sms-list').map((x) => x.argv),
    [['-t', 'inbox', '-l', '100', '-o', '0']],
    'one page read: a first poll does not page back',
  );
});

t.test('(a) first start with an empty inbox stores 0, so the first message is an event', async (t) => {
  const c = setup(t);
  c.setInbox([]);
  const w = c.watcher();
  await w.pollOnce();
  t.equal(c.watermarkRow(), '0');
  c.setInbox([sms(3, '2026-11-21 13:00:00', 'first ever')]);
  await w.pollOnce();
  t.same(
    c.events().map((e) => e.event.data.smsId),
    [3],
  );
});

t.test('(b) new messages become one event each, in id order, once', async (t) => {
  const c = setup(t);
  c.setInbox(OLD);
  const w = c.watcher();
  await w.pollOnce();
  c.clock.advance(15_000);
  const now = c.clock.now();
  // Summer and winter time, so a fixed offset would get one of them wrong.
  c.setInbox([
    ...OLD,
    sms(110, '2026-07-01 09:30:15', 'Ihr Code: 4711', '+4915199999999', 'Bank'),
    sms(112, '2026-11-21 13:05:00', 'see you at 8', '+4917011122233'),
  ]);
  await w.pollOnce();
  const heads = c.outbox.heads();
  const events = c.events();
  t.equal(events.length, 2, 'delivery has each event');
  t.same(
    events.map((e) => e.type),
    ['sms.received', 'sms.received'],
  );
  t.same(events[0]!.event.data, {
    smsId: 110,
    from: '+4915199999999',
    contact: 'Bank',
    body: 'Ihr Code: 4711',
    receivedAt: '2026-07-01T07:30:15.000Z',
    receivedLocal: '2026-07-01 09:30:15',
    threadId: 7,
    simSlot: null,
    inReplyTo: null,
    keyword: null,
  });
  t.same(events[1]!.event.data, {
    smsId: 112,
    from: '+4917011122233',
    contact: null,
    body: 'see you at 8',
    receivedAt: '2026-11-21T12:05:00.000Z',
    receivedLocal: '2026-11-21 13:05:00',
    threadId: 7,
    simSlot: null,
    inReplyTo: null,
    keyword: null,
  });
  for (const e of events) {
    t.match(e.event.id, /^evt_[0-9a-z]{26}$/);
    t.equal(e.event.type, 'sms.received');
    t.equal(e.event.createdAt, new Date(now).toISOString());
  }
  t.equal(heads.length, 1, 'one target, one head');
  t.equal(heads[0]!.eventId, events[0]!.event.id, 'the older message is delivered first');
  t.equal(heads[0]!.nextAttemptAt, now);
  t.equal(c.watermarkRow(), '112');
  t.match(w.health(), { lastOk: true, watermark: 112, received: 2 });

  await w.pollOnce();
  t.same(c.outbox.heads(), [], 'no delivery without a new event');
  t.equal(c.events().length, 2, 'the same inbox again: nothing new');
  t.equal(w.health().received, 2);
});

t.test('(c) a restart continues from the stored watermark', async (t) => {
  const c = setup(t);
  c.setInbox(OLD);
  await c.watcher().pollOnce();
  const second = [...OLD, sms(110, '2026-11-21 12:00:00', 'before the restart')];
  c.setInbox(second);
  await c.watcher().pollOnce();
  t.equal(c.events().length, 1);

  // The process ends; a new one opens the same file with new stores.
  c.db.close();
  c.db = openDatabase(c.path);
  c.outbox = createOutboxStore(c.db, createWebhookTargetsTable(c.db));
  c.outbox.syncTargets([TARGET]);
  const w = c.watcher();
  t.equal(w.health().watermark, 110, 'read from the database at creation');
  c.setInbox([...second, sms(111, '2026-11-21 12:10:00', 'while down'), sms(115, '2026-11-21 12:20:00', 'after')]);
  await w.pollOnce();
  t.same(
    c.events().map((e) => e.event.data.smsId),
    [110, 111, 115],
    'only the messages above the watermark are added',
  );
  t.equal(c.watermarkRow(), '115');
  t.equal(w.health().received, 2);
});

t.test('(d) a permission error is recorded, retried, and nothing is lost', async (t) => {
  const c = setup(t);
  c.setInbox([sms(1, '2026-11-21 10:00:00', 'a'), sms(2, '2026-11-21 10:01:00', 'b')]);
  const w = c.watcher();
  await w.pollOnce();
  c.setInbox([
    sms(1, '2026-11-21 10:00:00', 'a'),
    sms(2, '2026-11-21 10:01:00', 'b'),
    sms(3, '2026-11-21 10:02:00', 'secret body text', '+4915155566677'),
  ]);
  c.fake.mode('termux-sms-list', 'permission');
  c.clock.advance(15_000);
  const failedAt = c.clock.now();
  await w.pollOnce();
  let h = w.health();
  t.equal(h.lastOk, false);
  t.match(h.lastError, /^permission_denied: .*permission/);
  t.equal(h.lastErrorAt, failedAt);
  t.equal(h.consecutiveFailures, 1);
  t.equal(h.watermark, 2);
  c.clock.advance(15_000);
  await w.pollOnce();
  h = w.health();
  t.equal(h.consecutiveFailures, 2);
  t.equal(h.lastErrorAt, c.clock.now());
  t.same(c.events(), [], 'no event while failing');
  t.equal(c.watermarkRow(), '2', 'watermark unchanged');

  c.fake.mode('termux-sms-list', 'ok');
  await w.pollOnce();
  t.same(
    c.events().map((e) => e.event.data.smsId),
    [3],
    'the pending message, once',
  );
  h = w.health();
  t.equal(h.lastOk, true);
  t.equal(h.consecutiveFailures, 0);
  t.equal(h.watermark, 3);
  await w.pollOnce();
  t.equal(c.events().length, 1);

  const logs = c.logLines();
  const warns = logs.filter((l) => l.level === 40);
  t.equal(warns.length, 1, 'the same failure twice in a row is logged once');
  t.match(warns[0], { failure: 'permission_denied', msg: 'inbox poll failed' });
  const all = JSON.stringify(logs);
  t.notMatch(all, 'secret body text', 'no message body in the log');
  t.notMatch(all, '4915155566677', 'no phone number in the log');
});

t.test('(e) a hanging termux-sms-list: pollOnce returns and health says timeout', async (t) => {
  const c = setup(t);
  c.setInbox(OLD);
  c.fake.mode('termux-sms-list', 'hang');
  const w = c.watcher({ timeoutMs: 1000 }); // not less: a loaded machine starts the fake slowly
  const started = Date.now();
  await w.pollOnce();
  const took = Date.now() - started;
  t.ok(took >= 900 && took < 6000, `returned after the timeout (${took} ms)`);
  const h = w.health();
  t.equal(h.lastOk, false);
  t.match(h.lastError, /^timeout: /);
  t.equal(h.consecutiveFailures, 1);
  t.equal(h.watermark, null);
  t.equal(c.watermarkRow(), undefined, 'no baseline from a failed poll');
});

t.test('(f) without targets the watermark still advances and nothing is stored', async (t) => {
  const c = setup(t, []);
  c.setInbox(OLD);
  const w = c.watcher();
  await w.pollOnce();
  c.setInbox([...OLD, sms(120, '2026-11-21 12:00:00', 'nobody listens')]);
  await w.pollOnce();
  t.equal(c.watermarkRow(), '120');
  t.same(c.outbox.heads(), []);
  c.outbox.syncTargets([TARGET]);
  t.same(c.outbox.heads(), [], 'nothing stored: a target added later gets no event');
  t.equal(w.health().lastOk, true);
});

/** A synthetic inbox paged like termux-sms-list: newest `limit` at offset 0, each page oldest first. */
function pagedInbox(ids: () => number[]) {
  const offsets: number[] = [];
  const list: typeof listSms = async (o) => {
    offsets.push(o.offset ?? 0);
    const newestFirst = [...ids()].sort((a, b) => b - a);
    const page = newestFirst.slice(o.offset ?? 0, (o.offset ?? 0) + o.limit).reverse();
    const entries: SmsEntry[] = page.map((id) => ({
      id,
      threadId: 1,
      type: 'inbox',
      address: '+4915100000000',
      sender: null,
      received: '2026-11-21 12:00:00',
      body: `m${id}`,
      read: false,
    }));
    return { ok: true, entries };
  };
  return { list, offsets };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

t.test('(g) a burst of 250 new messages is read page by page, each once, in id order', async (t) => {
  const c = setup(t);
  let ids = range(1, 50);
  const inbox = pagedInbox(() => ids);
  const w = c.watcher({ list: inbox.list });
  await w.pollOnce();
  t.equal(c.watermarkRow(), '50');
  ids = range(1, 300);
  inbox.offsets.length = 0;
  await w.pollOnce();
  t.same(inbox.offsets, [0, 100, 200], 'stops at the first page holding a known message');
  const got = c.events().map((e) => e.event.data.smsId);
  t.same(got, range(51, 300));
  t.equal(c.watermarkRow(), '300');
  t.equal(w.health().received, 250);
  t.equal(got.length, 250, 'delivery has each one');
  inbox.offsets.length = 0;
  await w.pollOnce();
  t.same(inbox.offsets, [0]);
  t.equal(c.events().length, 250);
});

t.test('(g) more than ten pages of new messages: the newest thousand first, and a warning', async (t) => {
  const c = setup(t);
  let ids: number[] = [];
  const inbox = pagedInbox(() => ids);
  const w = c.watcher({ list: inbox.list });
  await w.pollOnce();
  t.equal(c.watermarkRow(), '0');
  ids = range(1, 1200);
  await w.pollOnce();
  t.same(
    inbox.offsets.slice(1),
    range(0, 9).map((p) => p * 100),
  );
  const got = c.events().map((e) => e.event.data.smsId);
  t.same(got, range(201, 1200));
  t.equal(c.watermarkRow(), '1200');
  t.ok(
    c.logLines().some((l) => l.level === 40 && /reads on/.test(String(l.msg))),
    'the cap is said in the log',
  );
  t.equal(w.health().backlogFrom, 990, 'and in the health: where the next poll reads on');
});

/** Inbox entries with their own dates, paged as termux-sms-list does: by date, newest first. */
function datedInbox(rows: () => { id: number; at: string }[]) {
  const offsets: number[] = [];
  const list: typeof listSms = async (o) => {
    offsets.push(o.offset ?? 0);
    const newestFirst = [...rows()].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.id - a.id));
    const page = newestFirst.slice(o.offset ?? 0, (o.offset ?? 0) + o.limit).reverse();
    const entries: SmsEntry[] = page.map((r) => ({
      id: r.id,
      threadId: 1,
      type: 'inbox',
      address: '+4915100000000',
      sender: null,
      received: r.at,
      body: `m${r.id}`,
      read: false,
    }));
    return { ok: true, entries };
  };
  return { list, offsets };
}

/** Berlin local time text of a fake-clock instant plus `s` seconds. */
const berlin = (ms: number) => localTimeText(ms, 'Europe/Berlin');

t.test('150 new messages between two polls (dated as they came): each announced exactly once', async (t) => {
  const c = setup(t);
  const start = c.clock.now();
  let rows = range(1, 30).map((id) => ({ id, at: berlin(start - 86_400_000 + id * 1000) }));
  const inbox = datedInbox(() => rows);
  const w = c.watcher({ list: inbox.list });
  await w.pollOnce();
  c.clock.advance(60_000);
  rows = [...rows, ...range(31, 180).map((id) => ({ id, at: berlin(start + (id - 30) * 200) }))];
  await w.pollOnce();
  await w.pollOnce();
  t.same(
    c.events().map((e) => e.event.data.smsId),
    range(31, 180),
  );
});

t.test(
  '1200 new messages between two polls: the cap reads on at the next poll, nothing missed, each once',
  async (t) => {
    const c = setup(t);
    const start = c.clock.now();
    let rows = range(1, 20).map((id) => ({ id, at: berlin(start - 86_400_000 + id * 1000) }));
    const inbox = datedInbox(() => rows);
    const w = c.watcher({ list: inbox.list });
    await w.pollOnce();
    rows = [...rows, ...range(21, 1220).map((id) => ({ id, at: berlin(start + (id - 20) * 2500) }))]; // over 50 minutes
    c.clock.advance(3_600_000);
    inbox.offsets.length = 0;
    await w.pollOnce();
    t.same(
      inbox.offsets,
      range(0, 9).map((p) => p * 100),
      'ten pages',
    );
    t.same(
      c.events().map((e) => e.event.data.smsId),
      range(221, 1220),
      'the newest thousand first',
    );
    t.ok(
      c.logLines().some((l) => l.level === 40 && /reads on/.test(String(l.msg))),
      'the cap is said in the log',
    );
    t.equal(w.health().backlogFrom, 990, 'and in the health');
    c.clock.advance(15_000);
    inbox.offsets.length = 0;
    await w.pollOnce();
    t.same(
      inbox.offsets,
      [990, 1090, 1190],
      'the next poll reads on below the cap, until a page without new ones (here: the last, short one)',
    );
    t.same(
      c
        .events()
        .map((e) => Number(e.event.data.smsId))
        .sort((a, b) => a - b),
      range(21, 1220),
      'nothing missed, each once',
    );
    t.equal(w.health().backlogFrom, null);
    c.clock.advance(15_000);
    inbox.offsets.length = 0;
    await w.pollOnce();
    t.same(inbox.offsets, [0], 'then from the top again, one page');
    t.equal(c.events().length, 1200);
  },
);

t.test("the phone's clock moved back: a new message dated before 150 known ones is announced, once", async (t) => {
  const c = setup(t);
  const start = c.clock.now();
  // 150 messages of the last 25 minutes, all announced.
  let rows = range(1, 150).map((id) => ({ id, at: berlin(start - 1_500_000 + id * 10_000) }));
  const inbox = datedInbox(() => rows);
  const w = c.watcher({ list: inbox.list });
  await w.pollOnce();
  rows = [...rows, ...range(151, 300).map((id) => ({ id, at: berlin(start + (id - 150) * 1000) }))];
  c.clock.advance(160_000);
  await w.pollOnce();
  t.equal(c.events().length, 150, 'the 150 that came after the start');
  // The clock is set back an hour; a message arrives, dated by the wrong clock.
  c.clock.advance(15_000);
  c.clock.set(c.clock.now() - 3_600_000);
  rows = [...rows, { id: 301, at: berlin(c.clock.now()) }];
  inbox.offsets.length = 0;
  c.clock.advance(15_000);
  await w.pollOnce();
  await w.pollOnce();
  t.same(
    c
      .events()
      .slice(150)
      .map((e) => e.event.data.smsId),
    [301],
    'announced once',
  );
  t.ok(inbox.offsets.includes(300), 'read past the 300 messages dated after it');
});

t.test('nothing is replayed on the first start, also with many pages of old messages', async (t) => {
  const c = setup(t);
  const start = c.clock.now();
  const rows = range(1, 450).map((id) => ({ id, at: berlin(start - 3_600_000 + id * 1000) }));
  const inbox = datedInbox(() => rows);
  const w = c.watcher({ list: inbox.list });
  await w.pollOnce();
  c.clock.advance(15_000);
  await w.pollOnce();
  t.same(c.events(), [], 'no event');
  t.equal(c.watermarkRow(), '450');
});

t.test('a list function that throws is recorded, not thrown', async (t) => {
  const c = setup(t);
  const w = c.watcher({
    list: async () => {
      throw new Error('boom');
    },
  });
  await t.resolves(w.pollOnce());
  t.match(w.health(), { lastOk: false, lastError: 'error: boom', consecutiveFailures: 1 });
});

t.test('(h) start() polls at once and every pollMs; stop() ends it', async (t) => {
  const c = setup(t);
  c.setInbox(OLD);
  const w = c.watcher({ pollMs: 50 });
  const calls = () => c.fake.calls('termux-sms-list').length;
  /** The poll in flight (a real termux-sms-list) is done and the next one is set. */
  const nextSet = async () => {
    for (let i = 0; i < 500 && c.clock.pendingTimers() === 0; i++) await sleep(10);
  };
  w.start();
  await nextSet();
  t.equal(calls(), 1, 'polled at once');
  await c.clock.tick(49);
  await nextSet();
  t.equal(calls(), 1, 'not again before pollMs');
  await c.clock.tick(1);
  await nextSet();
  t.equal(calls(), 2, 'again after pollMs');
  await w.stop();
  t.equal(c.clock.pendingTimers(), 0, 'stop() leaves no timer');
  await c.clock.tick(1000);
  t.equal(calls(), 2, 'no call after stop()');
  t.equal(w.health().watermark, 107);
});

t.test('polls never overlap, and stop() waits for the poll in flight', async (t) => {
  const c = setup(t);
  let active = 0;
  let maxActive = 0;
  let calls = 0;
  let release: (() => void) | undefined;
  const list: typeof listSms = async () => {
    calls++;
    active++;
    maxActive = Math.max(maxActive, active);
    await new Promise<void>((res) => (release = res));
    active--;
    return { ok: true, entries: [] };
  };
  const w = c.watcher({ list, pollMs: 1 });
  w.start();
  await c.clock.tick(20);
  t.equal(calls, 1, 'the next poll waits for the previous one');
  const joined = w.pollOnce();
  await c.clock.tick(5);
  t.equal(calls, 1, 'a pollOnce() during a poll joins it');
  release!();
  await joined;
  await c.clock.tick(30);
  t.equal(calls, 2, 'polled again pollMs after it finished');
  t.equal(maxActive, 1);

  let stopped = false;
  const stopping = w.stop().then(() => (stopped = true));
  await c.clock.tick(20);
  t.equal(stopped, false, 'stop() waits while a poll runs');
  const before = w.health().lastPollAt;
  c.clock.advance(1000);
  release!();
  await stopping;
  t.equal(stopped, true);
  t.not(w.health().lastPollAt, before, 'the poll in flight finished before stop() returned');
  const n = calls;
  await c.clock.tick(30);
  t.equal(calls, n, 'nothing after stop()');
});

t.test('only inbox entries become events, whatever else the list holds', async (t) => {
  const ctx = setup(t);
  ctx.setInbox(OLD);
  const w = ctx.watcher();
  await w.pollOnce();
  ctx.setInbox([
    ...OLD,
    { ...sms(110, '2026-11-21 08:00:00', 'a sent one'), type: 'sent' },
    sms(111, '2026-11-21 08:01:00', 'a real one'),
  ]);
  await w.pollOnce();
  t.same(
    ctx.events().map((e) => e.event.data.body),
    ['a real one'],
  );
});

t.test("a new message that reuses a deleted message's _id is announced, once", async (t) => {
  const c = setup(t);
  c.setInbox(OLD);
  const w = c.watcher();
  await w.pollOnce(); // baseline: 107
  // 107 is deleted; Android gives the next message the freed _id 107 again.
  const reused = sms(107, '2026-11-21 14:00:00', 'new text, old id', '+4917000000009');
  c.setInbox([OLD[0]!, OLD[1]!, reused]);
  await w.pollOnce();
  await w.pollOnce();
  t.same(
    c.events().map((e) => [e.event.data.smsId, e.event.data.body]),
    [[107, 'new text, old id']],
    'announced once',
  );
  t.equal(c.watermarkRow(), '107');
});

t.test('pages in date order with ids out of order: every new message once, no old one', async (t) => {
  const c = setup(t);
  c.setInbox(OLD);
  const w = c.watcher();
  await w.pollOnce();
  // Newest first by date, as termux-sms-list returns them; the ids do not follow the dates.
  c.setInbox([
    sms(105, '2026-11-21 15:00:00', 'newest, low id'),
    sms(120, '2026-11-21 14:30:00', 'middle'),
    sms(102, '2026-11-21 14:00:00', 'oldest new, lowest id'),
    ...OLD,
  ]);
  await w.pollOnce();
  await w.pollOnce();
  t.same(
    c
      .events()
      .map((e) => e.event.data.body)
      .sort(),
    ['middle', 'newest, low id', 'oldest new, lowest id'],
  );
});

t.test('a home from 0.1 (watermark only): nothing old is replayed, new messages still come', async (t) => {
  const c = setup(t);
  createMetaStore(c.db).set(WATERMARK_KEY, '107');
  c.setInbox([sms(99, '2026-11-19 08:00:00', 'very old, below the watermark'), ...OLD]);
  const w = c.watcher();
  await w.pollOnce();
  t.same(c.events(), [], 'no replay');
  c.setInbox([sms(108, '2026-11-21 14:00:00', 'after the upgrade'), ...OLD]);
  await w.pollOnce();
  t.same(
    c.events().map((e) => e.event.data.smsId),
    [108],
  );
});
