import { describe, expect, it } from 'vitest'
import { languageFor } from './language'

describe('languageFor', () => {
  it.each([
    ['main.go', 'Go'],
    ['app.tsx', 'TSX'],
    ['index.ts', 'TypeScript'],
    ['README.md', 'Markdown'],
    ['Dockerfile', 'Dockerfile'],
    ['styles.css', 'CSS'],
    ['lib.rs', 'Rust'],
  ])('%s is %s', (file, lang) => {
    expect(languageFor(file)?.name).toBe(lang)
  })
  it('gives plain text for unknown files', () => {
    expect(languageFor('notes.unknownext')).toBeNull()
  })
  it('loads a grammar lazily', async () => {
    const support = await languageFor('main.go')!.load()
    expect(support.language.name).toBe('go')
  })
})
