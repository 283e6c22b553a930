import { ActionIcon, Button, Group, NumberInput, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { SLOTS_SYMBOLS_MAX, slotsOdds, slotsSettingsSchema, type SlotsSettings } from '@greenroom/contracts/api/games';
import { useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useSaveSlots, useSlotsSettings } from '../api/games';
import { BetAndCooldownFields, MessageField, messageVariables, numberProps, OddsPanel } from './game-fields';
import { EditorForm } from '../../../components/editor-form';
import { FormWithAside, PageFrame } from '../../../components/page-frame';

/** `/channels/{id}/gambling/slots-settings` (Editor): reels, payouts, bets, cooldowns, messages, and the odds. */
export function SlotsPage({ channelId }: { channelId: string }) {
  const slots = useSlotsSettings(channelId);
  return (
    <PageFrame
      title="Slots"
      description="Viewers type !slots and a bet on every platform; !odds tells them the chances."
      loading={slots.isPending}
      error={slots.error}
    >
      {slots.data && <SlotsForm channelId={channelId} settings={slots.data.settings} />}
    </PageFrame>
  );
}

function SlotsForm({ channelId, settings }: { channelId: string; settings: SlotsSettings }) {
  const save = useSaveSlots(channelId);
  const form = useSchemaForm(slotsSettingsSchema, { initialValues: settings });
  const submit = useFormSubmit(form, (body) => save.mutateAsync(body), { onSuccess: () => notifySuccess('Slots settings saved') });
  useUnsavedChangesGuard(form);
  const values = form.getValues();
  const symbols = values.symbols ?? [];
  const parsed = slotsSettingsSchema.safeParse(values);
  return (
    <FormWithAside aside={<OddsPanel odds={parsed.success ? slotsOdds(parsed.data.symbols) : null} />}>
      <EditorForm
        label="Slots settings"
        onSubmit={submit.onSubmit}
        error={submit.error}
        submitting={form.submitting}
        canSave={form.isDirty()}
      >
        <Switch label="Slots on" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Reel symbols and payouts
          </Text>
          <Text size="xs" c="dimmed">
            Three reels. Weight: how often a symbol shows, relative to the others. Payouts multiply the bet (stake included); 0 pays
            nothing.
          </Text>
          <div style={{ overflowX: 'auto' }}>
            <Table verticalSpacing={4} miw={520} aria-label="Symbols">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Emote</Table.Th>
                  <Table.Th w={100}>Weight</Table.Th>
                  <Table.Th w={120}>Three pay</Table.Th>
                  <Table.Th w={120}>Two pay</Table.Th>
                  <Table.Th w={40} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {symbols.map((_, i) => (
                  <Table.Tr key={form.key(`symbols.${i}`)}>
                    <Table.Td>
                      <TextInput aria-label={`Symbol ${i + 1}`} {...form.getInputProps(`symbols.${i}.emote`)} />
                    </Table.Td>
                    <Table.Td>
                      <NumberInput
                        aria-label={`Weight ${i + 1}`}
                        min={1}
                        allowDecimal={false}
                        {...numberProps(form, `symbols.${i}.weight`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <NumberInput
                        aria-label={`Three pay ${i + 1}`}
                        min={0}
                        decimalScale={2}
                        suffix="×"
                        {...numberProps(form, `symbols.${i}.pays_three`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <NumberInput
                        aria-label={`Two pay ${i + 1}`}
                        min={0}
                        decimalScale={2}
                        suffix="×"
                        {...numberProps(form, `symbols.${i}.pays_two`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove symbol ${i + 1}`}
                        disabled={symbols.length <= 2}
                        onClick={() => form.removeListItem('symbols', i)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
          {typeof form.errors.symbols === 'string' && (
            <Text size="xs" c="red">
              {form.errors.symbols}
            </Text>
          )}
          <Group>
            <Button
              variant="subtle"
              size="xs"
              leftSection={<IconPlus size={14} />}
              disabled={symbols.length >= SLOTS_SYMBOLS_MAX}
              onClick={() => form.insertListItem('symbols', { emote: '', weight: 1, pays_three: 10, pays_two: 0 })}
            >
              Add symbol
            </Button>
          </Group>
        </Stack>
        <BetAndCooldownFields form={form} />
        <MessageField form={form} path="win_message" label="Win message" />
        <MessageField form={form} path="lose_message" label="Lose message" />
        <Text size="xs" c="dimmed">
          {messageVariables(', {emotes} (the reels)')}
        </Text>
      </EditorForm>
    </FormWithAside>
  );
}
