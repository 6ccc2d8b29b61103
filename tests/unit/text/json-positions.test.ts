import { expect, it } from 'vitest'
import { jsonListItemOffsets, lineFinder } from '../../../engine/text/json-positions'

it('finds where the items of the top-level list, or of a key\'s list, begin', () => {
  const list = '[ {"a":[1,2]}, "x,]",\n  [3], 4 ]'
  expect(jsonListItemOffsets(list).map(i => list[i])).toEqual(['{', '"', '[', '4'])
  const named = '{"name":"[not, this]","other":[9,9],"cases":[\n {"id":"a"},\n {"cases":[1]}\n],"more":[0]}'
  expect(jsonListItemOffsets(named, 'cases').map(i => named.slice(i, i + 4))).toEqual(['{"id', '{"ca'])
  expect(jsonListItemOffsets('{"cases":[]}', 'cases')).toEqual([])
  expect(jsonListItemOffsets('{"a":"\\"cases\\""}', 'cases')).toEqual([])
})

it('turns offsets into 1-based lines', () => {
  const lineOf = lineFinder('a\nbc\n\nd')
  expect([0, 1, 2, 4, 5, 6].map(lineOf)).toEqual([1, 1, 2, 2, 3, 4])
})
