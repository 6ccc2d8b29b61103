ALTER TABLE `runs` RENAME COLUMN "owner" TO "lease_owner";--> statement-breakpoint
ALTER TABLE `runs` ADD `lease_expires_at` integer;--> statement-breakpoint
ALTER TABLE `runs` ADD `resumes_without_progress` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `runs` ADD `last_step_at_resume` integer;