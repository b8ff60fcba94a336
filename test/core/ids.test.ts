// Ids sort by creation time, and within one millisecond in the order they were made.
import t from 'tap';
import { MESSAGE_ID_PATTERN, newId, newMessageId } from '../../src/core/ids.js';

t.test('the shape, and time order across milliseconds', async (t) => {
  const a = newMessageId(Date.UTC(2026, 10, 22, 12, 0, 0));
  const b = newMessageId(Date.UTC(2026, 10, 22, 12, 0, 0, 1));
  t.match(a, MESSAGE_ID_PATTERN);
  t.ok(a < b);
  t.match(newId('evt', 0), /^evt_0000000000[0-9a-z]{16}$/);
});

t.test('within one millisecond, ids count up in the order they were made', async (t) => {
  const at = Date.UTC(2026, 10, 22, 12, 0, 1);
  const ids = Array.from({ length: 1000 }, () => newMessageId(at));
  t.same([...ids].sort(), ids, 'sorted already');
  t.equal(new Set(ids).size, 1000, 'all different');
  t.equal(new Set(ids.map((id) => id.slice(0, 14))).size, 1, 'one time prefix');
});
