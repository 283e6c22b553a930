CREATE TABLE "channel_owners" (
	"channel_id" text PRIMARY KEY NOT NULL,
	"instance_id" text NOT NULL,
	"acquired_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cluster_commands" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"instance_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"channel_provider_id" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cluster_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channel_owners" ADD CONSTRAINT "channel_owners_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_owners_instance" ON "channel_owners" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "cluster_commands_instance" ON "cluster_commands" USING btree ("instance_id");