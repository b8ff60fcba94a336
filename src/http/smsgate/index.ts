// The SMSGate-compatible routes as one route group (http/route-group.ts): their files in
// registration order, the Basic-or-Bearer key check and SMSGate's error shape. Adding a route
// of the dialect: a new file here exporting a RouteFile and its line in SMSGATE_ROUTE_FILES.
import type { RouteFile } from '../route-parts.js';
import { routeGroup } from '../route-group.js';
import { smsgateKeyCheck } from './credential.js';
import { smsgateErrorHandler } from './answers.js';
import { routes as device } from './device.js';
import { routes as inbox } from './inbox.js';
import { routes as logs } from './logs.js';
import { routes as settings } from './settings.js';
import { routes as webhooks } from './webhooks.js';
import { routes as inboxExport } from './inbox-export.js';
import { routes as sendMessage } from './send-message.js';
import { routes as listMessages } from './list-messages.js';
import { routes as getMessage } from './get-message.js';
import { routes as cancelMessage } from './cancel-message.js';

/** The dialect's route files, in the order /openapi.json lists them. */
export const SMSGATE_ROUTE_FILES: readonly RouteFile[] = [
  sendMessage,
  listMessages,
  getMessage,
  cancelMessage,
  webhooks,
  settings,
  inboxExport,
  device,
  inbox,
  logs,
];

export const smsgateRoutes: RouteFile = routeGroup({
  keyCheck: smsgateKeyCheck,
  errorHandler: smsgateErrorHandler,
  routes: SMSGATE_ROUTE_FILES,
});
