// GET /openapi.json: the OpenAPI 3 document generated from the routes' zod schemas
// (options in http/openapi-document.ts). Behind the guard and the key like every route
// but /health.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerErrors, json } from '../route-docs.js';

const OpenApiDocumentSchema = z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }) });

export const openapiRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/openapi.json',
    {
      schema: {
        operationId: 'getOpenApiDocument',
        summary: 'This document (OpenAPI 3.0)',
        tags: ['gateway'],
        response: {
          200: json('The OpenAPI document of every route.', OpenApiDocumentSchema, { openapi: '3.0.3', info: { title: 'sms-gateway', version: '0.2.0' } }),
          ...bearerErrors([]),
        },
      },
    },
    async () => app.swagger() as unknown as z.infer<typeof OpenApiDocumentSchema>,
  );
};
