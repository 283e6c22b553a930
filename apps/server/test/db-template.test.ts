/** A fresh embedded database starts as a copy of the build's empty-database template; an existing one is kept. */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client';
import { users } from '../src/db/schema';
import { newId } from '../src/lib/ids';

// Embedded PGlite only: the PostgreSQL run (TEST_DATABASE_URL) has no data directory.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the empty-database template', () => {
  let scratch: string;
  let template: string;

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'greenroom-template-'));
    // What apps/server/build.ts does: an initialised, migrated empty database.
    const made = await openDatabase({ dataDir: path.join(scratch, 'made') });
    await made.close();
    template = path.join(scratch, 'made', 'pglite');
  });

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('seeds a new DATA_DIR from the template and leaves no partial copy behind', async () => {
    const dataDir = path.join(scratch, 'fresh');
    const database = await openDatabase({ dataDir, template });
    try {
      await database.db.insert(users).values({ id: newId(), displayName: 'First' });
      const rows = await database.db.select().from(users);
      expect(rows.map((r) => r.displayName)).toEqual(['First']);
      const [applied] = await database.db.select({ n: sql<number>`count(*)::int` }).from(sql`drizzle.__drizzle_migrations`);
      expect(applied!.n).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
    expect(readdirSync(dataDir).filter((name) => name.includes('.partial-'))).toEqual([]);
    // The template itself is untouched by what was written to the copy.
    const again = await openDatabase({ dataDir: path.join(scratch, 'second'), template });
    try {
      expect(await again.db.select().from(users)).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it('opens an existing DATA_DIR as it is, never replacing it with the template', async () => {
    const dataDir = path.join(scratch, 'existing');
    const first = await openDatabase({ dataDir, template });
    await first.db.insert(users).values({ id: newId(), displayName: 'Kept' });
    await first.close();
    const reopened = await openDatabase({ dataDir, template });
    try {
      expect((await reopened.db.select().from(users)).map((r) => r.displayName)).toEqual(['Kept']);
    } finally {
      await reopened.close();
    }
  });

  it('runs initdb as before when there is no template', async () => {
    const dataDir = path.join(scratch, 'no-template');
    const database = await openDatabase({ dataDir, template: path.join(scratch, 'missing') });
    await database.close();
    expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
  });
});
