import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdVerificationSchema } from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { Browser, secrets, startStack, type Stack } from './testing/harness';

interface OpenApi {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }> }> }>
  >;
}

let stack: Stack;
let bffDoc: OpenApi;
let serviceDoc: OpenApi;
const ajv = new Ajv2020({ strict: false, allErrors: true });

beforeAll(async () => {
  stack = await startStack();
  bffDoc = (await (await fetch(`${stack.bffUrl}/api/openapi.json`)).json()) as OpenApi;
  serviceDoc = (await (await fetch(`${stack.service.url}/openapi.json`)).json()) as OpenApi;
});
afterAll(async () => {
  await stack?.stop();
});

/** Checks a real answer against what the document says of that route and status. */
function conforms(doc: OpenApi, route: string, method: string, status: number, body: unknown) {
  const schema = doc.paths[route]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
  expect(schema, `${method} ${route} ${status} is documented`).toBeDefined();
  const validate = ajv.compile(schema!);
  expect(validate(body), `${method} ${route} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

describe('the OpenAPI documents', () => {
  it('are OpenAPI 3.1 whose every schema compiles', () => {
    for (const doc of [bffDoc, serviceDoc]) {
      expect(doc.openapi).toBe('3.1.0');
      for (const methods of Object.values(doc.paths))
        for (const operation of Object.values(methods))
          for (const answer of Object.values(operation.responses))
            for (const media of Object.values(answer.content ?? {}))
              if (media.schema) expect(() => ajv.compile(media.schema!)).not.toThrow();
    }
    expect(Object.keys(serviceDoc.paths)).toEqual(
      expect.arrayContaining(['/oauth', '/v2/verifications', '/v2/verifications/{id}', '/v2/identities']),
    );
    expect(Object.keys(bffDoc.paths)).toEqual(
      expect.arrayContaining(['/api/flows', '/api/verifications', '/api/staff/verifications/{id}']),
    );
  });

  it('describe what the routes answer to real requests', async () => {
    const browser = new Browser(stack.bffUrl);
    const flows = await browser.fetch(bffPaths.flows);
    conforms(bffDoc, '/api/flows', 'get', 200, await flows.json());
    const flow = await browser.fetch(bffPaths.flow('global-passport'));
    conforms(bffDoc, '/api/flows/{flowId}', 'get', 200, await flow.json());
    const created = await browser.post(bffPaths.verifications, { flowId: 'global-passport' });
    const createdBody = await created.json();
    conforms(bffDoc, '/api/verifications', 'post', 201, createdBody);
    const { verificationId } = createdVerificationSchema.parse(createdBody);
    const status = await browser.fetch(bffPaths.status(verificationId));
    conforms(bffDoc, '/api/verifications/{id}/status', 'get', 200, await status.json());
    const health = await browser.fetch(bffPaths.health);
    conforms(bffDoc, '/api/health', 'get', 200, await health.json());

    const staff = new Browser(stack.bffUrl);
    const login = await staff.post(bffPaths.staffLogin, { password: stack.config.staffPassword });
    conforms(bffDoc, '/api/staff/login', 'post', 200, await login.json());
    const list = await staff.fetch(bffPaths.staffVerifications);
    conforms(bffDoc, '/api/staff/verifications', 'get', 200, await list.json());
    const detail = await staff.fetch(bffPaths.staffVerification(verificationId));
    conforms(bffDoc, '/api/staff/verifications/{id}', 'get', 200, await detail.json());
    const check = await staff.post(bffPaths.staffCreditCheck('br'), { cpf: '52998224725' });
    conforms(bffDoc, '/api/staff/credit-checks/br', 'post', 201, await check.json());

    // The service's own document, for the calls the BFF makes.
    const token = await fetch(`${stack.service.url}/oauth`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${secrets.SERVICE_CLIENT_ID}:${secrets.SERVICE_CLIENT_SECRET}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const tokenBody = (await token.json()) as { access_token: string };
    conforms(serviceDoc, '/oauth', 'post', 200, tokenBody);
    const auth = { authorization: `Bearer ${tokenBody.access_token}` };
    const made = await fetch(`${stack.service.url}/v2/verifications`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { n: 1 } }),
    });
    const madeBody = (await made.json()) as { id: string };
    conforms(serviceDoc, '/v2/verifications', 'post', 200, madeBody);
    const data = await fetch(`${stack.service.url}/v2/verifications/${madeBody.id}`, { headers: auth });
    conforms(serviceDoc, '/v2/verifications/{id}', 'get', 200, await data.json());
  });
});
