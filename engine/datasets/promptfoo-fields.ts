/**
 * The case input fields a promptfoo import adds beside the vars: the test's assertions, its
 * threshold, its transform and its cell of the prompts × providers grid.
 */
export const ASSERT_FIELD = 'assert'
export const THRESHOLD_FIELD = 'assert_threshold'
export const CELL_FIELD = 'cell'
export const TRANSFORM_FIELD = 'assert_transform'
export const PROMPTFOO_RESERVED_FIELDS: readonly string[] = [ASSERT_FIELD, THRESHOLD_FIELD, CELL_FIELD, TRANSFORM_FIELD]
