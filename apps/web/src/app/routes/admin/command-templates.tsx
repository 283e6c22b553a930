import { TemplatesPage } from '../../../features/chatbot/components/templates-page';

/** `/admin/command-templates`. */
export function Component() {
  return <TemplatesPage />;
}
