/**
 * fast-check arbitraries for the API fuzz suite: hostile strings, hostile JSON shapes and bodies
 * shaped after a route's OpenAPI request schema with hostile values in every field.
 */
import fc from 'fast-check';

/** Strings that have broken servers before: NUL, unpaired surrogates, injections, huge and odd values. */
export const NASTY_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udc00x',
  'x\ud83d',
  '',
  ' ',
  '\t\r\n',
  '%00',
  '%',
  '..',
  '../../etc/passwd',
  "' OR '1'='1",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '9007199254740993',
  'true',
  'null',
  '[]',
  '{}',
  '\u202e\u0000',
  '🧨💥',
  'ﷺ',
  '\\',
  '/',
  '//evil.example',
  'https://evil.example/x',
  'javascript:alert(1)',
  '\r\nX-Injected: 1',
  'a'.repeat(5000),
] as const;

/**
 * Percent-encodes any JS string, including unpaired surrogates (as their WTF-8 bytes, e.g. `%ED%A0%80`), which
 * `encodeURIComponent` refuses: the server must cope with whatever bytes arrive.
 */
export function encodeAny(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

/** A hostile string: a known nasty one, arbitrary UTF-16 code units (lone surrogates included) or any code points. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: anyCodeUnit, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...NASTY_STRINGS), fc.string({ maxLength: 10 })).map(([a, b]) => a + b) },
);

const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, 1, 0.5, 1e308, -1e308, 2 ** 53 + 1, -(2 ** 31), 2 ** 31, Number.MAX_SAFE_INTEGER),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Any JSON value with hostile strings and keys, a few levels deep. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'toString')), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Raw request bodies that are not what a JSON parser expects, or nest deeper than any stack. */
export const hostileRawBody: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 50, max: 20_000 }).map((d) => '['.repeat(d) + ']'.repeat(d)),
  fc.integer({ min: 50, max: 20_000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)),
  fc.constantFrom('{', '}', '[', '"\\u0000"', '{"a":"\\ud800"}', '{"__proto__":{"x":1}}', 'null', '1', '""', '\u0000', '{"a":1,"a":2}'),
  hostileString,
);

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: unknown;
  required?: string[];
  minimum?: number;
  maximum?: number;
};

/** Valid values of known body fields (ids that exist in the fuzzed world), so some requests reach the platforms. */
export type FieldHints = Record<string, unknown[]>;

/** A plausible value of a JSON schema (so a shaped body gets past the first checks), hostile where it can be. */
function plausible(schema: JsonSchema | undefined, depth: number, hints: FieldHints): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return hostileJson;
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (options && options.length > 0) return fc.oneof(...options.map((s) => plausible(s, depth + 1, hints)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return fc.oneof(hostileString, fc.string({ minLength: 1, maxLength: 20 }));
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -(2 ** 31);
      const max = schema.maximum ?? 2 ** 31;
      const inRange =
        type === 'integer'
          ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) })
          : fc.double({ min, max, noNaN: true });
      return fc.oneof({ weight: 2, arbitrary: inRange }, { weight: 1, arbitrary: hostileNumber });
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(shapedValue(schema.items, depth + 1, hints, undefined), { maxLength: 4 });
    case 'object':
      return shapedObject(schema, depth + 1, hints);
    default:
      return hostileJson;
  }
}

function shapedValue(schema: JsonSchema | undefined, depth: number, hints: FieldHints, field: string | undefined): fc.Arbitrary<unknown> {
  const hinted = field !== undefined ? hints[field] : undefined;
  return fc.oneof(
    { weight: 3, arbitrary: plausible(schema, depth, hints) },
    { weight: 1, arbitrary: hostileJson },
    ...(hinted && hinted.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...hinted) }] : []),
  );
}

function shapedObject(schema: JsonSchema, depth: number, hints: FieldHints): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  // Required fields are there most of the time (a body missing them never gets past validation).
  const required = new Set(schema.required ?? []);
  const known = fc
    .record(
      Object.fromEntries(
        Object.entries(props).map(([k, s]) => {
          const value = shapedValue(s, depth, hints, k);
          return [
            k,
            required.has(k)
              ? fc.oneof({ weight: 9, arbitrary: value }, { weight: 1, arbitrary: fc.constant(undefined) })
              : fc.option(value, { nil: undefined }),
          ];
        }),
      ),
    )
    .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
  const extra = fc.dictionary(hostileString, hostileJson, { maxKeys: schema.additionalProperties === undefined ? 1 : 4 });
  return fc.tuple(known, extra).map(([a, b]) => ({ ...b, ...a }));
}

/** A body for a route: shaped after its request schema (hostile values), any hostile JSON, or raw hostile text. */
export function bodyFor(schema: JsonSchema | undefined, hints: FieldHints = {}): fc.Arbitrary<{ raw: string; contentType: string }> {
  const json = (value: unknown) => ({ raw: JSON.stringify(value) ?? 'null', contentType: 'application/json' });
  return fc.oneof(
    { weight: 6, arbitrary: (schema ? shapedObject(schema, 0, hints) : hostileJson).map(json) },
    { weight: 2, arbitrary: hostileJson.map(json) },
    { weight: 1, arbitrary: hostileRawBody.map((raw) => ({ raw, contentType: 'application/json' })) },
    { weight: 1, arbitrary: hostileRawBody.map((raw) => ({ raw, contentType: 'text/plain' })) },
  );
}

/** A path segment as sent on the wire: a valid value, an encoded hostile string or raw broken percent-encoding. */
export function segmentFor(valid: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...valid.map(encodeAny)) },
    { weight: 3, arbitrary: hostileString.map(encodeAny) },
    { weight: 1, arbitrary: fc.constantFrom('%00', '%', '%E0%A4%A', '%ED%A0%80', '%FF', '', '%2e%2e', 'a'.repeat(300), '%C0%AF') },
  );
}

/** A query string of the route's parameters (and a stray one), hostile values, sometimes repeated keys. */
export function queryFor(names: string[], valid: Record<string, string[]>): fc.Arbitrary<string> {
  const value = (name: string) =>
    fc.oneof(
      { weight: 2, arbitrary: hostileString.map(encodeAny) },
      { weight: 2, arbitrary: fc.constantFrom(...(valid[name] ?? ['1']).map(encodeAny)) },
      { weight: 1, arbitrary: fc.constantFrom('%00', '%', '%ED%A0%80', '%FF') },
    );
  const pairs = fc.array(
    fc.constantFrom(...names, ...names, 'zz_unknown').chain((name) => value(name).map((v) => `${encodeAny(name)}=${v}`)),
    { maxLength: names.length + 1 },
  );
  return fc.oneof(
    fc.constant(''),
    pairs.map((list) => (list.length ? `?${list.join('&')}` : '')),
  );
}
