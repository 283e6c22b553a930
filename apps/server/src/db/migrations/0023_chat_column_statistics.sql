-- No planner statistics for the chat log's and the points ledger's columns that no query filters, joins, groups or
-- sorts by (the JSON columns, the author's names, colour and avatar, the ids looked up only through a unique index):
-- ANALYZE of chat_messages spent most of its time on them (≈ 1.2 s at 100,000 rows on PGlite, where it runs on the
-- database's only thread and every commit waits behind it; ≈ 0.7 s of it the JSON columns). See
-- db/planner-statistics.ts. The columns the planner needs (channel, provider, seq, author id, text, times, filters)
-- keep the default target.
ALTER TABLE "chat_messages" ALTER COLUMN "author_badges" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "author_roles" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "emotes" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "reply" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "mentions" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "id" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "provider_message_id" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "author_login" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "author_name" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "author_color" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "author_avatar_url" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "point_ledger" ALTER COLUMN "idempotency_key" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "point_ledger" ALTER COLUMN "note" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "point_ledger" ALTER COLUMN "data" SET STATISTICS 0;
