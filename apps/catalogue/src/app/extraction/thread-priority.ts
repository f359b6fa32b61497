import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Makes the calling thread `by` nicer than it is (Linux: the nice value belongs to each thread, and
 * /proc/thread-self names this one's id), so the scheduler gives the CPU to the process's other
 * threads first. Answers the thread's nice value afterwards, or null where it cannot be changed (not
 * Linux, or not allowed): the thread then keeps the process's priority.
 */
export function lowerThisThreadsPriority(by: number): number | null {
  if (by <= 0) return null;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(threadId) || threadId <= 0) return null;
    setPriority(threadId, Math.min(19, getPriority(threadId) + by));
    return getPriority(threadId);
  } catch {
    return null;
  }
}
