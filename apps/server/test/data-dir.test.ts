import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client';
import { persistentSecret } from '../src/lib/secrets';

/** Every entry below `dir` with its permission bits. */
function modes(dir: string): { file: string; mode: number; directory: boolean }[] {
  const out: { file: string; mode: number; directory: boolean }[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    const stat = lstatSync(current);
    out.push({ file: path.relative(dir, current) || '.', mode: stat.mode & 0o777, directory: stat.isDirectory() });
    if (stat.isDirectory()) for (const name of readdirSync(current)) stack.push(path.join(current, name));
  }
  return out;
}

let previousUmask = 0;
let root = '';
beforeAll(() => {
  // The machine the problem was found on created files 0666: start from the most permissive umask.
  previousUmask = process.umask(0);
  root = mkdtempSync(path.join(os.tmpdir(), 'greenroom-data-'));
});
afterAll(() => {
  process.umask(previousUmask);
  rmSync(root, { recursive: true, force: true });
});

describe('DATA_DIR permissions', () => {
  it('keeps the embedded database and generated secrets private: folders 0700, files 0600', async () => {
    const dataDir = path.join(root, 'data');
    // A data directory left world-readable by an older version gets fixed too.
    mkdirSync(path.join(dataDir, 'old'), { recursive: true, mode: 0o777 });
    writeFileSync(path.join(dataDir, 'old', 'leftover'), 'x', { mode: 0o666 });

    const database = await openDatabase({ dataDir });
    persistentSecret(undefined, dataDir, 'encryption-key', 32);
    // Writes after start create new files (relations, WAL segments): they must be private too.
    await database.db.execute(sql`create table permission_probe (id int, body text)`);
    await database.db.execute(sql`insert into permission_probe select g, repeat('x', 500) from generate_series(1, 2000) g`);
    await database.close();

    const entries = modes(dataDir);
    expect(entries.length).toBeGreaterThan(50);
    const open = entries.filter((e) => e.mode !== (e.directory ? 0o700 : 0o600));
    expect(open.map((e) => `${e.file} ${e.mode.toString(8)}`)).toEqual([]);
    // initdb of a new embedded database (no template here) takes tens of seconds on a busy machine.
  }, 120_000);
});
