import { templates } from '../utils/templates'

/** The template gallery: the quality gate, feedback loop and A/B test flows. */
export default defineEventHandler(() => templates.map(t => ({
  id: t.id, name: t.definition.name, description: t.definition.description ?? null, definition: t.definition,
})))
