/**
 * Input no route can act on safely is refused with 400 before any route (or the authorization gate)
 * runs: text with NUL characters (PostgreSQL cannot store them) or unpaired UTF-16 surrogates
 * (not valid Unicode; PostgreSQL's jsonb refuses them), and JSON bodies nested deeper than any
 * feature needs (walking them would exhaust the stack). Path parameters and the query string are
 * checked on the request, the parsed body before validation. Routes that read a raw body (webhooks)
 * get a string and check it themselves.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../lib/errors';
import { unsafeText } from '../lib/text';

/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 32;

/** The first problem in a parsed JSON value (strings and keys, nesting depth), with where it is. Iterative: never recurses. */
export function findUnsafeInput(root: unknown, maxDepth = MAX_JSON_DEPTH): { path: string; problem: string } | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = unsafeText(value);
      if (problem) return { path, problem };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= maxDepth) return { path, problem: `is nested more than ${maxDepth} levels deep` };
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], path: path ? `${path}.${i}` : String(i), depth: depth + 1 });
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      const keyProblem = unsafeText(key);
      if (keyProblem) return { path, problem: `has a field name that ${keyProblem}` };
      stack.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return null;
}

function check(part: 'address' | 'query string' | 'body', value: unknown): void {
  const found = findUnsafeInput(value);
  if (!found) return;
  const field = found.path.slice(0, 80);
  const where = field ? ` field "${field}"` : '';
  // A form shows the message on its field (request bodies only: address and query are not form fields).
  throw badRequest(`Invalid ${part}${where}: ${found.problem}.`, part === 'body' && field ? { [field]: found.problem } : undefined);
}

export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!request.url.startsWith('/api/')) return;
    check('address', request.params);
    check('query string', request.query);
  });
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (!request.url.startsWith('/api/') || typeof request.body !== 'object' || request.body === null) return;
    check('body', request.body);
  });
}
