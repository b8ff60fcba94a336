// sms-gateway send --queue: each recipient's real outcome. A number on the opt-out list is
// recorded at once as failed (opted_out), so the command must not call it queued: it names
// it, counts only what was queued, and exits 1 when nothing was. The CLI runs in this process
// against the real app listening on 127.0.0.1:8080 (under the machine-wide port lock).
import t, { type Test } from 'tap';
import { fakeClock } from '../../helpers/fake-clock.js';
import { holdPort8080 } from '../../helpers/gateway-process.js';
import { runCli } from '../../helpers/cli.js';
import { testApp } from '../../helpers/test-app.js';
import { PORT } from '../../../src/core/runtime.js';

const LISTED = '+15550100009';

async function listening(t: Test) {
  await holdPort8080(t);
  const a = await testApp(t, { clock: fakeClock(Date.now()), optOut: { enabled: true } });
  await a.app.listen({ port: PORT, host: '127.0.0.1' });
  // The CLI shares this process's fetch pool: a connection to an earlier app is used up here.
  for (let i = 0; i < 3; i++) {
    const ok = await fetch(`http://127.0.0.1:${PORT}/health`).then(
      (r) => r.text().then(() => r.ok),
      () => false,
    );
    if (ok) break;
  }
  const optOut = { method: 'POST', url: '/api/opt-outs', headers: a.auth, payload: { number: LISTED } } as const;
  t.equal((await a.app.inject(optOut)).statusCode, 201, 'the number is on the opt-out list');
  return { ...a, env: { SMS_GATEWAY_HOME: a.home } };
}

type Listening = Awaited<ReturnType<typeof listening>>;
const statusOf = async (a: Listening, id: string) => (await a.get(`/api/messages/${id}`)).json().data.status;

t.test('an opted-out number alone: "Queued none", the reason, exit 1', async (t) => {
  const a = await listening(t);
  const r = await runCli(['send', LISTED, 'Your code is 1234', '--queue'], a.env);
  t.equal(r.code, 1, 'nothing was queued: exit 1');
  const lines = r.out.split('\n');
  t.equal(lines[0], 'Queued none of 1 message:');
  t.match(lines[1], /^ {2}msg_[0-9a-z]{26} {2}\+15550100009 {2}not queued \(failed, opted_out: /);
  t.match(lines[1], / {2}not queued \(failed, opted_out: on the opt-out list, never sent\)$/);
  t.notMatch(r.out, /See them with/, 'no hint to look in the queue');
  const id = /msg_[0-9a-z]{26}/.exec(lines[1]!)![0];
  t.equal(await statusOf(a, id), 'failed', 'the record says the same');

  const json = await runCli(['send', LISTED, 'Again', '--queue', '--json'], a.env);
  t.equal(json.code, 1, '--json: exit 1 too');
  t.match(JSON.parse(json.out), [{ to: LISTED, status: 'failed', reason: 'opted_out' }]);
});

t.test('one opted-out number among two: the count and each outcome, exit 0', async (t) => {
  const a = await listening(t);
  const r = await runCli(['send', '+15550100001', LISTED, 'Reminder: dentist at 9'], a.env);
  t.equal(r.code, 0, r.err);
  const lines = r.out.split('\n');
  t.equal(lines[0], 'Queued 1 of 2 messages; the gateway sends those at its pace:');
  t.match(lines[1], /^ {2}msg_[0-9a-z]{26} {2}\+15550100001 {2}queued$/);
  t.match(lines[2], /^ {2}msg_[0-9a-z]{26} {2}\+15550100009 {2}not queued \(failed, opted_out: /);
  t.match(lines[3], /^See them with `sms-gateway queue`/);
});

t.test('every recipient queued: the summary as before, each line saying queued', async (t) => {
  const a = await listening(t);
  const r = await runCli(['send', '+15550100001', 'Hello', '--queue'], a.env);
  t.equal(r.code, 0, r.err);
  const lines = r.out.split('\n');
  t.equal(lines[0], 'Queued 1 message; the gateway sends them at its pace:');
  t.match(lines[1], /^ {2}msg_[0-9a-z]{26} {2}\+15550100001 {2}queued$/);
  t.match(lines[2], /^See them with/);
});
