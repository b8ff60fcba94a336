// The docs' ```sh blocks run as written (issue 23): every command test/docs/shell-classes.ts
// classifies as runnable runs, without a shell, against one real `sms-gateway start` in
// simulated mode with its inbox watcher on (README: `SMS_GATEWAY_INBOX=true npm start`), in
// page order, after the variables the docs set ($KEY, $GW). Each must exit 0 (or the code its
// comment names) and each curl must get the status the docs show, else a 2xx.
import t from 'tap';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { classify, docCommands } from '../docs/shell-classes.js';
import { parseCommands } from '../docs/shell-words.js';
import { assign, newSession, onSystemPath, run } from '../docs/shell-run.js';

const commands = docCommands().filter((c) => 'run' in classify(c));

const noCurl = onSystemPath('curl')
  ? false
  : "curl is not installed (looked in /usr/local/bin, /usr/bin, /bin): nothing to run the docs' curl examples with";

t.test(
  'every runnable command of the docs runs as written against a simulated gateway',
  { skip: noCurl },
  async (t) => {
    const session = newSession(t);
    await holdPort8080(t);
    await startGateway(t, { ...session.env, SMS_GATEWAY_INBOX: 'true' });

    for (const c of commands.filter((c) => c.assigns))
      t.equal(await assign(c, session), undefined, `${c.page}: ${c.text}`);
    let ran = 0;
    for (const c of commands.filter((c) => !c.assigns)) {
      t.equal(await run(c, session), undefined, `${c.page}: ${c.text}`);
      ran++;
    }
    t.ok(ran >= 25, `${ran} commands ran`);

    await t.test(
      'and a broken copy of a command fails: a wrong route, status, field or flag, an unset variable',
      async (t) => {
        const [route, status, field, flag, variable] = parseCommands(
          [
            `curl -X POST $GW/api/sms/sned -H "Authorization: Bearer $KEY" -d '{"to":"+15551234567","message":"x"}'`,
            `curl -X DELETE -H "Authorization: Bearer $KEY" $GW/api/webhooks/wh_01m7z1d3r5c9s3j57k4fmz5wy0   # 204`,
            `curl $GW/health`,
            `# {"status":"ok","smsEnabled":true,"simulated":true}`,
            `sms-gateway send +15551234567 "Hello" --simm 2`,
            `curl -H "Authorization: Bearer $APIKEY" $GW/api/stats`,
          ].join('\n'),
        );
        t.match(await run(route!, session), /^answered 404, the docs imply a 2xx: \{"success":false/);
        t.match(await run(status!, session), /^answered 404, the docs show 204: /, 'that target was removed above');
        t.equal(await run(field!, session), 'the docs show fields the answer does not have: simulated');
        t.match(await run(flag!, session), /^exited 2, the docs say 0: /);
        t.equal(await run(variable!, session), '$APIKEY is set by no command of the docs');
      },
    );
  },
);
