// Preloaded (--import) into a server the bench starts: the longest event-loop stall, written to
// LOOP_MONITOR_FILE on SIGUSR2 (then reset), so the bench can print it per load level.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
process.on('SIGUSR2', () => {
  writeFileSync(process.env.LOOP_MONITOR_FILE, JSON.stringify({ maxMs: histogram.max / 1e6 }));
  histogram.reset();
});
