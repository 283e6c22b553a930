/**
 * What an uploaded alert file is, from its bytes (magic numbers), never from its name or the type the browser
 * claimed. Images: PNG, JPEG, GIF, WebP; sounds: MP3, OGG, WAV, M4A, FLAC. SVG is refused (it can carry scripts).
 * A file whose signature matches but whose structure is cut short or damaged is told apart from an unknown one.
 */
import type { WidgetMediaKind } from '@greenroom/contracts/api/widgets';

export interface DetectedMedia {
  kind: WidgetMediaKind;
  contentType: string;
  /** How the type is named to users. */
  label: string;
}

export type MediaCheck =
  { ok: true; media: DetectedMedia } | { ok: false; reason: 'unknown' | 'svg' } | { ok: false; reason: 'damaged'; label: string };

const ascii = (b: Buffer, from: number, to: number) => b.toString('latin1', from, Math.min(to, b.length));
const starts = (b: Buffer, bytes: number[]) => b.length >= bytes.length && bytes.every((x, i) => b[i] === x);

/** RIFF containers state their size: a file shorter than it says was cut off. */
function riffComplete(b: Buffer): boolean {
  return b.length >= 12 && b.readUInt32LE(4) + 8 <= b.length;
}

/** The end of a JPEG: the end-of-image marker, possibly followed by padding some encoders add. */
function jpegComplete(b: Buffer): boolean {
  const tail = b.subarray(Math.max(0, b.length - 1024));
  return tail.includes(Buffer.from([0xff, 0xd9]));
}

function pngComplete(b: Buffer): boolean {
  return b.length >= 45 && ascii(b, 12, 16) === 'IHDR' && b.subarray(Math.max(0, b.length - 64)).includes(Buffer.from('IEND', 'latin1'));
}

function gifComplete(b: Buffer): boolean {
  return b.length >= 14 && b.subarray(Math.max(0, b.length - 16)).includes(0x3b);
}

/** An SVG (or any XML/HTML text that could become one): looked for in the first kilobyte, after a BOM and spaces. */
function looksLikeSvg(b: Buffer): boolean {
  const head = b
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/u, '')
    .trimStart()
    .toLowerCase();
  return head.startsWith('<?xml') || head.startsWith('<svg') || head.startsWith('<!doctype svg') || head.includes('<svg');
}

/** The type of an upload from its content. */
export function detectMedia(b: Buffer): MediaCheck {
  const image = (contentType: string, label: string, complete: boolean): MediaCheck =>
    complete ? { ok: true, media: { kind: 'image', contentType, label } } : { ok: false, reason: 'damaged', label };
  const sound = (contentType: string, label: string, complete: boolean): MediaCheck =>
    complete ? { ok: true, media: { kind: 'sound', contentType, label } } : { ok: false, reason: 'damaged', label };

  if (starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image('image/png', 'PNG image', pngComplete(b));
  if (starts(b, [0xff, 0xd8, 0xff])) return image('image/jpeg', 'JPEG image', jpegComplete(b));
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return image('image/gif', 'GIF', gifComplete(b));
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return image('image/webp', 'WebP image', riffComplete(b));
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WAVE') return sound('audio/wav', 'WAV sound', riffComplete(b));
  if (ascii(b, 0, 4) === 'OggS') return sound('audio/ogg', 'OGG sound', b.length >= 28);
  if (ascii(b, 0, 4) === 'fLaC') return sound('audio/flac', 'FLAC sound', b.length >= 42);
  // M4A: an MP4 container whose brand says audio only (a video's brands are refused).
  if (ascii(b, 4, 8) === 'ftyp' && ['M4A ', 'M4B '].includes(ascii(b, 8, 12))) return sound('audio/mp4', 'M4A sound', b.length >= 32);
  // MP3: an ID3 tag, or straight into an MPEG audio frame (11 sync bits, layer III).
  if (ascii(b, 0, 3) === 'ID3') return sound('audio/mpeg', 'MP3 sound', b.length > 10 + id3Size(b));
  if (b.length >= 4 && b[0] === 0xff && (b[1]! & 0xe0) === 0xe0 && (b[1]! & 0x06) === 0x02) return sound('audio/mpeg', 'MP3 sound', true);
  if (looksLikeSvg(b)) return { ok: false, reason: 'svg' };
  return { ok: false, reason: 'unknown' };
}

/** The size of an ID3v2 tag's body (a "synchsafe" integer: 7 bits per byte). */
function id3Size(b: Buffer): number {
  if (b.length < 10) return Number.MAX_SAFE_INTEGER;
  return ((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) | (b[9]! & 0x7f);
}
