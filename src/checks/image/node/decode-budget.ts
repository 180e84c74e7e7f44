/**
 * A process-wide budget for image decodes, weighted by the memory each is expected to take (its
 * header's estimate: decodeCost), so that a burst of large decodes waits its turn instead of
 * adding up: with two decoders on two cores or sixteen on sixteen, the decodes in flight hold at
 * most DECODE_BUDGET_BYTES between them. Waiters are served in order of arrival.
 */
const MB = 1024 * 1024;

/** What any decode takes beyond what its format makes it buffer: the shrunk RGBA pixels (2048² is 16 MB) and libvips's own. */
export const BASE_DECODE_BYTES = 24 * MB;

/** Memory the decodes in flight may take between them. */
export const DECODE_BUDGET_BYTES = 160 * MB;

/** A decode's expected memory from what its header says it must buffer (image-metadata.ts). */
export const decodeCost = (bufferedBytes: number) => BASE_DECODE_BYTES + bufferedBytes;

let inUse = 0;
const waiting: { weight: number; start: () => void }[] = [];

function admitWaiting() {
  while (waiting.length && inUse + waiting[0].weight <= DECODE_BUDGET_BYTES) {
    const next = waiting.shift()!;
    inUse += next.weight;
    next.start();
  }
}

/** Runs `decode` once `bytes` of the budget are free (a decode larger than the whole budget runs alone). */
export async function withDecodeBudget<T>(bytes: number, decode: () => Promise<T>): Promise<T> {
  const weight = Math.min(Math.max(bytes, BASE_DECODE_BYTES), DECODE_BUDGET_BYTES);
  if (waiting.length || inUse + weight > DECODE_BUDGET_BYTES) {
    await new Promise<void>((start) => waiting.push({ weight, start }));
  } else {
    inUse += weight;
  }
  try {
    return await decode();
  } finally {
    inUse -= weight;
    admitWaiting();
  }
}

/** Bytes of the budget taken now (for tests and logs). */
export const decodeBudgetInUse = () => inUse;
