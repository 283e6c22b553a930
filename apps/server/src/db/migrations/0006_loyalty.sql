CREATE TABLE "game_settings" (
	"channel_id" text NOT NULL,
	"game" text NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "game_settings_channel_id_game_pk" PRIMARY KEY("channel_id","game")
);
--> statement-breakpoint
CREATE TABLE "giveaway_entries" (
	"giveaway_id" text NOT NULL,
	"wallet_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_user_id" text NOT NULL,
	"display_name" text NOT NULL,
	"tickets" integer NOT NULL,
	"paid" bigint DEFAULT 0 NOT NULL,
	"subscriber" boolean NOT NULL,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "giveaway_entries_giveaway_id_wallet_id_pk" PRIMARY KEY("giveaway_id","wallet_id")
);
--> statement-breakpoint
CREATE TABLE "giveaway_winners" (
	"id" text PRIMARY KEY NOT NULL,
	"giveaway_id" text NOT NULL,
	"place" integer NOT NULL,
	"wallet_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_user_id" text NOT NULL,
	"display_name" text NOT NULL,
	"tickets" integer NOT NULL,
	"status" text NOT NULL,
	"drawn_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claim_deadline" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"messages" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "giveaways" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"title" text NOT NULL,
	"entry_mode" text NOT NULL,
	"keyword" text NOT NULL,
	"ticket_cost" bigint NOT NULL,
	"max_tickets" integer NOT NULL,
	"min_level" integer NOT NULL,
	"platforms" text[] DEFAULT '{}'::text[] NOT NULL,
	"sub_luck" double precision NOT NULL,
	"winners" integer NOT NULL,
	"duration_seconds" integer NOT NULL,
	"claim_seconds" integer NOT NULL,
	"status" text NOT NULL,
	"entry_count" integer DEFAULT 0 NOT NULL,
	"ticket_count" integer DEFAULT 0 NOT NULL,
	"opened_at" timestamp with time zone,
	"closes_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"drawn_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "point_gamble_losses" (
	"wallet_id" text NOT NULL,
	"stream_key" text NOT NULL,
	"net_loss" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "point_gamble_losses_wallet_id_stream_key_pk" PRIMARY KEY("wallet_id","stream_key")
);
--> statement-breakpoint
CREATE TABLE "point_identities" (
	"channel_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_user_id" text NOT NULL,
	"wallet_id" text NOT NULL,
	"login" text NOT NULL,
	"display_name" text NOT NULL,
	"banned" boolean DEFAULT false NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "point_identities_channel_id_provider_provider_user_id_pk" PRIMARY KEY("channel_id","provider","provider_user_id")
);
--> statement-breakpoint
CREATE TABLE "point_ledger" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "point_ledger_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel_id" text NOT NULL,
	"wallet_id" text NOT NULL,
	"delta" bigint NOT NULL,
	"kind" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"note" text,
	"actor_user_id" text,
	"data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "point_link_codes" (
	"channel_id" text NOT NULL,
	"code" text NOT NULL,
	"provider" text NOT NULL,
	"provider_user_id" text NOT NULL,
	"display_name" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_provider" text,
	"used_provider_user_id" text,
	"used_login" text,
	"used_display_name" text,
	"used_at" timestamp with time zone,
	CONSTRAINT "point_link_codes_channel_id_code_pk" PRIMARY KEY("channel_id","code")
);
--> statement-breakpoint
CREATE TABLE "point_settings" (
	"channel_id" text PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "point_wallets" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"display_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "point_wallets_balance" CHECK ("point_wallets"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "point_watch_ticks" (
	"channel_id" text NOT NULL,
	"tick_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"claimed_by" text NOT NULL,
	"viewers" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "point_watch_ticks_channel_id_tick_at_pk" PRIMARY KEY("channel_id","tick_at")
);
--> statement-breakpoint
CREATE TABLE "queue_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"queue_id" text NOT NULL,
	"wallet_id" text NOT NULL,
	"provider" text NOT NULL,
	"provider_user_id" text NOT NULL,
	"display_name" text NOT NULL,
	"priority" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"position" integer,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "queues" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'closed' NOT NULL,
	"max_size" integer DEFAULT 0 NOT NULL,
	"auto_close" boolean DEFAULT false NOT NULL,
	"join_cooldown_seconds" integer DEFAULT 0 NOT NULL,
	"sub_priority" boolean DEFAULT false NOT NULL,
	"size" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "game_settings" ADD CONSTRAINT "game_settings_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "giveaway_entries" ADD CONSTRAINT "giveaway_entries_giveaway_id_giveaways_id_fk" FOREIGN KEY ("giveaway_id") REFERENCES "public"."giveaways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "giveaway_entries" ADD CONSTRAINT "giveaway_entries_wallet_id_point_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."point_wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "giveaway_winners" ADD CONSTRAINT "giveaway_winners_giveaway_id_giveaways_id_fk" FOREIGN KEY ("giveaway_id") REFERENCES "public"."giveaways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "giveaway_winners" ADD CONSTRAINT "giveaway_winners_wallet_id_point_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."point_wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "giveaways" ADD CONSTRAINT "giveaways_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_gamble_losses" ADD CONSTRAINT "point_gamble_losses_wallet_id_point_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."point_wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_identities" ADD CONSTRAINT "point_identities_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_identities" ADD CONSTRAINT "point_identities_wallet_id_point_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."point_wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_ledger" ADD CONSTRAINT "point_ledger_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_ledger" ADD CONSTRAINT "point_ledger_wallet_id_point_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."point_wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_link_codes" ADD CONSTRAINT "point_link_codes_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_settings" ADD CONSTRAINT "point_settings_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_wallets" ADD CONSTRAINT "point_wallets_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_watch_ticks" ADD CONSTRAINT "point_watch_ticks_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_entries" ADD CONSTRAINT "queue_entries_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_entries" ADD CONSTRAINT "queue_entries_wallet_id_point_wallets_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."point_wallets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "giveaway_winners_giveaway" ON "giveaway_winners" USING btree ("giveaway_id","id");--> statement-breakpoint
