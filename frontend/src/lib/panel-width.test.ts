import { describe, expect, test } from 'vitest'
import { clampWidth, defaultWidth, keyWidth, loadWidth, minCentre, minWidth, saveWidth } from './panel-width'

function memory(): Storage {
  const m = new Map<string, string>()
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) } as Storage
}

describe('panel width', () => {
  test('is clamped so the centre pane keeps its room and the panel its minimum', () => {
    expect(clampWidth(900, 1600)).toBe(900)
    expect(clampWidth(1400, 1600)).toBe(1600 - minCentre)
    expect(clampWidth(100, 1600)).toBe(minWidth)
    // A window too narrow for both still gives the panel its minimum.
    expect(clampWidth(500, 500)).toBe(minWidth)
  })

  test('is kept across runs, and a damaged value falls back to the default', () => {
    const s = memory()
    expect(loadWidth(s)).toBe(defaultWidth)
    saveWidth(s, 612.4)
    expect(loadWidth(s)).toBe(612)
    s.setItem('rooted.agent-panel-width', 'wide')
    expect(loadWidth(s)).toBe(defaultWidth)
    expect(loadWidth(undefined)).toBe(defaultWidth)
  })

  test('arrow keys move the splitter: Left widens the panel on the right, Shift moves further, Home and End go to the ends', () => {
    expect(keyWidth(440, 'ArrowLeft', false, 1600)).toBe(456)
    expect(keyWidth(440, 'ArrowRight', true, 1600)).toBe(376)
    expect(keyWidth(440, 'Home', false, 1600)).toBe(1600 - minCentre)
    expect(keyWidth(440, 'End', false, 1600)).toBe(minWidth)
    expect(keyWidth(440, 'a', false, 1600)).toBeUndefined()
  })
})
