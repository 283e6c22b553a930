/**
 * Alert media: images, GIFs and sounds a channel uploads, typed from their bytes and kept in the database (every
 * instance serves them; an embedded install needs nothing else). One copy per channel and content; the public URL is
 * the content hash, so it can be cached for good.
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import {
  MEDIA_IMAGE_MAX_BYTES,
  MEDIA_PER_CHANNEL_MAX,
  MEDIA_SOUND_MAX_BYTES,
  mediaUrl,
  type WidgetMedia,
  type WidgetMediaKind,
} from '@greenroom/contracts/api/widgets';
import type { Db } from '../../db/client';
import { widgetMedia } from '../../db/schema';
import { badRequest, conflict, notFound, payloadTooLarge, unsupported, unsupportedMediaType } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { detectMedia } from './media-type';

const listColumns = {
  id: widgetMedia.id,
  kind: widgetMedia.kind,
  contentType: widgetMedia.contentType,
  name: widgetMedia.name,
  size: widgetMedia.size,
  sha256: widgetMedia.sha256,
  createdAt: widgetMedia.createdAt,
};
type ListRow = { [K in keyof typeof listColumns]: (typeof widgetMedia.$inferSelect)[K] };

function toMedia(row: ListRow): WidgetMedia {
  return {
    id: row.id,
    kind: row.kind as WidgetMediaKind,
    content_type: row.contentType,
    name: row.name,
    size: row.size,
    sha256: row.sha256,
    url: mediaUrl(row.sha256),
    created_at: row.createdAt.toISOString(),
  };
}

const MB = 1024 * 1024;
const limits: Record<WidgetMediaKind, { bytes: number; message: string }> = {
  image: { bytes: MEDIA_IMAGE_MAX_BYTES, message: `An image or GIF is at most ${MEDIA_IMAGE_MAX_BYTES / MB} MB` },
  sound: { bytes: MEDIA_SOUND_MAX_BYTES, message: `A sound is at most ${MEDIA_SOUND_MAX_BYTES / MB} MB` },
};
export const MEDIA_UPLOAD_MAX_BYTES = Math.max(MEDIA_IMAGE_MAX_BYTES, MEDIA_SOUND_MAX_BYTES);
export const MEDIA_TOO_LARGE_MESSAGE = `A file is at most ${MEDIA_IMAGE_MAX_BYTES / MB} MB (images and GIFs) or ${MEDIA_SOUND_MAX_BYTES / MB} MB (sounds)`;

export class WidgetMediaService {
  constructor(private readonly db: Db) {}

  async list(channelId: string): Promise<WidgetMedia[]> {
    const rows = await this.db
      .select(listColumns)
      .from(widgetMedia)
      .where(eq(widgetMedia.channelId, channelId))
      .orderBy(desc(widgetMedia.createdAt));
    return rows.map(toMedia);
  }

  /** Stores an upload after checking what it is (from its bytes) and its size; the same content again is the same file. */
  async upload(channelId: string, name: string, data: Buffer): Promise<{ media: WidgetMedia; created: boolean }> {
    if (data.length === 0) throw badRequest('The file is empty');
    const check = detectMedia(data);
    if (!check.ok) {
      if (check.reason === 'svg') throw unsupportedMediaType('SVG images are not accepted: use a PNG, JPEG, GIF or WebP image');
      if (check.reason === 'damaged') throw unsupported(`The file starts like a ${check.label} but is damaged or incomplete`);
      throw unsupportedMediaType(
        'This file is not an image or sound we accept: PNG, JPEG, GIF or WebP images; MP3, OGG, WAV, M4A or FLAC sounds',
      );
    }
    const { kind, contentType } = check.media;
    if (data.length > limits[kind].bytes) throw payloadTooLarge(limits[kind].message);
    const sha256 = createHash('sha256').update(data).digest('hex');
    const [existing] = await this.db
      .select(listColumns)
      .from(widgetMedia)
      .where(and(eq(widgetMedia.channelId, channelId), eq(widgetMedia.sha256, sha256)))
      .limit(1);
    if (existing) return { media: toMedia(existing), created: false };
    const [{ n } = { n: 0 }] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(widgetMedia)
      .where(eq(widgetMedia.channelId, channelId));
    if (n >= MEDIA_PER_CHANNEL_MAX) throw conflict(`A channel keeps at most ${MEDIA_PER_CHANNEL_MAX} files: delete some first`);
    const [row] = await this.db
      .insert(widgetMedia)
      .values({ id: newId(), channelId, sha256, kind, contentType, name, size: data.length, data })
      .onConflictDoNothing()
      .returning(listColumns);
    if (row) return { media: toMedia(row), created: true };
    // The same file uploaded twice at once: the other upload stored it.
    const [raced] = await this.db
      .select(listColumns)
      .from(widgetMedia)
      .where(and(eq(widgetMedia.channelId, channelId), eq(widgetMedia.sha256, sha256)))
      .limit(1);
    if (!raced) throw conflict('The file was deleted while it was uploaded: try again');
    return { media: toMedia(raced), created: false };
  }

  async remove(channelId: string, mediaId: string): Promise<void> {
    const deleted = await this.db
      .delete(widgetMedia)
      .where(and(eq(widgetMedia.channelId, channelId), eq(widgetMedia.id, mediaId)))
      .returning({ id: widgetMedia.id });
    if (deleted.length === 0) throw notFound('File not found');
  }

  /** A file's bytes and detected type by its content hash (the public URL), or null. */
  async content(sha256: string): Promise<{ contentType: string; data: Buffer } | null> {
    const [row] = await this.db
      .select({ contentType: widgetMedia.contentType, data: widgetMedia.data })
      .from(widgetMedia)
      .where(eq(widgetMedia.sha256, sha256))
      .limit(1);
    return row ?? null;
  }
}
