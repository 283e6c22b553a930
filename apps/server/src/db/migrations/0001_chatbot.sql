CREATE TABLE "chat_commands" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"name" text NOT NULL,
	"aliases" text[] DEFAULT '{}'::text[] NOT NULL,
	"builtin" text,
	"responses" jsonb NOT NULL,
	"response_mode" text DEFAULT 'random' NOT NULL,
	"level" integer DEFAULT 0 NOT NULL,
	"global_cooldown_seconds" integer DEFAULT 0 NOT NULL,
	"user_cooldown_seconds" integer DEFAULT 0 NOT NULL,
	"platforms" text[] DEFAULT '{}'::text[] NOT NULL,
	"reply_mode" text DEFAULT 'say' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"use_count" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_filter_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_filter_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel_id" text NOT NULL,
	"effect_id" text,
	"filter_id" text,
	"filter_name" text NOT NULL,
	"filter_type" text NOT NULL,
	"provider" text NOT NULL,
	"channel_provider_id" text NOT NULL,
	"viewer_id" text NOT NULL,
	"viewer_name" text NOT NULL,
	"message_text" text NOT NULL,
	"reason" text NOT NULL,
	"requested" text NOT NULL,
	"action" text,
	"duration_seconds" integer,
	"note" text,
	"ok" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_filters" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"settings" jsonb NOT NULL,
	"exempt_level" integer NOT NULL,
	"action" text NOT NULL,
	"duration_seconds" integer NOT NULL,
	"warn_first" boolean NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_timers" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"name" text NOT NULL,
	"messages" jsonb NOT NULL,
	"interval_minutes" integer NOT NULL,
	"min_lines" integer DEFAULT 0 NOT NULL,
	"online_only" boolean DEFAULT true NOT NULL,
	"platforms" text[] DEFAULT '{}'::text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_index" integer DEFAULT 0 NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chatbot_channels" (
	"channel_id" text PRIMARY KEY NOT NULL,
	"next_quote_number" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "command_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"aliases" text[] DEFAULT '{}'::text[] NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"responses" jsonb NOT NULL,
	"response_mode" text DEFAULT 'random' NOT NULL,
	"level" integer DEFAULT 0 NOT NULL,
	"global_cooldown_seconds" integer DEFAULT 0 NOT NULL,
	"user_cooldown_seconds" integer DEFAULT 0 NOT NULL,
	"reply_mode" text DEFAULT 'say' NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"number" integer NOT NULL,
	"text" text NOT NULL,
	"added_by" text NOT NULL,
	"added_on_provider" text,
	"game" text,
	"quoted_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_commands" ADD CONSTRAINT "chat_commands_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_filter_log" ADD CONSTRAINT "chat_filter_log_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_filters" ADD CONSTRAINT "chat_filters_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_timers" ADD CONSTRAINT "chat_timers_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbot_channels" ADD CONSTRAINT "chatbot_channels_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_commands_channel_name" ON "chat_commands" USING btree ("channel_id","name");--> statement-breakpoint
CREATE INDEX "chat_filter_log_channel" ON "chat_filter_log" USING btree ("channel_id","id");--> statement-breakpoint
CREATE INDEX "chat_filter_log_created" ON "chat_filter_log" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_filter_log_effect" ON "chat_filter_log" USING btree ("effect_id");--> statement-breakpoint
CREATE INDEX "chat_filters_channel" ON "chat_filters" USING btree ("channel_id","position");--> statement-breakpoint
CREATE INDEX "chat_timers_due" ON "chat_timers" USING btree ("next_run_at");--> statement-breakpoint
CREATE INDEX "chat_timers_channel" ON "chat_timers" USING btree ("channel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_channel_number" ON "quotes" USING btree ("channel_id","number");