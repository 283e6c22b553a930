import { ActionIcon, Button, Chip, Group, Input, Select, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { accessLevelLabels, audienceLevels, type AccessLevelValue } from '@greenroom/contracts/access';
import { channelProviderIds, providers, type ChannelProviderId } from '@greenroom/contracts/providers';

/** Platforms a bot can write on (chat write in the catalogue). */
export const chatPlatforms = channelProviderIds.filter((p) => providers[p].chatWrite);
/** Platforms whose chat Greenroom reads but cannot write in (TikTok LIVE has no chat API): nothing typed there is answered. */
export const readOnlyChatPlatforms = channelProviderIds.filter((p) => providers[p].chatRead && !providers[p].chatWrite);

/** The audience levels a command or filter can use (plus the current value when it is another level, e.g. Editor). */
export function LevelSelect({
  value,
  onChange,
  label,
  description,
  error,
}: {
  value: number;
  onChange: (value: AccessLevelValue) => void;
  label: string;
  description?: string;
  error?: React.ReactNode;
}) {
  const levels = audienceLevels.includes(value as AccessLevelValue)
    ? audienceLevels
    : [...audienceLevels, value as AccessLevelValue].sort((a, b) => a - b);
  return (
    <Select
      label={label}
      description={description}
      error={error}
      allowDeselect={false}
      data={levels.map((l) => ({ value: String(l), label: accessLevelLabels[l] }))}
      value={String(value)}
      onChange={(v) => v !== null && onChange(Number(v) as AccessLevelValue)}
    />
  );
}

/** Which platforms something applies to; none chosen = every platform. */
export function PlatformChips({
  value,
  onChange,
  label,
  description,
  error,
}: {
  value: ChannelProviderId[];
  onChange: (value: ChannelProviderId[]) => void;
  label: string;
  description?: string;
  error?: React.ReactNode;
}) {
  return (
    <Input.Wrapper label={label} description={description ?? 'None chosen: every platform.'} error={error}>
      <Chip.Group multiple value={value} onChange={(v) => onChange(v)}>
        <Group gap="xs" mt={6} role="group" aria-label={label}>
          {chatPlatforms.map((p) => (
            <Chip key={p} value={p} color={providers[p].color} size="sm" variant="light">
              {providers[p].name}
            </Chip>
          ))}
          {readOnlyChatPlatforms.map((p) => (
            <Chip key={p} value={p} size="sm" variant="light" disabled>
              {providers[p].name}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      {readOnlyChatPlatforms.length > 0 && (
        <Text size="xs" c="dimmed" mt={4}>
          {readOnlyChatPlatforms.map((p) => providers[p].name).join(', ')}: read only. Greenroom shows that chat but the platform gives bots
          no way to post in it, so commands typed there are not answered.
        </Text>
      )}
    </Input.Wrapper>
  );
}

/** An editable list of texts (responses, timer messages), one textarea each, with add and remove. */
export function TextListField({
  label,
  description,
  itemLabel,
  values,
  errors,
  error,
  onChange,
  max,
  placeholder,
}: {
  label: string;
  description?: React.ReactNode;
  itemLabel: string;
  values: string[];
  /** Error of each item, by index. */
  errors: (index: number) => React.ReactNode;
  error?: React.ReactNode;
  onChange: (values: string[]) => void;
  max: number;
  placeholder?: string;
}) {
  return (
    <Input.Wrapper label={label} description={description} error={error}>
      <Stack gap="xs" mt={6}>
        {values.map((v, i) => (
          <Group key={i} gap="xs" align="flex-start" wrap="nowrap">
            <Textarea
              style={{ flex: 1 }}
              aria-label={`${itemLabel} ${i + 1}`}
              autosize
              minRows={1}
              maxRows={6}
              placeholder={placeholder}
              value={v}
              error={errors(i)}
              onChange={(e) => onChange(values.map((x, j) => (j === i ? e.currentTarget.value : x)))}
            />
            <Tooltip label={`Remove ${itemLabel.toLowerCase()} ${i + 1}`}>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={`Remove ${itemLabel.toLowerCase()} ${i + 1}`}
                onClick={() => onChange(values.filter((_, j) => j !== i))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ))}
        {values.length < max && (
          <Group>
            <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => onChange([...values, ''])}>
              Add {itemLabel.toLowerCase()}
            </Button>
          </Group>
        )}
      </Stack>
    </Input.Wrapper>
  );
}

/** The variables responses may use, in both `$(name)` and `${name}` forms. */
export const variableHelp: [string, string][] = [
  ['$(user)', 'who typed the command'],
  ['$(touser)', 'the first word after the command without @, else the user'],
  ['$(query)', 'everything after the command'],
  ['$(1) … $(9)', 'one word after the command'],
  ['$(count)', 'how many times the command was used'],
  ['$(channel) / $(platform)', 'the channel name / the platform it was typed on'],
  ['$(uptime) $(title) $(game)', 'the stream on that platform'],
  ['$(viewers) $(followers)', 'viewers, and followers on that platform (YouTube: subscribers; Kick publishes none)'],
  ['$(random 1-100)', 'a random number'],
  ['$(random.pick "a" "b")', 'one of the options'],
  ['$(random.chatter)', 'someone who chatted recently'],
  ['$(time Europe/London)', 'the time in a time zone'],
  ['$(urlfetch https://…)', 'the text a web address answers (2 s, 2 KB)'],
];

export function VariablesHelp() {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        Variables (also written {'${name}'}; they can be nested, e.g. {'$(urlfetch https://x.example/?q=$(query))'}):
      </Text>
      {variableHelp.map(([name, what]) => (
        <Text key={name} size="xs" c="dimmed">
          <Text span ff="monospace" size="xs" c="gray.4">
            {name}
          </Text>{' '}
          — {what}
        </Text>
      ))}
    </Stack>
  );
}
