ALTER TABLE `online_decisions` ADD `claimed_at` integer;--> statement-breakpoint
CREATE INDEX `online_decisions_rule_claimed` ON `online_decisions` (`rule_id`,`claimed_at`);