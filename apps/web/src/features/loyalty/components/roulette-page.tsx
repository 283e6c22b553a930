import { NumberInput, SimpleGrid, Switch, Text } from '@mantine/core';
import { rouletteOdds, rouletteSettingsSchema, type RouletteSettings } from '@greenroom/contracts/api/games';
import { useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { useRouletteSettings, useSaveRoulette } from '../api/games';
import { BetAndCooldownFields, MessageField, messageVariables, numberProps, OddsPanel } from './game-fields';
import { EditorForm } from '../../../components/editor-form';
import { FormWithAside, PageFrame } from '../../../components/page-frame';

/** `/channels/{id}/gambling/roulette-settings` (Editor): chance, payout, bets, cooldowns, messages, and the odds. */
export function RoulettePage({ channelId }: { channelId: string }) {
  const roulette = useRouletteSettings(channelId);
  return (
    <PageFrame
      title="Roulette Settings"
      description="Viewers type !roulette and a bet on every platform; !odds tells them the chances."
      loading={roulette.isPending}
      error={roulette.error}
    >
      {roulette.data && <RouletteForm channelId={channelId} settings={roulette.data.settings} />}
    </PageFrame>
  );
}

function RouletteForm({ channelId, settings }: { channelId: string; settings: RouletteSettings }) {
  const save = useSaveRoulette(channelId);
  const form = useSchemaForm(rouletteSettingsSchema, { initialValues: settings });
  const submit = useFormSubmit(form, (body) => save.mutateAsync(body), { onSuccess: () => notifySuccess('Roulette settings saved') });
  useUnsavedChangesGuard(form);
  const parsed = rouletteSettingsSchema.safeParse(form.getValues());
  return (
    <FormWithAside aside={<OddsPanel odds={parsed.success ? rouletteOdds(parsed.data) : null} />}>
      <EditorForm
        label="Roulette settings"
        onSubmit={submit.onSubmit}
        error={submit.error}
        submitting={form.submitting}
        canSave={form.isDirty()}
      >
        <Switch label="Roulette on" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
          <NumberInput label="Win chance" min={0} max={100} decimalScale={1} suffix="%" {...numberProps(form, 'win_chance_percent')} />
          <NumberInput
            label="Payout"
            description="A win pays the bet times this (stake included)"
            min={0}
            decimalScale={2}
            suffix="×"
            {...numberProps(form, 'payout_multiplier')}
          />
        </SimpleGrid>
        <BetAndCooldownFields form={form} />
        <MessageField form={form} path="win_message" label="Win message" />
        <MessageField form={form} path="lose_message" label="Lose message" />
        <MessageField form={form} path="all_in_win_message" label="All-in win message" />
        <MessageField form={form} path="all_in_lose_message" label="All-in lose message" />
        <Text size="xs" c="dimmed">
          {messageVariables('')}
        </Text>
      </EditorForm>
    </FormWithAside>
  );
}
