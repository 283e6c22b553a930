/**
 * What a failed database call means for the writer: retry the same work later (the database is
 * unreachable, restarting, overloaded, or the transaction lost a race), or look at the data (a row
 * the database refuses). Drizzle wraps driver errors (`cause`); PostgreSQL and PGlite errors carry
 * a SQLSTATE `code`, socket errors a Node `code` such as ECONNREFUSED.
 */

interface Coded {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** The innermost error that carries a code, else the innermost error. */
function root(error: unknown): Coded | null {
  let current: unknown = error;
  let best: Coded | null = null;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const c = current as Coded;
    if (typeof c.code === 'string') return c;
    best = c;
    current = c.cause;
  }
  return best;
}

const sqlState = /^[0-9A-Z]{5}$/;

export function isTransientDbError(error: unknown): boolean {
  const r = root(error);
  if (!r) return true;
  const code = r.code;
  if (typeof code === 'string' && sqlState.test(code)) {
    // 08 connection, 40 rollback (serialization, deadlock), 53 resources, 57 operator intervention
    // (admin shutdown, crash recovery, cannot connect now), 58 system errors, 55P03 lock not available.
    return ['08', '40', '53', '57', '58'].some((c) => code.startsWith(c)) || code === '55P03';
  }
  if (typeof code === 'string') return true; // ECONNREFUSED, ECONNRESET, ETIMEDOUT, EPIPE …
  // Our own bugs (a TypeError building the batch) are not cured by waiting.
  if (r instanceof TypeError || r instanceof RangeError || r instanceof SyntaxError) return false;
  return true;
}

/** A short description for logs: the SQLSTATE or socket code and the driver's message, never the query's parameters. */
export function describeDbError(error: unknown): { code: string | null; message: string } {
  const r = root(error);
  const message = r && typeof r.message === 'string' ? r.message : String(error);
  return { code: r && typeof r.code === 'string' ? r.code : null, message: message.slice(0, 300) };
}
