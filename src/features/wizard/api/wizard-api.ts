import { apiFetch } from '@/lib/api-client';
import { pageData } from '@/lib/page-data';
import type {
  ClaimedHandoff,
  CreatedVerification,
  Handoff,
  HandoffRequest,
  HandoffState,
  VerificationStatus,
} from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import type { Flow, FlowSummary } from '@/shared/flow';

// Plain fetch calls, typed with the shared schemas' types; the BFF validates what it serves and the
// service validates what it receives.
export const getFlows = () => apiFetch<FlowSummary[]>(bffPaths.flows);
/** The flow the BFF wrote into the page (parsed with the shared schema), or asked for. */
export const getFlow = (flowId: string) => {
  const inPage = pageData()?.flow;
  return inPage?.id === flowId ? Promise.resolve(inPage) : apiFetch<Flow>(bffPaths.flow(flowId));
};
export const createVerification = (flowId: string) =>
  apiFetch<CreatedVerification>(bffPaths.verifications, { method: 'POST', json: { flowId } });
export const skipUploadWait = (verificationId: string) =>
  apiFetch<void>(bffPaths.skipUploadWait(verificationId), { method: 'PUT' });
export const getStatus = (verificationId: string) =>
  apiFetch<VerificationStatus>(bffPaths.status(verificationId));
export const createHandoff = (verificationId: string, carry: HandoffRequest) =>
  apiFetch<Handoff>(bffPaths.handoff(verificationId), { method: 'POST', json: carry });
export const getHandoff = (verificationId: string) =>
  apiFetch<HandoffState>(bffPaths.handoff(verificationId));
export const claimHandoff = (token: string) =>
  apiFetch<ClaimedHandoff>(bffPaths.handoffClaim(token), { method: 'POST' });
