import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  channelTemplateParamsSchema,
  chatCommandListSchema,
  chatCommandSchema,
  chatFilterListSchema,
  chatFilterSchema,
  chatTimerListSchema,
  chatTimerSchema,
  commandBodySchema,
  commandParamsSchema,
  commandTemplateBodySchema,
  commandTemplateListSchema,
  commandTemplateParamsSchema,
  commandTemplateSchema,
  filterBodySchema,
  filterLogPageSchema,
  filterLogQuerySchema,
  filterParamsSchema,
  importBodySchema,
  importResultSchema,
  quoteBodySchema,
  quoteCreateBodySchema,
  quoteListSchema,
  quoteParamsSchema,
  quoteSchema,
  timerBodySchema,
  timerParamsSchema,
  timerImportResultSchema,
  type TimerImportItem,
  type ImportItem,
  chatbotConfigSchema,
  configImportBodySchema,
  configPlanSchema,
  configVersionListSchema,
  configVersionParamsSchema,
  importSourceLabels,
  CONFIG_TIMERS_MAX,
} from '@greenroom/contracts/api/chatbot';
import type { AuditRecorder } from '../audit';
import { requireAuth } from '../../plugins/auth';
import { channelAccess } from '../../lib/access';
import { badRequest } from '../../lib/errors';
import { errorResponses, noContent } from '../../lib/http';
import type { Chatbot } from './chatbot-module';
import { ImportError, mapImport } from './domain/import';
import { chosenLines, type PreviewItem } from './domain/import-common';
import { mapTimerImport } from './domain/timer-import';

const channelParams = z.object({ channelId: z.string().max(64) });
const editor = { access: channelAccess('chatbot.manage') };
const operator = { access: 'operator' } as const;

export interface ChatbotRouteDeps {
  chatbot: Pick<Chatbot, 'commands' | 'timers' | 'filters' | 'quotes' | 'templates' | 'config'>;
  audit: AuditRecorder;
}

/** An export with 5,000 quotes of 500 characters is about 3 MB of JSON, sent as a JSON string. */
const CONFIG_BODY_LIMIT = 6 * 1024 * 1024;

/** Parses a pasted export and maps it; text that is not JSON, or not an export of either bot, is a 400 on `data`. */
function readExport<T>(text: string, map: (data: unknown) => T): T {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const message = 'This is not JSON: paste the export exactly as the bot gave it.';
    throw badRequest(message, { data: message });
  }
  try {
    return map(data);
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    throw badRequest(error.message, { data: error.message });
  }
}

/** The preview lines an apply saves (`only`, else all that map); a line that cannot be saved is a 400 on `only`. */
function chosen(items: readonly PreviewItem<unknown>[], only: readonly number[] | undefined): number[] {
  try {
    return chosenLines(items, only);
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    throw badRequest(error.message, { only: error.message });
  }
}

