/**
 * A parameterised statement on PGlite in one call into the database instead of six.
 *
 * PGlite's `query()` runs the extended query protocol one message per call into its WebAssembly main loop — parse,
 * describe the statement (to learn the parameters' types, which pick each value's serializer), bind, describe the
 * portal, execute, sync — and every call pays the loop's entry, its flush and the parsing of its answer. A list
 * request's few small queries (~0.16 ms each in the database) cost several times that around them. Here the same
 * messages go in one call: parse (with the parameter types known from the first time this text was described), bind
 * (each value serialized by PGlite's own serializer for that type, as `query()` does), describe, execute, sync. The
 * answer is parsed by PGlite's own `parseResults`. The first time a text is seen it is described on its own (parse +
 * describe, then bind … sync: two calls), and its parameter types are kept.
 *
 * What it does not change: the statement is parsed and planned as before (an unnamed statement, planned at bind with
 * the values: a custom plan each time), parameters stay parameters (nothing is written into the SQL text), errors
 * are PGlite's (the first error of the batch; the sync at its end leaves the session ready), and it runs under PGlite's
 * own locks: outside a transaction under the transaction lock then the query lock (as `query()`), inside one (its
 * transaction lock held by the open transaction) under the query lock only, without the file-system sync a
 * transaction defers to its commit.
 *
 * The parameter types of a text depend only on the schema: any statement other than SELECT / INSERT / UPDATE /
 * DELETE / WITH (DDL, migrations, SET …) forgets them all (`forgetTypesUnlessDml`), and the map holds at most
 * MAX_KEPT texts.
 */
import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

const MAX_KEPT = 2_000;

/** PGlite's locks and protocol entry points used here (public members of the PGlite class). */
type Engine = Pick<PGlite, 'execProtocolStream' | 'serializers' | 'parsers' | '_runExclusiveQuery' | '_runExclusiveTransaction'>;

const DML = /^\s*(?:\/\*[^*]*\*\/\s*)*(?:select|insert|update|delete|with)\b/i;

export class BatchedQueries {
  /** Parameter type oids of each statement text seen. */
  private readonly types = new Map<string, number[]>();

  constructor(private readonly pg: Engine) {}

  /** Forgets the kept parameter types when `sql` may change the schema (anything but SELECT/INSERT/UPDATE/DELETE/WITH). */
  forgetTypesUnlessDml(sql: string): void {
    if (!DML.test(sql)) this.types.clear();
  }

  /** `sql` with `params`, as `pg.query()` would answer it; `inTransaction` when the caller's transaction is open. */
  query<T>(sql: string, params: unknown[], options: QueryOptions, inTransaction: boolean): Promise<Results<T>> {
    this.forgetTypesUnlessDml(sql);
    const run = () => this.pg._runExclusiveQuery(() => this.run<T>(sql, params, options, !inTransaction));
    return inTransaction ? run() : this.pg._runExclusiveTransaction(run);
  }

  private async run<T>(sql: string, params: unknown[], options: QueryOptions, syncToFs: boolean): Promise<Results<T>> {
    const serialize = protocol.serialize;
    const known = this.types.get(sql);
    let types: number[];
    if (known) {
      types = known;
    } else {
      // Parse + describe the statement: PostgreSQL infers the parameters' types, as PGlite's query() asks it to.
      let described;
      try {
        described = await this.pg.execProtocolStream(concat([serialize.parse({ text: sql }), serialize.describe({ type: 'S' })]), {
          syncToFs: false,
        });
      } catch (error) {
        await this.pg.execProtocolStream(serialize.sync(), { syncToFs: false });
        throw error;
      }
      types = parse.parseDescribeStatementResults(described);
      if (this.types.size >= MAX_KEPT) this.types.clear();
      this.types.set(sql, types);
    }
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = this.pg.serializers[types[i]!];
      // A type without a serializer: the value's own text, as PGlite's query() sends it.
      // eslint-disable-next-line @typescript-eslint/no-base-to-string
      return serializer ? serializer(param) : String(param);
    });
    const rest = [serialize.bind({ values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()];
    // Parsed before: the statement again with its known types (a new unnamed statement replaces the last one).
    const batch = known ? [serialize.parse({ text: sql, types }), ...rest] : rest;
    const messages = await this.pg.execProtocolStream(concat(batch), { syncToFs });
    return parse.parseResults(messages, this.pg.parsers, options)[0] as Results<T>;
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
