-- A smaller planner sample for the chat log's columns other than its text: ANALYZE reads 300 rows for each unit of
-- the largest statistics target among the columns it analyses (30,000 at the default 100). These columns' statistics
-- (a channel, a platform, seq and time ranges, a few flags) are as good from 7,500 rows; the text keeps 100 — history
-- search reads its sample of texts (ChatQueries) — and PlannerStatisticsJob analyses it in its own statement, so each
-- ANALYZE on PGlite's only thread holds commits for less (at 200,000 rows ≈ 140 ms in one statement → ≈ 28 ms + ≈
-- 60 ms). See db/planner-statistics.ts.
ALTER TABLE "chat_messages" ALTER COLUMN "seq" SET STATISTICS 25;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "channel_id" SET STATISTICS 25;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "channel_provider_id" SET STATISTICS 25;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "provider" SET STATISTICS 25;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "author_id" SET STATISTICS 25;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "highlight" SET STATISTICS 25;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "sent_at" SET STATISTICS 25;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "received_at" SET STATISTICS 25;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "deleted_at" SET STATISTICS 25;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "author_is_self" SET STATISTICS 25;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "filter_stage" SET STATISTICS 25;--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "filter_reason" SET STATISTICS 25;
