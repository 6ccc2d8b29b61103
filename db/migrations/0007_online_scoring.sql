CREATE TABLE `online_decisions` (
	`rule_id` text NOT NULL,
	`trace_id` text NOT NULL,
	`span_id` text NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`score` real,
	`verdict` text,
	`run_id` text,
	`cost_usd` real,
	`decided_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`rule_id`, `trace_id`, `span_id`),
	FOREIGN KEY (`rule_id`) REFERENCES `online_rules`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`trace_id`,`span_id`) REFERENCES `online_spans`(`trace_id`,`span_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `online_decisions_rule_decided` ON `online_decisions` (`rule_id`,`decided_at`);--> statement-breakpoint
CREATE INDEX `online_decisions_status` ON `online_decisions` (`status`,`decided_at`);--> statement-breakpoint
CREATE TABLE `online_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`enabled` integer NOT NULL,
	`evaluator` text NOT NULL,
	`filter` text NOT NULL,
	`sample_rate` real NOT NULL,
	`max_per_minute` integer,
	`max_cost_usd_per_day` real,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `online_spans` (
	`trace_id` text NOT NULL,
	`span_id` text NOT NULL,
	`parent_span_id` text,
	`name` text NOT NULL,
	`service_name` text,
	`operation` text,
	`model` text,
	`input_text` text,
	`output_text` text,
	`system_instructions` text,
	`usage` text,
	`status_code` integer NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer NOT NULL,
	`attributes` text NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`trace_id`, `span_id`)
);
--> statement-breakpoint
CREATE INDEX `online_spans_received` ON `online_spans` (`received_at`);