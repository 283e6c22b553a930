/** Thousands separated, as chat shows them. */
export function formatPoints(value: number): string {
  return value.toLocaleString('en-US');
}
