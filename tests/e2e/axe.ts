import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/** Serious and critical WCAG A/AA findings, with where they are. */
export async function violations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)
}

/** Axe clean in both themes, with a screenshot of each at the viewport's size (1280×720), and of the whole page when `fullPage`. */
export async function checkedShots(page: Page, name: string, { fullPage = false } = {}): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.waitForTimeout(150)
    expect(await violations(page)).toEqual([])
    await page.screenshot({ path: `test-results/e2e/${name}-${scheme}-1280x720.png` })
    if (fullPage) await page.screenshot({ path: `test-results/e2e/${name}-${scheme}-full.png`, fullPage: true })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}
