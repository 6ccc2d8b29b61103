import { templates } from '~~/server/utils/templates'

/** The template gallery: the quality gate, feedback loop, A/B test and "gate your API" flows. */
export default defineEventHandler(() => templates.map(t => ({
  id: t.id, name: t.definition.name, description: t.definition.description ?? null, definition: t.definition,
})))
