CREATE TABLE "stats_commands" (
	"channel_id" text NOT NULL,
	"day" date NOT NULL,
	"command_id" text NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_commands_channel_id_day_command_id_pk" PRIMARY KEY("channel_id","day","command_id")
);
--> statement-breakpoint
CREATE TABLE "stats_points" (
	"channel_id" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"earned" bigint DEFAULT 0 NOT NULL,
	"spent" bigint DEFAULT 0 NOT NULL,
	"won" bigint DEFAULT 0 NOT NULL,
	"lost" bigint DEFAULT 0 NOT NULL,
	"given" bigint DEFAULT 0 NOT NULL,
	"adjusted" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_points_channel_id_minute_pk" PRIMARY KEY("channel_id","minute")
);
--> statement-breakpoint
CREATE TABLE "stats_points_inbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stats_points_inbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel_id" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"earned" bigint DEFAULT 0 NOT NULL,
	"spent" bigint DEFAULT 0 NOT NULL,
	"won" bigint DEFAULT 0 NOT NULL,
	"lost" bigint DEFAULT 0 NOT NULL,
	"given" bigint DEFAULT 0 NOT NULL,
	"adjusted" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stats_minutes" ADD COLUMN "commands" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_commands" ADD CONSTRAINT "stats_commands_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_points" ADD CONSTRAINT "stats_points_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE FUNCTION stats_points_capture() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_points_inbox (channel_id, minute, earned, spent, won, lost, given, adjusted)
  SELECT channel_id, date_trunc('minute', created_at),
    coalesce(sum(delta) FILTER (WHERE delta > 0 AND kind IN ('watch', 'chat', 'follow', 'sub', 'resub', 'gift', 'raid', 'cheer', 'superchat', 'kicks', 'tiktok_gift')), 0),
    coalesce(sum(-delta) FILTER (WHERE kind IN ('command', 'ticket', 'refund')), 0),
    coalesce(sum(delta) FILTER (WHERE delta > 0 AND kind IN ('slots', 'roulette')), 0),
    coalesce(sum(-delta) FILTER (WHERE delta < 0 AND kind IN ('slots', 'roulette')), 0),
    coalesce(sum(delta) FILTER (WHERE delta > 0 AND kind = 'give'), 0),
    coalesce(sum(delta) FILTER (WHERE kind = 'adjust'), 0)
  FROM new_rows WHERE kind <> 'link' GROUP BY 1, 2;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stats_points_capture AFTER INSERT ON point_ledger REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stats_points_capture();
