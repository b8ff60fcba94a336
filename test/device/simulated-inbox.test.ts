// The simulated inbox file: appended by `simulate receive`, read like termux-sms-list
// (same entry shape, newest `limit` after `offset`, oldest first, local times in the zone).
import t from 'tap';
import { appendFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { appendSimulatedSms, simulatedSmsList, SIMULATED_INBOX_FILE } from '../../src/device/simulated-inbox.js';
import { localTimeText, localTimeToMs } from '../../src/device/sms-list.js';
import { tempDir } from '../helpers/paths.js';

const AT = Date.UTC(2026, 6, 1, 10, 0, 0); // summer: Berlin is UTC+2

t.test('an empty or missing inbox lists nothing', async (t) => {
  const list = simulatedSmsList(tempDir(t), () => 'UTC');
  t.same(await list({ box: 'inbox', limit: 100 }), { ok: true, entries: [] });
});

t.test('appended messages count up from 1 and list as termux-sms-list prints them', async (t) => {
  const home = tempDir(t);
  t.equal(appendSimulatedSms(home, { from: '+15551230001', body: 'one' }, AT), 1);
  t.equal(appendSimulatedSms(home, { from: 'DHL', body: 'two\nlines' }, AT + 1000), 2);
  t.equal(statSync(join(home, SIMULATED_INBOX_FILE)).mode & 0o777, 0o600, 'owner only');
  const r = await simulatedSmsList(home, () => 'Europe/Berlin')({ box: 'inbox', limit: 100, offset: 0 });
  t.same(r, {
    ok: true,
    entries: [
      {
        id: 1,
        threadId: null,
        type: 'inbox',
        address: '+15551230001',
        sender: null,
        received: '2026-07-01 12:00:00',
        body: 'one',
        read: false,
      },
      {
        id: 2,
        threadId: null,
        type: 'inbox',
        address: 'DHL',
        sender: null,
        received: '2026-07-01 12:00:01',
        body: 'two\nlines',
        read: false,
      },
    ],
  });
  t.same(
    await simulatedSmsList(home, () => 'UTC')({ box: 'sent', limit: 100 }),
    { ok: true, entries: [] },
    'no sent box',
  );
});

t.test('paging: the newest `limit` after skipping `offset`, oldest first', async (t) => {
  const home = tempDir(t);
  for (let i = 0; i < 7; i++) appendSimulatedSms(home, { from: '+1555', body: `m${i + 1}` }, AT + i * 1000);
  const list = simulatedSmsList(home, () => 'UTC');
  const ids = async (limit: number, offset: number) => {
    const r = await list({ box: 'inbox', limit, offset });
    return r.ok ? r.entries.map((e) => e.id) : r;
  };
  t.same(await ids(3, 0), [5, 6, 7]);
  t.same(await ids(3, 3), [2, 3, 4]);
  t.same(await ids(3, 6), [1]);
  t.same(await ids(3, 9), []);
});

t.test('a line cut short or not of the right shape is skipped', async (t) => {
  const home = tempDir(t);
  appendSimulatedSms(home, { from: '+1555', body: 'kept' }, AT);
  appendFileSync(
    join(home, SIMULATED_INBOX_FILE),
    '{"id":7,"from":"+1","bo\n{"id":"x","from":"+1","body":"b","at":1}\n\n',
  );
  t.equal(appendSimulatedSms(home, { from: '+1555', body: 'after' }, AT), 2);
  const r = await simulatedSmsList(home, () => 'UTC')({ box: 'inbox', limit: 10 });
  t.same(r.ok && r.entries.map((e) => e.body), ['kept', 'after']);
});

t.test("local time text and the watcher's reading of it are inverse", async (t) => {
  for (const tz of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata']) {
    for (const at of [AT, Date.UTC(2026, 0, 15, 23, 59, 59)]) {
      t.equal(localTimeToMs(localTimeText(at, tz), tz), at, `${tz} ${new Date(at).toISOString()}`);
    }
  }
});
