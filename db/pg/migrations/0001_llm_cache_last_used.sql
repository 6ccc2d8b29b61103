ALTER TABLE "llm_cache" ADD COLUMN "last_used_at" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "llm_cache_last_used" ON "llm_cache" USING btree ("last_used_at");--> statement-breakpoint
UPDATE "llm_cache" SET "last_used_at" = "created_at";
