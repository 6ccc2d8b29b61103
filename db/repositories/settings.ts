import { eq } from 'drizzle-orm'
import type { Db } from '../client'
import { appSettings } from '../schema'

export function getSetting<T>(db: Db, key: string): T | null {
  const row = db.select().from(appSettings).where(eq(appSettings.key, key)).get()
  return row ? (row.value as T) : null
}

export function setSetting(db: Db, key: string, value: unknown): void {
  db.insert(appSettings).values({ key, value }).onConflictDoUpdate({ target: appSettings.key, set: { value } }).run()
}
