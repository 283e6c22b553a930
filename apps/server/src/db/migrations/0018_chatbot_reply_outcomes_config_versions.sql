CREATE TABLE "chatbot_config_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"number" integer NOT NULL,
	"document" jsonb NOT NULL,
	"digest" text NOT NULL,
	"counts" jsonb NOT NULL,
	"reason" text NOT NULL,
	"actor_user_id" text,
	"actor_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chatbot_reply_outcomes" (
	"effect_id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"count" bigint,
	"reply" text,
	"rendered" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chatbot_config_versions" ADD CONSTRAINT "chatbot_config_versions_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbot_reply_outcomes" ADD CONSTRAINT "chatbot_reply_outcomes_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chatbot_config_versions_number" ON "chatbot_config_versions" USING btree ("channel_id","number");--> statement-breakpoint
CREATE INDEX "chatbot_reply_outcomes_created" ON "chatbot_reply_outcomes" USING btree ("created_at");