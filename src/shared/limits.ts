/** Limits of spec section 8, shared by the browser checks, the BFF and the service. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
export const MIN_IMAGE_SIDE = 600;
/** Images with more pixels than this are refused before any decoding (memory bound). */
export const MAX_IMAGE_PIXELS = 100_000_000;
/** Files a single send-input may carry at most (BFF refuses bigger bodies early). */
export const MAX_FILES_PER_REQUEST = 16;
/** The BFF's early bound on a whole send-input body: every file at its limit plus form overhead. */
export const MAX_SEND_INPUT_BODY_BYTES = MAX_FILES_PER_REQUEST * MAX_FILE_BYTES + 1024 * 1024;
export const MAX_VIDEO_SECONDS = 30;
/** Frames a liveness video's header may declare (4K covers every phone camera): longest side, pixels. */
export const MAX_VIDEO_SIDE = 4096;
export const MAX_VIDEO_PIXELS = 4096 * 2304;
