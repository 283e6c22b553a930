import { Button, Group, Stack, Switch, TextInput } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { commandTemplateBodySchema, type CommandTemplate, type CommandTemplateBody } from '@greenroom/contracts/api/chatbot';
import { ErrorAlert } from '../../../components/error-alert';
import { LEAVE_WITHOUT_ASKING, useUnsavedChangesGuard } from '../../../components/unsaved-changes';
import { useFormSubmit, useSchemaForm } from '../../../lib/form';
import { notifySuccess } from '../../../lib/notify';
import { toTemplateBody, useCommandTemplate, useDeleteCommandTemplate, useSaveCommandTemplate } from '../api/command-templates';
import { CommandFields } from './command-fields';
import { DeleteButton, EditorPage } from './editor-page';
import { VariablesHelp } from './editor-fields';

const emptyTemplate: CommandTemplateBody = {
  name: '!',
  aliases: [],
  description: '',
  responses: [''],
  response_mode: 'random',
  level: 0,
  global_cooldown_seconds: 5,
  user_cooldown_seconds: 0,
  reply_mode: 'say',
  enabled: false,
};

/** `/admin/command-templates/{commandTemplateId}` (and `new`). */
export function TemplateEditorPage({ templateId }: { templateId: string }) {
  const isNew = templateId === 'new';
  const template = useCommandTemplate(templateId, !isNew);
  return (
    <EditorPage
      backTo="/admin/command-templates"
      backLabel="Command Templates"
      title={isNew ? 'New template' : (template.data?.name ?? 'Template')}
      loading={!isNew && template.isPending}
      error={template.error}
      notFoundText="This template does not exist"
      aside={<VariablesHelp />}
    >
      {(isNew || template.data) && <TemplateForm key={template.data?.updated_at ?? 'new'} template={template.data ?? null} />}
    </EditorPage>
  );
}

function TemplateForm({ template }: { template: CommandTemplate | null }) {
  const navigate = useNavigate();
  const save = useSaveCommandTemplate(template?.id ?? null);
  const remove = useDeleteCommandTemplate();
  const form = useSchemaForm(commandTemplateBodySchema, { initialValues: template ? toTemplateBody(template) : emptyTemplate });
  const submit = useFormSubmit(form, save.mutateAsync, {
    onSuccess: (saved) => {
      notifySuccess(`${saved.name} saved`);
      if (!template) void navigate(`../${saved.id}`, { replace: true, relative: 'path', state: LEAVE_WITHOUT_ASKING });
    },
  });
  useUnsavedChangesGuard(form);
  return (
    <form onSubmit={submit.onSubmit} aria-label="Template" noValidate>
      <Stack gap="md">
        <CommandFields form={form} builtin={false} />
        <TextInput label="Description" description="Shown in the channels' template gallery." {...form.getInputProps('description')} />
        <Switch
          label="Add to new channels"
          description="Off: only in the gallery."
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        {submit.error != null && <ErrorAlert error={submit.error} />}
        <Group justify="space-between">
          {template ? (
            <DeleteButton
              what="template"
              name={template.name}
              loading={remove.isPending}
              onConfirm={() =>
                remove.mutate(template.id, {
                  onSuccess: () => {
                    notifySuccess(`${template.name} deleted`);
                    void navigate('..', { relative: 'path', state: LEAVE_WITHOUT_ASKING });
                  },
                })
              }
            />
          ) : (
            <span />
          )}
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={16} />}
            loading={form.submitting}
            disabled={!!template && !form.isDirty()}
          >
            {template ? 'Save' : 'Create template'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
