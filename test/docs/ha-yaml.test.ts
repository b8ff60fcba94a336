// The docs' Home Assistant examples in one YAML style, the one Home Assistant's own docs use
// since 2024.10 (source/_docs/automation/yaml.markdown of home-assistant.io): `triggers:`
// with `- trigger: state`, `conditions:` with `- condition: template`, `actions:` with
// `- action: notify.send_message`. The older keys still load in Home Assistant, but a page
// mixing both leaves a reader unsure which to copy: `service:` (an action), a block under a
// singular `trigger:`/`condition:`/`action:` (or an automation's template `condition:`), and
// `platform:` inside a trigger list fail here. `platform: rest` under `notify:` is an
// integration's configuration, not an automation, and stays.
import t from 'tap';
import { blocks, pages } from './pages.js';

/** Home Assistant's keys whose value names a trigger, condition or action in the current style. */
const NAMING_KEYS = new Set(['trigger', 'condition', 'action']);
/** A trigger type, condition type or action name (`state`, `notify.send_message`). */
const NAME = /^[a-z_]+(\.[a-z0-9_]+)?$/;

interface Line {
  column: number;
  key: string;
  value: string;
}

/** Each `key: value` line of a YAML block with the column of its key (a list dash counts as indentation). */
function keyLines(yaml: string): (Line | undefined)[] {
  return yaml.split('\n').map((text) => {
    const m = /^(\s*)(- +)?([A-Za-z_][\w-]*):(?:\s+(.*))?$/.exec(text);
    if (!m) return undefined;
    return { column: m[1]!.length + (m[2]?.length ?? 0), key: m[3]!, value: (m[4] ?? '').replace(/\s+#.*$/, '').trim() };
  });
}

/** The old-style keys in one YAML block, as "line N: why". */
function oldStyleKeys(yaml: string): string[] {
  const found: string[] = [];
  const parents: Line[] = [];
  keyLines(yaml).forEach((line, i) => {
    if (!line) return;
    while (parents.length > 0 && parents.at(-1)!.column >= line.column) parents.pop();
    const where = `line ${i + 1}`;
    if (line.key === 'service') found.push(`${where}: \`service: ${line.value}\` is \`action:\` now`);
    if (NAMING_KEYS.has(line.key) && !NAME.test(line.value)) {
      found.push(`${where}: \`${line.key}:\` ${line.value === '' ? 'holding a list' : `holding ${line.value}`} is \`${line.key}s:\` now`);
    }
    if (line.key === 'platform' && parents.some((p) => p.key === 'trigger' || p.key === 'triggers')) {
      found.push(`${where}: \`platform: ${line.value}\` in a trigger is \`trigger: ${line.value}\` now`);
    }
    parents.push(line);
  });
  return found;
}

/** A YAML block is a Home Assistant example when it holds an automation or an integration's configuration. */
const isHomeAssistant = (yaml: string) => /^\s*(- +)?(alias|triggers?|actions?|automation|rest_command|notify):/m.test(yaml);

t.test('the checker knows the two styles apart', async (t) => {
  const old = [
    'automation:',
    '  - alias: "Old"',
    '    trigger:',
    '      - platform: webhook',
    '        webhook_id: abc',
    '    condition: "{{ trigger.json.type == \'sms.received\' }}"',
    '    action:',
    '      - service: notify.notify',
  ].join('\n');
  t.same(oldStyleKeys(old).length, 5, `five old keys: ${oldStyleKeys(old).join('; ')}`);
  const current = [
    'alias: New',
    'triggers:',
    '  - trigger: webhook',
    '    webhook_id: abc',
    'conditions:',
    '  - condition: template',
    '    value_template: "{{ true }}"',
    'actions:',
    '  - choose:',
    '      - conditions:',
    '          - condition: trigger',
    '            id: sms',
    '        sequence:',
    '          - action: notify.send_message',
  ].join('\n');
  t.same(oldStyleKeys(current), []);
  t.same(oldStyleKeys('notify:\n  - name: sms_alice\n    platform: rest\n'), [], "an integration's platform is no trigger");
});

t.test("every Home Assistant example in the docs is in Home Assistant's current style", async (t) => {
  let examples = 0;
  for (const page of pages()) {
    for (const yaml of blocks(page.text, 'yaml')) {
      if (!isHomeAssistant(yaml)) continue;
      examples++;
      t.same(oldStyleKeys(yaml), [], `${page.path}: the example starting "${yaml.split('\n')[0]}"`);
    }
  }
  t.ok(examples >= 5, `${examples} Home Assistant examples checked (home-assistant.md has five)`);
});
