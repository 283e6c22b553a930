import {
  Accordion,
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Chip,
  ColorInput,
  CopyButton,
  FileButton,
  Group,
  Input,
  Menu,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import {
  IconArrowLeft,
  IconCheck,
  IconCopy,
  IconDeviceFloppy,
  IconExternalLink,
  IconMoodEmpty,
  IconRefresh,
  IconSend,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import {
  alertAmountLabels,
  alertTemplateVariables,
  alertTypeLabels,
  alertTypes,
  goalKindLabels,
  goalKinds,
  NOW_PLAYING_IDLE_TEXT_MAX,
  widgetTypeLabels,
  widgetUpdateBodySchema,
  MEDIA_IMAGE_MAX_BYTES,
  MEDIA_SOUND_MAX_BYTES,
  type AlertType,
  type Widget,
  type WidgetMediaKind,
  type WidgetUpdateBody,
} from '@greenroom/contracts/api/widgets';
import { channelProviderIds, providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { LEAVE_WITHOUT_ASKING, useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { isApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/document-title';
import { useFormSubmit, useSchemaForm, type SchemaForm } from '../../../lib/form';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  useDeleteWidget,
  useDuplicateWidget,
  useResetGoal,
  useRotateWidgetUrl,
  useSaveWidget,
  useSendTestEvent,
  useUploadWidgetMedia,
  useWidget,
  useWidgetMedia,
  widgetUrl,
} from '../api/widgets';
import { useWidgetConnection, type WidgetConnection } from '../hooks/use-widget-connection';
import { WidgetView } from './widget-view';
import { confirmDeleteWidget } from './widgets-page';
import classes from './widgets.module.css';

type Form = SchemaForm<typeof widgetUpdateBodySchema>;
const chatProviders = channelProviderIds.filter((p) => providers[p].chatRead);

/** `/channels/{id}/widgets/{widgetId}` (Editor): settings beside a live preview, the OBS URL, test events. */
export function WidgetEditorPage({ channelId, widgetId }: { channelId: string; widgetId: string }) {
  const widget = useWidget(channelId, widgetId);
  useDocumentTitle(widget.data?.name ?? null);
  const back = (
    <Anchor component={Link} to={`/channels/${channelId}/widgets`} size="sm" c="dimmed">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        Stream Widgets
      </Group>
    </Anchor>
  );
  if (widget.error && isApiError(widget.error, 404)) {
    return (
      <Stack gap="md" p={{ base: 'md', sm: 'lg' }} maw={900}>
        {back}
        <PageState
          order={1}
          icon={<IconMoodEmpty size={28} />}
          title="This widget does not exist"
          description="It may have been deleted."
        />
      </Stack>
    );
  }
  return (
    <Stack gap="md" p={{ base: 'md', sm: 'lg' }} maw={1400}>
      {back}
      {widget.error != null && <ErrorAlert error={widget.error} />}
      {widget.isPending ? (
        <Paper withBorder radius="md" p="md" aria-busy="true" aria-label="Loading">
          <Stack gap="sm">
            <Skeleton h={36} />
            <Skeleton h={36} />
            <Skeleton h={120} />
          </Stack>
        </Paper>
      ) : widget.data ? (
        <WidgetEditor key={widget.data.id} channelId={channelId} widget={widget.data} />
      ) : null}
    </Stack>
  );
}

function toBody(w: Widget): WidgetUpdateBody {
  return { type: w.type, name: w.name, settings: w.settings } as WidgetUpdateBody;
}

function WidgetEditor({ channelId, widget }: { channelId: string; widget: Widget }) {
  const navigate = useNavigate();
  const save = useSaveWidget(channelId, widget.id);
  const remove = useDeleteWidget(channelId);
  const duplicate = useDuplicateWidget(channelId);
  const form = useSchemaForm(widgetUpdateBodySchema, { initialValues: toBody(widget) });
  const submit = useFormSubmit(form, save.mutateAsync, { onSuccess: (saved) => notifySuccess(`${saved.name} saved`) });
  useUnsavedChangesGuard(form);
  const values = form.getValues();

  return (
    <>
      <Group justify="space-between" align="flex-start" gap="sm">
        <div>
          <Title order={1} size="h2">
            {widget.name}
          </Title>
          <Badge variant="light" color="gray" mt={4}>
            {widgetTypeLabels[widget.type]}
          </Badge>
        </div>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconCopy size={16} />}
            loading={duplicate.isPending}
            onClick={() =>
              duplicate.mutate(widget.id, {
                onSuccess: (copy) => {
                  notifySuccess(`${copy.name} created`);
                  void navigate(`../${copy.id}`, { relative: 'path' });
                },
                onError: (e) => notifyError(e),
              })
            }
          >
            Duplicate
          </Button>
          <Button
            color="red"
            variant="subtle"
            leftSection={<IconTrash size={16} />}
            loading={remove.isPending}
            onClick={() =>
              confirmDeleteWidget(widget, () =>
                remove.mutate(widget.id, {
                  onSuccess: () => {
                    notifySuccess(`${widget.name} deleted`);
                    void navigate('..', { relative: 'path', state: LEAVE_WITHOUT_ASKING });
                  },
                  onError: (e) => notifyError(e),
                }),
              )
            }
          >
            Delete
          </Button>
        </Group>
      </Group>
      <Group align="flex-start" gap="md" wrap="wrap">
        <Stack gap="md" className={classes.editorSide}>
          <UrlCard channelId={channelId} widget={widget} />
          <Preview widget={widget} settings={values.settings} channelId={channelId} />
        </Stack>
        <Paper withBorder radius="md" p="md" style={{ flex: '1 1 480px', minWidth: 0 }}>
          <form onSubmit={submit.onSubmit} aria-label="Widget settings" noValidate>
            <Stack gap="md">
              <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
              {values.type === 'alerts' && <AlertFields form={form} channelId={channelId} widgetId={widget.id} />}
              {values.type === 'chat' && <ChatFields form={form} />}
              {values.type === 'events' && <EventFields form={form} />}
              {values.type === 'goal' && <GoalFields form={form} channelId={channelId} widget={widget} />}
              {values.type === 'giveaway' && <GiveawayFields form={form} />}
              {values.type === 'queue' && <QueueFields form={form} />}
              {values.type === 'emotes' && <EmoteWallFields form={form} />}
              {values.type === 'spotify' && <NowPlayingFields form={form} />}
              <LookFields form={form} />
              {submit.error != null && <ErrorAlert error={submit.error} />}
              <Group justify="flex-end">
                <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={form.submitting} disabled={!form.isDirty()}>
                  Save
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      </Group>
    </>
  );
}

/** The secret URL for OBS: copy, open, rotate. */
function UrlCard({ channelId, widget }: { channelId: string; widget: Widget }) {
  const rotate = useRotateWidgetUrl(channelId);
  const url = widgetUrl(widget.token);
  const s = widget.settings as { width: number; height: number };
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Widget URL
        </Text>
        <Text size="xs" c="dimmed">
          In OBS add a Browser source with this URL, {s.width} × {s.height}. Keep it secret: anyone with it can show this widget.
        </Text>
        <Group gap="xs" wrap="nowrap">
          <TextInput value={url} readOnly aria-label="Widget URL" style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton value={url}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : 'Copy URL'}>
                <ActionIcon variant="light" size="lg" color={copied ? 'green' : undefined} onClick={copy} aria-label="Copy URL">
                  {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
          <Tooltip label="Open in a new tab">
            <ActionIcon component="a" href={url} target="_blank" rel="noreferrer" variant="light" size="lg" aria-label="Open widget">
              <IconExternalLink size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
        <Group>
          <Button
            variant="subtle"
            color="orange"
            size="compact-sm"
            leftSection={<IconRefresh size={14} />}
            loading={rotate.isPending}
            onClick={() =>
              modals.openConfirmModal({
                title: 'Get a new URL?',
                children: <Text size="sm">The current URL stops working at once. Paste the new one into OBS.</Text>,
                labels: { confirm: 'New URL', cancel: 'Cancel' },
                confirmProps: { color: 'orange' },
                centered: true,
                onConfirm: () =>
                  rotate.mutate(widget.id, { onSuccess: () => notifySuccess('New widget URL ready'), onError: (e) => notifyError(e) }),
              })
            }
          >
            New URL
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The widget as OBS shows it, with the form's unsaved settings, fed by the same live connection as the page. */
function Preview({ widget, settings, channelId }: { widget: Widget; settings: Record<string, unknown>; channelId: string }) {
  const connection = useWidgetConnection(widget.token);
  const { ref, width: available } = useElementSize();
  const w = Number(settings.width) || 400;
  const h = Number(settings.height) || 200;
  const scale = available > 0 ? Math.min(1, available / w) : 1;
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600} size="sm">
            Preview
          </Text>
          {(widget.type === 'alerts' || widget.type === 'events' || widget.type === 'goal') && (
            <TestEventMenu channelId={channelId} widgetId={widget.id} />
          )}
        </Group>
        <div ref={ref}>
          <div className={classes.previewStage} style={{ width: w * scale, height: h * scale }} aria-label="Widget preview" role="region">
            <div style={{ transform: `scale(${scale})`, transformOrigin: 'top left', width: w, height: h }}>
              <WidgetView type={widget.type} connection={connection} settings={settings} />
            </div>
          </div>
        </div>
        {widget.type === 'spotify' && <SpotifyStatus connection={connection} channelId={channelId} />}
        <Text size="xs" c="dimmed">
          {connection.status === 'live' ? 'Live: events of your channel show here as they happen.' : 'Connecting…'}
        </Text>
      </Stack>
    </Paper>
  );
}

/** Why a now-playing widget shows nothing: Spotify not connected, needing a reconnect, or nothing playing. */
function SpotifyStatus({ connection, channelId }: { connection: WidgetConnection; channelId: string }) {
  const state = connection.snapshot?.now_playing?.state;
  const platforms = (
    <Anchor component={Link} to={`/channels/${channelId}/providers`} size="sm">
      Platforms
    </Anchor>
  );
  if (state === 'not_connected')
    return (
      <Alert color="yellow" variant="light" title="Spotify is not connected">
        The widget shows nothing on stream until you connect Spotify on {platforms}.
      </Alert>
    );
  if (state === 'reconnect')
    return (
      <Alert color="orange" variant="light" title="Spotify needs to be reconnected">
        Spotify no longer accepts Greenroom's access. Reconnect it on {platforms}; until then the widget shows nothing.
      </Alert>
    );
  if (state === 'idle')
    return (
      <Text size="xs" c="dimmed">
        Nothing is playing on Spotify right now. Play a song and it shows here within a few seconds while you are live.
      </Text>
    );
  return null;
}

function TestEventMenu({ channelId, widgetId }: { channelId: string; widgetId: string }) {
  const test = useSendTestEvent(channelId, widgetId);
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button size="compact-sm" variant="light" leftSection={<IconSend size={14} />} loading={test.isPending}>
          Send test event
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {alertTypes.map((t) => (
          <Menu.Item key={t} onClick={() => test.mutate(t, { onError: (e) => notifyError(e) })}>
            {alertTypeLabels[t]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function LookFields({ form }: { form: Form }) {
  const type = form.getValues().type;
  return (
    <Stack gap="sm">
      <Text fw={600} size="sm">
        Look
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <NumberInput label="Width" suffix=" px" min={100} allowDecimal={false} {...form.getInputProps('settings.width')} />
        <NumberInput label="Height" suffix=" px" min={40} allowDecimal={false} {...form.getInputProps('settings.height')} />
        <NumberInput label="Font size" suffix=" px" min={10} allowDecimal={false} {...form.getInputProps('settings.font_size')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <ColorInput label="Text colour" format="hex" {...form.getInputProps('settings.text_color')} />
        {(type === 'alerts' || type === 'events' || type === 'giveaway' || type === 'queue' || type === 'spotify') && (
          <ColorInput label="Accent colour" format="hex" {...form.getInputProps('settings.accent_color')} />
        )}
        {type === 'goal' && <ColorInput label="Bar colour" format="hex" {...form.getInputProps('settings.bar_color')} />}
      </SimpleGrid>
    </Stack>
  );
}

function AlertFields({ form, channelId, widgetId }: { form: Form; channelId: string; widgetId: string }) {
  const test = useSendTestEvent(channelId, widgetId);
  const alerts = (form.getValues().settings as { alerts: Record<AlertType, { enabled: boolean }> }).alerts;
  return (
    <Stack gap="sm">
      <Input.Wrapper
        label="Alerts"
        description={`Text variables: ${alertTemplateVariables.map((v) => `{${v}}`).join(' ')}. Alerts wait their turn and never overlap.`}
      >
        <Accordion variant="separated" mt="xs" multiple>
          {alertTypes.map((t) => (
            <Accordion.Item key={t} value={t}>
              <Accordion.Control>
                <Group justify="space-between" wrap="nowrap" pr="sm">
                  <Text size="sm" fw={600}>
                    {alertTypeLabels[t]}
                  </Text>
                  {!alerts[t].enabled && (
                    <Badge size="sm" color="gray" variant="light">
                      Off
                    </Badge>
                  )}
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="sm">
                  <Switch label="Show this alert" {...form.getInputProps(`settings.alerts.${t}.enabled`, { type: 'checkbox' })} />
                  <TextInput label="Text" {...form.getInputProps(`settings.alerts.${t}.template`)} />
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                    <NumberInput
                      label="Duration"
                      suffix=" s"
                      min={2}
                      max={60}
                      allowDecimal={false}
                      {...form.getInputProps(`settings.alerts.${t}.duration_seconds`)}
                    />
                    {alertAmountLabels[t] && (
                      <NumberInput
                        label={alertAmountLabels[t]}
                        description="0 shows every one."
                        min={0}
                        allowDecimal={false}
                        {...form.getInputProps(`settings.alerts.${t}.min_amount`)}
                      />
                    )}
                  </SimpleGrid>
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                    <MediaPicker form={form} channelId={channelId} kind="image" path={`settings.alerts.${t}.image_url`} />
                    <MediaPicker form={form} channelId={channelId} kind="sound" path={`settings.alerts.${t}.sound_url`} />
                    <NumberInput
                      label="Sound volume"
                      suffix=" %"
                      min={0}
                      max={100}
                      allowDecimal={false}
                      {...form.getInputProps(`settings.alerts.${t}.volume`)}
                    />
                  </SimpleGrid>
                  <Switch
                    label="Read the viewer's message aloud"
                    description="Text-to-speech by the browser showing the widget (OBS speaks it with the system's voice)."
                    {...form.getInputProps(`settings.alerts.${t}.tts`, { type: 'checkbox' })}
                  />
                  <Group>
                    <Button
                      size="compact-sm"
                      variant="light"
                      leftSection={<IconSend size={14} />}
                      onClick={() => test.mutate(t, { onError: (e) => notifyError(e) })}
                    >
                      Send test {alertTypeLabels[t].toLowerCase()}
                    </Button>
                  </Group>
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      </Input.Wrapper>
      <Switch label="Show the viewer's message" {...form.getInputProps('settings.show_message', { type: 'checkbox' })} />
    </Stack>
  );
}

const mediaKindText: Record<WidgetMediaKind, { label: string; accept: string; hint: string }> = {
  image: {
    label: 'Image or GIF',
    accept: 'image/png,image/jpeg,image/gif,image/webp',
    hint: `PNG, JPEG, GIF or WebP, up to ${MEDIA_IMAGE_MAX_BYTES / 1024 / 1024} MB`,
  },
  sound: {
    label: 'Sound',
    accept: 'audio/mpeg,audio/ogg,audio/wav,audio/x-wav,audio/mp4,audio/flac,.mp3,.ogg,.wav,.m4a,.flac',
    hint: `MP3, OGG, WAV, M4A or FLAC, up to ${MEDIA_SOUND_MAX_BYTES / 1024 / 1024} MB`,
  },
};

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Picks one of the channel's uploaded files of a kind, or uploads a new one (typed by the server from its content). */
function MediaPicker({ form, channelId, kind, path }: { form: Form; channelId: string; kind: WidgetMediaKind; path: string }) {
  const media = useWidgetMedia(channelId);
  const upload = useUploadWidgetMedia(channelId);
  const text = mediaKindText[kind];
  const input = form.getInputProps(path);
  const options = (media.data ?? [])
    .filter((m) => m.kind === kind)
    .map((m) => ({ value: m.url, label: `${m.name} (${formatSize(m.size)})` }));
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <Select
        style={{ flex: 1 }}
        label={text.label}
        description={text.hint}
        placeholder={media.isPending ? 'Loading files…' : media.isError ? 'Files could not be loaded' : 'None'}
        data={options}
        clearable
        searchable
        nothingFoundMessage="No file uploaded yet"
        {...input}
        value={(input.value as string | null) ?? null}
      />
      <FileButton
        accept={text.accept}
        onChange={(file) => {
          if (!file) return;
          upload.mutate(file, {
            onSuccess: (stored) => {
              if (stored.kind !== kind) {
                notifyError(
                  null,
                  `${stored.name} is ${stored.kind === 'image' ? 'an image' : 'a sound'}: it was added to your files, pick it where it fits`,
                );
                return;
              }
              form.setFieldValue(path, stored.url);
              notifySuccess(`${stored.name} uploaded`);
            },
            onError: (e) => notifyError(e),
          });
        }}
      >
        {(props) => (
          <Tooltip label={`Upload ${kind === 'image' ? 'an image or GIF' : 'a sound'}`}>
            <ActionIcon {...props} size="lg" variant="default" loading={upload.isPending} aria-label={`Upload ${text.label.toLowerCase()}`}>
              <IconUpload size={16} />
            </ActionIcon>
          </Tooltip>
        )}
      </FileButton>
    </Group>
  );
}

function GiveawayFields({ form }: { form: Form }) {
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Shows the channel&apos;s open giveaway (else the last one closed or drawn). Run giveaways from the Giveaways page; the widget
        follows as you open, draw and re-roll.
      </Text>
      <Switch label="Show how to enter" {...form.getInputProps('settings.show_how_to_enter', { type: 'checkbox' })} />
      <Switch label="Show the number of entries" {...form.getInputProps('settings.show_entries', { type: 'checkbox' })} />
    </Stack>
  );
}

function QueueFields({ form }: { form: Form }) {
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Shows the channel&apos;s open queue (else a paused one). Viewers join with the queue&apos;s chat command; you pick them from the
        Queue page.
      </Text>
      <NumberInput label="Viewers shown" min={1} max={50} allowDecimal={false} {...form.getInputProps('settings.max_entries')} />
      <Switch label="Platform icons" {...form.getInputProps('settings.show_platform_icons', { type: 'checkbox' })} />
    </Stack>
  );
}

function EmoteWallFields({ form }: { form: Form }) {
  const s = form.getValues().settings as { providers: string[] };
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Emotes viewers use in chat — platform emotes and the channel&apos;s 7TV and BTTV emotes — float up across the screen.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <NumberInput
          label="Emote size"
          suffix=" px"
          min={16}
          max={256}
          allowDecimal={false}
          {...form.getInputProps('settings.emote_size')}
        />
        <NumberInput
          label="Emotes on screen"
          description="The oldest leave first."
          min={1}
          max={200}
          allowDecimal={false}
          {...form.getInputProps('settings.max_on_screen')}
        />
        <NumberInput label="Emotes per message" min={1} max={20} allowDecimal={false} {...form.getInputProps('settings.per_message')} />
        <NumberInput
          label="Duration"
          suffix=" s"
          min={2}
          max={30}
          allowDecimal={false}
          {...form.getInputProps('settings.duration_seconds')}
        />
      </SimpleGrid>
      <Input.Wrapper label="Platforms" description="None selected: every platform.">
        <Chip.Group
          multiple
          value={s.providers}
          onChange={(value) => form.setFieldValue('settings.providers', value as ChannelProviderId[])}
        >
          <Group gap="xs" mt={6}>
            {chatProviders.map((p) => (
              <Chip key={p} value={p} size="sm">
                {providers[p].name}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Input.Wrapper>
    </Stack>
  );
}

function ChatFields({ form }: { form: Form }) {
  const s = form.getValues().settings as { providers: string[]; hidden_users: string[] };
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <NumberInput label="Messages shown" min={1} max={100} allowDecimal={false} {...form.getInputProps('settings.max_messages')} />
        <NumberInput
          label="Fade out after"
          description="0 keeps messages."
          suffix=" s"
          min={0}
          allowDecimal={false}
          {...form.getInputProps('settings.fade_after_seconds')}
        />
      </SimpleGrid>
      <Input.Wrapper label="Platforms" description="None chosen: every platform." error={form.errors['settings.providers']}>
        <Chip.Group multiple value={s.providers} onChange={(v) => form.setFieldValue('settings.providers', v as ChannelProviderId[])}>
          <Group gap="xs" mt={6} role="group" aria-label="Platforms">
            {chatProviders.map((p) => (
              <Chip key={p} value={p} color={providers[p].color} size="sm" variant="light">
                {providers[p].name}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Input.Wrapper>
      <Switch label="Hide commands (messages starting with !)" {...form.getInputProps('settings.hide_commands', { type: 'checkbox' })} />
      <TagsInput
        label="Hide these viewers (bots)"
        description="Their messages are not shown. Press Enter after each name."
        value={s.hidden_users}
        onChange={(v) => form.setFieldValue('settings.hidden_users', v)}
        error={form.errors['settings.hidden_users']}
      />
      <Switch label="Platform icons" {...form.getInputProps('settings.show_platform_icons', { type: 'checkbox' })} />
      <Switch
        label="Badges (broadcaster, moderator, VIP, subscriber)"
        {...form.getInputProps('settings.show_badges', { type: 'checkbox' })}
      />
    </Stack>
  );
}

function EventFields({ form }: { form: Form }) {
  const s = form.getValues().settings as { types: string[] };
  return (
    <Stack gap="sm">
      <NumberInput label="Events shown" min={1} max={20} allowDecimal={false} {...form.getInputProps('settings.max_events')} />
      <Input.Wrapper label="Events" error={form.errors['settings.types']}>
        <Chip.Group multiple value={s.types} onChange={(v) => form.setFieldValue('settings.types', v as AlertType[])}>
          <Group gap="xs" mt={6} role="group" aria-label="Events">
            {alertTypes.map((t) => (
              <Chip key={t} value={t} size="sm" variant="light">
                {alertTypeLabels[t]}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Input.Wrapper>
    </Stack>
  );
}

function GoalFields({ form, channelId, widget }: { form: Form; channelId: string; widget: Widget }) {
  const reset = useResetGoal(channelId);
  const kind = (form.getValues().settings as { kind: string }).kind;
  return (
    <Stack gap="sm">
      <TextInput label="Title" withAsterisk {...form.getInputProps('settings.title')} />
      <Select
        label="Counts"
        allowDeselect={false}
        data={goalKinds.map((k) => ({ value: k, label: goalKindLabels[k] }))}
        {...form.getInputProps('settings.kind')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <NumberInput label="Target" min={1} allowDecimal={false} withAsterisk {...form.getInputProps('settings.target')} />
        <NumberInput
          label={kind === 'custom' ? 'Current count' : 'Starting count'}
          description={kind === 'custom' ? 'Save to update the bar.' : 'Added to what is counted.'}
          min={0}
          allowDecimal={false}
          {...form.getInputProps('settings.start_value')}
        />
      </SimpleGrid>
      {kind !== 'custom' && (
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            Counting since {new Date(widget.counted_since).toLocaleString('en-US')}.
          </Text>
          <Button
            size="compact-xs"
            variant="subtle"
            loading={reset.isPending}
            onClick={() =>
              modals.openConfirmModal({
                title: 'Start counting again?',
                children: <Text size="sm">The goal counts from now on, plus its starting count.</Text>,
                labels: { confirm: 'Reset', cancel: 'Cancel' },
                centered: true,
                onConfirm: () => reset.mutate(widget.id, { onSuccess: () => notifySuccess('Goal reset'), onError: (e) => notifyError(e) }),
              })
            }
          >
            Reset count
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function NowPlayingFields({ form }: { form: Form }) {
  return (
    <Stack gap="sm">
      <Switch
        label="Dark card behind the song"
        description="Off: the text floats over your scene with a shadow."
        {...form.getInputProps('settings.show_background', { type: 'checkbox' })}
      />
      <Switch label="Album cover" {...form.getInputProps('settings.show_album_art', { type: 'checkbox' })} />
      <Switch label="Album name" {...form.getInputProps('settings.show_album', { type: 'checkbox' })} />
      <Switch label="Progress bar and times" {...form.getInputProps('settings.show_progress', { type: 'checkbox' })} />
      <Switch
        label="Hide when paused"
        description="Off: a paused song stays with a pause sign."
        {...form.getInputProps('settings.hide_when_paused', { type: 'checkbox' })}
      />
      <TextInput
        label="When nothing plays"
        description="Shown when Spotify plays nothing. Leave empty to show nothing."
        placeholder="Nothing playing"
        maxLength={NOW_PLAYING_IDLE_TEXT_MAX}
        {...form.getInputProps('settings.idle_text')}
      />
    </Stack>
  );
}
