ALTER TABLE "online_decisions" ADD COLUMN "claimed_at" bigint;--> statement-breakpoint
CREATE INDEX "online_decisions_rule_claimed" ON "online_decisions" USING btree ("rule_id","claimed_at");