import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes } from '@/shared/error-codes';
import { flowSchema, type Flow } from '@/shared/flow';
import { loadFlows } from '../../verification/flows';
import { startService, type RunningService } from '../../testing/harness';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

describe('flows', () => {
  it('lists the demo flows and returns each one as valid flow JSON', async () => {
    const list = (await (await fetch(`${svc.url}/v2/flows`, { headers: svc.auth })).json()) as {
      id: string;
      name: string;
    }[];
    expect(list.map((f) => f.id).sort()).toEqual([
      'ar-national-id',
      'br-bank',
      'global-passport',
      'mx-ine-full',
    ]);
    for (const { id } of list) {
      const response = await fetch(`${svc.url}/v2/flows/${id}`, { headers: svc.auth });
      expect(response.status).toBe(200);
      expect(flowSchema.parse(await response.json()).id).toBe(id);
    }
    const missing = await fetch(`${svc.url}/v2/flows/nope`, { headers: svc.auth });
    expect(missing.status).toBe(404);
  });

  it('together cover every merit, input type and the multi-page and two-document cases', () => {
    const flows: Flow[] = [...loadFlows().values()];
    const merits = new Set(flows.flatMap((f) => f.merits.map((m) => m.type)));
    expect([...merits].sort()).toEqual([
      'bank-account-data',
      'biometric-verification',
      'custom-document',
      'custom-fields',
      'document-verification',
    ]);
    const all = flows.flatMap((f) => f.merits);
    expect(new Set(all.flatMap((m) => (m.type === 'biometric-verification' ? [m.input] : [])))).toEqual(
      new Set(['selfie-photo', 'selfie-video']),
    );
    const customDocs = all.flatMap((m) => (m.type === 'custom-document' ? m.documents : []));
    expect(customDocs.some((d) => d.multiPage)).toBe(true);
    expect(customDocs.some((d) => !d.multiPage)).toBe(true);
    expect(all.some((m) => m.type === 'document-verification' && m.documents.length >= 2)).toBe(true);
    const requires = new Set(
      all.flatMap((m) => (m.type === 'document-verification' ? m.documents.flatMap((d) => d.requires) : [])),
    );
    expect(requires).toEqual(new Set(['mrz', 'pdf417']));
    expect(errorCodes).toHaveLength(38);
  });
});
