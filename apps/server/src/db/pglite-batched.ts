/**
 * A parameterised statement on PGlite in one call into the database instead of six, parsed once.
 *
 * PGlite's `query()` runs the extended query protocol one message per call into its WebAssembly main loop — parse,
 * describe the statement (to learn the parameters' types, which pick each value's serializer), bind, describe the
 * portal, execute, sync — and every call pays the loop's entry, its flush and the parsing of its answer. A list
 * request's few small queries (~0.16 ms each in the database) cost several times that around them. Here the same
 * messages go in one call, and a statement's text is parsed and analysed once: the first time a text is seen it is
 * parsed as a named prepared statement and described (one call: its parameter types are kept, and pick each value's
 * serializer — PGlite's own, as `query()` does); then, that time and every time after, one call binds the values to
 * that name, describes the portal, executes and syncs. The answer's rows are read from its bytes and each value goes
 * through PGlite's parser for its type (`decode`).
 *
 * Plans: a named statement is planned by PostgreSQL's default `plan_cache_mode = auto` — its first five executions
 * planned for their values, then a generic plan kept if the planner does not estimate it dearer than those. Every list
 * here is one index range walk whatever its values (the same plan for an Owner of one channel and a member of all
 * 100,000), and the chat ingest's statements have constant shapes: a generic plan saves their planning too
 * (bench/pglite-statement-cost.ts, in-process at 100,000 channels, load ~9: an Owner's channel-list statement 763 µs
 * CPU parsed each time, 492 µs named but planned each time, 317 µs as here; the session gate 700 → 248 µs). A
 * statement whose generic plan the planner estimates dearer (`LIMIT $n`: a generic plan costs it as a tenth of the
 * table) keeps being planned for its values, and still saves its parse. A pattern match (`LIKE`, `ILIKE`, `SIMILAR TO`, `~`, pg_trgm's `%`
 * operators) is the exception: name search and history search rely on a plan chosen for the term (the trigram index
 * for a rare one, the ordered walk for a common one), and a generic plan would fix one of the two for every term (a
 * name search forced generic took 139 ms instead of 0.6–0.9 ms at 100,000 channels) — so such a text stays an unnamed statement, parsed and planned for its values at each execution (with its parameter
 * types kept, to send it in one call).
 *
 * What it does not change: parameters stay parameters (nothing is written into the SQL text), errors are PGlite's
 * (the first error of the batch; the sync at its end leaves the session ready — a prepared statement survives a
 * failed execution and a rolled-back transaction, as in PostgreSQL, and means the same text after them), and it runs
 * under PGlite's own locks: outside a transaction under the transaction lock then the query lock (as `query()`), inside
 * one (its transaction lock held by the open transaction) under the query lock only, without the file-system sync a
 * transaction defers to its commit.
 *
 * A statement's parameter and result types depend on the schema: any statement other than SELECT / INSERT / UPDATE /
 * DELETE / WITH, ANALYZE and VACUUM (the planner-statistics job's, every minute while tables grow: PostgreSQL itself
 * replans a statement whose tables' statistics changed) — DDL, migrations, SET … — forgets every statement kept (`forgetUnlessDml`) and deallocates them (a
 * Close message for each, sent in front of the next batch); at most MAX_KEPT texts are kept, the least recently used
 * one deallocated to make room. DDL inside a transaction leaves the schema in doubt until it ends (it may roll back,
 * and a statement prepared after the DDL would describe a schema that is gone): until a statement runs outside any
 * transaction, nothing is kept.
 */
import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

/** Statement texts kept (their parameter types, and for most a prepared statement: ~24 KB of the database's memory each, measured). */
const MAX_KEPT = 500;

/** PGlite's locks and protocol entry points used here (public members of the PGlite class). */
type Engine = Pick<
  PGlite,
  'execProtocolStream' | 'execProtocolRawStream' | 'serializers' | 'parsers' | '_runExclusiveQuery' | '_runExclusiveTransaction'
>;

const DML = /^\s*(?:\/\*[^*]*\*\/\s*)*(?:select|insert|update|delete|with)\b/i;
/** Statements that change no statement's meaning: DML, and ANALYZE / VACUUM (PostgreSQL replans what new statistics change). */
const KEEPS = /^\s*(?:\/\*[^*]*\*\/\s*)*(?:select|insert|update|delete|with|analyze|vacuum)\b/i;
/** A pattern match, whose best plan depends on the pattern: such a statement is planned for its values each time. */
const VALUE_PLANNED = /\b(?:i?like|similar\s+to)\b|[~%]/i;

