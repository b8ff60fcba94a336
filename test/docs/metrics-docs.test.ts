// docs/metrics.md and docs/grafana-dashboard.json name only series a real scrape has, and the
// table in docs/metrics.md lists every series the gateway exposes; the scrape config in
// docs/metrics.md is one Prometheus accepts (`promtool check config`, when promtool is here).
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';

const METRIC_NAME = /\b(?:sms_gateway|process)_[a-z0-9_]*[a-z0-9]\b/g;

/** Every family (# TYPE) and sample name of a scrape, with webhook targets so labelled series appear. */
async function scrapedNames(t: Parameters<typeof testApp>[0]) {
  const gw = await testApp(t, { webhookUrls: ['http://192.168.1.9:9000/hook'] });
  const res = await gw.app.inject({ url: '/metrics', remoteAddress: '192.168.1.30', headers: gw.auth });
  t.equal(res.statusCode, 200);
  const families = new Set<string>();
  const names = new Set<string>();
  for (const line of res.body.split('\n')) {
    const type = /^# TYPE (\S+) /.exec(line);
    if (type) families.add(type[1]!);
    else if (line !== '' && !line.startsWith('#')) names.add(/^[^{ ]+/.exec(line)![0]);
  }
  return { families, all: new Set([...families, ...names]) };
}

const dashboard = JSON.parse(readFileSync(join(ROOT, 'docs/grafana-dashboard.json'), 'utf8')) as {
  panels: { title: string; targets: { expr: string }[] }[];
};
const metricsDoc = readFileSync(join(ROOT, 'docs/metrics.md'), 'utf8');

t.test('the Grafana dashboard queries only series that exist', async (t) => {
  const { all } = await scrapedNames(t);
  const exprs = dashboard.panels.flatMap((p) => p.targets.map((x) => ({ panel: p.title, expr: x.expr })));
  t.ok(exprs.length >= 10, 'the dashboard has its queries');
  for (const { panel, expr } of exprs) {
    const names = expr.match(METRIC_NAME) ?? [];
    t.ok(names.length > 0, `${panel}: ${expr} names a series`);
    for (const name of names) t.ok(all.has(name), `${panel}: ${name} is scraped`);
  }
});

t.test('docs/metrics.md names only series that exist, and lists every one', async (t) => {
  const { all, families } = await scrapedNames(t);
  const named = new Set(metricsDoc.match(METRIC_NAME) ?? []);
  for (const name of named) t.ok(all.has(name), `${name} is scraped`);
  for (const family of families) t.ok(metricsDoc.includes(`| \`${family}`), `${family} has its row in the table`);
});

const noPromtool = spawnSync('promtool', ['--version']).error
  ? 'promtool is not installed here (Debian package prometheus: apt-get install prometheus; .ci/run installs it)'
  : false;

t.test('the scrape config of docs/metrics.md passes promtool check config', { skip: noPromtool }, async (t) => {
  const yaml = /```yaml\n([\s\S]*?)```/.exec(metricsDoc)?.[1];
  t.ok(yaml?.includes('authorization:') && yaml.includes('credentials:'), 'it sends the key with authorization: credentials:');
  const file = join(tempDir(t), 'prometheus.yml');
  writeFileSync(file, yaml ?? '');
  const check = spawnSync('promtool', ['check', 'config', file], { encoding: 'utf8' });
  t.equal(check.status, 0, `promtool check config (${check.stdout}${check.stderr})`);
});
