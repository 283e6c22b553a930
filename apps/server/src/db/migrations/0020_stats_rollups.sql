CREATE TABLE "stats_channel_hours" (
	"channel_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"viewer_sum" bigint DEFAULT 0 NOT NULL,
	"viewer_minutes" integer DEFAULT 0 NOT NULL,
	"viewer_peak" integer,
	"earned" bigint DEFAULT 0 NOT NULL,
	"spent" bigint DEFAULT 0 NOT NULL,
	"won" bigint DEFAULT 0 NOT NULL,
	"lost" bigint DEFAULT 0 NOT NULL,
	"given" bigint DEFAULT 0 NOT NULL,
	"adjusted" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_channel_hours_channel_id_hour_pk" PRIMARY KEY("channel_id","hour")
);
--> statement-breakpoint
CREATE TABLE "stats_chatter_months" (
	"channel_id" text NOT NULL,
	"month" date NOT NULL,
	"provider" text NOT NULL,
	"author_id" text NOT NULL,
	"author_name" text NOT NULL,
	"days" integer[] NOT NULL,
	CONSTRAINT "stats_chatter_months_channel_id_month_provider_author_id_pk" PRIMARY KEY("channel_id","month","provider","author_id")
);
--> statement-breakpoint
CREATE TABLE "stats_hours" (
	"channel_id" text NOT NULL,
	"channel_provider_id" text NOT NULL,
	"provider" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"follows" integer DEFAULT 0 NOT NULL,
	"subs" integer DEFAULT 0 NOT NULL,
	"moderation" integer DEFAULT 0 NOT NULL,
	"commands" integer DEFAULT 0 NOT NULL,
	"viewer_sum" bigint DEFAULT 0 NOT NULL,
	"viewer_minutes" integer DEFAULT 0 NOT NULL,
	"viewer_peak" integer,
	CONSTRAINT "stats_hours_channel_id_channel_provider_id_hour_pk" PRIMARY KEY("channel_id","channel_provider_id","hour")
);
--> statement-breakpoint
ALTER TABLE "stats_channel_hours" ADD CONSTRAINT "stats_channel_hours_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_chatter_months" ADD CONSTRAINT "stats_chatter_months_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_hours" ADD CONSTRAINT "stats_hours_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stats_hours_channel_hour" ON "stats_hours" USING btree ("channel_id","hour");
--> statement-breakpoint
INSERT INTO stats_hours (channel_id, channel_provider_id, provider, hour, messages, follows, subs, moderation, commands,
  viewer_sum, viewer_minutes, viewer_peak)
SELECT channel_id, channel_provider_id, min(provider), date_trunc('hour', minute, 'UTC'), sum(messages), sum(follows),
  sum(subs), sum(moderation), sum(commands), coalesce(sum(viewers), 0), count(viewers), max(viewers)
FROM stats_minutes GROUP BY 1, 2, 4;
--> statement-breakpoint
INSERT INTO stats_channel_hours (channel_id, hour, viewer_sum, viewer_minutes, viewer_peak)
SELECT channel_id, date_trunc('hour', minute, 'UTC'), sum(v), count(*), max(v)
FROM (SELECT channel_id, minute, sum(viewers) AS v FROM stats_minutes WHERE viewers IS NOT NULL GROUP BY 1, 2) t GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO stats_channel_hours (channel_id, hour, earned, spent, won, lost, given, adjusted)
SELECT channel_id, date_trunc('hour', minute, 'UTC'), sum(earned), sum(spent), sum(won), sum(lost), sum(given), sum(adjusted)
FROM stats_points GROUP BY 1, 2
ON CONFLICT (channel_id, hour) DO UPDATE SET earned = excluded.earned, spent = excluded.spent, won = excluded.won,
  lost = excluded.lost, given = excluded.given, adjusted = excluded.adjusted;
--> statement-breakpoint
INSERT INTO stats_chatter_months (channel_id, month, provider, author_id, author_name, days)
SELECT channel_id, date_trunc('month', day::timestamp)::date, provider, author_id, max(author_name), ARRAY[
    sum(CASE WHEN extract(day FROM day) <= 1 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 2 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 3 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 4 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 5 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 6 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 7 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 8 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 9 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 10 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 11 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 12 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 13 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 14 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 15 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 16 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 17 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 18 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 19 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 20 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 21 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 22 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 23 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 24 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 25 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 26 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 27 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 28 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 29 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 30 THEN messages ELSE 0 END)::integer,
    sum(CASE WHEN extract(day FROM day) <= 31 THEN messages ELSE 0 END)::integer
  ]
FROM stats_chatters GROUP BY 1, 2, 3, 4;
