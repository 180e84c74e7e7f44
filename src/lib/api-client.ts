import type { BffError } from '@/shared/contract/bff-api';

/** A non-2xx answer of the BFF, or no answer at all (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: BffError,
  ) {
    super(body.message);
  }
}

const networkError = (): BffError => ({
  code: 'network.unreachable',
  type: 'SystemError',
  message: 'The server could not be reached.',
});

async function toApiError(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as Partial<BffError>;
    return new ApiError(response.status, {
      code: String(body.code ?? response.status),
      type: body.type ?? 'SystemError',
      message: body.message ?? response.statusText,
    });
  } catch {
    return new ApiError(response.status, {
      code: String(response.status),
      type: 'SystemError',
      message: response.statusText,
    });
  }
}

/** fetch for the BFF's JSON API: same-origin cookies, JSON in and out, ApiError on failure. */
export async function apiFetch<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, headers, ...rest } = init;
  let response: Response;
  try {
    response = await fetch(path, {
      credentials: 'same-origin',
      ...rest,
      headers: {
        accept: 'application/json',
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
  } catch {
    throw new ApiError(0, networkError());
  }
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
