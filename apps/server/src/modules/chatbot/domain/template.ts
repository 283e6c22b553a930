/**
 * Response templates: text with variables in both `$(name args)` and `${name args}` forms (Nightbot,
 * StreamElements and Fossabot syntax), nested (`$(urlfetch https://x/?q=$(query))`). A template is
 * parsed once when a command, timer or filter is saved or loaded, never per message.
 *
 * Rendering never throws: an unknown variable or one that fails renders a short visible marker
 * (`[unknown: name]`, `[error: name]`), so a streamer sees what to fix in chat instead of silence.
 */

export type TemplateNode = string | VariableNode;

export interface VariableNode {
  readonly name: string;
  /** The argument text, itself a template (nested variables are rendered first). */
  readonly args: readonly TemplateNode[];
}

export interface Template {
  readonly nodes: readonly TemplateNode[];
  /** Variable names used anywhere in the template (nested ones too), lower case. */
  readonly names: ReadonlySet<string>;
}

const NAME = /[A-Za-z0-9_.]/;
/** Deepest nesting rendered; deeper variables stay literal text (bounds recursion on hostile input). */
const MAX_DEPTH = 8;

/** Parses a template; unclosed or empty variables are kept as literal text. Total: never throws. */
export function parseTemplate(source: string): Template {
  const names = new Set<string>();
  const nodes = parseNodes(source, 0, source.length, 0, names);
  return { nodes, names };
}

function parseNodes(s: string, from: number, to: number, depth: number, names: Set<string>): TemplateNode[] {
  const out: TemplateNode[] = [];
  let text = '';
  let i = from;
  while (i < to) {
    const c = s.charCodeAt(i);
    if (c === 36 /* $ */ && i + 1 < to && depth < MAX_DEPTH) {
      const open = s[i + 1];
      if (open === '(' || open === '{') {
        const close = findClose(s, i + 2, to, open === '(' ? ')' : '}');
        if (close !== -1) {
          const node = parseVariable(s, i + 2, close, depth, names);
          if (node) {
            if (text) out.push(text);
            text = '';
            out.push(node);
            i = close + 1;
            continue;
          }
        }
      }
    }
    text += s[i];
    i++;
  }
  if (text) out.push(text);
  return out;
}

/** The index of the bracket closing a variable opened before `from`, honouring nested variables, parentheses and quotes. */
function findClose(s: string, from: number, to: number, close: ')' | '}'): number {
  const open = close === ')' ? '(' : '{';
  let depth = 0;
  let quote = false;
  for (let i = from; i < to; i++) {
    const ch = s[i];
    if (ch === '"') quote = !quote;
    else if (quote) continue;
    else if (ch === open) depth++;
    else if (ch === close) {
      if (depth === 0) return i;
      depth--;
    }
  }
  // An unbalanced quote must not hide the closing bracket: retry without quote tracking.
  if (quote) {
    depth = 0;
    for (let i = from; i < to; i++) {
      const ch = s[i];
      if (ch === open) depth++;
      else if (ch === close) {
        if (depth === 0) return i;
        depth--;
      }
    }
  }
  return -1;
}

function parseVariable(s: string, from: number, to: number, depth: number, names: Set<string>): VariableNode | null {
  let i = from;
  while (i < to && (s[i] === ' ' || s[i] === '\t')) i++;
  const start = i;
  while (i < to && NAME.test(s[i]!)) i++;
  if (i === start) return null;
  // A name must be followed by whitespace or the end: `$(a-b)` is not a variable.
  if (i < to && s[i] !== ' ' && s[i] !== '\t') return null;
  const name = s.slice(start, i).toLowerCase();
  while (i < to && (s[i] === ' ' || s[i] === '\t')) i++;
  let end = to;
  while (end > i && (s[end - 1] === ' ' || s[end - 1] === '\t')) end--;
  names.add(name);
  return { name, args: parseNodes(s, i, end, depth + 1, names) };
}

/** Splits an argument string into words, honouring "double quotes": `"a b" c` → [`a b`, `c`]. */
export function splitQuoted(input: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(input)) !== null) out.push(m[1] ?? m[2] ?? '');
  return out;
}

/** What a variable resolver gets. */
export interface VariableCall<C> {
  readonly name: string;
  /** The rendered argument text. */
  readonly args: string;
  readonly context: C;
}

/** Resolves one variable: a string now, a promise for I/O, or `undefined` for "not a known variable". */
export type VariableResolver<C> = (call: VariableCall<C>) => string | Promise<string> | undefined;

export const unknownMarker = (name: string) => `[unknown: ${name}]`;
export const errorMarker = (name: string) => `[error: ${name}]`;

/** Longest output of one variable and of a whole render (hostile nesting cannot blow up memory). */
const MAX_VALUE = 2_000;
const MAX_OUTPUT = 10_000;

/**
 * Renders a template. Synchronous resolvers keep it synchronous (the result is a string); the first
 * promise makes the rest asynchronous (a Promise<string>). A resolver that throws or rejects renders
 * the error marker.
 */
export function renderTemplate<C>(template: Template, resolve: VariableResolver<C>, context: C): string | Promise<string> {
  return renderNodes(template.nodes, resolve, context);
}

/** Renders to a promise whatever the resolvers do. */
export async function renderTemplateAsync<C>(template: Template, resolve: VariableResolver<C>, context: C): Promise<string> {
  return renderTemplate(template, resolve, context);
}

function renderNodes<C>(nodes: readonly TemplateNode[], resolve: VariableResolver<C>, context: C): string | Promise<string> {
  const parts: (string | Promise<string>)[] = [];
  let async = false;
  for (const node of nodes) {
    if (typeof node === 'string') {
      parts.push(node);
      continue;
    }
    const value = renderVariable(node, resolve, context);
    if (typeof value !== 'string') async = true;
    parts.push(value);
  }
  if (!async) return clip((parts as string[]).join(''), MAX_OUTPUT);
  return Promise.all(parts.map((p) => Promise.resolve(p))).then((done) => clip(done.join(''), MAX_OUTPUT));
}

function renderVariable<C>(node: VariableNode, resolve: VariableResolver<C>, context: C): string | Promise<string> {
  const args = node.args.length === 0 ? '' : renderNodes(node.args, resolve, context);
  if (typeof args !== 'string') return args.then((a) => settle(node.name, a, resolve, context));
  return settle(node.name, args, resolve, context);
}

function settle<C>(name: string, args: string, resolve: VariableResolver<C>, context: C): string | Promise<string> {
  let value: string | Promise<string> | undefined;
  try {
    value = resolve({ name, args, context });
  } catch {
    return errorMarker(name);
  }
  if (value === undefined) return unknownMarker(name);
  if (typeof value === 'string') return clip(value, MAX_VALUE);
  return value.then(
    (v) => (typeof v === 'string' ? clip(v, MAX_VALUE) : errorMarker(name)),
    () => errorMarker(name),
  );
}

function clip(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value;
}
