/** The NOTIFY channel of committed run events: the payload is `<run id> <event id> <event type>`. */
export const RUN_EVENTS_CHANNEL = 'judgeflow_run_events'
/** The NOTIFY channel of cancel requests (`cancel <run id>`) and of their holder's answer (`cancelling <run id>`). */
export const RUN_CANCEL_CHANNEL = 'judgeflow_run_cancel'
/** The pg-boss queue of started runs, in its own schema of the same database. */
export const RUN_QUEUE = 'judgeflow-runs'
export const BOSS_SCHEMA = 'pgboss'
/** The NOTIFY channel that wakes the processes working the queue: a job was sent (no payload needed). */
export const RUN_JOBS_CHANNEL = 'judgeflow_run_jobs'
