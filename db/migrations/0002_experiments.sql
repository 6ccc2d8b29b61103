CREATE TABLE `experiment_rounds` (
	`id` text PRIMARY KEY NOT NULL,
	`experiment_id` text NOT NULL,
	`number` integer NOT NULL,
	`status` text NOT NULL,
	`current_best` text NOT NULL,
	`runs` text NOT NULL,
	`judgments` text NOT NULL,
	`report` text,
	`error` text,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `experiment_rounds_number` ON `experiment_rounds` (`experiment_id`,`number`);--> statement-breakpoint
CREATE TABLE `experiments` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`definition` text NOT NULL,
	`current_best` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
