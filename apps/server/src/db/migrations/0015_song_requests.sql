CREATE TABLE "song_request_settings" (
	"channel_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"level" integer DEFAULT 0 NOT NULL,
	"cost" bigint DEFAULT 0 NOT NULL,
	"max_duration_seconds" integer DEFAULT 600 NOT NULL,
	"max_per_user" integer DEFAULT 2 NOT NULL,
	"blocked" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "song_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"effect_key" text NOT NULL,
	"wallet_id" text,
	"provider" text NOT NULL,
	"provider_user_id" text NOT NULL,
	"display_name" text NOT NULL,
	"track_id" text NOT NULL,
	"track" jsonb NOT NULL,
	"cost" bigint DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"skip_when_playing" boolean DEFAULT false NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "song_request_settings" ADD CONSTRAINT "song_request_settings_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "song_requests" ADD CONSTRAINT "song_requests_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "song_requests_effect" ON "song_requests" USING btree ("channel_id","effect_key");--> statement-breakpoint
CREATE INDEX "song_requests_channel" ON "song_requests" USING btree ("channel_id","requested_at","id");--> statement-breakpoint
CREATE INDEX "song_requests_viewer" ON "song_requests" USING btree ("channel_id","provider","provider_user_id","status");