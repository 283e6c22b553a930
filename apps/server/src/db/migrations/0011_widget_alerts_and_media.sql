CREATE TABLE "widget_alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"event" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widget_media" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"sha256" text NOT NULL,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"name" text NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "widget_alerts" ADD CONSTRAINT "widget_alerts_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_media" ADD CONSTRAINT "widget_media_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "widget_alerts_channel_created" ON "widget_alerts" USING btree ("channel_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "widget_media_channel_hash" ON "widget_media" USING btree ("channel_id","sha256");--> statement-breakpoint
CREATE INDEX "widget_media_hash" ON "widget_media" USING btree ("sha256");