import { execFileSync, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';

function canPin() {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return cpus().length >= 2;
  } catch {
    return false;
  }
}

/** Whether processes can be pinned to a core each (taskset, and two cores or more). */
export const pinning = canPin();

/** Pins a process (all its threads) to one core, where pinning is possible. */
export const pinTo = (child: ChildProcess, cpu: number) => {
  if (pinning)
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(child.pid)], { stdio: 'ignore' });
};
