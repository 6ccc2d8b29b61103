import { defineConfig } from 'drizzle-kit'

/** The PostgreSQL store's migrations (`npm run db:generate:pg` after changing db/pg/schema.ts). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/pg/schema.ts',
  out: './db/pg/migrations',
})
