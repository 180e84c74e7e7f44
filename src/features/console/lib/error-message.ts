/** What to tell staff about a failed request (an `ApiError` carries the BFF's own message). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
