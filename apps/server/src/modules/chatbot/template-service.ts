/**
 * Command templates (operators): commands defined once for every channel. Enabled templates are added
 * to new channels; any template can be added to a channel from the gallery on its Chat Commands page.
 */
import { asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { CommandTemplate, commandTemplateBodySchema } from '@greenroom/contracts/api/chatbot';
import type { AccessLevelValue } from '@greenroom/contracts/access';
import type { Db } from '../../db/client';
import { commandTemplates } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { normaliseName } from './domain/commands';

export type TemplateInput = z.output<typeof commandTemplateBodySchema>;
type Row = typeof commandTemplates.$inferSelect;

export function toTemplateDto(row: Row): CommandTemplate {
  return {
    id: row.id,
    name: row.name,
    aliases: row.aliases,
    description: row.description,
    responses: row.responses,
    response_mode: row.responseMode,
    level: row.level as AccessLevelValue,
    global_cooldown_seconds: row.globalCooldownSeconds,
    user_cooldown_seconds: row.userCooldownSeconds,
    reply_mode: row.replyMode,
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export class TemplateService {
  constructor(private readonly db: Db) {}

  async list(): Promise<CommandTemplate[]> {
    const rows = await this.db.select().from(commandTemplates).orderBy(asc(commandTemplates.name));
    return rows.map(toTemplateDto);
  }

  async get(id: string): Promise<CommandTemplate> {
    const [row] = await this.db.select().from(commandTemplates).where(eq(commandTemplates.id, id));
    if (!row) throw notFound('This command template does not exist.');
    return toTemplateDto(row);
  }

  async create(input: TemplateInput): Promise<CommandTemplate> {
    await this.checkName(input, null);
    const [row] = await this.db
      .insert(commandTemplates)
      .values({ id: newId(), ...values(input) })
      .returning();
    return toTemplateDto(row!);
  }

  async update(id: string, input: TemplateInput): Promise<CommandTemplate> {
    await this.checkName(input, id);
    const [row] = await this.db
      .update(commandTemplates)
      .set({ ...values(input), updatedAt: new Date() })
      .where(eq(commandTemplates.id, id))
      .returning();
    if (!row) throw notFound('This command template does not exist.');
    return toTemplateDto(row);
  }

  async remove(id: string): Promise<void> {
    const deleted = await this.db.delete(commandTemplates).where(eq(commandTemplates.id, id)).returning({ id: commandTemplates.id });
    if (deleted.length === 0) throw notFound('This command template does not exist.');
  }

  private async checkName(input: TemplateInput, selfId: string | null): Promise<void> {
    const name = normaliseName(input.name);
    const aliases = input.aliases.map(normaliseName);
    if (aliases.includes(name)) {
      const message = `An alias cannot be the template's own name (${name}).`;
      throw badRequest(message, { [`aliases.${aliases.indexOf(name)}`]: message });
    }
    if (input.responses.length === 0) {
      const message = 'Add at least one response.';
      throw badRequest(message, { responses: message });
    }
    const [clash] = await this.db.select({ id: commandTemplates.id }).from(commandTemplates).where(eq(commandTemplates.name, name));
    if (clash && clash.id !== selfId) {
      const message = `There is already a template named ${name}.`;
      throw badRequest(message, { name: message });
    }
  }
}

function values(input: TemplateInput) {
  return {
    name: normaliseName(input.name),
    aliases: [...new Set(input.aliases.map(normaliseName))],
    description: input.description,
    responses: input.responses,
    responseMode: input.response_mode,
    level: input.level,
    globalCooldownSeconds: input.global_cooldown_seconds,
    userCooldownSeconds: input.user_cooldown_seconds,
    replyMode: input.reply_mode,
    enabled: input.enabled,
  };
}
