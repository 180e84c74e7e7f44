// A reviewer's decision through the BFF, against the real service with SERVICE_EXTENSIONS=off
// (the harness's default): reason and note validated, who and when recorded, the hosted status
// route called with `{status}` alone, the history erased with the verification.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bffErrorSchema,
  createdVerificationSchema,
  staffVerificationDetailSchema,
  type CreatedVerification,
  type StaffDecision,
} from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { MAX_REVIEW_NOTE } from '@/shared/review-reasons';
import { SqlStore } from './store/sql-store';
import {
  Browser,
  eventually,
  passportForm,
  readEvents,
  secrets,
  startStack,
  type Stack,
} from './testing/harness';

let stack: Stack;
let staff: Browser;
let finished: CreatedVerification;

const decide = (browser: Browser, id: string, body: Partial<StaffDecision> | Record<string, unknown>) =>
  browser.fetch(bffPaths.staffVerificationStatus(id), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function signedIn() {
  const browser = new Browser(stack.bffUrl);
  expect((await browser.post(bffPaths.staffLogin, { password: secrets.STAFF_PASSWORD })).status).toBe(200);
  return browser;
}

async function create(browser: Browser, flowId: string) {
  const res = await browser.post(bffPaths.verifications, { flowId });
  expect(res.status).toBe(201);
  return createdVerificationSchema.parse(await res.json());
}

const detailOf = async (browser: Browser, id: string) =>
  staffVerificationDetailSchema.parse(await (await browser.fetch(bffPaths.staffVerification(id))).json());

beforeAll(async () => {
  stack = await startStack();
  staff = await signedIn();
  // A verification whose processing is over: the service takes decisions only on those.
  const person = new Browser(stack.bffUrl);
  finished = await create(person, 'global-passport');
  const sent = await person.fetch(bffPaths.sendInput(finished.identity), {
    method: 'POST',
    body: await passportForm(),
  });
  expect(sent.status).toBe(201);
  await eventually(
    async () => {
      const detail = await detailOf(staff, finished.verificationId);
      return detail.events.some((e) => e.eventName === 'verification_completed') ? true : undefined;
    },
    60_000,
    'the completed verification',
  );
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

describe("a reviewer's decision", () => {
  it('is refused without the staff session', async () => {
    const anonymous = new Browser(stack.bffUrl);
    const res = await decide(anonymous, finished.verificationId, {
      status: 'verified',
      reason: 'checksPassed',
    });
    expect(res.status).toBe(401);
    expect(bffErrorSchema.parse(await res.json()).code).toBe('staff.unauthenticated');
  });

  it('names each mistake in the body with its own code, and records nothing', async () => {
    const id = finished.verificationId;
    const cases: [Record<string, unknown>, string][] = [
      [{ status: 'rejected' }, 'review.reasonRequired'],
      [{ status: 'rejected', reason: '' }, 'review.reasonRequired'],
      [
        { status: 'rejected', reason: 'faceMismatch', note: 'x'.repeat(MAX_REVIEW_NOTE + 1) },
        'review.noteTooLong',
      ],
      [{ status: 'rejected', reason: 'other' }, 'review.noteRequired'],
      [{ status: 'rejected', reason: 'other', note: '   ' }, 'review.noteRequired'],
      // A reason of another decision's list, or of no list.
      [{ status: 'rejected', reason: 'checksPassed' }, 'review.unknownReason'],
      [{ status: 'verified', reason: 'no-such-reason' }, 'review.unknownReason'],
      [{ status: 'approved', reason: 'checksPassed' }, 'request.invalid'],
    ];
    for (const [body, code] of cases) {
      const res = await decide(staff, id, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const error = bffErrorSchema.parse(await res.json());
      expect(error).toMatchObject({ code, type: 'ValidationError' });
      expect(error.message.length).toBeGreaterThan(5);
    }
    expect((await detailOf(staff, id)).reviews).toEqual([]);
  });

  it('records who, when and why, newest first, and sets the status at the service', async () => {
    const id = finished.verificationId;
    const before = Date.now();
    const first = await decide(staff, id, {
      status: 'rejected',
      reason: 'faceMismatch',
      note: '  The chin and ears differ from the passport photo.  ',
    });
    expect(first.status).toBe(200);
    const afterFirst = staffVerificationDetailSchema.parse(await first.json());
    expect(afterFirst.summary.status).toBe('rejected');
    expect(afterFirst.data?.identity.status).toBe('rejected');
    expect(afterFirst.reviews).toHaveLength(1);
    const review = afterFirst.reviews[0];
    expect(review).toMatchObject({
      decision: 'rejected',
      reason: 'faceMismatch',
      note: 'The chin and ears differ from the passport photo.',
      byYou: true,
    });
    expect(review.reviewer).toMatch(/^staff-[0-9a-f]{8}$/);
    // The session's id (the cookie's value) is not what the history shows.
    expect(JSON.stringify(afterFirst.reviews)).not.toContain(staff.cookies.get('idv_staff')!.split('.')[0]);
    expect(Date.parse(review.decidedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(review.decidedAt)).toBeLessThanOrEqual(Date.now());

    // Another reviewer (another staff session) changes it; the history keeps both, newest first.
    const colleague = await signedIn();
    const second = await decide(colleague, id, { status: 'verified', reason: 'checkWasWrong' });
    expect(second.status).toBe(200);
    const reviews = staffVerificationDetailSchema.parse(await second.json()).reviews;
    expect(reviews.map((r) => [r.decision, r.reason, r.note, r.byYou])).toEqual([
      ['verified', 'checkWasWrong', null, true],
      ['rejected', 'faceMismatch', 'The chin and ears differ from the passport photo.', false],
    ]);
    expect(reviews[0].reviewer).not.toBe(reviews[1].reviewer);
    // The first reviewer sees the same history, their own decision marked as theirs.
    expect((await detailOf(staff, id)).reviews.map((r) => r.byYou)).toEqual([false, true]);

    // The hosted route took `{status}` alone: the service's webhook for the change arrives.
    await eventually(
      async () => {
        const detail = await detailOf(staff, id);
        return detail.events.filter((e) => e.eventName === 'verification_updated').length >= 2
          ? true
          : undefined;
      },
      15_000,
      'verification_updated twice',
    );
  });

  it('tells the open consoles, the status staying the same', async () => {
    const id = finished.verificationId;
    const stream = await staff.fetch(bffPaths.staffEvents);
    expect(stream.status).toBe(200);
    const seen = readEvents(
      stream,
      (e) =>
        e.event === 'verification' &&
        (JSON.parse(e.data) as { verification: { id: string } }).verification.id === id,
    );
    // Verified already: the status does not move. The route tells the consoles itself rather than
    // counting on a webhook the hosted service may not send for an unchanged status.
    const res = await decide(staff, id, { status: 'verified', reason: 'manualCheckPassed' });
    expect(res.status).toBe(200);
    expect((await seen).at(-1)?.event).toBe('verification');
    expect((await detailOf(staff, id)).reviews.map((r) => r.reason)).toEqual([
      'manualCheckPassed',
      'checkWasWrong',
      'faceMismatch',
    ]);
  });

  it("uses the flow's own reasons and keeps no decision the service refused", async () => {
    // br-bank lists its own reasons for a rejection; the default ones for it are not accepted.
    const person = new Browser(stack.bffUrl);
    const unfinished = await create(person, 'br-bank');
    const refused = await decide(staff, unfinished.verificationId, {
      status: 'rejected',
      reason: 'documentAltered',
    });
    expect(refused.status).toBe(400);
    expect(bffErrorSchema.parse(await refused.json()).code).toBe('review.unknownReason');
    // Its own reason passes the BFF, but the service takes no decision before processing is over:
    // its error comes back and the history stays empty.
    const early = await decide(staff, unfinished.verificationId, {
      status: 'rejected',
      reason: 'income-not-proven',
    });
    expect(early.status).toBeGreaterThanOrEqual(400);
    expect(bffErrorSchema.parse(await early.json()).code).not.toMatch(/^review\./);
    expect((await detailOf(staff, unfinished.verificationId)).reviews).toEqual([]);
    // A decision not in the flow's list keeps the default set.
    const res = await decide(staff, unfinished.verificationId, {
      status: 'reviewNeeded',
      reason: 'secondOpinion',
    });
    expect(bffErrorSchema.parse(await res.json()).code).not.toMatch(/^review\./);
  });

  it('is erased with its verification', async () => {
    const id = finished.verificationId;
    const store = SqlStore.sqlite(path.join(stack.config.dataDir, 'bff.sqlite'));
    try {
      expect((await store.reviewsOf(id)).length).toBe(3);
      expect((await staff.fetch(bffPaths.staffVerification(id), { method: 'DELETE' })).status).toBe(204);
      expect(await store.reviewsOf(id)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
