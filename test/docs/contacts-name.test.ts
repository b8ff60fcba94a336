// One documented name for the named numbers: SMS_GATEWAY_CONTACTS. Its 0.2 to 0.4 name,
// SMS_GATEWAY_MQTT_CONTACTS, is still read (test/core/config.test.ts), so a page may name it
// only on a line that says so (the old name, still read) beside the new one; every other
// mention, in any page but the CHANGELOG (history), uses the new name.
import t from 'tap';
import { pages } from './pages.js';

const OLD = 'SMS_GATEWAY_MQTT_CONTACTS';

t.test('the pages name the contacts SMS_GATEWAY_CONTACTS; the old name only as the alias it is', async (t) => {
  let aliasNotes = 0;
  for (const page of pages().filter((p) => p.path !== 'CHANGELOG.md')) {
    for (const [i, line] of page.text.split('\n').entries()) {
      if (!line.includes(OLD)) continue;
      const note = line.includes('SMS_GATEWAY_CONTACTS') && /still read/.test(line);
      t.ok(note, `${page.path}:${i + 1} names ${OLD} only as the old name, still read, of SMS_GATEWAY_CONTACTS`);
      if (note) aliasNotes++;
    }
  }
  t.ok(aliasNotes >= 2, 'configuration.md and mqtt.md say the old name is still read');
});
