import { describe, expect, it } from 'vitest'
import { dirChanged, fileChanged, searchChanged } from './fs-changes'

const c = (path: string, op: string) => ({ path, op })

describe('which views re-read after changes on disk', () => {
  it('reloads a directory when an entry appears, vanishes or is renamed in it', () => {
    expect(dirChanged('.', [c('new.txt', 'create')])).toBe(true)
    expect(dirChanged('src', [c('src/a.go', 'remove')])).toBe(true)
    expect(dirChanged('src', [c('src/old', 'rename')])).toBe(true)
    expect(dirChanged('src', [c('src/a.go', 'write')])).toBe(false) // content only
    expect(dirChanged('src', [c('src/deep/a.go', 'create')])).toBe(false) // a level below
    expect(dirChanged('.', [c('src/a.go', 'create')])).toBe(false)
    expect(dirChanged('src', [c('srcx/a.go', 'create')])).toBe(false)
  })
  it('reloads everything under a rescan', () => {
    expect(dirChanged('src/deep', [c('', 'rescan')])).toBe(true)
    expect(dirChanged('src/deep', [c('src', 'rescan')])).toBe(true)
    expect(dirChanged('.', [c('src', 'rescan')])).toBe(false)
    expect(dirChanged('.', [c('.gitignore', 'write'), c('', 'rescan')])).toBe(true)
  })
  it('re-reads an open file when it or a folder above it changes', () => {
    expect(fileChanged('src/a.go', [c('src/a.go', 'write')])).toBe(true)
    expect(fileChanged('src/a.go', [c('src/a.go', 'create|write')])).toBe(true) // save by rename
    expect(fileChanged('src/a.go', [c('src/a.go', 'remove')])).toBe(true)
    expect(fileChanged('src/a.go', [c('src', 'rename')])).toBe(true)
    expect(fileChanged('src/a.go', [c('', 'rescan')])).toBe(true)
    expect(fileChanged('src/a.go', [c('src/a.go', 'chmod')])).toBe(false)
    expect(fileChanged('src/a.go', [c('src/b.go', 'write'), c('src', 'write')])).toBe(false)
    expect(fileChanged('src/a.go', [c('src/a.go.swp', 'remove')])).toBe(false)
  })
  it('re-runs a search on any change of content or structure', () => {
    expect(searchChanged([c('a.txt', 'chmod')])).toBe(false)
    expect(searchChanged([c('a.txt', 'chmod'), c('b.txt', 'write')])).toBe(true)
  })
})
