import { describe, expect, it } from 'vitest'
import { absolute, baseName, humanSize, joinRel } from './paths'

describe('paths', () => {
  it('joins tree paths from the root', () => {
    expect(joinRel('.', 'src')).toBe('src')
    expect(joinRel('src', 'main.go')).toBe('src/main.go')
  })
  it('makes absolute paths inside the root with the root separator', () => {
    expect(absolute('/home/me/p', '.')).toBe('/home/me/p')
    expect(absolute('/home/me/p/', 'src/a.ts')).toBe('/home/me/p/src/a.ts')
    expect(absolute('C:\\work\\p', 'src/a.ts')).toBe('C:\\work\\p\\src\\a.ts')
  })
  it('names files and sizes for people', () => {
    expect(baseName('src/util/a.ts')).toBe('a.ts')
    expect(humanSize(512)).toBe('512 B')
    expect(humanSize(1536)).toBe('1.5 KiB')
    expect(humanSize(3 * 1024 * 1024)).toBe('3.0 MiB')
  })
})
