import t from 'tap';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asciiDigits, listSms, localTimeToMs, parseSmsList, sameNumber } from '../../src/device/sms-list.js';
import { fakeTermux } from '../helpers/fake-termux.js';

t.test('parseSmsList reads current and older Termux:API elements', async (t) => {
  t.same(
    parseSmsList([
      {
        threadid: 3,
        type: 'inbox',
        read: false,
        sender: 'Anna',
        address: '+491',
        number: '+491',
        received: '2026-11-21 10:00:00',
        body: 'hi',
        _id: 9,
      },
    ]),
    [
      {
        id: 9,
        threadId: 3,
        type: 'inbox',
        address: '+491',
        sender: 'Anna',
        received: '2026-11-21 10:00:00',
        body: 'hi',
        read: false,
      },
    ],
  );
  t.same(
    parseSmsList([{ type: 'sent', number: '+492', body: 'x', _id: 1 }]),
    [{ id: 1, threadId: null, type: 'sent', address: '+492', sender: null, received: null, body: 'x', read: null }],
    'older versions: number instead of address',
  );
  t.same(
    parseSmsList([{ type: 'inbox', body: 'no id' }, null, 5, { _id: 1.5 }]),
    [],
    'entries without an integer _id are dropped',
  );
  t.same(parseSmsList([{ _id: 2 }]), [
    { id: 2, threadId: null, type: '', address: null, sender: null, received: null, body: '', read: null },
  ]);
  t.equal(parseSmsList({ error: 'x' }), undefined);
});

t.test('listSms passes the box and paging, and reports failures', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-list']);
  fake.output('termux-sms-list', JSON.stringify([{ type: 'inbox', body: 'a', _id: 1 }]));
  const r = await listSms({ box: 'inbox', limit: 100, offset: 200, timeoutMs: 5000, env: fake.env });
  t.equal(r.ok && r.entries.length, 1);
  t.same(fake.calls('termux-sms-list')[0]!.argv, ['-t', 'inbox', '-l', '100', '-o', '200']);
  fake.output('termux-sms-list', '{"not": "a list"}');
  const notList = await listSms({ box: 'all', limit: 1, timeoutMs: 5000, env: fake.env });
  t.same(notList, { ok: false, failure: 'api_error', detail: 'termux-sms-list did not print a list' });
  fake.mode('termux-sms-list', 'permission');
  const denied = await listSms({ box: 'all', limit: 1, timeoutMs: 5000, env: fake.env });
  t.equal(!denied.ok && denied.failure, 'permission_denied');
});

t.test('numbers in different formats, and local times in a zone', async (t) => {
  t.equal(sameNumber('+49 151 12345678', '015112345678'), true);
  t.equal(sameNumber('0049 (151) 1234-5678', '+4915112345678'), true);
  t.equal(sameNumber('+4915112345678', '+4915112345679'), false);
  t.equal(sameNumber('12345', '12345'), true, 'short codes compare whole');
  t.equal(sameNumber('12345', '912345'), false, 'too short to compare tails');
  t.equal(sameNumber(null, '123'), false);
  t.equal(sameNumber('abc', '123'), false);
  t.equal(localTimeToMs('2026-11-21 13:00:00', 'Europe/Berlin'), Date.UTC(2026, 10, 21, 12, 0, 0));
  t.equal(localTimeToMs('2026-07-21 13:00:00', 'Europe/Berlin'), Date.UTC(2026, 6, 21, 11, 0, 0), 'summer time');
  t.equal(localTimeToMs('2026-11-21 13:00:00', 'UTC'), Date.UTC(2026, 10, 21, 13, 0, 0));
  t.equal(localTimeToMs('21.11.2026 13:00', 'UTC'), null);
  t.equal(localTimeToMs(null, 'UTC'), null);
});

t.test(
  "the fake's inbox store pages as Termux:API does: by date, newest first, each page printed newest last",
  async (t) => {
    const fake = fakeTermux(t, ['termux-sms-list']);
    fake.mode('termux-sms-list', 'inbox');
    // _id 3 arrived last but is dated first (the clock moved back); 4 and 5 share a date.
    writeFileSync(
      join(fake.state, 'inbox'),
      [
        '+491\t2026-11-21 10:00:00\tone "quoted" back\\slash',
        '+492\t2026-11-21 10:00:01.500\ttwo',
        '+491\t2026-11-21 09:00:00\tthree',
        '+493\t2026-11-21 10:00:01.200\tfour',
        '+493\t2026-11-21 10:00:01.200\tfive',
        '',
      ].join('\n'),
    );
    const page = async (limit: number, offset: number) => {
      const r = await listSms({ box: 'inbox', limit, offset, timeoutMs: 5000, env: fake.env });
      return r.ok ? r.entries.map((e) => e.id) : r;
    };
    t.same(await page(2, 0), [4, 2], 'the newest two by date (equal dates: the lower _id first), oldest printed first');
    t.same(await page(2, 2), [1, 5]);
    t.same(await page(100, 4), [3]);
    t.same(await page(100, 5), []);
    const all = await listSms({ box: 'inbox', limit: 100, timeoutMs: 5000, env: fake.env });
    t.same(all.ok && all.entries.at(-2), {
      id: 4,
      threadId: 3,
      type: 'inbox',
      address: '+493',
      sender: null,
      received: '2026-11-21 10:00:01',
      body: 'four',
      read: false,
    });
    t.same(all.ok && all.entries.at(1), {
      id: 1,
      threadId: 1,
      type: 'inbox',
      address: '+491',
      sender: null,
      received: '2026-11-21 10:00:00',
      body: 'one "quoted" back\\slash',
      read: false,
    });
    const raw = JSON.parse(
      execFileSync('termux-sms-list', ['-t', 'inbox', '-l', '1'], { env: fake.env, encoding: 'utf8' }),
    );
    t.same(
      raw,
      [
        {
          threadid: 2,
          type: 'inbox',
          read: false,
          address: '+492',
          number: '+492',
          received: '2026-11-21 10:00:01',
          body: 'two',
          _id: 2,
        },
      ],
      'address and number both, as Termux:API 0.51+',
    );
    t.same(
      await listSms({ box: 'sent', limit: 10, timeoutMs: 5000, env: fake.env }),
      { ok: true, entries: [] },
      'only received messages in this store',
    );
  },
);

t.test(
  'dates in any decimal digits the phone locale prints (SimpleDateFormat in the locale: Arabic, Persian, Hindi, Bengali...)',
  async (t) => {
    const want = Date.UTC(2026, 10, 21, 12, 0, 0);
    const zeros: [string, number][] = [
      ['Arabic-Indic', 0x0660],
      ['Extended Arabic-Indic (Persian)', 0x06f0],
      ['Devanagari', 0x0966],
      ['Bengali', 0x09e6],
      ['Thai', 0x0e50],
      ['Myanmar', 0x1040],
      ['fullwidth', 0xff10],
      ['mathematical monospace (the last of five runs in a row)', 0x1d7f6],
    ];
    for (const [name, zero] of zeros) {
      const local = '2026-11-21 13:00:00'.replace(/\d/g, (d) => String.fromCodePoint(zero + Number(d)));
      t.equal(localTimeToMs(local, 'Europe/Berlin'), want, name);
    }
    t.equal(asciiDigits('\u200f٢٠٢٦-١١-٢١ ١٣:٠٠:٠٠'), '2026-11-21 13:00:00', 'a direction mark dropped');
    t.equal(localTimeToMs('21/11/2026 13:00', 'Europe/Berlin'), null, 'another shape stays unreadable');
  },
);