/** The chatbot's API: commands, timers, filters (and their log), quotes for Editors; command templates for operators. */
export function chatbotRoutes(app: FastifyInstance, deps: ChatbotRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const bot = deps.chatbot;
  const tags = ['chatbot'];
  /** Every change to the configuration keeps a version (who, what); none when nothing changed. */
  const changed = async (request: { params: { channelId: string } } & Parameters<typeof requireAuth>[0], reason: string) => {
    const user = requireAuth(request).user;
    await bot.config.record(request.params.channelId, { userId: user.id, name: user.displayName }, reason);
  };

  // Commands --------------------------------------------------------------------------------
  r.get('/api/2/channels/:channelId/chat-commands', {
    config: editor,
    schema: { tags, params: channelParams, response: { 200: chatCommandListSchema, ...errorResponses } },
    handler: async (request) => bot.commands.list(request.params.channelId),
  });
  r.post('/api/2/channels/:channelId/chat-commands', {
    config: editor,
    schema: { tags, params: channelParams, body: commandBodySchema, response: { 201: chatCommandSchema, ...errorResponses } },
    handler: async (request, reply) => {
      const created = await bot.commands.create(request.params.channelId, request.body);
      await changed(request, `Command ${created.name} added`);
      return reply.code(201).send(created);
    },
  });
  r.get('/api/2/channels/:channelId/chat-commands/:commandId', {
    config: editor,
    schema: { tags, params: commandParamsSchema, response: { 200: chatCommandSchema, ...errorResponses } },
    handler: async (request) => bot.commands.get(request.params.channelId, request.params.commandId),
  });
  r.put('/api/2/channels/:channelId/chat-commands/:commandId', {
    config: editor,
    schema: { tags, params: commandParamsSchema, body: commandBodySchema, response: { 200: chatCommandSchema, ...errorResponses } },
    handler: async (request) => {
      const saved = await bot.commands.update(request.params.channelId, request.params.commandId, request.body);
      await changed(request, `Command ${saved.name} saved`);
      return saved;
    },
  });
  r.delete('/api/2/channels/:channelId/chat-commands/:commandId', {
    config: editor,
    schema: { tags, params: commandParamsSchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      const gone = await bot.commands.get(request.params.channelId, request.params.commandId);
      await bot.commands.remove(request.params.channelId, request.params.commandId);
      await changed(request, `Command ${gone.name} deleted`);
      return reply.code(204).send(null);
    },
  });
  r.post('/api/2/channels/:channelId/chat-commands/import', {
    config: editor,
    schema: { tags, params: channelParams, body: importBodySchema, response: { 200: importResultSchema, ...errorResponses } },
    handler: async (request) => {
      const mapped = readExport(request.body.data, (data) => mapImport(data, request.body.source));
      const importable = request.body.apply ? chosen(mapped.items, request.body.only).map((n) => mapped.items[n]!) : [];
      const results =
        importable.length > 0
          ? await bot.commands.importCommands(
              request.params.channelId,
              importable.map((i) => i.value!),
            )
          : [];
      let saved = 0;
      const items: ImportItem[] = mapped.items.map((i) => {
        const index = importable.indexOf(i);
        const result = index >= 0 ? results[index] : undefined;
        if (result?.ok) saved++;
        return {
          source_name: i.source_name,
          status: i.status,
          name: i.value?.name ?? null,
          responses: i.value?.responses ?? [],
          level: (i.value?.level ?? null) as ImportItem['level'],
          notes: i.notes,
          saved: result?.ok ?? false,
          error: result?.error ?? null,
        };
      });
      if (saved > 0) await changed(request, `${saved} command${saved === 1 ? '' : 's'} imported from ${importSourceLabels[mapped.source]}`);
      return { source: mapped.source, items, saved };
    },
  });

  // Template gallery (a channel's view of the operators' templates) -------------------------------
  r.get('/api/2/channels/:channelId/command-templates', {
    config: editor,
    schema: { tags, params: channelParams, response: { 200: commandTemplateListSchema, ...errorResponses } },
    handler: async () => bot.templates.list(),
  });
  r.post('/api/2/channels/:channelId/command-templates/:commandTemplateId/add', {
    config: editor,
    schema: { tags, params: channelTemplateParamsSchema, response: { 201: chatCommandSchema, ...errorResponses } },
    handler: async (request, reply) => {
      const template = await bot.templates.get(request.params.commandTemplateId);
      const created = await bot.commands.addTemplate(request.params.channelId, template);
      await changed(request, `Command ${created.name} added from the gallery`);
      return reply.code(201).send(created);
    },
  });

  // Timers ----------------------------------------------------------------------------------
  r.get('/api/2/channels/:channelId/chat-timers', {
    config: editor,
    schema: { tags, params: channelParams, response: { 200: chatTimerListSchema, ...errorResponses } },
    handler: async (request) => bot.timers.list(request.params.channelId),
  });
  r.post('/api/2/channels/:channelId/chat-timers', {
    config: editor,
    schema: { tags, params: channelParams, body: timerBodySchema, response: { 201: chatTimerSchema, ...errorResponses } },
    handler: async (request, reply) => {
      const created = await bot.timers.create(request.params.channelId, request.body);
      await changed(request, `Timer ${created.name} added`);
      return reply.code(201).send(created);
    },
  });
  r.get('/api/2/channels/:channelId/chat-timers/:timerId', {
    config: editor,
    schema: { tags, params: timerParamsSchema, response: { 200: chatTimerSchema, ...errorResponses } },
    handler: async (request) => bot.timers.get(request.params.channelId, request.params.timerId),
  });
  r.put('/api/2/channels/:channelId/chat-timers/:timerId', {
    config: editor,
    schema: { tags, params: timerParamsSchema, body: timerBodySchema, response: { 200: chatTimerSchema, ...errorResponses } },
    handler: async (request) => {
      const saved = await bot.timers.update(request.params.channelId, request.params.timerId, request.body);
      await changed(request, `Timer ${saved.name} saved`);
      return saved;
    },
  });
  r.delete('/api/2/channels/:channelId/chat-timers/:timerId', {
    config: editor,
    schema: { tags, params: timerParamsSchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      const gone = await bot.timers.get(request.params.channelId, request.params.timerId);
      await bot.timers.remove(request.params.channelId, request.params.timerId);
      await changed(request, `Timer ${gone.name} deleted`);
      return reply.code(204).send(null);
    },
  });
  r.post('/api/2/channels/:channelId/chat-timers/import', {
    config: editor,
    schema: { tags, params: channelParams, body: importBodySchema, response: { 200: timerImportResultSchema, ...errorResponses } },
    handler: async (request) => {
      const { channelId } = request.params;
      const { data: text, source, apply, only } = request.body;
      const context = await bot.timers.importContext(channelId);
      let data: unknown;
      const mapped = readExport(text, (parsed) => mapTimerImport((data = parsed), context, source));
      const lines = apply ? chosen(mapped.items, only) : [];
      if (lines.length > CONFIG_TIMERS_MAX) {
        // As many as a whole configuration holds: each is staggered against the others in one transaction.
        const message = `At most ${CONFIG_TIMERS_MAX} timers at once: choose fewer.`;
        throw badRequest(message, { only: message });
      }
      const saved = new Set(lines);
      if (lines.length > 0) {
        await bot.timers.importTimers(
          channelId,
          lines.map((n) => ({ ...mapped.items[n]!.value!, platforms: [] })),
          // Under the channel's lock: a chosen line that no longer maps (a name taken since the preview) is refused.
          (fresh) => {
            const again = mapTimerImport(data, fresh, mapped.source).items;
            const fields: Record<string, string> = {};
            for (const n of lines) {
              const now = again[n];
              if (now?.value) continue;
              const reason = now?.notes[0] ?? 'it no longer maps';
              fields[now?.field ? `items.${n}.${now.field}` : `items.${n}`] = reason;
            }
            return fields;
          },
        );
      }
      const items: TimerImportItem[] = mapped.items.map((i, n) => ({
        source_name: i.source_name,
        status: i.status,
        notes: i.notes,
        name: i.value?.name ?? null,
        messages: i.value?.messages ?? [],
        interval_minutes: i.value?.interval_minutes ?? null,
        min_lines: i.value?.min_lines ?? null,
        online_only: i.value?.online_only ?? null,
        enabled: i.value?.enabled ?? null,
        saved: saved.has(n),
        error: null,
      }));
      if (lines.length > 0) {
        await changed(request, `${lines.length} timer${lines.length === 1 ? '' : 's'} imported from ${importSourceLabels[mapped.source]}`);
      }
      return { source: mapped.source, items, saved: lines.length };
    },
  });

  // Filters ---------------------------------------------------------------------------------
  r.get('/api/2/channels/:channelId/chat-filters', {
    config: editor,
    schema: { tags, params: channelParams, response: { 200: chatFilterListSchema, ...errorResponses } },
    handler: async (request) => bot.filters.list(request.params.channelId),
  });
  r.post('/api/2/channels/:channelId/chat-filters', {
    config: editor,
    schema: { tags, params: channelParams, body: filterBodySchema, response: { 201: chatFilterSchema, ...errorResponses } },
    handler: async (request, reply) => {
      const created = await bot.filters.create(request.params.channelId, request.body);
      await changed(request, `Filter ${created.name} added`);
      return reply.code(201).send(created);
    },
  });
  r.get('/api/2/channels/:channelId/chat-filters/:filterId', {
    config: editor,
    schema: { tags, params: filterParamsSchema, response: { 200: chatFilterSchema, ...errorResponses } },
    handler: async (request) => bot.filters.get(request.params.channelId, request.params.filterId),
  });
  r.put('/api/2/channels/:channelId/chat-filters/:filterId', {
    config: editor,
    schema: { tags, params: filterParamsSchema, body: filterBodySchema, response: { 200: chatFilterSchema, ...errorResponses } },
    handler: async (request) => {
      const saved = await bot.filters.update(request.params.channelId, request.params.filterId, request.body);
      await changed(request, `Filter ${saved.name} saved`);
      return saved;
    },
  });
  r.delete('/api/2/channels/:channelId/chat-filters/:filterId', {
    config: editor,
    schema: { tags, params: filterParamsSchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      const gone = await bot.filters.get(request.params.channelId, request.params.filterId);
      await bot.filters.remove(request.params.channelId, request.params.filterId);
      await changed(request, `Filter ${gone.name} deleted`);
      return reply.code(204).send(null);
    },
  });
  r.get('/api/2/channels/:channelId/chat-filter-log', {
    config: editor,
    schema: { tags, params: channelParams, querystring: filterLogQuerySchema, response: { 200: filterLogPageSchema, ...errorResponses } },
    handler: async (request) => bot.filters.logPage(request.params.channelId, request.query),
  });

  // Quotes ----------------------------------------------------------------------------------
  r.get('/api/2/channels/:channelId/quotes', {
    config: editor,
    schema: { tags, params: channelParams, response: { 200: quoteListSchema, ...errorResponses } },
    handler: async (request) => bot.quotes.list(request.params.channelId),
  });
  r.post('/api/2/channels/:channelId/quotes', {
    config: editor,
    schema: { tags, params: channelParams, body: quoteCreateBodySchema, response: { 201: quoteSchema, ...errorResponses } },
    handler: async (request, reply) => {
      const created = await bot.quotes.create(request.params.channelId, request.body, requireAuth(request).user.displayName);
      await changed(request, `Quote #${created.number} added`);
      return reply.code(201).send(created);
    },
  });
  r.get('/api/2/channels/:channelId/quotes/:channelQuoteId', {
    config: editor,
    schema: { tags, params: quoteParamsSchema, response: { 200: quoteSchema, ...errorResponses } },
    handler: async (request) => bot.quotes.get(request.params.channelId, request.params.channelQuoteId),
  });
  r.put('/api/2/channels/:channelId/quotes/:channelQuoteId', {
    config: editor,
    schema: { tags, params: quoteParamsSchema, body: quoteBodySchema, response: { 200: quoteSchema, ...errorResponses } },
    handler: async (request) => {
      const saved = await bot.quotes.update(request.params.channelId, request.params.channelQuoteId, request.body);
      await changed(request, `Quote #${saved.number} saved`);
      return saved;
    },
  });
  r.delete('/api/2/channels/:channelId/quotes/:channelQuoteId', {
    config: editor,
    schema: { tags, params: quoteParamsSchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      const gone = await bot.quotes.get(request.params.channelId, request.params.channelQuoteId);
      await bot.quotes.remove(request.params.channelId, request.params.channelQuoteId);
      await changed(request, `Quote #${gone.number} deleted`);
      return reply.code(204).send(null);
    },
  });

  // The whole configuration: export, import, versions ---------------------------------------------
  r.get('/api/2/channels/:channelId/chatbot-config', {
    config: editor,
    schema: { tags, params: channelParams, response: { 200: chatbotConfigSchema, ...errorResponses } },
    handler: async (request) => bot.config.export(request.params.channelId),
  });
  r.post('/api/2/channels/:channelId/chatbot-config/preview', {
    config: editor,
    bodyLimit: CONFIG_BODY_LIMIT,
    schema: { tags, params: channelParams, body: configImportBodySchema, response: { 200: configPlanSchema, ...errorResponses } },
    handler: async (request) => bot.config.preview(request.params.channelId, request.body.data),
  });
  r.post('/api/2/channels/:channelId/chatbot-config/import', {
    config: editor,
    bodyLimit: CONFIG_BODY_LIMIT,
    schema: { tags, params: channelParams, body: configImportBodySchema, response: { 200: configPlanSchema, ...errorResponses } },
    handler: async (request) => {
      const user = requireAuth(request).user;
      const plan = await bot.config.import(request.params.channelId, request.body.data, { userId: user.id, name: user.displayName });
      await deps.audit.record({
        channelId: request.params.channelId,
        actorUserId: user.id,
        action: 'chatbot.config_imported',
        data: { ...plan.counts, version_id: plan.version_id },
      });
      return plan;
    },
  });
  r.get('/api/2/channels/:channelId/chatbot-config/versions', {
    config: editor,
    schema: { tags, params: channelParams, response: { 200: configVersionListSchema, ...errorResponses } },
    handler: async (request) => bot.config.versions(request.params.channelId),
  });
  r.get('/api/2/channels/:channelId/chatbot-config/versions/:versionId', {
    config: editor,
    schema: { tags, params: configVersionParamsSchema, response: { 200: chatbotConfigSchema, ...errorResponses } },
    handler: async (request) => bot.config.version(request.params.channelId, request.params.versionId),
  });
  r.post('/api/2/channels/:channelId/chatbot-config/versions/:versionId/restore', {
    config: editor,
    schema: { tags, params: configVersionParamsSchema, response: { 200: configPlanSchema, ...errorResponses } },
    handler: async (request) => {
      const user = requireAuth(request).user;
      const plan = await bot.config.restore(request.params.channelId, request.params.versionId, {
        userId: user.id,
        name: user.displayName,
      });
      await deps.audit.record({
        channelId: request.params.channelId,
        actorUserId: user.id,
        action: 'chatbot.config_restored',
        data: { ...plan.counts, restored_version_id: request.params.versionId, version_id: plan.version_id },
      });
      return plan;
    },
  });

  // Command templates (operators) -----------------------------------------------------------
  r.get('/api/2/admin/command-templates', {
    config: operator,
    schema: { tags, response: { 200: commandTemplateListSchema, ...errorResponses } },
    handler: async () => bot.templates.list(),
  });
  r.post('/api/2/admin/command-templates', {
    config: operator,
    schema: { tags, body: commandTemplateBodySchema, response: { 201: commandTemplateSchema, ...errorResponses } },
    handler: async (request, reply) => reply.code(201).send(await bot.templates.create(request.body)),
  });
  r.get('/api/2/admin/command-templates/:commandTemplateId', {
    config: operator,
    schema: { tags, params: commandTemplateParamsSchema, response: { 200: commandTemplateSchema, ...errorResponses } },
    handler: async (request) => bot.templates.get(request.params.commandTemplateId),
  });
  r.put('/api/2/admin/command-templates/:commandTemplateId', {
    config: operator,
    schema: {
      tags,
      params: commandTemplateParamsSchema,
      body: commandTemplateBodySchema,
      response: { 200: commandTemplateSchema, ...errorResponses },
    },
    handler: async (request) => bot.templates.update(request.params.commandTemplateId, request.body),
  });
  r.delete('/api/2/admin/command-templates/:commandTemplateId', {
    config: operator,
    schema: { tags, params: commandTemplateParamsSchema, response: { ...noContent, ...errorResponses } },
    handler: async (request, reply) => {
      await bot.templates.remove(request.params.commandTemplateId);
      return reply.code(204).send(null);
    },
  });
}
