CREATE TABLE "youtube_quota" (
	"project" text NOT NULL,
	"day" text NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"exhausted_at" timestamp with time zone,
	CONSTRAINT "youtube_quota_project_day_pk" PRIMARY KEY("project","day")
);
