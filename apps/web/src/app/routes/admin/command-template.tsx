import { useParams } from 'react-router';
import { TemplateEditorPage } from '../../../features/chatbot/components/template-editor';

/** `/admin/command-templates/:commandTemplateId`; `new` creates one. */
export function Component() {
  const { commandTemplateId = 'new' } = useParams();
  return <TemplateEditorPage key={commandTemplateId} templateId={commandTemplateId} />;
}