interface Kept {
  /** Parameter type oids. */
  types: number[];
  /** The prepared statement's name; '' for a text parsed at each execution (planned for its values). */
  name: string;
}

export class BatchedQueries {
  /** The statements kept, by text, least recently used first. */
  private readonly kept = new Map<string, Kept>();
  /** Prepared statements forgotten, to deallocate (Close) in front of the next batch. */
  private closing: string[] = [];
  private named = 0;
  /**
   * A transaction changed the schema and may yet roll back (a statement prepared after its DDL would then describe a
   * schema that is gone: "cached plan must not change result type"): nothing is kept until a statement runs outside
   * any transaction.
   */
  private schemaInDoubt = false;
  /** The text of the statement whose messages went into the database last (the slow-call log's label). */
  running: string | null = null;

  constructor(
    private readonly pg: Engine,
    /** Statement texts kept at most (tests make it small). */
    private readonly maxKept = MAX_KEPT,
  ) {}

  /** The number of statement texts kept and of prepared statements (for tests). */
  get size(): { kept: number; prepared: number } {
    let prepared = 0;
    for (const k of this.kept.values()) if (k.name) prepared++;
    return { kept: this.kept.size, prepared };
  }

  /** Forgets (and deallocates) every statement kept when `sql` may change the schema (anything but SELECT/INSERT/UPDATE/DELETE/WITH, ANALYZE, VACUUM). */
  forgetUnlessDml(sql: string, inTransaction = false): void {
    if (KEEPS.test(sql)) return;
    for (const k of this.kept.values()) if (k.name) this.closing.push(k.name);
    this.kept.clear();
    if (inTransaction) this.schemaInDoubt = true;
  }

  /** `sql` with `params`, as `pg.query()` would answer it; `inTransaction` when the caller's transaction is open. */
  query<T>(sql: string, params: unknown[], options: QueryOptions, inTransaction: boolean): Promise<Results<T>> {
    this.forgetUnlessDml(sql, inTransaction);
    const run = () => this.pg._runExclusiveQuery(() => this.run<T>(sql, params, options, !inTransaction));
    return inTransaction ? run() : this.pg._runExclusiveTransaction(run);
  }

  /** Close messages for the prepared statements forgotten since the last batch (answered by CloseComplete, ignored). */
  private takeClosing(): Uint8Array[] {
    if (this.closing.length === 0) return [];
    const out = this.closing.map((name) => protocol.serialize.close({ type: 'S', name }));
    this.closing = [];
    return out;
  }

  private async run<T>(sql: string, params: unknown[], options: QueryOptions, syncToFs: boolean): Promise<Results<T>> {
    const serialize = protocol.serialize;
    let kept = this.kept.get(sql);
    // Outside a transaction (run under the transaction lock): none is open, whatever changed the schema has ended.
    if (syncToFs) this.schemaInDoubt = false;
    const keep = !this.schemaInDoubt;
    const first = !kept;
    if (kept) {
      // Most recently used: last in the map's order.
      this.kept.delete(sql);
      this.kept.set(sql, kept);
    } else {
      // Parse (named, unless planned for its values) + describe the statement: PostgreSQL infers the parameters' types,
      // as PGlite's query() asks it to.
      const name = keep && DML.test(sql) && !VALUE_PLANNED.test(sql) ? `gr_${(this.named++).toString(36)}` : '';
      let described;
      this.running = sql;
      try {
        described = await this.pg.execProtocolStream(
          concat([...this.takeClosing(), serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name })]),
          { syncToFs: false },
        );
      } catch (error) {
        await this.pg.execProtocolStream(serialize.sync(), { syncToFs: false });
        throw error;
      }
      kept = { types: parse.parseDescribeStatementResults(described), name };
      if (keep && this.kept.size >= this.maxKept) {
        const [oldest, evicted] = this.kept.entries().next().value!;
        this.kept.delete(oldest);
        if (evicted.name) this.closing.push(evicted.name);
      }
      if (keep) this.kept.set(sql, kept);
    }
    const { types, name } = kept;
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = this.pg.serializers[types[i]!];
      // A type without a serializer: the value's own text, as PGlite's query() sends it.
      // eslint-disable-next-line @typescript-eslint/no-base-to-string
      return serializer ? serializer(param) : String(param);
    });
    const batch = this.takeClosing();
    // An unnamed statement kept is parsed again with its known types (it replaces the last unnamed one).
    if (!first && !name) batch.push(serialize.parse({ text: sql, types }));
    batch.push(serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync());
    // The answer's bytes as they come (copied: they are a view of the database's memory), not parsed by PGlite.
    const chunks: Uint8Array[] = [];
    this.running = sql;
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
