import { Input, NumberInput, SegmentedControl, Select, Stack, TagsInput, TextInput, SimpleGrid } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  COMMAND_ALIASES_MAX,
  COMMAND_RESPONSES_MAX,
  replyModeLabels,
  responseModeLabels,
  type ReplyMode,
  type ResponseMode,
} from '@greenroom/contracts/api/chatbot';
import { providers } from '@greenroom/contracts/providers';
import { chatPlatforms, LevelSelect, TextListField } from './editor-fields';

/** The fields a command and a command template share. */
export interface CommandFieldValues {
  name: string;
  aliases?: string[];
  responses?: string[];
  response_mode?: ResponseMode;
  level?: number;
  global_cooldown_seconds?: number;
  user_cooldown_seconds?: number;
  reply_mode?: ReplyMode;
}

const limits = chatPlatforms.map((p) => `${providers[p].name} ${providers[p].chatMessageMaxLength}`).join(', ');
const replyPlatforms = chatPlatforms.filter((p) => providers[p].chatReplyMessage).map((p) => providers[p].name);

export function CommandFields<V extends CommandFieldValues>({ form, builtin }: { form: UseFormReturnType<V, unknown>; builtin: boolean }) {
  const f = form as unknown as UseFormReturnType<CommandFieldValues, unknown>;
  const values = f.getValues();
  const responses = values.responses ?? [];
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
        <TextInput
          label="Name"
          description="What viewers type, e.g. !hello."
          placeholder="!hello"
          withAsterisk
          {...f.getInputProps('name')}
        />
        <TagsInput
          label="Aliases"
          description="Other names that run it. Press Enter after each."
          placeholder={(values.aliases ?? []).length ? '' : '!hi'}
          maxTags={COMMAND_ALIASES_MAX}
          {...f.getInputProps('aliases')}
          error={aliasError(f)}
        />
      </SimpleGrid>
      {!builtin && (
        <>
          <TextListField
            label="Responses"
            description={`One is said per use. Messages are cut to each platform's limit (${limits} characters).`}
            itemLabel="Response"
            values={responses}
            max={COMMAND_RESPONSES_MAX}
            placeholder="Hello $(user)!"
            error={f.errors.responses}
            errors={(i) => f.errors[`responses.${i}`]}
            onChange={(list) => f.setFieldValue('responses', list)}
          />
          {responses.length > 1 && (
            <Input.Wrapper label="Several responses">
              <SegmentedControl
                mt={6}
                aria-label="Several responses"
                data={(Object.keys(responseModeLabels) as ResponseMode[]).map((m) => ({ value: m, label: responseModeLabels[m] }))}
                {...f.getInputProps('response_mode')}
              />
            </Input.Wrapper>
          )}
        </>
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="md">
        <div>
          <LevelSelect
            label="Who may use it"
            description="This level and above."
            value={values.level ?? 0}
            error={f.errors.level}
            onChange={(v) => f.setFieldValue('level', v)}
          />
        </div>
        <NumberInput
          label="Global cooldown"
          description="Seconds between two uses."
          min={0}
          suffix=" s"
          allowDecimal={false}
          {...f.getInputProps('global_cooldown_seconds')}
        />
        <NumberInput
          label="Cooldown per viewer"
          description="Seconds before the same viewer again."
          min={0}
          suffix=" s"
          allowDecimal={false}
          {...f.getInputProps('user_cooldown_seconds')}
        />
      </SimpleGrid>
      {!builtin && (
        <Select
          label="Reply mode"
          description={`Threaded replies exist on ${replyPlatforms.join(', ')}; elsewhere a threaded reply becomes a mention.`}
          allowDeselect={false}
          data={(Object.keys(replyModeLabels) as ReplyMode[]).map((m) => ({ value: m, label: replyModeLabels[m] }))}
          {...f.getInputProps('reply_mode')}
        />
      )}
    </Stack>
  );
}

/** The first alias error (server or schema), shown under the aliases. */
function aliasError(form: UseFormReturnType<CommandFieldValues, unknown>): React.ReactNode {
  if (form.errors.aliases) return form.errors.aliases;
  const key = Object.keys(form.errors).find((k) => k.startsWith('aliases.'));
  return key ? form.errors[key] : undefined;
}
