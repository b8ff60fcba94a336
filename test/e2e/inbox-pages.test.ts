// Received messages beyond the first page, end to end: the real gateway in real mode, its
// inbox a fake termux-sms-list holding a store of received SMS (fake-termux's inbox mode:
// paged by date, newest first, printed newest last, as Termux:API does). More messages than
// one page holds arrive between two polls, then two dated before the newest already seen
// (the phone's clock moved back): each shows in GET /api/inbox exactly once, in the order
// they arrived.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, tempDir } from '../helpers/paths.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';

/** Polls 150 ms apart: the gateway answers about 10 requests a second per caller. */
const POLL_MS = 150;

/** The phone's date column in UTC (the gateway runs with TZ=UTC), to the millisecond. */
const phoneDate = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

type Stored = { from: string; body: string; receivedAt: string };

/** As GET /api/inbox shows a message: the phone prints its time to the second. */
const shown = (m: { from: string; at: number; body: string }) => ({
  from: m.from,
  body: m.body,
  receivedAt: new Date(Math.floor(m.at / 1000) * 1000).toISOString(),
});

t.test(
  'more new messages than a page between two polls, then the clock set back: each in /api/inbox once, in order',
  async (t) => {
    await holdPort8080(t);
    const fake = fakeTermux(t, ['termux-sms-send', 'termux-sms-list', 'termux-telephony-deviceinfo']);
    fake.output('termux-telephony-deviceinfo', '{"phone_count": 1}');
    fake.mode('termux-sms-list', 'inbox');
    const lines: string[] = [];
    /** New messages join the store at once (a poll reads either the old store or the new one). */
    const arrive = (...sms: { from: string; at: number; body: string }[]) => {
      lines.push(...sms.map((s) => `${s.from}\t${phoneDate(s.at)}\t${s.body}\n`));
      const tmp = join(fake.state, 'inbox.tmp');
      writeFileSync(tmp, lines.join(''));
      renameSync(tmp, join(fake.state, 'inbox'));
    };
    const start = Date.now();
    arrive(...[1, 2, 3].map((i) => ({ from: '+15550000001', at: start - 86_400_000 + i * 60_000, body: `old ${i}` })));

    const env: NodeJS.ProcessEnv = {
      ...fake.env,
      SMS_GATEWAY_HOME: tempDir(t),
      SMS_GATEWAY_INBOX: 'true',
      SMS_GATEWAY_INBOX_POLL_SECONDS: '1',
      TZ: 'UTC',
    };
    const caller = '127.0.0.70';
    const gw = await startGateway(t, env, caller);
    const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();
    const auth = { authorization: `Bearer ${key}` };
    const inboxCheck = async () =>
      JSON.parse((await httpGet('/api/diagnostics', auth, caller)).body).data.checks.webhooks.value.inbox;
    /** GET /api/inbox, every page, oldest first (it lists newest first). */
    const stored = async (): Promise<Stored[]> => {
      const out: Stored[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = JSON.parse((await httpGet(`/api/inbox?limit=100&offset=${offset}`, auth, caller)).body);
        out.push(...page.data);
        if (!page.pagination.hasNext) return out.reverse();
      }
    };
    /** Until the inbox watcher finished another poll (one that began after the latest one ended). */
    const nextPoll = async () => {
      const from = (await inboxCheck()).lastPollAt as string;
      await waitFor(
        'another inbox poll',
        async () => ((await inboxCheck()).lastPollAt !== from ? true : undefined),
        30_000,
        POLL_MS,
      );
    };

    // The first poll sets the baseline: the three old messages are never replayed.
    await waitFor(
      'the first inbox poll',
      async () => ((await inboxCheck())?.lastOk ? true : undefined),
      30_000,
      POLL_MS,
    );

    // 250 arrive between two polls (one page holds 100), dated as they came, 10 ms apart.
    const t0 = Date.now();
    const burst = Array.from({ length: 250 }, (_, i) => ({
      from: `+1555010${String(i % 7)}`,
      at: t0 + i * 10,
      body: `burst ${i + 1}`,
    }));
    arrive(...burst);
    // Past the deadline the comparison below says which ones are missing.
    await waitFor(
      '250 messages received',
      async () => ((await inboxCheck()).received >= 250 ? true : undefined),
      15_000,
      POLL_MS,
    ).catch(() => {});
    const afterBurst = await stored();
    t.same(
      afterBurst.map((m) => m.body),
      burst.map((m) => m.body),
      'every one of the 250, once, in the order they arrived',
    );
    t.match(afterBurst, burst.map(shown), 'with their sender and time');

    // The phone's clock moves back ten minutes: two more arrive, dated before all 250 (so they
    // sort below them, on the third page), and are still announced.
    const back = [
      { from: '+15550200000', at: t0 - 600_000, body: 'after the clock moved back' },
      { from: '+15550200000', at: t0 - 599_000, body: 'and one more' },
    ];
    arrive(...back);
    await waitFor(
      'the two messages of the moved-back clock',
      async () => ((await inboxCheck()).received >= 252 ? true : undefined),
      15_000,
      POLL_MS,
    ).catch(() => {});
    const afterBack = await stored();
    await nextPoll(); // a message announced twice would show now
    const final = await stored();
    t.same(final, afterBack, 'nothing more in later polls');
    t.same(
      final.map((m) => m.body),
      [...burst, ...back].map((m) => m.body),
      'each once, none of the old ones',
    );
    t.match(final.slice(250), back.map(shown), 'with their sender and time');
    t.match(
      await inboxCheck(),
      { lastOk: true, consecutiveFailures: 0, received: 252, backlogFrom: null },
      'the watcher counted 252, no failed poll, no backlog',
    );
    const offsets = fake.calls('termux-sms-list').map((c) => Number(c.argv[c.argv.indexOf('-o') + 1]));
    t.ok(offsets.includes(200), 'the third page was read');
    t.comment(`${Date.now() - start} ms from the start`);

    gw.proc.kill('SIGTERM');
    t.equal(await gw.exited, 0);
  },
);
