DROP INDEX "point_wallets_rank";--> statement-breakpoint
CREATE INDEX "giveaway_entries_order" ON "giveaway_entries" USING btree ("giveaway_id","tickets" DESC NULLS FIRST,"entered_at","wallet_id");--> statement-breakpoint
CREATE INDEX "queue_entries_picked" ON "queue_entries" USING btree ("queue_id","ended_at" DESC NULLS FIRST) WHERE "queue_entries"."status" = 'picked';--> statement-breakpoint
CREATE INDEX "point_wallets_rank" ON "point_wallets" USING btree ("channel_id","balance" DESC NULLS FIRST,"id");