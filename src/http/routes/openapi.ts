// GET /openapi.json: the OpenAPI 3 document of every route. The build writes it once
// (dist/openapi.json, from the routes' zod schemas with @fastify/swagger: server/
// openapi-build.ts, options in http/openapi-document.ts); the gateway reads that file at
// the first request and sends its bytes. Behind the guard and the key like every route but
// /health.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { bearerErrors, json, JSON_CONTENT_TYPE } from '../route-docs.js';
import type { RouteFile } from '../route-parts.js';

const OpenApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
});

export const OPENAPI_FILE = join(PACKAGE_ROOT, 'dist', 'openapi.json');

/**
 * The built document's text, read once (at the first call), with `info.version` set to
 * `version` when the build's differs.
 */
export function builtDocument(version: string, file = OPENAPI_FILE): () => string {
  let text: string | undefined;
  return () => {
    if (text !== undefined) return text;
    let raw: string;
    try {
      raw = readFileSync(file, 'utf8');
    } catch (err) {
      throw new Error(`the OpenAPI document ${file} is missing: run \`npm run build\` (${(err as Error).message})`, {
        cause: err,
      });
    }
    const doc = JSON.parse(raw) as { info: { version: string } };
    if (doc.info.version !== version) {
      doc.info.version = version;
      raw = JSON.stringify(doc);
    }
    return (text = raw);
  };
}

/** The route; `document` gives the body: the built file's text, or the document itself (the build). */
export const openapiRoutes =
  (document: () => unknown): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/openapi.json',
      {
        schema: {
          operationId: 'getOpenApiDocument',
          summary: 'This document (OpenAPI 3.0)',
          tags: ['gateway'],
          response: {
            200: json('The OpenAPI document of every route.', OpenApiDocumentSchema, {
              openapi: '3.0.3',
              info: { title: 'sms-gateway', version: '0.5.0' },
            }),
            ...bearerErrors([]),
          },
        },
      },
      async (_request, reply) => {
        const body = document();
        // Text is the serialized document already: sent as it is, never serialized again.
        if (typeof body === 'string') reply.type(JSON_CONTENT_TYPE);
        return body as z.infer<typeof OpenApiDocumentSchema>;
      },
    );
  };

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ openApiDocument }) => openapiRoutes(openApiDocument);
