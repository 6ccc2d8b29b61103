import { readChartTheme, type ChartTheme } from '~/utils/chart-theme'

/** The theme's chart colours, read again when the system switches between light and dark. */
export function useChartTheme() {
  const theme = shallowRef<ChartTheme>(readChartTheme())
  onMounted(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)')
    const read = () => { theme.value = readChartTheme() }
    read()
    query.addEventListener('change', read)
    onBeforeUnmount(() => query.removeEventListener('change', read))
  })
  return theme
}
