import { stringify } from 'yaml'

/**
 * A value written as YAML for a form to show, without the parser: the editor's page loads this
 * alone, and reads what is typed back through safe-yaml.ts (imported when it is needed).
 */
export function yamlText(value: unknown): string {
  return stringify(value).trimEnd()
}
