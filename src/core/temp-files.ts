// Temp files being written. A second Ctrl-C (or any other process.exit) skips the normal clean-up,
// so while one exists an exit hook removes it synchronously: never a stray `.part` file.
import { unlinkSync } from 'node:fs';

const live = new Set<string>();

function removeAllSync(): void {
  for (const path of live) {
    try {
      unlinkSync(path);
    } catch {
      // Already gone.
    }
  }
  live.clear();
}

export function trackTempFile(path: string): void {
  if (live.size === 0) process.once('exit', removeAllSync);
  live.add(path);
}

/** The file was renamed into place or removed: the exit hook no longer needs to. */
export function untrackTempFile(path: string): void {
  if (live.delete(path) && live.size === 0) process.off('exit', removeAllSync);
}
