import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationDataSchema, type Step, type VerificationData } from '@/shared/contract/verification';
import { documentSlotKey } from '@/shared/flow-plan';
import { sample } from '../../../e2e/fixtures/samples';
import type { DocumentCheckOutcomes } from '@/checks/inputs/node/document-check-outcome';
import {
  createVerification,
  faceImage,
  passportImage,
  sendInput,
  startService,
  startServiceWithReceiver,
  waitFor,
  waitForStatus,
  type RunningService,
} from '../testing/harness';

// Issue 39, item 4: how template matching and alteration detection reach the clients. Not
// performed: left out of a document's steps in the hosted shape, which the hosted API's clients
// take as not applicable; performed: a pass or a failure with the step's code and data.

const processingWait = 90_000;
const slow = 180_000;
const checkIds = ['template-matching', 'alteration-detection'];

/** mati-python's `DocumentScore.is_valid`: every step of the document 200 and without an error. */
const validForMatiPython = (steps: Step[]) => steps.every((s) => s.status === 200 && !s.error);

const passportInput = {
  inputType: 'document-photo',
  group: 0,
  data: { type: 'passport', country: 'GB', page: 'front', filename: 'p.jpg' },
};
const restInputs = [
  {
    inputType: 'document-photo',
    group: 1,
    data: { type: 'proof-of-residency', country: 'GB', page: 'front', filename: 'r.jpg' },
  },
  { inputType: 'selfie-photo', data: { filename: 's.jpg' } },
];

/**
 * A global-passport verification (a GB passport, a proof of residency, a selfie); `between` runs
 * once the passport is in and before the rest is sent.
 */
async function verify(svc: RunningService, between?: (verificationId: string) => void) {
  const v = await createVerification(svc, 'global-passport');
  const first = await sendInput(
    svc,
    v.identity,
    [passportInput],
    [{ field: 'document', name: 'p.jpg', bytes: await passportImage('GBR') }],
  );
  expect(first.status).toBe(201);
  between?.(v.id);
  const rest = await sendInput(svc, v.identity, restInputs, [
    { field: 'document', name: 'r.jpg', bytes: fs.readFileSync(sample('gb-proof-of-residency.jpg').path) },
    { field: 'selfie', name: 's.jpg', bytes: await faceImage(700, 700) },
  ]);
  expect(rest.status).toBe(201);
  return verificationDataSchema.parse(
    await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected'], processingWait),
  );
}

/** What a check found, written where a check records it: the document front's facts. */
function recordChecks(svc: RunningService, verificationId: string, checks: DocumentCheckOutcomes) {
  const db = new Database(path.join(svc.dataDir, 'service.sqlite'));
  try {
    const slot = documentSlotKey(0, 'front');
    const row = db
      .prepare('SELECT facts FROM inputs WHERE verification_id = ? AND slot = ?')
      .get(verificationId, slot) as { facts: string };
    const facts = { ...(JSON.parse(row.facts) as object), documentChecks: checks };
    db.prepare('UPDATE inputs SET facts = ? WHERE verification_id = ? AND slot = ?').run(
      JSON.stringify(facts),
      verificationId,
      slot,
    );
  } finally {
    db.close();
  }
}

const passportOf = (data: VerificationData) => data.documents.find((d) => d.type === 'passport')!;

describe('template matching and alteration detection on the wire', () => {
  let withHooks: Awaited<ReturnType<typeof startServiceWithReceiver>>;
  let hosted: RunningService;
  let extended: RunningService;
  let hooks: typeof withHooks.hooks;
  beforeAll(async () => {
    withHooks = await startServiceWithReceiver('document-checks-secret', { SERVICE_EXTENSIONS: 'off' });
    ({ svc: hosted, hooks } = withHooks);
    extended = await startService();
  });
  afterAll(async () => {
    await withHooks.close();
    await extended.close();
  });

  /**
   * The steps of a verification's step_completed events, once its verification_completed is in
   * (deliveries to one URL go in order).
   */
  const stepEvents = (verificationId: string) =>
    waitFor(async () => {
      const events = hooks.received
        .map((h) => h.json as { eventName: string; resource: string; step?: Step })
        .filter((e) => e.resource.endsWith(`/${verificationId}`));
      if (!events.some((e) => e.eventName === 'verification_completed')) return null;
      return events.filter((e) => e.eventName === 'step_completed').map((e) => e.step!);
    }, 30_000);

  it(
    'not performed: absent from the hosted shape (a valid document to its clients), an error only with the extensions',
    async () => {
      const [off, on] = await Promise.all([verify(hosted), verify(extended)]);
      const offSteps = passportOf(off).steps;
      expect(offSteps.map((s) => s.id).filter((id) => checkIds.includes(id))).toEqual([]);
      expect(validForMatiPython(offSteps)).toBe(true);
      // No step_completed names them either.
      const events = await stepEvents(off.id);
      expect(events.length).toBe(off.steps.length + off.documents.flatMap((d) => d.steps).length);
      expect(events.map((s) => s.id).filter((id) => checkIds.includes(id))).toEqual([]);

      // With the extensions, staff read why: never a pass, and neither a review nor a problem.
      for (const id of checkIds) {
        const step = passportOf(on).steps.find((s) => s.id === id);
        expect(step, id).toMatchObject({
          status: 200,
          data: { performed: false },
          error: { type: 'StepError', code: `${id}.notPerformed` },
        });
        expect(step!.error!.message, id).toContain('passport (GB)');
      }
      expect(off.identity.status).toBe(on.identity.status);
      expect([off.hasProblem, on.hasProblem]).toEqual([false, false]);
    },
    slow,
  );

  it(
    'performed: a pass with the revision found, a failure with its code and what was found where',
    async () => {
      const revision = {
        id: 'GB-P-2020',
        name: 'UK passport (2020)',
        type: 'passport',
        country: 'GB',
        valid: true,
      };
      const findings = [
        { region: 'portrait', kind: 'compression' as const, detail: 'saved apart from the page' },
      ];
      const data = await verify(hosted, (id) =>
        recordChecks(hosted, id, {
          'template-matching': { performed: true, passed: true, data: { revision, score: 0.91 } },
          'alteration-detection': {
            performed: true,
            passed: false,
            code: 'alterationDetection.digitalAlteration',
            data: { checked: ['portrait', 'zone', 'file'], findings },
          },
        }),
      );
      const steps = passportOf(data).steps;
      expect(steps.find((s) => s.id === 'template-matching')).toMatchObject({
        status: 200,
        error: null,
        data: { revision, score: 0.91 },
      });
      expect(steps.find((s) => s.id === 'alteration-detection')).toMatchObject({
        status: 200,
        error: {
          type: 'StepError',
          code: 'alterationDetection.digitalAlteration',
          message: 'The document shows signs of digital alteration.',
        },
        data: { checked: ['portrait', 'zone', 'file'], findings },
      });
      // A document found altered is invalid to the clients and goes to a person.
      expect(validForMatiPython(steps)).toBe(false);
      expect(data.identity.status).toBe('reviewNeeded');
      expect(data.hasProblem).toBe(true);
      const events = (await stepEvents(data.id)).filter((s) => checkIds.includes(s.id));
      expect(events.map((s) => s.id).sort()).toEqual([...checkIds].sort());
      expect(events.every((s) => !('notApplicable' in s))).toBe(true);
    },
    slow,
  );
});
