// The @fastify/swagger options of GET /openapi.json: info, servers, the bearer scheme (every
// route needs it unless it says `security: []`), tags, and two transforms around
// fastify-type-provider-zod's: per route, keep what it drops (response headers and
// examples, `documentedHeaders`); for the whole document, drop components nothing uses.
import type { SwaggerOptions } from '@fastify/swagger';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { PORT } from '../core/runtime.js';

type RouteTransform = ReturnType<typeof createJsonSchemaTransform>;
type DocumentTransform = ReturnType<typeof createJsonSchemaTransformObject>;
type Answer = { headers?: unknown; content?: Record<string, { example?: unknown }> };

/** A route's schema as zod's transform makes it, plus the headers and examples it leaves out. */
const transformRoute =
  (zodRoute: RouteTransform): RouteTransform =>
  (input) => {
    const source = input.schema as Record<string, unknown> | undefined;
    const documented = source?.documentedHeaders;
    const out = zodRoute(documented ? { ...input, schema: { ...source, headers: documented } } : input);
    const from = source?.response as Record<string, Answer> | undefined;
    const to = (out.schema as { response?: Record<string, Answer> } | undefined)?.response;
    if (from && to) {
      for (const [status, answer] of Object.entries(from)) {
        const target = to[status];
        if (!target) continue;
        if (answer.headers) target.headers = answer.headers;
        for (const [type, media] of Object.entries(answer.content ?? {})) {
          const into = target.content?.[type];
          if (media.example !== undefined && into) into.example = media.example;
        }
      }
    }
    if (out.schema) delete (out.schema as Record<string, unknown>).documentedHeaders;
    return out;
  };

/** Every `#/components/schemas/<name>` the value refers to. */
function refsIn(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) into.add(v.slice(21));
      else refsIn(v, into);
    }
  }
  return into;
}

/**
 * OpenAPI 3.0 accepts null for a nullable enum only when the enum lists it; zod's 3.0
 * output leaves it out (a nullable `reason` would reject its own null).
 */
function nullInNullableEnums(value: unknown): void {
  if (Array.isArray(value)) for (const v of value) nullInNullableEnums(v);
  else if (value && typeof value === 'object') {
    const schema = value as { nullable?: unknown; enum?: unknown[] };
    if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
    for (const v of Object.values(value)) nullInNullableEnums(v);
  }
}

/** A route that says `'x-optional-body': true` takes no body as well (swagger marks every body required). */
function optionalBodies(paths: unknown): void {
  for (const item of Object.values((paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>)) {
    for (const op of Object.values(item)) {
      if (!op || op['x-optional-body'] !== true) continue;
      delete op['x-optional-body'];
      if (op.requestBody) (op.requestBody as { required?: boolean }).required = false;
    }
  }
}

/** The document as zod's transform makes it, without the components no operation uses. */
const transformDocument =
  (zodDocument: DocumentTransform): DocumentTransform =>
  (input) => {
    const doc = zodDocument(input) as ReturnType<typeof zodDocument> & {
      paths?: unknown;
      components?: { schemas?: Record<string, unknown> };
    };
    nullInNullableEnums(doc.paths);
    optionalBodies(doc.paths);
    nullInNullableEnums(doc.components);
    const schemas = doc.components?.schemas;
    if (!schemas) return doc;
    const used = refsIn(doc.paths, new Set());
    // Components refer to each other: follow until nothing new is found.
    for (let size = -1; size !== used.size;) {
      size = used.size;
      for (const name of [...used]) refsIn(schemas[name], used);
    }
    doc.components!.schemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
    return doc;
  };

export function openApiOptions(version: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'sms-gateway',
        version,
        description:
          'Send SMS through an Android phone on the local network. Every route is behind the local-network guard ' +
          '(403) and a per-caller rate limit (429); every route but GET /health needs `Authorization: Bearer <key>` ' +
          '(401).',
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      servers: [
        {
          url: `http://{host}:${PORT}`,
          description: `The phone on your local network (the port is fixed at ${PORT})`,
          variables: {
            host: { default: '192.168.1.50', description: "The phone's address, as the start screen shows it" },
          },
        },
      ],
      tags: [
        { name: 'gateway', description: 'Liveness, Prometheus metrics and this document' },
        { name: 'sms', description: 'Sending, the queue, the history and the counts' },
        { name: 'phone', description: 'The phone and the health of a headless gateway' },
        { name: 'inbox', description: 'Received SMS' },
        { name: 'webhooks', description: 'Webhook targets and their test event' },
        {
          name: 'smsgate',
          description:
            "SMSGate's local API at the root, for its clients and Home Assistant integrations: Basic " +
            '(any user name, the API key as password) or Bearer; errors as { message }.',
        },
      ],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'The API key (sms-gateway key show)' },
          basic: {
            type: 'http',
            scheme: 'basic',
            description: 'Any user name with the API key as password (the SMSGate routes only)',
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: transformRoute(createJsonSchemaTransform({})),
    transformObject: transformDocument(createJsonSchemaTransformObject({})),
  };
}
