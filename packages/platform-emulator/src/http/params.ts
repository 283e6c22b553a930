/** Small helpers to read loosely-typed request input without `any`. */

/** Keeps the string (or first-of-array string) values of an object. */
export function stringRecord(value: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else if (Array.isArray(v) && typeof v[0] === 'string') out[k] = v[0];
  }
  return out;
}

/** All values of a repeated query parameter (`?id=1&id=2`). */
export function stringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

export function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `Authorization: <scheme> <credentials>` → credentials when the scheme matches (case-insensitive). */
export function authorizationCredentials(header: string | undefined, schemes: string[]): string | undefined {
  if (!header) return undefined;
  const space = header.indexOf(' ');
  if (space < 0) return undefined;
  const scheme = header.slice(0, space).toLowerCase();
  return schemes.includes(scheme) ? header.slice(space + 1).trim() : undefined;
}

export function isJsonContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.toLowerCase().startsWith('application/json');
}
