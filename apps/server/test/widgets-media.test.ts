/**
 * Alert media on a real database: the type comes from the bytes (a WAV named .png is a sound), SVG and unknown files
 * are refused (415), a file cut short is a 422, the size limits are per kind (413, also before the body is read),
 * the same content is one file, and the public address serves the bytes with the detected type and caching headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWidgetSettings, type Widget, type WidgetMedia } from '@greenroom/contracts/api/widgets';
import { createTestApp, type TestApp, type TestUser } from './helper';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let channelId: string;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A WAV file of `samples` bytes of silence (8-bit mono). */
function wav(samples: number): Buffer {
  const b = Buffer.alloc(44 + samples, 0x80);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + samples, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(8000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(samples, 40);
  return b;
}

const upload = (name: string, body: Buffer, contentType = 'application/octet-stream', user: TestUser = owner) =>
  t.inject(user, {
    method: 'POST',
    url: `/api/2/channels/${channelId}/widget-media?name=${encodeURIComponent(name)}`,
    headers: { 'content-type': contentType },
    payload: body,
  });

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ displayName: 'Owner' });
  stranger = await t.createUser({ displayName: 'Stranger' });
  channelId = (await t.inject(owner, { method: 'POST', url: '/api/2/channels', payload: { display_name: 'Media' } })).json<{ id: string }>()
    .id;
});
afterAll(async () => t.close());

describe('alert media', () => {
  it('types uploads from their bytes, keeps one copy per content and serves it with caching headers', async () => {
    const gif = await upload('party.gif', GIF, 'image/gif');
    expect(gif.statusCode).toBe(201);
    expect(gif.json<WidgetMedia>()).toMatchObject({ kind: 'image', content_type: 'image/gif', name: 'party.gif', size: GIF.length });
    // The name and the claimed type say PNG; the bytes say WAV.
    const sound = await upload('ding.png', wav(800), 'image/png');
    expect(sound.statusCode).toBe(201);
    expect(sound.json<WidgetMedia>()).toMatchObject({ kind: 'sound', content_type: 'audio/wav' });
    const again = await upload('party again.gif', GIF);
    expect(again.statusCode).toBe(200);
    expect(again.json<WidgetMedia>().id).toBe(gif.json<WidgetMedia>().id);
    expect((await upload('dot.png', PNG)).json<WidgetMedia>().content_type).toBe('image/png');

    const list = await t.inject(owner, { method: 'GET', url: `/api/2/channels/${channelId}/widget-media` });
    expect(list.json<WidgetMedia[]>()).toHaveLength(3);
    expect((await t.inject(stranger, { method: 'GET', url: `/api/2/channels/${channelId}/widget-media` })).statusCode).toBe(404);
    expect((await upload('x.gif', GIF, 'image/gif', stranger)).statusCode).toBe(404);

    // Public (a widget page has no session), typed by content, cached for good.
    const { url, sha256 } = gif.json<WidgetMedia>();
    const served = await t.inject(null, { method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/gif');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers.etag).toBe(`"${sha256}"`);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(GIF)).toBe(true);
    const cached = await t.inject(null, { method: 'GET', url, headers: { 'if-none-match': `"${sha256}"` } });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    expect((await t.inject(null, { method: 'GET', url: `/api/2/public/widget-media/${'0'.repeat(64)}` })).statusCode).toBe(404);
    expect((await t.inject(null, { method: 'GET', url: '/api/2/public/widget-media/nothex' })).statusCode).toBe(400);

    // Deleted: gone from the public address too.
    const removed = await t.inject(owner, {
      method: 'DELETE',
      url: `/api/2/channels/${channelId}/widget-media/${sound.json<WidgetMedia>().id}`,
    });
    expect(removed.statusCode).toBe(204);
    expect((await t.inject(null, { method: 'GET', url: sound.json<WidgetMedia>().url })).statusCode).toBe(404);
  });

  it('refuses SVG, unknown and damaged files, and files over the limit of their kind, with { type, message }', async () => {
    const svg = await upload(
      'logo.png',
      Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'image/png',
    );
    expect(svg.statusCode).toBe(415);
    expect(svg.json()).toEqual({
      type: 'unsupported_media_type',
      message: 'SVG images are not accepted: use a PNG, JPEG, GIF or WebP image',
    });
    const text = await upload('notes.mp3', Buffer.from('just some text'), 'audio/mpeg');
    expect(text.statusCode).toBe(415);
    expect(text.json<{ type: string }>().type).toBe('unsupported_media_type');
    const cut = await upload('cut.png', PNG.subarray(0, 40));
    expect(cut.statusCode).toBe(422);
    expect(cut.json()).toEqual({ type: 'unsupported', message: 'The file starts like a PNG image but is damaged or incomplete' });
    const empty = await upload('empty.gif', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toBe('The file is empty');
    // A sound over 2 MB (an image of this size would be fine).
    const long = await upload('long.wav', wav(2 * 1024 * 1024));
    expect(long.statusCode).toBe(413);
    expect(long.json()).toEqual({ type: 'payload_too_large', message: 'A sound is at most 2 MB' });
    // Over the largest limit: refused before the body is read.
    const huge = await upload('huge.gif', Buffer.concat([GIF, Buffer.alloc(5 * 1024 * 1024)]));
    expect(huge.statusCode).toBe(413);
    expect(huge.json<{ type: string; message: string }>()).toEqual({
      type: 'payload_too_large',
      message: 'A file is at most 5 MB (images and GIFs) or 2 MB (sounds)',
    });
    const noName = await upload('', GIF);
    expect(noName.statusCode).toBe(400);
  });

  it('an alert uses an uploaded image and sound, and only uploaded ones', async () => {
    const widget = (
      await t.inject(owner, { method: 'POST', url: `/api/2/channels/${channelId}/widgets`, payload: { type: 'alerts' } })
    ).json<Widget>();
    const image = (await upload('follow.gif', GIF)).json<WidgetMedia>();
    const sound = (await upload('follow.wav', wav(100))).json<WidgetMedia>();
    const settings = defaultWidgetSettings('alerts');
    settings.alerts.follow = { ...settings.alerts.follow, image_url: image.url, sound_url: sound.url, volume: 80, tts: true };
    const saved = await t.inject(owner, {
      method: 'PUT',
      url: `/api/2/channels/${channelId}/widgets/${widget.id}`,
      payload: { type: 'alerts', name: 'Alerts', settings },
    });
    expect(saved.statusCode).toBe(200);
    const state = await t.inject(null, { method: 'GET', url: `/api/2/public/widgets/${widget.token}` });
    expect(state.json<{ settings: typeof settings }>().settings.alerts.follow).toMatchObject({
      image_url: image.url,
      sound_url: sound.url,
      tts: true,
    });
    settings.alerts.follow.image_url = 'https://tracker.example/pixel.gif';
    const elsewhere = await t.inject(owner, {
      method: 'PUT',
      url: `/api/2/channels/${channelId}/widgets/${widget.id}`,
      payload: { type: 'alerts', name: 'Alerts', settings },
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json<{ fields: Record<string, string> }>().fields['settings.alerts.follow.image_url']).toBe('Pick an uploaded file');
  });
});
