/**
 * The data directory holds the embedded database and generated secrets: only the user running the
 * server may read or write it. The directory and its sub-folders are 0700, its files 0600; files
 * created later (new database segments, WAL files) are private too through the process umask.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Files this process creates from now on are private (umask 077). Not possible in worker threads: then only the walk protects. */
export function privateFileCreation(): void {
  try {
    process.umask(0o077);
  } catch {
    // Worker threads cannot change the umask; makePrivate still fixes what exists.
  }
}

/** Creates `dir` if needed and makes it and everything below it private (folders 0700, files 0600; symlinks left alone). */
export function makePrivate(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    const stat = lstatSync(current);
    if (stat.isSymbolicLink()) continue;
    if (stat.isDirectory()) {
      if ((stat.mode & 0o777) !== 0o700) chmodSync(current, 0o700);
      for (const name of readdirSync(current)) stack.push(path.join(current, name));
    } else if ((stat.mode & 0o777) !== 0o600) {
      chmodSync(current, 0o600);
    }
  }
}
