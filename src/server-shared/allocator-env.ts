/**
 * glibc's malloc gives each thread that allocates its own arena (up to 8 per core), and an arena
 * keeps what it grew to: after a burst of image decodes on the check workers' threads the
 * service held hundreds of MB it no longer used. Two arenas keep threads from waiting on one lock
 * while memory freed by one decode is reused by the next. glibc reads it at process start, so it
 * is set for the processes `npm start` (and the benchmarks) start; a value already set wins.
 */
export function withAllocatorEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '2' };
}
