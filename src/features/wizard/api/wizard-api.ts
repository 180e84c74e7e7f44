import { apiFetch } from '@/lib/api-client';
import type {
  ClaimedHandoff,
  CreatedVerification,
  Handoff,
  HandoffState,
  VerificationStatus,
} from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import type { Flow, FlowSummary } from '@/shared/flow';

// Plain fetch calls, typed with the shared schemas' types: zod itself stays off the first screen;
// the BFF validates what it serves and the service validates what it receives.
export const getFlows = () => apiFetch<FlowSummary[]>(bffPaths.flows);
export const getFlow = (flowId: string) => apiFetch<Flow>(bffPaths.flow(flowId));
export const createVerification = (flowId: string) =>
  apiFetch<CreatedVerification>(bffPaths.verifications, { method: 'POST', json: { flowId } });
export const skipUploadWait = (verificationId: string) =>
  apiFetch<void>(bffPaths.skipUploadWait(verificationId), { method: 'PUT' });
export const getStatus = (verificationId: string) =>
  apiFetch<VerificationStatus>(bffPaths.status(verificationId));
export const createHandoff = (verificationId: string) =>
  apiFetch<Handoff>(bffPaths.handoff(verificationId), { method: 'POST' });
export const getHandoff = (verificationId: string) =>
  apiFetch<HandoffState>(bffPaths.handoff(verificationId));
export const claimHandoff = (token: string) =>
  apiFetch<ClaimedHandoff>(bffPaths.handoffClaim(token), { method: 'POST' });
