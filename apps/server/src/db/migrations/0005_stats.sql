CREATE TABLE "stats_chatters" (
	"channel_id" text NOT NULL,
	"day" date NOT NULL,
	"provider" text NOT NULL,
	"author_id" text NOT NULL,
	"author_name" text NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_chatters_channel_id_day_provider_author_id_pk" PRIMARY KEY("channel_id","day","provider","author_id")
);
--> statement-breakpoint
CREATE TABLE "stats_cursors" (
	"source" text PRIMARY KEY NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_minutes" (
	"channel_id" text NOT NULL,
	"channel_provider_id" text NOT NULL,
	"provider" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"viewers" integer,
	"follows" integer DEFAULT 0 NOT NULL,
	"subs" integer DEFAULT 0 NOT NULL,
	"moderation" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_minutes_channel_id_channel_provider_id_minute_pk" PRIMARY KEY("channel_id","channel_provider_id","minute")
);
--> statement-breakpoint
CREATE TABLE "stats_streams" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"channel_provider_id" text NOT NULL,
	"provider" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"peak_viewers" integer
);
--> statement-breakpoint
ALTER TABLE "stats_chatters" ADD CONSTRAINT "stats_chatters_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_minutes" ADD CONSTRAINT "stats_minutes_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_streams" ADD CONSTRAINT "stats_streams_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stats_minutes_channel_minute" ON "stats_minutes" USING btree ("channel_id","minute");--> statement-breakpoint
CREATE INDEX "stats_streams_channel_started" ON "stats_streams" USING btree ("channel_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "stats_streams_open" ON "stats_streams" USING btree ("channel_provider_id") WHERE "stats_streams"."ended_at" IS NULL;