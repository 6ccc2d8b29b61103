ALTER TABLE `llm_cache` ADD `last_used_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `llm_cache_last_used` ON `llm_cache` (`last_used_at`);--> statement-breakpoint
UPDATE `llm_cache` SET `last_used_at` = `created_at`;
