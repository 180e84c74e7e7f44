import { z } from 'zod';

/** What a server declares of one route: the zod schemas of its request and of its answers. */
export interface RouteContract {
  method: string;
  /** Fastify's form: `/v2/verifications/:id`. */
  url: string;
  summary?: string;
  body?: z.ZodType;
  querystring?: z.ZodType;
  params?: z.ZodType;
  /** Per status code; a status whose body is not JSON (a file, an event stream) is a content type. */
  response?: Record<number, z.ZodType | { contentType: string }>;
}

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/**
 * The compilers that make Fastify validate requests and serialize answers with zod schemas
 * (set with setValidatorCompiler / setSerializerCompiler): a route's declared answer is parsed
 * on its way out, so the server can only send what its contract says.
 */
export const zodValidatorCompiler =
  ({ schema }: { schema: unknown }) =>
  (data: unknown) => {
    if (!isZod(schema)) return { value: data };
    const parsed = schema.safeParse(data);
    if (parsed.success) return { value: parsed.data };
    const issue = parsed.error.issues[0];
    const error = new Error(`${issue.path.join('.') || 'body'}: ${issue.message}`);
    return { error };
  };

export const zodSerializerCompiler =
  ({ schema }: { schema: unknown }) =>
  (data: unknown) =>
    JSON.stringify(isZod(schema) ? schema.parse(data) : data);

const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });

/** Fastify's `:id` → OpenAPI's `{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** An OpenAPI 3.1 document of a route table; the schemas are the same zod schemas the server runs. */
export function openApiDocument(
  info: { title: string; version: string; description?: string },
  routes: RouteContract[],
  security?: { bearer?: boolean },
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.url);
    const operation: Record<string, unknown> = { summary: route.summary };
    const parameters: unknown[] = [];
    for (const name of route.url.match(/:([A-Za-z0-9_]+)/g) ?? []) {
      parameters.push({ name: name.slice(1), in: 'path', required: true, schema: { type: 'string' } });
    }
    if (route.querystring) {
      const json = toJsonSchema(route.querystring, 'input') as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      for (const [name, schema] of Object.entries(json.properties ?? {})) {
        parameters.push({ name, in: 'query', required: json.required?.includes(name) ?? false, schema });
      }
    }
    if (parameters.length) operation.parameters = parameters;
    if (route.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: toJsonSchema(route.body, 'input') } },
      };
    }
    const responses: Record<string, unknown> = {};
    for (const [status, answer] of Object.entries(route.response ?? {})) {
      responses[status] = isZod(answer)
        ? {
            description: `${status}`,
            content: { 'application/json': { schema: toJsonSchema(answer, 'output') } },
          }
        : { description: `${status}`, content: { [answer.contentType]: {} } };
    }
    if (Object.keys(responses).length === 0) responses.default = { description: 'see the route' };
    operation.responses = responses;
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    ...(security?.bearer
      ? {
          components: {
            securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
          },
          security: [{ bearer: [] }],
        }
      : {}),
  };
}
