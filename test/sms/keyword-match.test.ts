// Keyword matching (sms/keyword-match.ts): case and surrounding spaces ignored, exact is the
// whole text, prefix is the keyword then the end, a space or punctuation; `from` restricts
// who triggers a rule; opt-out keywords win when SMS_GATEWAY_OPT_OUT is on; the oldest wins.
import t from 'tap';
import { matchRule, senderMatches, textMatches } from '../../src/sms/keyword-match.js';

const off = { enabled: false, helpReply: '' };
const on = { enabled: true, helpReply: '' };

t.test('exact: the whole text, any case, surrounding spaces ignored', async (t) => {
  const rule = { keyword: 'Status', match: 'exact' as const };
  for (const text of ['status', 'STATUS', '  Status \n', '\tsTaTuS']) t.ok(textMatches(rule, text), text);
  for (const text of ['status garage', 'statuses', 'status?', 'my status', 'stat us', ''])
    t.notOk(textMatches(rule, text), text);
});

t.test('prefix: the keyword then its end, a space or punctuation', async (t) => {
  const rule = { keyword: 'STATUS', match: 'prefix' as const };
  for (const text of [
    'status',
    'status garage',
    ' STATUS  of the house',
    'Status, please',
    'status?',
    'status:garage',
    'status\ngarage',
  ]) {
    t.ok(textMatches(rule, text), JSON.stringify(text));
  }
  for (const text of ['statuses', 'STATUS2', 'statusgarage', 'my status', 'stat'])
    t.notOk(textMatches(rule, text), JSON.stringify(text));
});

t.test('from: anyone when absent, else only the listed numbers (normalized)', async (t) => {
  t.ok(senderMatches({ from: null }, 'DHL'));
  const rule = { from: ['+4915112345678'] };
  t.ok(senderMatches(rule, '+49 151 1234-5678'));
  t.ok(senderMatches(rule, '4915112345678'), 'the same digits without +');
  t.ok(senderMatches({ from: ['4915112345678'] }, '+4915112345678'), 'and with it');
  t.notOk(senderMatches(rule, '+4915112345679'));
  t.notOk(senderMatches(rule, '015112345678'), 'a national form is another number');
  t.notOk(senderMatches(rule, 'ACME'));
  t.notOk(senderMatches(rule, null));
});

t.test('opt-out keywords win with SMS_GATEWAY_OPT_OUT on; HELP only when it is answered', async (t) => {
  const stop = [{ keyword: 'STOP', match: 'exact' as const, from: null }];
  t.equal(matchRule(stop, { from: '+15551230001', body: 'stop' }, off), stop[0], 'off: the rule matches');
  t.equal(matchRule(stop, { from: '+15551230001', body: 'stop' }, on), null, 'on: the opt-out keyword wins');
  const start = [{ keyword: 'START', match: 'prefix' as const, from: null }];
  t.equal(matchRule(start, { from: '+15551230001', body: 'Start!' }, on), null);
  t.equal(
    matchRule(start, { from: '+15551230001', body: 'start the heating' }, on),
    start[0],
    'not an opt-out keyword: the rule matches',
  );
  const help = [{ keyword: 'HELP', match: 'exact' as const, from: null }];
  t.equal(
    matchRule(help, { from: '+15551230001', body: 'help' }, on),
    help[0],
    'HELP not answered by the opt-out feature: the rule',
  );
  t.equal(
    matchRule(help, { from: '+15551230001', body: 'help' }, { enabled: true, helpReply: 'Texts from ACME.' }),
    null,
  );
});

t.test('the oldest matching rule wins; a rule whose from excludes the sender is passed over', async (t) => {
  const rules = [
    { id: 'a', keyword: 'STATUS', match: 'exact' as const, from: ['+4915112345678'] },
    { id: 'b', keyword: 'STATUS', match: 'prefix' as const, from: null },
    { id: 'c', keyword: 'status', match: 'exact' as const, from: null },
  ];
  t.equal(matchRule(rules, { from: '+4915112345678', body: 'status' }, off)?.id, 'a');
  t.equal(matchRule(rules, { from: '+15551230001', body: 'status' }, off)?.id, 'b');
  t.equal(matchRule(rules, { from: '+15551230001', body: 'statuses' }, off), null);
});
