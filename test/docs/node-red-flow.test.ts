// docs/node-red-flow.json against the API it talks to: every http request node asks for a
// route /openapi.json declares, with the API key as a Bearer header (and JSON for a body)
// set by the change node before it; the bodies the flow sends are accepted (202); the
// http-in receiver answers the gateway's webhook POSTs with a 2xx and knows every event type;
// every MQTT topic is one the gateway uses (src/mqtt/topics.ts), and the MQTT send is a
// queue request the API accepts.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventType } from '../../src/store/event-record.js';
import { topicsFor } from '../../src/mqtt/topics.js';
import { ROOT } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';

interface FlowNode {
  id: string;
  type: string;
  wires?: string[][];
  [field: string]: unknown;
}
interface Rule {
  t: string;
  p: string;
  to: string;
  tot: string;
}

const flow = JSON.parse(readFileSync(join(ROOT, 'docs/node-red-flow.json'), 'utf8')) as FlowNode[];
const byType = (type: string) => flow.filter((n) => n.type === type);
/** The nodes wired into `id`. */
const upstream = (id: string) => flow.filter((n) => n.wires?.some((out) => out.includes(id)));
const KEY_RULE = '"Bearer " & $env("SMS_GATEWAY_KEY")';
const EVENT_TYPES: Record<EventType, true> = { 'sms.sent': true, 'sms.failed': true, 'sms.received': true, 'gateway.test': true };

/** The headers the change nodes before a request node set: name -> rule. */
function headersFor(request: FlowNode): Map<string, Rule> {
  const out = new Map<string, Rule>();
  for (const change of upstream(request.id).filter((n) => n.type === 'change')) {
    for (const rule of change.rules as Rule[]) {
      if (rule.t === 'set' && rule.p.startsWith('headers.')) out.set(rule.p.slice('headers.'.length), rule);
    }
  }
  return out;
}

/** The inject node at the start of a request's chain (through its change node). */
function injectOf(node: FlowNode): FlowNode | undefined {
  for (const before of upstream(node.id)) {
    if (before.type === 'inject') return before;
    const found = injectOf(before);
    if (found) return found;
  }
  return undefined;
}

/** Does an MQTT topic filter match a topic? */
export function filterMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const parts = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= parts.length || (f[i] !== '+' && f[i] !== parts[i])) return false;
  }
  return f.length === parts.length;
}

t.test('the flow is an importable Node-RED export: one tab, unique ids, wires to existing nodes', async (t) => {
  const ids = flow.map((n) => n.id);
  t.equal(new Set(ids).size, ids.length, 'unique ids');
  t.equal(byType('tab').length, 1);
  for (const n of flow) for (const out of n.wires ?? []) for (const to of out) t.ok(ids.includes(to), `${n.id} -> ${to} exists`);
  for (const type of ['inject', 'change', 'http request', 'http in', 'http response', 'switch', 'mqtt in', 'mqtt out']) t.ok(byType(type).length > 0, `a ${type} node`);
});

t.test('every http request: a declared route, the Bearer key and JSON headers, a body the API accepts', async (t) => {
  const { app, get, key } = await testApp(t, { inbox: true });
  const doc = (await get('/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
  const requests = byType('http request');
  t.ok(requests.length >= 2);
  for (const request of requests) {
    const url = new URL(request.url as string);
    const method = (request.method as string).toLowerCase();
    t.equal(url.port, '8080', `${request.name}: the gateway's port`);
    t.ok(doc.paths[url.pathname]?.[method], `${request.name}: ${method.toUpperCase()} ${url.pathname} is declared`);
    t.equal(request.ret, 'obj', `${request.name}: parses the JSON answer`);
    const headers = headersFor(request);
    t.match(headers.get('Authorization'), { tot: 'jsonata', to: KEY_RULE }, `${request.name}: Authorization: Bearer <key from the environment>`);
    const inject = injectOf(request);
    t.ok(inject, `${request.name}: an inject node starts it`);
    if (method === 'get') {
      const res = await app.inject({ url: url.pathname + url.search, remoteAddress: '192.168.1.30', headers: { authorization: `Bearer ${key}` } });
      t.equal(res.statusCode, 200, `${request.name}: GET ${url.pathname}${url.search} answers 200`);
      continue;
    }
    t.match(headers.get('Content-Type'), { tot: 'str', to: 'application/json' }, `${request.name}: Content-Type JSON`);
    t.equal(inject!.payloadType, 'json');
    const res = await app.inject({
      method: method.toUpperCase() as 'POST',
      url: url.pathname,
      remoteAddress: '192.168.1.30',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: inject!.payload as string,
    });
    t.equal(res.statusCode, 202, `${request.name}: the body it sends is queued (${res.body})`);
  }
});

t.test('the events receiver: POST, answered 2xx at once, split by every event type', async (t) => {
  const [receiver] = byType('http in');
  t.equal(receiver!.method, 'post');
  t.match(receiver!.url, /^\/[\w/-]+$/);
  const next = flow.filter((n) => receiver!.wires![0]!.includes(n.id));
  const response = next.find((n) => n.type === 'http response');
  t.match(response?.statusCode, /^2\d\d$/, 'a 2xx: delivered (anything else is retried)');
  const split = next.find((n) => n.type === 'switch');
  t.equal(split?.property, 'payload.type');
  t.same(((split!.rules as { v: string }[]).map((r) => r.v)).sort(), Object.keys(EVENT_TYPES).sort(), 'every event type, nothing else');
});

t.test("every MQTT topic is the gateway's, and the MQTT send is a queue request the API accepts", async (t) => {
  const topics = topicsFor('sms-gateway', 'gw-k3m9x2p7qa');
  const gatewayTopics = [
    topics.availability, topics.send, topics.sharedSend, topics.errors, topics.state, topics.lastReceived,
    ...Object.keys(EVENT_TYPES).map((type) => topics.event(type)), topics.notify('alice'),
  ];
  const [broker] = byType('mqtt-broker');
  t.equal(broker!.protocolVersion, '5', 'MQTT 5, as the gateway speaks');
  for (const node of byType('mqtt in')) {
    t.ok(gatewayTopics.some((topic) => filterMatches(node.topic as string, topic)), `${node.name}: ${node.topic as string} matches a gateway topic`);
    t.equal(node.broker, broker!.id);
  }
  const [out] = byType('mqtt out');
  t.equal(out!.topic, topics.sharedSend, 'publishes to the shared send topic');
  t.equal(out!.retain, 'false', 'never retained (a retained send is refused)');
  t.equal(out!.qos, '1');
  const { queue } = await testApp(t);
  const { id, ...body } = JSON.parse(injectOf(out!)!.payload as string) as { id: string };
  t.type(id, 'string', 'an id, the Idempotency-Key of MQTT');
  const res = await queue(body, { 'idempotency-key': id });
  t.equal(res.statusCode, 202, `the MQTT send's body is queued (${res.body})`);
});

t.test('the topic matcher can say no', async (t) => {
  t.ok(filterMatches('sms-gateway/+/events/#', 'sms-gateway/gw-1/events/sms.sent'));
  t.notOk(filterMatches('sms-gateway/+/event/#', 'sms-gateway/gw-1/events/sms.sent'));
  t.notOk(filterMatches('sms-gateway/send/x', 'sms-gateway/send'));
});
