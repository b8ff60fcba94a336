// Automatic answers go only to numbers libphonenumber-js (full metadata) classifies as mobile
// or fixed line, national forms read in the SIM's country: the issue's premium-rate, UAN and
// short numbers get nothing, and one number in any of its forms is one sender to the limits.
import t, { type Test } from 'tap';
import { TELEPHONY } from '../fixtures/phone.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { withSimulatedInbox } from '../helpers/received-sms.js';

/** A gateway with a rule that answers HI, whose phone told its SIM's country (`null`: it never did). */
async function withSim(t: Test, country: string | null) {
  const fake = fakeTermux(t, ['termux-telephony-deviceinfo']);
  const sim = `"sim_country_iso": "${country ?? ''}"`;
  fake.output('termux-telephony-deviceinfo', TELEPHONY.replace('"sim_country_iso": "de"', sim));
  const a = await withSimulatedInbox(t, { probeEnv: fake.env });
  if (country !== null) await a.probes.get(['telephony']);
  const payload = { keyword: 'HI', reply: 'hello' };
  const rule = await a.app.inject({ method: 'POST', url: '/api/rules', headers: a.auth, payload });
  t.equal(rule.statusCode, 201);
  return a;
}

const skipped = async (a: Awaited<ReturnType<typeof withSim>>, reason: string) => {
  const series = new RegExp(`sms_gateway_auto_replies_skipped_total\\{reason="${reason}"\\} (\\d+)`);
  const m = series.exec((await a.get('/metrics')).body);
  return Number(m?.[1] ?? 0);
};

t.test("the issue's numbers get no automatic answer: premium-rate, UAN, a short number", async (t) => {
  const a = await withSim(t, 'de');
  for (const from of ['+19005550100', '09001234567', '+882123456789', '1234567']) await a.receive(from, 'hi');
  t.same(await a.messages(), [], 'nothing queued');
  t.equal(await skipped(a, 'number_type'), 4, 'each skipped as a number automatic messages never go to');
  await a.receive('+4915112345678', 'hi');
  t.match(await a.messages(), [{ to: '+4915112345678', body: 'hello' }], 'a mobile number is answered');
  await a.receive('030 12345678', 'hi');
  const fixedLine = { to: '+493012345678' };
  t.match((await a.messages())[0], fixedLine, 'a fixed line in its national form, read in the SIM country');
});

t.test('one number in any of its forms is one sender to the limits', async (t) => {
  const a = await withSim(t, 'de');
  for (const from of ['+12015550123', '12015550123', '0012015550123']) await a.receive(from, 'hi');
  t.match(await a.messages(), [{ to: '+12015550123', body: 'hello' }], 'one answer, to the E.164 form');
  t.equal((await a.messages()).length, 1);
  t.equal(await skipped(a, 'sender_limit'), 2, 'the other two forms are the same sender');
});

const ISSUE_FORMS = "the issue's +15550003103 in its three forms, on a US SIM: an unassigned area code, no answer";

t.test(ISSUE_FORMS, async (t) => {
  const a = await withSim(t, 'us');
  for (const from of ['+15550003103', '15550003103', '0015550003103']) await a.receive(from, 'hi');
  t.same(await a.messages(), []);
  await a.receive('12015550123', 'hi');
  t.match(await a.messages(), [{ to: '+12015550123' }], 'a national form with its trunk prefix, read in the US');
});

t.test('with no SIM country known, national forms are unknown: no answer; international ones are read', async (t) => {
  const a = await withSim(t, null);
  await a.receive('015112345678', 'hi');
  t.same(await a.messages(), [], 'a national form, no country to read it in');
  await a.receive('+4915112345678', 'hi');
  t.match(await a.messages(), [{ to: '+4915112345678' }]);
});
