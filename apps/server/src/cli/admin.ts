/**
 * Operators from the command line: `npm run admin -- grant <user-id>`, `revoke <user-id>`, `list`.
 * Uses the same configuration (DATABASE_URL or the embedded database in DATA_DIR) as the server;
 * with the embedded database, stop the server first (PGlite allows one process at a time).
 */
import 'dotenv/config';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { users } from '../db/schema';

async function main(): Promise<number> {
  const [command, userId] = process.argv.slice(2);
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    switch (command) {
      case 'grant':
      case 'revoke': {
        if (!userId) {
          console.error(`usage: npm run admin -- ${command} <user-id>`);
          return 2;
        }
        const rows = await database.db
          .update(users)
          .set({ isOperator: command === 'grant' })
          .where(eq(users.id, userId))
          .returning();
        if (rows.length === 0) {
          console.error(`No user with id ${userId}. The id is shown by GET /api/2/user and in the admin area.`);
          return 1;
        }
        console.log(`${rows[0]!.displayName} (${userId}) is ${command === 'grant' ? 'now' : 'no longer'} an operator.`);
        return 0;
      }
      case 'list': {
        const rows = await database.db.select().from(users).where(eq(users.isOperator, true));
        if (rows.length === 0) console.log('No operators granted from the command line (see also GREENROOM_ADMINS).');
        for (const r of rows) console.log(`${r.id}  ${r.displayName}`);
        return 0;
      }
      default:
        console.error('usage: npm run admin -- grant <user-id> | revoke <user-id> | list');
        return 2;
    }
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
