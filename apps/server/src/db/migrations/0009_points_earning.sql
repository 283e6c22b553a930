ALTER TABLE "point_ledger" DROP CONSTRAINT "point_ledger_channel_id_channels_id_fk";
--> statement-breakpoint
CREATE INDEX "point_identities_banned" ON "point_identities" USING btree ("wallet_id") WHERE "point_identities"."banned";