CREATE TABLE "chatbot_reply_outcomes" (
	"effect_id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"count" bigint,
	"reply" text,
	"rendered" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chatbot_reply_outcomes" ADD CONSTRAINT "chatbot_reply_outcomes_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chatbot_reply_outcomes_created" ON "chatbot_reply_outcomes" USING btree ("created_at");