CREATE TABLE "chat_gaps" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_gaps_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text NOT NULL,
	"channel_id" text NOT NULL,
	"channel_provider_id" text NOT NULL,
	"provider" text NOT NULL,
	"reason" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"lost" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "chat_gaps_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "pipeline_effects" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb,
	"source_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"claimed_by" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "chat_messages_received";--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "author_is_self" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "filter_stage" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "filter_reason" text;--> statement-breakpoint
ALTER TABLE "moderation_events" ADD COLUMN "moderator_kind" text DEFAULT 'user' NOT NULL;--> statement-breakpoint
UPDATE "moderation_events" SET "moderator_kind" = 'platform' WHERE "source" = 'platform';--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "actor_kind" text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_gaps" ADD CONSTRAINT "chat_gaps_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_effects" ADD CONSTRAINT "pipeline_effects_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_gaps_channel_ended" ON "chat_gaps" USING btree ("channel_id","ended_at");--> statement-breakpoint
CREATE INDEX "pipeline_effects_due" ON "pipeline_effects" USING btree ("status","run_after");--> statement-breakpoint
CREATE INDEX "pipeline_effects_finished" ON "pipeline_effects" USING btree ("finished_at");--> statement-breakpoint
CREATE INDEX "chat_messages_received" ON "chat_messages" USING brin ("received_at");