CREATE INDEX "giveaway_winners_claim" ON "giveaway_winners" USING btree ("status","claim_deadline");--> statement-breakpoint
CREATE INDEX "giveaways_channel" ON "giveaways" USING btree ("channel_id","id");--> statement-breakpoint
CREATE INDEX "giveaways_closes" ON "giveaways" USING btree ("status","closes_at");--> statement-breakpoint
CREATE UNIQUE INDEX "giveaways_one_open" ON "giveaways" USING btree ("channel_id") WHERE "giveaways"."status" = 'open';--> statement-breakpoint
CREATE INDEX "point_identities_wallet" ON "point_identities" USING btree ("wallet_id");--> statement-breakpoint
CREATE INDEX "point_identities_login" ON "point_identities" USING btree ("channel_id",lower("login"));--> statement-breakpoint
CREATE INDEX "point_identities_name" ON "point_identities" USING btree ("channel_id",lower("display_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "point_ledger_idempotency" ON "point_ledger" USING btree ("channel_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "point_ledger_wallet" ON "point_ledger" USING btree ("wallet_id","seq");--> statement-breakpoint
CREATE INDEX "point_link_codes_owner" ON "point_link_codes" USING btree ("channel_id","provider","provider_user_id");--> statement-breakpoint
CREATE INDEX "point_wallets_rank" ON "point_wallets" USING btree ("channel_id","balance" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE UNIQUE INDEX "queue_entries_waiting" ON "queue_entries" USING btree ("queue_id","wallet_id") WHERE "queue_entries"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "queue_entries_line" ON "queue_entries" USING btree ("queue_id","status","position");--> statement-breakpoint
CREATE INDEX "queue_entries_wallet" ON "queue_entries" USING btree ("queue_id","wallet_id","ended_at");--> statement-breakpoint
CREATE INDEX "queues_channel" ON "queues" USING btree ("channel_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "queues_one_active" ON "queues" USING btree ("channel_id") WHERE "queues"."status" <> 'closed';