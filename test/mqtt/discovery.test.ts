// Home Assistant discovery configs without a broker: two phones whose ids differ only in
// `-` and `_` must be two devices with their own unique ids and config topics.
import t from 'tap';
import { discoveryConfigs } from '../../src/mqtt/discovery.js';
import { topicsFor } from '../../src/mqtt/topics.js';

const configsOf = (gatewayId: string) =>
  discoveryConfigs({
    gatewayId,
    topics: topicsFor('sms-gateway', gatewayId),
    contacts: [{ name: 'Alice', slug: 'alice', number: '+15551230001' }],
    version: '0.2.0',
  });

t.test('ids that differ only in - and _ give two devices, nothing shared', async (t) => {
  const a = configsOf('phone-1');
  const b = configsOf('phone_1');
  const shared = (pick: (c: (typeof a)[number]) => string) => {
    const seen = new Set(a.map(pick));
    return b.map(pick).filter((x) => seen.has(x));
  };
  t.equal(a.length, 9, 'seven sensors, the received SMS event and one notify each');
  t.same(
    shared((c) => c.topic),
    [],
    'no config topic in common',
  );
  t.same(
    shared((c) => String(c.config.unique_id)),
    [],
    'no unique_id in common',
  );
  t.same(
    shared((c) => JSON.stringify((c.config.device as { identifiers: string[] }).identifiers)),
    [],
    'two devices',
  );
});

t.test('every config topic has the shape Home Assistant accepts', async (t) => {
  // Home Assistant's discovery drops any other topic ("illegal discovery topic"):
  // <prefix>/<component>/[<node_id>/]<object_id>/config, ids of [a-zA-Z0-9_-].
  const legal = /^homeassistant\/\w+\/(?:[a-zA-Z0-9_-]+\/)?[a-zA-Z0-9_-]+\/config$/;
  for (const id of ['gw-k3m9x2p7qa', 'Phone_2', 'a-b_c-9']) {
    for (const c of configsOf(id)) t.match(c.topic, legal, c.topic);
  }
});
