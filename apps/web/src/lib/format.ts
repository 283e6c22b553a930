import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';

dayjs.extend(localizedFormat);

type DateInput = string | number | Date;

/** Compact age of a moment: under 60 s "Now", then "5m", "3h", "2d". Future moments are "Now". */
export function relativeTime(date: DateInput, now: DateInput = Date.now()): string {
  const seconds = Math.floor((dayjs(now).valueOf() - dayjs(date).valueOf()) / 1000);
  if (!Number.isFinite(seconds) || seconds < 60) return 'Now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

/** A duration in seconds as h:mm:ss, e.g. 3725 → "1:02:05", 59 → "0:00:59". Negative values count as 0. */
export function duration(totalSeconds: number): string {
  const safe = Number.isFinite(totalSeconds) ? Math.max(0, Math.floor(totalSeconds)) : 0;
  const h = Math.floor(safe / 3600);
  const m = Math.floor((safe % 3600) / 60);
  const s = safe % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** Long English date ("LL"), e.g. "March 5, 2025". */
export function formatDate(date: DateInput): string {
  return dayjs(date).locale('en').format('LL');
}

/** Time of day as HH:mm:ss. */
export function formatTime(date: DateInput): string {
  return dayjs(date).format('HH:mm:ss');
}

/** Long date with time, e.g. "March 5, 2025 14:03:09". */
export function formatDateTime(date: DateInput): string {
  return `${formatDate(date)} ${formatTime(date)}`;
}
