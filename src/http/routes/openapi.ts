// GET /openapi.json: the OpenAPI 3 document generated from the routes' zod schemas.
// Behind the guard and the key like every route but /health.
import type { FastifyInstance } from 'fastify';

export async function openapiRoutes(app: FastifyInstance) {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
