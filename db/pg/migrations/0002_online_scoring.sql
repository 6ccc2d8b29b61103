CREATE TABLE "online_decisions" (
	"rule_id" text NOT NULL,
	"trace_id" text NOT NULL,
	"span_id" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"score" double precision,
	"verdict" text,
	"run_id" text,
	"cost_usd" double precision,
	"decided_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "online_decisions_rule_id_trace_id_span_id_pk" PRIMARY KEY("rule_id","trace_id","span_id")
);
--> statement-breakpoint
CREATE TABLE "online_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean NOT NULL,
	"evaluator" json NOT NULL,
	"filter" json NOT NULL,
	"sample_rate" double precision NOT NULL,
	"max_per_minute" integer,
	"max_cost_usd_per_day" double precision,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "online_spans" (
	"trace_id" text NOT NULL,
	"span_id" text NOT NULL,
	"parent_span_id" text,
	"name" text NOT NULL,
	"service_name" text,
	"operation" text,
	"model" text,
	"input_text" text,
	"output_text" text,
	"system_instructions" text,
	"usage" json,
	"status_code" integer NOT NULL,
	"started_at" bigint NOT NULL,
	"ended_at" bigint NOT NULL,
	"attributes" json NOT NULL,
	"received_at" bigint NOT NULL,
	CONSTRAINT "online_spans_trace_id_span_id_pk" PRIMARY KEY("trace_id","span_id")
);
--> statement-breakpoint
ALTER TABLE "online_decisions" ADD CONSTRAINT "online_decisions_rule_id_online_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."online_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_decisions" ADD CONSTRAINT "online_decisions_trace_id_span_id_online_spans_trace_id_span_id_fk" FOREIGN KEY ("trace_id","span_id") REFERENCES "public"."online_spans"("trace_id","span_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "online_decisions_rule_decided" ON "online_decisions" USING btree ("rule_id","decided_at");--> statement-breakpoint
CREATE INDEX "online_decisions_status" ON "online_decisions" USING btree ("status","decided_at");--> statement-breakpoint
CREATE INDEX "online_spans_received" ON "online_spans" USING btree ("received_at");