import { z } from 'zod';

/** The ad lengths Twitch takes (seconds): it serves about the length asked, 180 at most. */
export const commercialLengths = [30, 60, 90, 120, 150, 180] as const;
export type CommercialLength = (typeof commercialLengths)[number];

/** `POST /api/2/channels/{channelId}/providers/{channelProviderId}/commercial` (Editor). */
export const startCommercialBodySchema = z.object({
  length_seconds: z.union(commercialLengths.map((n) => z.literal(n)) as [z.ZodLiteral<30>, ...z.ZodLiteral<CommercialLength>[]]),
});
export type StartCommercialBody = z.infer<typeof startCommercialBodySchema>;

export const commercialResultSchema = z.object({
  /** The length the platform serves (it may differ from the one asked). */
  length_seconds: z.number().int(),
  /** Seconds before the next ad may run. */
  retry_after_seconds: z.number().int(),
  /** The platform's note on whether it could serve an ad ('' when all went well). */
  message: z.string(),
});
export type CommercialResult = z.infer<typeof commercialResultSchema>;
