import { z } from 'zod';
import { ApiError, apiFetch } from '@/lib/api-client';
import {
  creditCheckRecordSchema,
  staffVerificationDetailSchema,
  verificationSummarySchema,
  type CreditCheckRecord,
  type StaffDecision,
  type StaffVerificationDetail,
  type VerificationSummary,
} from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { flowSchema, type Flow, type FlowSummary } from '@/shared/flow';
import { newestFirst } from '../lib/collections';

export const consoleKeys = {
  all: ['console'] as const,
  me: ['console', 'me'] as const,
  flows: ['console', 'flows'] as const,
  flow: (id: string) => ['console', 'flows', id] as const,
  verifications: ['console', 'verifications'] as const,
  verification: (id: string) => ['console', 'verification', id] as const,
  creditChecks: ['console', 'credit-checks'] as const,
};

/** Lists may come bare or wrapped ({items} / {data} / a named key); the console takes either. */
function listOf(body: unknown, ...keys: string[]): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') {
    for (const key of [...keys, 'items', 'data']) {
      const value = (body as Record<string, unknown>)[key];
      if (Array.isArray(value)) return value;
    }
  }
  return [];
}

/** Keeps the items that match the schema: one odd record should not hide the others. */
function parseEach<T>(items: unknown[], schema: z.ZodType<T>): T[] {
  return items.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** true when logged in, false on 401; other failures are errors. */
export async function fetchSession(): Promise<boolean> {
  try {
    await apiFetch<unknown>(bffPaths.staffMe);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return false;
    throw error;
  }
}

export const login = (password: string) =>
  apiFetch<unknown>(bffPaths.staffLogin, { method: 'POST', json: { password } });

export const logout = () => apiFetch<unknown>(bffPaths.staffLogout, { method: 'POST' });

const flowSummaryLike = z.looseObject({ id: z.string(), name: z.string() });

export async function fetchFlowSummaries(): Promise<FlowSummary[]> {
  return parseEach(listOf(await apiFetch<unknown>(bffPaths.flows), 'flows'), flowSummaryLike);
}

export async function fetchFlow(id: string): Promise<Flow> {
  return flowSchema.parse(await apiFetch<unknown>(bffPaths.flow(id)));
}

export async function fetchVerifications(): Promise<VerificationSummary[]> {
  const items = listOf(await apiFetch<unknown>(bffPaths.staffVerifications), 'verifications');
  return parseEach(items, verificationSummarySchema).sort(newestFirst);
}

export type VerificationDetail = StaffVerificationDetail;

export async function fetchVerification(id: string): Promise<VerificationDetail> {
  const detail = staffVerificationDetailSchema.parse(await apiFetch<unknown>(bffPaths.staffVerification(id)));
  return { ...detail, events: [...detail.events].sort((a, b) => a.receivedAt.localeCompare(b.receivedAt)) };
}

/** A reviewer's decision on a finished verification, with its reason and note. */
export async function decideVerification(id: string, decision: StaffDecision): Promise<VerificationDetail> {
  return staffVerificationDetailSchema.parse(
    await apiFetch<unknown>(bffPaths.staffVerificationStatus(id), { method: 'PUT', json: decision }),
  );
}

/** Erasure of a verification, its data and its media. */
export async function deleteVerification(id: string): Promise<void> {
  await apiFetch<unknown>(bffPaths.staffVerification(id), { method: 'DELETE' });
}

export async function fetchCreditChecks(): Promise<CreditCheckRecord[]> {
  const items = listOf(await apiFetch<unknown>(bffPaths.staffCreditChecks), 'creditChecks');
  return parseEach(items, creditCheckRecordSchema).sort(newestFirst);
}

export async function createCreditCheck(
  country: 'ar' | 'br',
  body: Record<string, string>,
): Promise<CreditCheckRecord> {
  return creditCheckRecordSchema.parse(
    await apiFetch<unknown>(bffPaths.staffCreditCheck(country), { method: 'POST', json: body }),
  );
}
