/**
 * A parameterised statement on PGlite in one call into the database instead of six.
 *
 * PGlite's `query()` runs the extended query protocol one message per call into its WebAssembly main loop — parse,
 * describe the statement (to learn the parameters' types, which pick each value's serializer), bind, describe the
 * portal, execute, sync — and every call pays the loop's entry, its flush and the parsing of its answer. A list
 * request's few small queries (~0.16 ms each in the database) cost several times that around them. Here the same
 * messages go in one call: parse (with the parameter types known from the first time this text was described), bind
 * (each value serialized by PGlite's own serializer for that type, as `query()` does), describe, execute, sync. The
 * answer's rows are read from its bytes and each value goes through PGlite's parser for its type (`decode`). The first time a text is seen it is described on its own (parse +
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
type Engine = Pick<
  PGlite,
  'execProtocolStream' | 'execProtocolRawStream' | 'serializers' | 'parsers' | '_runExclusiveQuery' | '_runExclusiveTransaction'
>;

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
    // The answer's bytes as they come (copied: they are a view of the database's memory), not parsed by PGlite.
    const chunks: Uint8Array[] = [];
    await this.pg.execProtocolRawStream(concat(batch), { syncToFs, onRawData: (chunk) => chunks.push(chunk.slice()) });
    return this.decode<T>(chunks.length === 1 ? chunks[0]! : concat(chunks), options);
  }

  /**
   * The rows of a raw answer, as PGlite's parseResults makes them (each value through the parser of its type: the
   * caller's, else PGlite's), read straight from the bytes: PGlite's protocol parser copies every value into a buffer
   * of its own before decoding it, and builds a message object for each. Its first error is thrown, with PostgreSQL's
   * fields (code, detail, constraint …).
   */
  private decode<T>(answer: Uint8Array, options: QueryOptions): Results<T> {
    const bytes = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
    const rows: unknown[] = [];
    let fields: { name: string; dataTypeID: number }[] = [];
    let parsers: ((value: string, type: number) => unknown)[] = [];
    let affectedRows = 0;
    let error: Error | null = null;
    const asArrays = options.rowMode === 'array';
    for (let at = 0; at + 5 <= bytes.length;) {
      const code = bytes[at]!;
      const end = at + 1 + bytes.readInt32BE(at + 1);
      let p = at + 5;
      if (code === DATA_ROW) {
        const count = bytes.readInt16BE(p);
        p += 2;
        const row: unknown[] | Record<string, unknown> = asArrays ? new Array<unknown>(count) : {};
        for (let i = 0; i < count; i++) {
          const length = bytes.readInt32BE(p);
          p += 4;
          let value: unknown = null;
          if (length >= 0) {
            const text = bytes.toString('utf8', p, p + length);
            p += length;
            const parser = parsers[i];
            value = parser ? parser(text, fields[i]!.dataTypeID) : text;
          }
          if (asArrays) (row as unknown[])[i] = value;
          else (row as Record<string, unknown>)[fields[i]!.name] = value;
        }
        rows.push(row);
      } else if (code === ROW_DESCRIPTION) {
        const count = bytes.readInt16BE(p);
        p += 2;
        fields = [];
        for (let i = 0; i < count; i++) {
          const nul = bytes.indexOf(0, p);
          const name = bytes.toString('utf8', p, nul);
          p = nul + 1 + 4 + 2; // table oid, column number
          const dataTypeID = bytes.readInt32BE(p);
          p += 4 + 2 + 4 + 2; // type, size, modifier, format
          fields.push({ name, dataTypeID });
        }
        parsers = fields.map((f) => options.parsers?.[f.dataTypeID] ?? this.pg.parsers[f.dataTypeID]) as typeof parsers;
      } else if (code === COMMAND_COMPLETE) {
        const tag = bytes.toString('utf8', p, bytes.indexOf(0, p));
        const words = tag.split(' ');
        if (COUNTED.has(words[0]!)) affectedRows += Number.parseInt(words.at(-1)!, 10);
      } else if (code === ERROR && !error) {
        error = databaseError(bytes, p, end);
      }
      at = end;
    }
    if (error) throw error;
    return { rows: rows as T[], fields, affectedRows };
  }
}

const DATA_ROW = 0x44; // 'D'
const ROW_DESCRIPTION = 0x54; // 'T'
const COMMAND_COMPLETE = 0x43; // 'C'
const ERROR = 0x45; // 'E'
/** Command tags whose row count PGlite adds to affectedRows. */
const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);
/** ErrorResponse field codes, named as pg-protocol's DatabaseError names them. */
const ERROR_FIELDS: Record<string, string> = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

/** PostgreSQL's ErrorResponse as an Error named DatabaseError, carrying its fields (as pg-protocol's). */
function databaseError(bytes: Buffer, from: number, end: number): Error {
  const fields: Record<string, string> = {};
  let message = '';
  for (let p = from; p < end && bytes[p] !== 0;) {
    const type = String.fromCharCode(bytes[p]!);
    const nul = bytes.indexOf(0, p + 1);
    const value = bytes.toString('utf8', p + 1, nul);
    if (type === 'M') message = value;
    else if (ERROR_FIELDS[type]) fields[ERROR_FIELDS[type]] = value;
    p = nul + 1;
  }
  return Object.assign(new Error(message), { name: 'DatabaseError' }, fields);
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
