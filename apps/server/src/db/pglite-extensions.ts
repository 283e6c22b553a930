/**
 * The contrib extensions the migrations create (`CREATE EXTENSION`), loaded into every embedded database: PGlite
 * bundles them but only makes available those passed when it starts. PostgreSQL has them from its contrib package.
 */
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export const pgliteExtensions = { pg_trgm };
