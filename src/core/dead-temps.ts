// The temp files a process killed outright (`kill -9`, a power cut) left beside the file it was
// writing: no exit hook ran to remove them, and they stay for good, empty or as big as the download.
// The next run writing the same file removes them. Shared by import (its results and failed files)
// and files download (its `.part` file), whose temp names each hold the writing process's pid.
import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Stats } from 'node:fs';
import { processAlive } from './process-facts.js';

/**
 * A plain file of this user's: never a link, one name, owned by the user this process runs as (its
 * mode is the writer's choice: a temp takes the mode of the file it replaces).
 */
function ours(info: Stats): boolean {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  return info.isFile() && info.nlink === 1 && (uid === undefined || info.uid === uid);
}

/**
 * Remove the files in `dir` whose whole name `names` matches (its first group the pid that wrote
 * it), when they are plain files of this user's and no process with that pid runs on this machine
 * (this one's and a live run's stay; a pid reused since reads as alive, and the file stays: the safe
 * way round). A writer whose directory other machines share puts its host in the name, and in
 * `names`. Best effort: never throws; a file that cannot be looked at or removed stays.
 */
export async function removeDeadTemps(dir: string, names: RegExp): Promise<void> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  for (const name of entries) {
    const pid = Number(names.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isSafeInteger(pid) || processAlive(pid)) continue;
    const path = join(dir, name);
    const info = await lstat(path).catch(() => undefined);
    if (info !== undefined && ours(info)) await unlink(path).catch(() => undefined);
  }
}
