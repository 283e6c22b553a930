import { z } from 'zod';

/** The longest announcement template (Discord's message limit is 2,000 characters, the role mention comes first). */
export const DISCORD_TEMPLATE_MAX = 1500;

/** The variables an announcement template may use, in `{name}` form. */
export const discordTemplateVariables = ['channel', 'title', 'game', 'platform', 'platforms', 'link', 'watch_link'] as const;

export const DEFAULT_DISCORD_TEMPLATE = '{channel} is live on {platforms}: {title}\n{link}';

/**
 * A Discord webhook URL as Discord shows it (Server Settings → Integrations → Webhooks → Copy Webhook URL):
 * `https://discord.com/api/webhooks/{id}/{token}` (also discordapp.com, the ptb/canary hosts and a versioned path).
 */
export const DISCORD_WEBHOOK_URL =
  /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api(?:\/v\d+)?\/webhooks\/(\d{17,20})\/([A-Za-z0-9_-]{60,100})\/?$/;

export function parseDiscordWebhookUrl(url: string): { id: string; token: string } | null {
  const m = DISCORD_WEBHOOK_URL.exec(url.trim());
  return m ? { id: m[1]!, token: m[2]! } : null;
}

const templateSchema = z
  .string()
  .trim()
  .min(1, 'Write the announcement')
  .max(DISCORD_TEMPLATE_MAX, `At most ${DISCORD_TEMPLATE_MAX.toLocaleString('en-US')} characters`)
  .refine((t) => [...t.matchAll(/\{(\w+)\}/g)].every((m) => (discordTemplateVariables as readonly string[]).includes(m[1]!)), {
    message: `Unknown variable: use ${discordTemplateVariables.map((v) => `{${v}}`).join(', ')}`,
  });

/** Saving the settings: `webhook_url` omitted keeps the stored one (it is a secret and never sent back). */
export const discordSettingsBodySchema = z.object({
  webhook_url: z
    .string()
    .trim()
    .refine((u) => parseDiscordWebhookUrl(u) !== null, {
      message: 'Paste the webhook URL from Discord: https://discord.com/api/webhooks/…',
    })
    .optional(),
  template: templateSchema,
  /** A role to mention (its id: Discord → Server Settings → Roles → Copy Role ID); null: no mention. */
  role_id: z
    .string()
    .trim()
    .regex(/^\d{17,20}$/, 'A role id is 17 to 20 digits')
    .nullable(),
  enabled: z.boolean(),
});
export type DiscordSettingsBody = z.infer<typeof discordSettingsBodySchema>;

export const discordPostStateSchema = z.enum(['sending', 'posted', 'failed', 'interrupted', 'ended']);

export const discordSettingsSchema = z.object({
  /** A webhook is stored. */
  configured: z.boolean(),
  /** The stored webhook, its token hidden (`…/webhooks/1234…/••••`). */
  webhook_hint: z.string().nullable(),
  template: z.string(),
  role_id: z.string().nullable(),
  enabled: z.boolean(),
  /** The latest go-live announcement. */
  last_post: z
    .object({
      state: discordPostStateSchema,
      started_at: z.string(),
      ended_at: z.string().nullable(),
      error: z.string().nullable(),
    })
    .nullable(),
});
export type DiscordSettings = z.infer<typeof discordSettingsSchema>;

/** "Send test": the settings as typed (the stored webhook when `webhook_url` is omitted). */
export const discordTestBodySchema = discordSettingsBodySchema.omit({ enabled: true });
export type DiscordTestBody = z.infer<typeof discordTestBodySchema>;
