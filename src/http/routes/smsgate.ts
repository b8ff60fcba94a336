// SMSGate's local API at the root (GET /message, /webhook, /device, ...): the route group of http/smsgate/.
import type { RouteFile } from '../route-parts.js';
import { smsgateRoutes } from '../smsgate/index.js';

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = smsgateRoutes;
