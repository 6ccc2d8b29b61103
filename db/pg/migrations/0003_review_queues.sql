CREATE TABLE "review_items" (
	"id" text PRIMARY KEY NOT NULL,
	"queue_id" text NOT NULL,
	"position" integer NOT NULL,
	"source" json NOT NULL,
	"source_key" text NOT NULL,
	"input" json,
	"output" json,
	"context" json,
	"judge" json,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_labels" (
	"item_id" text NOT NULL,
	"queue_id" text NOT NULL,
	"reviewer" text NOT NULL,
	"label" text NOT NULL,
	"score" double precision,
	"comment" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "review_labels_item_id_reviewer_pk" PRIMARY KEY("item_id","reviewer")
);
--> statement-breakpoint
CREATE TABLE "review_leases" (
	"item_id" text NOT NULL,
	"queue_id" text NOT NULL,
	"reviewer" text NOT NULL,
	"leased_until" bigint NOT NULL,
	"skipped" boolean NOT NULL,
	CONSTRAINT "review_leases_item_id_reviewer_pk" PRIMARY KEY("item_id","reviewer")
);
--> statement-breakpoint
CREATE TABLE "review_queues" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"rubric" json NOT NULL,
	"instructions" text,
	"reviewers_per_item" integer NOT NULL,
	"lease_minutes" integer NOT NULL,
	"show_judge" boolean NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_queue_id_review_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."review_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_labels" ADD CONSTRAINT "review_labels_item_id_review_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."review_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_leases" ADD CONSTRAINT "review_leases_item_id_review_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."review_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "review_items_source" ON "review_items" USING btree ("queue_id","source_key");--> statement-breakpoint
CREATE UNIQUE INDEX "review_items_position" ON "review_items" USING btree ("queue_id","position");--> statement-breakpoint
CREATE INDEX "review_labels_queue" ON "review_labels" USING btree ("queue_id","reviewer");--> statement-breakpoint
CREATE INDEX "review_leases_queue" ON "review_leases" USING btree ("queue_id","reviewer");