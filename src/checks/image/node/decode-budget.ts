/**
 * A process-wide budget for image decodes, weighted by the memory each is expected to take (its
 * header's estimate: decodeCost), so that a burst of large decodes waits its turn instead of
 * adding up: with two decoders on two cores or sixteen on sixteen, the decodes in flight hold at
 * most DECODE_BUDGET_BYTES between them. The image pool (src/service/checks/image-pool.ts) starts
 * a decode only while its weight fits, in the order its waiting line gives.
 */
const MB = 1024 * 1024;

/** What any decode takes beyond what its format makes it buffer: the shrunk RGBA pixels (2048² is 16 MB) and libvips's own. */
export const BASE_DECODE_BYTES = 24 * MB;

/** Memory the decodes in flight may take between them. */
export const DECODE_BUDGET_BYTES = 160 * MB;

/** A decode's expected memory from what its header says it must buffer (image-metadata.ts). */
export const decodeCost = (bufferedBytes: number) => BASE_DECODE_BYTES + bufferedBytes;

/** The share of the budget a decode of `bytes` takes: one larger than the whole budget runs alone. */
export const decodeWeight = (bytes: number) =>
  Math.min(Math.max(bytes, BASE_DECODE_BYTES), DECODE_BUDGET_BYTES);

/** The weights of the decodes in flight. */
export class DecodeBudget {
  #inUse = 0;

  /** Bytes of the budget taken now (for tests and logs). */
  get inUse() {
    return this.#inUse;
  }

  fits(weight: number) {
    return this.#inUse + weight <= DECODE_BUDGET_BYTES;
  }

  take(weight: number) {
    this.#inUse += weight;
  }

  give(weight: number) {
    this.#inUse -= weight;
  }
}
