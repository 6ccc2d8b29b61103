CREATE TABLE "app_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" json
);
--> statement-breakpoint
CREATE TABLE "dataset_run_cases" (
	"dataset_run_id" text NOT NULL,
	"case_id" text NOT NULL,
	"repeat" integer NOT NULL,
	"status" text NOT NULL,
	"run_id" text,
	"result" json,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "dataset_run_cases_dataset_run_id_case_id_repeat_pk" PRIMARY KEY("dataset_run_id","case_id","repeat")
);
--> statement-breakpoint
CREATE TABLE "dataset_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"dataset_id" text NOT NULL,
	"dataset_version" integer NOT NULL,
	"target" json NOT NULL,
	"options" json NOT NULL,
	"status" text NOT NULL,
	"error" json,
	"report" json,
	"created_at" bigint NOT NULL,
	"finished_at" bigint
);
--> statement-breakpoint
CREATE TABLE "dataset_versions" (
	"dataset_id" text NOT NULL,
	"version" integer NOT NULL,
	"cases" json NOT NULL,
	"case_count" integer NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "dataset_versions_dataset_id_version_pk" PRIMARY KEY("dataset_id","version")
);
--> statement-breakpoint
CREATE TABLE "datasets" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"current_version" integer NOT NULL,
	"case_count" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "experiment_rounds" (
	"id" text PRIMARY KEY NOT NULL,
	"experiment_id" text NOT NULL,
	"number" integer NOT NULL,
	"status" text NOT NULL,
	"current_best" text NOT NULL,
	"runs" json NOT NULL,
	"judgments" json NOT NULL,
	"report" json,
	"error" json,
	"created_at" bigint NOT NULL,
	"finished_at" bigint
);
--> statement-breakpoint
CREATE TABLE "experiments" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"definition" json NOT NULL,
	"current_best" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lease_owners" (
	"owner" text PRIMARY KEY NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "llm_cache" (
	"key" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"response" json NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "run_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"type" text NOT NULL,
	"node_id" text,
	"attempt" integer,
	"data" json NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" text PRIMARY KEY NOT NULL,
	"workflow_id" text,
	"workflow_version" integer,
	"definition" json NOT NULL,
	"input" json,
	"options" json,
	"status" text NOT NULL,
	"verdict" text,
	"output" json,
	"error" json,
	"lease_owner" text,
	"resumes_without_progress" integer DEFAULT 0 NOT NULL,
	"last_step_at_resume" bigint,
	"created_at" bigint NOT NULL,
	"started_at" bigint,
	"finished_at" bigint,
	"duration_ms" double precision
);
--> statement-breakpoint
CREATE TABLE "step_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"node_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"status" text NOT NULL,
	"input" json,
	"output" json,
	"branch" text,
	"error" json,
	"reason" text,
	"rerun" json,
	"usage" json,
	"cached" boolean,
	"pinned" boolean,
	"started_at" bigint,
	"finished_at" bigint,
	"duration_ms" double precision
);
--> statement-breakpoint
CREATE TABLE "workflow_versions" (
	"workflow_id" text NOT NULL,
	"version" integer NOT NULL,
	"definition" json NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "workflow_versions_workflow_id_version_pk" PRIMARY KEY("workflow_id","version")
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"current_version" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dataset_run_cases" ADD CONSTRAINT "dataset_run_cases_dataset_run_id_dataset_runs_id_fk" FOREIGN KEY ("dataset_run_id") REFERENCES "public"."dataset_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_runs" ADD CONSTRAINT "dataset_runs_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_versions" ADD CONSTRAINT "dataset_versions_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_rounds" ADD CONSTRAINT "experiment_rounds_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_events" ADD CONSTRAINT "run_events_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "step_runs" ADD CONSTRAINT "step_runs_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_versions" ADD CONSTRAINT "workflow_versions_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dataset_runs_dataset_created" ON "dataset_runs" USING btree ("dataset_id","created_at");--> statement-breakpoint
CREATE INDEX "dataset_runs_status" ON "dataset_runs" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "datasets_name" ON "datasets" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "experiment_rounds_number" ON "experiment_rounds" USING btree ("experiment_id","number");--> statement-breakpoint
CREATE INDEX "run_events_run" ON "run_events" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "runs_workflow_created" ON "runs" USING btree ("workflow_id","created_at");--> statement-breakpoint
CREATE INDEX "runs_status" ON "runs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "runs_lease_owner" ON "runs" USING btree ("lease_owner","status");--> statement-breakpoint
CREATE UNIQUE INDEX "step_runs_run_node_attempt" ON "step_runs" USING btree ("run_id","node_id","attempt");