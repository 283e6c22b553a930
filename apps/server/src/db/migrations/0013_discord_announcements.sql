CREATE TABLE "discord_announcements" (
	"channel_id" text PRIMARY KEY NOT NULL,
	"webhook_id" text NOT NULL,
	"webhook_token_enc" text NOT NULL,
	"template" text NOT NULL,
	"role_id" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discord_posts" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"state" text NOT NULL,
	"message_id" text,
	"webhook_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"offline_since" timestamp with time zone,
	"content" jsonb,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "discord_announcements" ADD CONSTRAINT "discord_announcements_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discord_posts" ADD CONSTRAINT "discord_posts_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discord_posts_open" ON "discord_posts" USING btree ("channel_id") WHERE "discord_posts"."ended_at" IS NULL;--> statement-breakpoint
CREATE INDEX "discord_posts_channel_started" ON "discord_posts" USING btree ("channel_id","started_at");