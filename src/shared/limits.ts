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
/**
 * Pixels a liveness video's frames may add up to, as its header lists them (frames × width ×
 * height): the longest video at 1080p and 30 frames a second. FFmpeg decodes every frame to sample
 * a few, so a 4K clip at 60 frames a second (5 × this for 30 s) would hold the decoder for minutes.
 */
export const MAX_VIDEO_DECODED_PIXELS = MAX_VIDEO_SECONDS * 30 * 1920 * 1080;
