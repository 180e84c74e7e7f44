/**
 * The BFF's browser-facing API (src/bff serves it, src/app and src/features call it).
 * Paths are relative to the SPA's origin. Plain TS (no zod), so the wizard's first screen can use
 * them without loading zod.
 */
export const bffPaths = {
  flows: '/api/flows',
  flow: (flowId: string) => `/api/flows/${encodeURIComponent(flowId)}`,
  verifications: '/api/verifications',
  sendInput: (identity: string) => `/api/identities/${encodeURIComponent(identity)}/send-input`,
  skipUploadWait: (verificationId: string) =>
    `/api/verifications/${encodeURIComponent(verificationId)}/skip-upload-wait`,
  status: (verificationId: string) => `/api/verifications/${encodeURIComponent(verificationId)}/status`,
  staffLogin: '/api/staff/login',
  staffLogout: '/api/staff/logout',
  staffMe: '/api/staff/me',
  staffVerifications: '/api/staff/verifications',
  staffVerification: (id: string) => `/api/staff/verifications/${encodeURIComponent(id)}`,
  staffVerificationStatus: (id: string) => `/api/staff/verifications/${encodeURIComponent(id)}/status`,
  /** Media of a verification, proxied with the bearer token; mediaId is the last segment of a media URL. */
  staffMedia: (mediaId: string) => `/api/staff/media/${encodeURIComponent(mediaId)}`,
  staffCreditChecks: '/api/staff/credit-checks',
  staffCreditCheck: (country: 'ar' | 'br') => `/api/staff/credit-checks/${country}`,
  staffEvents: '/api/staff/events',
  health: '/api/health',
  /** The wizard's look (brand name, colour, font, logo), public. */
  brand: '/api/brand',
  brandLogo: '/api/brand/logo',
  /** Desktop-to-phone handoff of one verification. */
  handoff: (verificationId: string) => `/api/verifications/${encodeURIComponent(verificationId)}/handoff`,
  handoffClaim: (token: string) => `/api/handoffs/${encodeURIComponent(token)}/claim`,
} as const;
