import { readdirSync, readFileSync } from 'node:fs';

/** Resident memory of a process in kB, from /proc (0 once it has gone). */
export function rssKb(pid: number) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** user + system CPU time of a process, in ms (clock ticks of 10 ms). */
export function cpuMs(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Samples a process's RSS every `everyMs` and keeps the peak since the last reset. */
export function rssPeakSampler(pid: number, everyMs: number) {
  let peak = rssKb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssKb(pid))), everyMs);
  return {
    get peakKb() {
      return peak;
    },
    /** Starts a new peak from the RSS now, and returns that RSS. */
    reset() {
      peak = rssKb(pid);
      return peak;
    },
    /** Stops sampling and returns the peak, the RSS at this moment included. */
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, rssKb(pid));
      return peak;
    },
  };
}

/**
 * user + system CPU time in ms of every process below this one (a browser it launched, with its
 * renderers, GPU and utility processes), from /proc; a process that ended in between is not
 * counted.
 */
export function childrenCpuMs(root = process.pid) {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ');
      parents.set(Number(name), Number(fields[1]));
    } catch {
      // ended meanwhile
    }
  }
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents)
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
  }
  tree.delete(root);
  let total = 0;
  for (const pid of tree) {
    try {
      total += cpuMs(pid);
    } catch {
      // ended meanwhile
    }
  }
  return total;
}
