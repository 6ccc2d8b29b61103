/** The colours chart text and lines take from the theme (base.css), so a chart reads in both themes. */
export interface ChartTheme { text: string, grid: string }

/** The theme's colours as the page has them now; the light theme's when there is no page (server render). */
export function readChartTheme(): ChartTheme {
  if (typeof document === 'undefined') return { text: '#1b1f24', grid: '#d8dce3' }
  const style = getComputedStyle(document.documentElement)
  return { text: style.getPropertyValue('--text').trim() || '#1b1f24', grid: style.getPropertyValue('--border').trim() || '#d8dce3' }
}

type Scale = { ticks?: object, title?: object, grid?: object, border?: object }
type Options = { scales?: Record<string, Scale>, plugins?: { legend?: { labels?: object } } }

/**
 * Chart.js options with the theme's text colour on every axis, tick, title and legend, and its
 * border colour on the grid: Chart.js draws them on a canvas, where CSS does not reach.
 */
export function themedOptions<T>(options: T, theme: ChartTheme): T {
  const o = options as Options
  // Bar and line charts have x and y scales even when their options name neither.
  const scales = { x: {}, y: {}, ...o.scales } as Record<string, Scale>
  return {
    ...o,
    color: theme.text,
    scales: Object.fromEntries(Object.entries(scales).map(([id, s]) => [id, {
      ...s,
      ticks: { ...s.ticks, color: theme.text },
      title: { ...s.title, color: theme.text },
      grid: { ...s.grid, color: theme.grid },
      border: { ...s.border, color: theme.grid },
    }])),
    plugins: { ...o.plugins, legend: { ...o.plugins?.legend, labels: { ...o.plugins?.legend?.labels, color: theme.text } } },
  } as T
}
