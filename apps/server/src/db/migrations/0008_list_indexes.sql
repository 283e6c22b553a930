-- Trigram indexes (name search with ILIKE '%…%'): pg_trgm ships with PostgreSQL's contrib and with PGlite (loaded by db/client.ts); trusted, so the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "channel_users_user";--> statement-breakpoint
ALTER TABLE "channel_users" ADD COLUMN "sort_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE "channel_users" SET "sort_name" = lower("channels"."display_name") FROM "channels" WHERE "channels"."id" = "channel_users"."channel_id";--> statement-breakpoint
-- channel_users.sort_name is lower(channels.display_name): set when a staff row is added, changed when the channel is renamed.
CREATE FUNCTION "channel_users_set_sort_name"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT lower("display_name") INTO NEW."sort_name" FROM "channels" WHERE "id" = NEW."channel_id";
  NEW."sort_name" := coalesce(NEW."sort_name", '');
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "channel_users_sort_name" BEFORE INSERT OR UPDATE OF "channel_id" ON "channel_users" FOR EACH ROW EXECUTE FUNCTION "channel_users_set_sort_name"();--> statement-breakpoint
CREATE FUNCTION "channels_rename_sort_name"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "channel_users" SET "sort_name" = lower(NEW."display_name") WHERE "channel_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "channels_sort_name" AFTER UPDATE OF "display_name" ON "channels" FOR EACH ROW WHEN (OLD."display_name" IS DISTINCT FROM NEW."display_name") EXECUTE FUNCTION "channels_rename_sort_name"();--> statement-breakpoint
CREATE INDEX "audit_log_actor" ON "audit_log" USING btree ("channel_id","actor_user_id","id");--> statement-breakpoint
CREATE INDEX "channel_providers_name" ON "channel_providers" USING btree ("provider",lower("provider_channel_name"));--> statement-breakpoint
CREATE INDEX "channel_users_user_name" ON "channel_users" USING btree ("user_id","sort_name","channel_id");--> statement-breakpoint
CREATE INDEX "channels_display_name_trgm" ON "channels" USING gin ("display_name" gin_trgm_ops) WITH (fastupdate=false);
