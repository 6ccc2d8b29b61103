CREATE TABLE `review_items` (
	`id` text PRIMARY KEY NOT NULL,
	`queue_id` text NOT NULL,
	`position` integer NOT NULL,
	`source` text NOT NULL,
	`source_key` text NOT NULL,
	`input` text,
	`output` text,
	`context` text,
	`judge` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`queue_id`) REFERENCES `review_queues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_items_source` ON `review_items` (`queue_id`,`source_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `review_items_position` ON `review_items` (`queue_id`,`position`);--> statement-breakpoint
CREATE TABLE `review_labels` (
	`item_id` text NOT NULL,
	`queue_id` text NOT NULL,
	`reviewer` text NOT NULL,
	`label` text NOT NULL,
	`score` real,
	`comment` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`item_id`, `reviewer`),
	FOREIGN KEY (`item_id`) REFERENCES `review_items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `review_labels_queue` ON `review_labels` (`queue_id`,`reviewer`);--> statement-breakpoint
CREATE TABLE `review_leases` (
	`item_id` text NOT NULL,
	`queue_id` text NOT NULL,
	`reviewer` text NOT NULL,
	`leased_until` integer NOT NULL,
	`skipped` integer NOT NULL,
	PRIMARY KEY(`item_id`, `reviewer`),
	FOREIGN KEY (`item_id`) REFERENCES `review_items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `review_leases_queue` ON `review_leases` (`queue_id`,`reviewer`);--> statement-breakpoint
CREATE TABLE `review_queues` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`rubric` text NOT NULL,
	`instructions` text,
	`reviewers_per_item` integer NOT NULL,
	`lease_minutes` integer NOT NULL,
	`show_judge` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
