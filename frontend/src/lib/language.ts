import { LanguageDescription } from '@codemirror/language'
import { languages } from '@codemirror/language-data'

// languageFor picks CodeMirror's language for a file name (by extension or exact name, such as "Dockerfile").
// The grammar itself is loaded lazily by the caller, so opening a Go file does not load every language.
export function languageFor(fileName: string): LanguageDescription | null {
  return LanguageDescription.matchFilename(languages, fileName)
}
