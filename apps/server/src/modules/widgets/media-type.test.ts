import { describe, expect, it } from 'vitest';
import { detectMedia } from './media-type';

const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const riff = (form: string, body: number) => {
  const b = Buffer.alloc(12 + body);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(4 + body, 4);
  b.write(form, 8, 'latin1');
  return b;
};

describe('detectMedia', () => {
  it('knows each accepted type by its magic numbers, whatever the name', () => {
    const type = (b: Buffer) =>
      (({ ok, ...rest }) => (ok ? (rest as { media: { contentType: string } }).media.contentType : rest))(detectMedia(b));
    expect(type(bytes([0xff, 0xd8, 0xff, 0xe0], new Array(20).fill(0), [0xff, 0xd9]))).toBe('image/jpeg');
    expect(type(riff('WEBP', 20))).toBe('image/webp');
    expect(type(riff('WAVE', 20))).toBe('audio/wav');
    expect(type(bytes('OggS', new Array(40).fill(0)))).toBe('audio/ogg');
    expect(type(bytes('fLaC', new Array(40).fill(0)))).toBe('audio/flac');
    expect(type(bytes([0, 0, 0, 32], 'ftypM4A ', new Array(40).fill(0)))).toBe('audio/mp4');
    expect(type(bytes('ID3', [4, 0, 0, 0, 0, 0, 4], [0, 0, 0, 0], [0xff, 0xfb, 0x90, 0x00]))).toBe('audio/mpeg');
    expect(type(bytes([0xff, 0xfb, 0x90, 0x00], new Array(100).fill(0)))).toBe('audio/mpeg');
  });

  it('refuses SVG (also behind a BOM or a comment), video and text; tells a cut-off file apart', () => {
    expect(detectMedia(Buffer.from('\uFEFF  <!-- logo --><svg xmlns="http://www.w3.org/2000/svg"/>'))).toEqual({
      ok: false,
      reason: 'svg',
    });
    expect(detectMedia(bytes([0, 0, 0, 32], 'ftypisom', new Array(40).fill(0)))).toEqual({ ok: false, reason: 'unknown' });
    expect(detectMedia(Buffer.from('hello'))).toEqual({ ok: false, reason: 'unknown' });
    expect(detectMedia(riff('WAVE', 20).subarray(0, 20))).toEqual({ ok: false, reason: 'damaged', label: 'WAV sound' });
    expect(detectMedia(bytes([0xff, 0xd8, 0xff, 0xe0], new Array(20).fill(1)))).toEqual({
      ok: false,
      reason: 'damaged',
      label: 'JPEG image',
    });
    expect(detectMedia(bytes('GIF89a', [1, 0, 1, 0]))).toEqual({ ok: false, reason: 'damaged', label: 'GIF' });
  });
});
