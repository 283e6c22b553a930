CREATE TABLE "widgets" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"settings" jsonb NOT NULL,
	"token_hash" text NOT NULL,
	"token_enc" text NOT NULL,
	"counted_since" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "widgets" ADD CONSTRAINT "widgets_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "widgets_token_hash" ON "widgets" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "widgets_channel" ON "widgets" USING btree ("channel_id","created_at");