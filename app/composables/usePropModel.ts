/**
 * A v-model without a local copy: reads always return the parent's current value, writes go
 * straight to the parent. Quick successive edits (a name, then at once its description) each
 * build on the latest value instead of a copy that has not caught up yet.
 */
export function usePropModel<T>(props: { modelValue: T }, emit: (event: 'update:modelValue', value: T) => void) {
  return computed<T>({
    get: () => props.modelValue,
    set: value => emit('update:modelValue', value),
  })
}
