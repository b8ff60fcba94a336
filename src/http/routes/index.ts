// The routes table: every file of this folder, by its name, in the order they register (the
// order /openapi.json lists them in). server/app.ts registers the table after the guards'
// hook; a route file never edits app.ts. Adding a route: a new file exporting `routes`
// (a RouteFile, http/route-parts.ts) and its line below; test/http/route-table.test.ts fails
// while a file of this folder is missing here or its routes are missing from /openapi.json.
import type { RouteFile } from '../route-parts.js';
import { routes as health } from './health.js';
import { routes as openapi } from './openapi.js';
import { routes as send } from './send.js';
import { routes as queue } from './queue.js';
import { routes as messages } from './messages.js';
import { routes as stats } from './stats.js';
import { routes as device } from './device.js';
import { routes as inbox } from './inbox.js';
import { routes as webhooks } from './webhooks.js';
import { routes as metrics } from './metrics.js';
import { routes as key } from './key.js';
import { routes as consolePage } from './console.js';
import { routes as optOuts } from './opt-outs.js';
import { routes as rules } from './rules.js';
import { routes as receivers } from './receivers.js';
import { routes as smsgate } from './smsgate.js';

/** File name (without .ts) -> its `routes`. */
export const ROUTE_FILES: Readonly<Record<string, RouteFile>> = {
  health,
  openapi,
  send,
  queue,
  messages,
  stats,
  device,
  inbox,
  webhooks,
  metrics,
  key,
  console: consolePage,
  'opt-outs': optOuts,
  rules,
  receivers,
  smsgate,
};
