CREATE TABLE `lease_owners` (
	`owner` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `lease_owners` (`owner`, `expires_at`) SELECT `lease_owner`, coalesce(max(`lease_expires_at`), 0) FROM `runs` WHERE `lease_owner` IS NOT NULL GROUP BY `lease_owner`;--> statement-breakpoint
CREATE INDEX `runs_lease_owner` ON `runs` (`lease_owner`,`status`);--> statement-breakpoint
ALTER TABLE `runs` DROP COLUMN `lease_expires_at`;