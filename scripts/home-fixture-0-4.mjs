// What 0.4.0's home holds beyond the earlier versions' (scripts/make-home-fixtures.mjs runs it in
// 0.4.0's first run): keyword rules, the opt-out list (by the API and by a received STOP, one
// number taken off again), a queued message to a number that opted out after it was queued,
// and received SMS that carry a rule's keyword or reply to a tagged message.
import { api, expectStatus, simulateReceive, waitFor } from './home-fixture-calls.mjs';

/** 0.4.0's settings on top of the earlier ones: a received STOP opts out, confirmed by no SMS. */
export const FOUR_ENV = { SMS_GATEWAY_OPT_OUT: 'true', SMS_GATEWAY_OPT_OUT_REPLY: '' };
export const SENT_TAGS = { order: '1042', shop: 'north' };
export const QUEUED_TAGS = { batch: 'reminders' };

const OPTED_OUT_BY_API = '+15550006001';
const OPTED_OUT_BY_STOP = '+15550006002';
const OPTED_BACK_IN = '+15550006003';
const RULE_SENDER = '+15550007001';

async function addRules(key, version, made) {
  const rules = [
    { keyword: 'STATUS', match: 'prefix', reply: `${version} rule reply` },
    { keyword: 'PING', match: 'exact', reply: '', from: [RULE_SENDER] },
  ];
  made.rules = [];
  for (const rule of rules) made.rules.push((await expectStatus(201, api(key, 'POST', '/api/rules', rule))).data);
}

/** A message queued to a number that opts out before its sendAt: it must never be handed off. */
async function queueThenOptOut(key, version, made) {
  const message = `${version} queued to opted out`;
  const body = { to: OPTED_OUT_BY_API, message, sendAt: made.sendAt, tags: QUEUED_TAGS };
  const waiting = await expectStatus(202, api(key, 'POST', '/api/messages', body));
  made.blocked = [{ id: waiting.data[0].id, to: OPTED_OUT_BY_API, message, tags: QUEUED_TAGS }];
  await expectStatus(201, api(key, 'POST', '/api/opt-outs', { number: OPTED_OUT_BY_API }));
  await expectStatus(201, api(key, 'POST', '/api/opt-outs', { number: OPTED_BACK_IN }));
  await expectStatus(204, api(key, 'DELETE', `/api/opt-outs/${encodeURIComponent(OPTED_BACK_IN)}`));
}

/** A STOP, a rule's keyword and a reply to the tagged sent message, received in that order. */
async function receiveFour(dir, env, key, version, made) {
  simulateReceive(dir, env, OPTED_OUT_BY_STOP, 'STOP');
  await waitFor('the STOP', async () => (await api(key, 'GET', '/api/opt-outs')).json.pagination.total === 2);
  simulateReceive(dir, env, RULE_SENDER, 'ping');
  simulateReceive(dir, env, made.sent[0].to, `${version} reply`);
  await waitFor('the inbox', async () => (await api(key, 'GET', '/api/inbox')).json.data.length === 5);
  made.received = (await api(key, 'GET', '/api/inbox')).json.data.map((m) => ({
    id: m.id,
    from: m.from,
    body: m.body,
    ...(m.keyword ? { keyword: m.keyword } : {}),
    ...(m.inReplyTo ? { inReplyTo: m.inReplyTo } : {}),
  }));
  made.optOuts = (await api(key, 'GET', '/api/opt-outs')).json.data.map((o) => ({ number: o.number, by: o.by }));
  made.optedBackIn = [OPTED_BACK_IN];
}

export async function fourSteps(dir, env, key, version, made) {
  await addRules(key, version, made);
  await queueThenOptOut(key, version, made);
  await receiveFour(dir, env, key, version, made);
}
