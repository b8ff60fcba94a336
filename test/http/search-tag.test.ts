// The history's tag filter through the real route (GET /api/messages?tag=key:value): a tag's
// value compared exactly, a key with dots, a value with colons, combined with q and status,
// the total counting the filtered messages, and a bad tag refused with 400 naming it.
import t, { type Test } from 'tap';
import { testApp } from '../helpers/test-app.js';

async function tagged(t: Test) {
  const a = await testApp(t);
  const sends = [
    { to: '+15550001', message: 'garage door open', tags: { alarm: 'home' } },
    { to: '+15550002', message: 'garage door closed', tags: { alarm: 'home', room: 'garage' } },
    { to: '+15550003', message: 'office door open', tags: { alarm: 'office' } },
    { to: '+15550004', message: 'no tags at all' },
    { to: '+15550005', message: 'a dotted key', tags: { 'site.zone': 'a:b' } },
    { to: '+15550006', message: 'upper case', tags: { alarm: 'HOME' } },
  ];
  for (const body of sends) t.equal((await a.send(body)).statusCode, 200, body.message);
  const texts = async (query: string) => {
    const res = await a.get(`/api/messages?limit=100&${query}`);
    t.equal(res.statusCode, 200, query);
    const page = res.json();
    t.equal(page.pagination.total, page.data.length, `${query}: the total counts the filtered messages`);
    return page.data.map((m: { body: string }) => m.body) as string[];
  };
  return { ...a, texts };
}

t.test('tag=key:value: only messages carrying that tag, the value exact', async (t) => {
  const { texts } = await tagged(t);
  t.same(await texts('tag=alarm:home'), ['garage door closed', 'garage door open']);
  t.same(await texts('tag=alarm:office'), ['office door open']);
  t.same(await texts('tag=alarm:hom'), [], 'no part of a value');
  t.same(await texts('tag=room:garage'), ['garage door closed']);
  const dotted = await texts(`tag=${encodeURIComponent('site.zone:a:b')}`);
  t.same(dotted, ['a dotted key'], 'a dotted key; the value after the first colon');
  t.same(await texts('tag=nothing:home'), []);
});

t.test('tag with q and status', async (t) => {
  const { texts } = await tagged(t);
  t.same(await texts('tag=alarm:home&q=closed'), ['garage door closed']);
  t.same(await texts('tag=alarm:home&status=sent'), ['garage door closed', 'garage door open']);
  t.same(await texts('tag=alarm:home&status=failed'), []);
});

t.test('a bad tag: 400 invalid_request naming it', async (t) => {
  const { get } = await tagged(t);
  for (const bad of ['alarm', ':home', 'al arm:home', `a:${'x'.repeat(65)}`, `${'k'.repeat(33)}:v`]) {
    const res = await get(`/api/messages?tag=${encodeURIComponent(bad)}`);
    t.equal(res.statusCode, 400, bad);
    t.equal(res.json().error.code, 'invalid_request');
    t.match(res.json().error.message, /querystring\.tag/);
  }
  const twice = await get('/api/messages?tag=a:1&tag=b:2');
  t.equal(twice.statusCode, 400, 'one tag at a time');
});
