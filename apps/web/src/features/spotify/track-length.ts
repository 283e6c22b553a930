/** "m:ss" of a track length in milliseconds, as Spotify shows it. */
export const trackLength = (ms: number): string => {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};
