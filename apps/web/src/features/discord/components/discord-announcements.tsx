import { Alert, Anchor, Badge, Button, Group, Paper, Skeleton, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconBrandDiscord, IconDeviceFloppy, IconSend, IconTrash } from '@tabler/icons-react';
import { z } from 'zod';
import {
  DEFAULT_DISCORD_TEMPLATE,
  discordSettingsBodySchema,
  discordTemplateVariables,
  parseDiscordWebhookUrl,
  type DiscordSettings,
} from '@greenroom/contracts/api/discord';
import { ErrorAlert } from '../../../components/error-alert';
import { useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { formatDateTime } from '../../../lib/format';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useDiscordSettings, useRemoveDiscordSettings, useSaveDiscordSettings, useSendDiscordTest } from '../api/discord-api';

const WEBHOOK_MESSAGE = 'Paste the webhook URL from Discord: https://discord.com/api/webhooks/…';

/** The form's values: empty webhook URL keeps the stored one, empty role: no mention. */
const formSchema = z
  .object({
    webhook_url: z
      .string()
      .trim()
      .refine((u) => u === '' || parseDiscordWebhookUrl(u) !== null, { message: WEBHOOK_MESSAGE }),
    template: discordSettingsBodySchema.shape.template,
    role_id: z
      .string()
      .trim()
      .refine((r) => r === '' || /^\d{17,20}$/.test(r), { message: 'A role id is 17 to 20 digits' }),
    enabled: z.boolean(),
  })
  .transform((v) => ({
    ...v,
    webhook_url: v.webhook_url === '' ? undefined : v.webhook_url,
    role_id: v.role_id === '' ? null : v.role_id,
  }));

const stateLabels: Record<NonNullable<DiscordSettings['last_post']>['state'], { label: string; color: string }> = {
  sending: { label: 'Posting', color: 'blue' },
  posted: { label: 'Posted', color: 'green' },
  ended: { label: 'Posted and ended', color: 'gray' },
  failed: { label: 'Failed', color: 'red' },
  interrupted: { label: 'Interrupted', color: 'orange' },
};

function LastPost({ post }: { post: DiscordSettings['last_post'] }) {
  if (!post) {
    return (
      <Text size="sm" c="dimmed">
        Nothing announced yet: the first post goes out when you next go live.
      </Text>
    );
  }
  const state = stateLabels[post.state];
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text size="sm">Last stream, {formatDateTime(post.started_at)}:</Text>
        <Badge color={state.color} variant="light">
          {state.label}
        </Badge>
      </Group>
      {post.error && (
        <Text size="sm" c="red.4">
          {post.error}
        </Text>
      )}
    </Stack>
  );
}

function DiscordForm({ channelId, settings }: { channelId: string; settings: DiscordSettings }) {
  const save = useSaveDiscordSettings(channelId);
  const sendTest = useSendDiscordTest(channelId);
  const remove = useRemoveDiscordSettings(channelId);
  const form = useSchemaForm(formSchema, {
    initialValues: {
      webhook_url: '',
      template: settings.configured ? settings.template : DEFAULT_DISCORD_TEMPLATE,
      role_id: settings.role_id ?? '',
      enabled: settings.configured ? settings.enabled : true,
    },
  });
  const submit = useFormSubmit(form, save.mutateAsync, {
    onSuccess: () => {
      form.setFieldValue('webhook_url', '');
      form.resetDirty();
      notifySuccess('Discord announcements saved');
    },
  });
  useUnsavedChangesGuard(form);
  const test = () => {
    if (form.validate().hasErrors) return;
    const v = formSchema.parse(form.getValues());
    if (!v.webhook_url && !settings.configured) {
      form.setFieldError('webhook_url', WEBHOOK_MESSAGE);
      return;
    }
    sendTest.mutate(
      { ...(v.webhook_url ? { webhook_url: v.webhook_url } : {}), template: v.template, role_id: v.role_id },
      { onSuccess: () => notifySuccess('Test announcement sent to Discord') },
    );
  };

  return (
    <form onSubmit={submit.onSubmit} aria-label="Discord announcements" noValidate>
      <Stack gap="sm">
        <TextInput
          label="Webhook URL"
          description={
            settings.webhook_hint
              ? `Stored: ${settings.webhook_hint}. Paste a new URL to replace it.`
              : 'In Discord: Server Settings → Integrations → Webhooks → New Webhook → Copy Webhook URL.'
          }
          placeholder="https://discord.com/api/webhooks/…"
          autoComplete="off"
          {...form.getInputProps('webhook_url')}
        />
        <Textarea
          label="Message"
          description={`Variables: ${discordTemplateVariables.map((v) => `{${v}}`).join(' ')}`}
          autosize
          minRows={2}
          maxRows={6}
          {...form.getInputProps('template')}
        />
        <TextInput
          label="Role to mention"
          description="Optional. The role's id (Discord: Server Settings → Roles → … → Copy Role ID; needs Developer Mode)."
          placeholder="e.g. 345678901234567890"
          inputMode="numeric"
          {...form.getInputProps('role_id')}
        />
        <Switch label="Announce when I go live" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        {submit.error != null && <ErrorAlert error={submit.error} />}
        {sendTest.error != null && <ErrorAlert error={sendTest.error} />}
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            {settings.configured && (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} />}
                loading={remove.isPending}
                onClick={() => remove.mutate(undefined, { onSuccess: () => notifySuccess('Discord announcements removed') })}
              >
                Remove
              </Button>
            )}
          </Group>
          <Group gap="xs">
            <Button variant="default" leftSection={<IconSend size={16} />} loading={sendTest.isPending} onClick={test}>
              Send test
            </Button>
            <Button
              type="submit"
              leftSection={<IconDeviceFloppy size={16} />}
              loading={form.submitting}
              disabled={settings.configured && !form.isDirty()}
            >
              Save
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

/** Discord go-live announcements (Admin): one post per stream in a Discord channel, edited when the stream ends. */
export function DiscordAnnouncements({ channelId }: { channelId: string }) {
  const settings = useDiscordSettings(channelId);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="discord-title">
      <Stack gap="sm">
        <Group gap="xs">
          <IconBrandDiscord size={20} aria-hidden />
          <Title order={2} size="h5" id="discord-title">
            Discord go-live announcements
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          When you go live on any platform, Greenroom posts once in a Discord channel through a webhook, with your title, game and a link,
          and edits the post when the stream ends.{' '}
          <Anchor href="https://support.discord.com/hc/en-us/articles/228383668" target="_blank" rel="noreferrer" size="sm">
            About webhooks
          </Anchor>
        </Text>
        {settings.isPending ? (
          <Stack gap="sm" aria-busy="true" aria-label="Loading Discord settings">
            <Skeleton h={56} />
            <Skeleton h={72} />
            <Skeleton h={56} />
          </Stack>
        ) : settings.isError ? (
          <ErrorAlert error={settings.error} />
        ) : (
          <>
            {settings.data.configured ? (
              <LastPost post={settings.data.last_post} />
            ) : (
              <Alert variant="light" color="gray" title="Not set up">
                Paste a webhook URL and save to announce your streams.
              </Alert>
            )}
            <DiscordForm key={`${settings.data.configured}`} channelId={channelId} settings={settings.data} />
          </>
        )}
      </Stack>
    </Paper>
  );
}
