CREATE TABLE "activities" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activities_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text NOT NULL,
	"channel_id" text NOT NULL,
	"channel_provider_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_event_id" text NOT NULL,
	"type" text NOT NULL,
	"viewer_id" text,
	"viewer_login" text,
	"viewer_name" text,
	"tier" text,
	"months" integer,
	"count" integer,
	"amount" text,
	"message" text,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_messages_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text NOT NULL,
	"channel_id" text NOT NULL,
	"channel_provider_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"author_id" text NOT NULL,
	"author_login" text NOT NULL,
	"author_name" text NOT NULL,
	"author_color" text,
	"author_avatar_url" text,
	"author_badges" jsonb NOT NULL,
	"author_roles" jsonb NOT NULL,
	"text" text NOT NULL,
	"emotes" jsonb NOT NULL,
	"reply" jsonb,
	"mentions" jsonb NOT NULL,
	"highlight" text,
	"sent_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "moderation_events" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "moderation_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text NOT NULL,
	"channel_id" text NOT NULL,
	"channel_provider_id" text NOT NULL,
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"target_id" text,
	"target_name" text,
	"provider_message_id" text,
	"duration_seconds" integer,
	"reason" text,
	"moderator_user_id" text,
	"moderator_name" text,
	"source" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "viewers" (
	"channel_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_user_id" text NOT NULL,
	"login" text NOT NULL,
	"display_name" text NOT NULL,
	"color" text,
	"avatar_url" text,
	"badges" jsonb NOT NULL,
	"roles" jsonb NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"message_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "viewers_channel_id_provider_provider_user_id_pk" PRIMARY KEY("channel_id","provider","provider_user_id")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel_id" text NOT NULL,
	"actor_user_id" text,
	"action" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_providers" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_channel_id" text NOT NULL,
	"provider_channel_name" text NOT NULL,
	"live_stream_id" text,
	"is_live" boolean DEFAULT false NOT NULL,
	"viewer_count" integer,
	"access_token_enc" text,
	"refresh_token_enc" text,
	"token_expires_at" timestamp with time zone,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"scope_needed" boolean DEFAULT false NOT NULL,
	"bot_provider_user_id" text,
	"bot_display_name" text,
	"bot_access_token_enc" text,
	"bot_refresh_token_enc" text,
	"bot_token_expires_at" timestamp with time zone,
	"bot_scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"bot_scope_needed" boolean DEFAULT false NOT NULL,
	"state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_users" (
	"channel_id" text NOT NULL,
	"user_id" text NOT NULL,
	"level" integer NOT NULL,
	"added_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_users_channel_id_user_id_pk" PRIMARY KEY("channel_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"provider" text NOT NULL,
	"code_verifier" text,
	"redirect_to" text NOT NULL,
	"user_id" text,
	"channel_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "system_bots" (
	"provider" text PRIMARY KEY NOT NULL,
	"provider_user_id" text NOT NULL,
	"display_name" text NOT NULL,
	"access_token_enc" text,
	"refresh_token_enc" text,
	"token_expires_at" timestamp with time zone,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"scope_needed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_providers" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_user_id" text NOT NULL,
	"login" text NOT NULL,
	"display_name" text NOT NULL,
	"access_token_enc" text,
	"refresh_token_enc" text,
	"token_expires_at" timestamp with time zone,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"scope_needed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"avatar_url" text,
	"is_operator" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_bans" (
	"channel_provider_id" text NOT NULL,
	"provider_viewer_id" text NOT NULL,
	"provider_ban_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_bans_channel_provider_id_provider_viewer_id_pk" PRIMARY KEY("channel_provider_id","provider_viewer_id")
);
--> statement-breakpoint
CREATE TABLE "channel_user_invites" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"id_enc" text,
	"channel_id" text NOT NULL,
	"level" integer NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_by" text,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" text
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"provider" text NOT NULL,
	"message_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_provider_message_id_pk" PRIMARY KEY("provider","message_id")
);
--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_events" ADD CONSTRAINT "moderation_events_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewers" ADD CONSTRAINT "viewers_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_providers" ADD CONSTRAINT "channel_providers_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_users" ADD CONSTRAINT "channel_users_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_users" ADD CONSTRAINT "channel_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_users" ADD CONSTRAINT "channel_users_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_providers" ADD CONSTRAINT "user_providers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_bans" ADD CONSTRAINT "platform_bans_channel_provider_id_channel_providers_id_fk" FOREIGN KEY ("channel_provider_id") REFERENCES "public"."channel_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_user_invites" ADD CONSTRAINT "channel_user_invites_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_user_invites" ADD CONSTRAINT "channel_user_invites_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_user_invites" ADD CONSTRAINT "channel_user_invites_used_by_users_id_fk" FOREIGN KEY ("used_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_user_invites" ADD CONSTRAINT "channel_user_invites_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activities_provider_event" ON "activities" USING btree ("channel_id","provider","provider_event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "activities_id" ON "activities" USING btree ("channel_id","id");--> statement-breakpoint
CREATE INDEX "activities_channel_seq" ON "activities" USING btree ("channel_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_provider_message" ON "chat_messages" USING btree ("channel_id","provider","provider_message_id");--> statement-breakpoint
CREATE INDEX "chat_messages_channel_seq" ON "chat_messages" USING btree ("channel_id","seq");--> statement-breakpoint
CREATE INDEX "chat_messages_author" ON "chat_messages" USING btree ("channel_id","provider","author_id","seq");--> statement-breakpoint
CREATE INDEX "chat_messages_received" ON "chat_messages" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_events_id" ON "moderation_events" USING btree ("channel_id","id");--> statement-breakpoint
CREATE INDEX "moderation_events_target" ON "moderation_events" USING btree ("channel_id","provider","target_id","seq");--> statement-breakpoint
CREATE INDEX "moderation_events_occurred" ON "moderation_events" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "audit_log_channel" ON "audit_log" USING btree ("channel_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_providers_channel_provider" ON "channel_providers" USING btree ("channel_id","provider");--> statement-breakpoint
CREATE INDEX "channel_providers_identity" ON "channel_providers" USING btree ("provider","provider_channel_id");--> statement-breakpoint
CREATE INDEX "channel_users_user" ON "channel_users" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_providers_identity" ON "user_providers" USING btree ("provider","provider_user_id");--> statement-breakpoint
CREATE INDEX "user_providers_user" ON "user_providers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "channel_user_invites_channel" ON "channel_user_invites" USING btree ("channel_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_received" ON "webhook_deliveries" USING btree ("received_at");