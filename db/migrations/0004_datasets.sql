CREATE TABLE `dataset_run_cases` (
	`dataset_run_id` text NOT NULL,
	`case_id` text NOT NULL,
	`repeat` integer NOT NULL,
	`status` text NOT NULL,
	`run_id` text,
	`result` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`dataset_run_id`, `case_id`, `repeat`),
	FOREIGN KEY (`dataset_run_id`) REFERENCES `dataset_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `dataset_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`dataset_id` text NOT NULL,
	`dataset_version` integer NOT NULL,
	`target` text NOT NULL,
	`options` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`report` text,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `dataset_runs_dataset_created` ON `dataset_runs` (`dataset_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `dataset_runs_status` ON `dataset_runs` (`status`);--> statement-breakpoint
CREATE TABLE `dataset_versions` (
	`dataset_id` text NOT NULL,
	`version` integer NOT NULL,
	`cases` text NOT NULL,
	`case_count` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`dataset_id`, `version`),
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `datasets` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`current_version` integer NOT NULL,
	`case_count` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `datasets_name` ON `datasets` (`name`);