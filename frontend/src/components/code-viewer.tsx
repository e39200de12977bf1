import { useEffect, useRef } from 'react'
import { Compartment, EditorState } from '@codemirror/state'
import { EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view'
import { bracketMatching, foldGutter, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language'
import { defaultKeymap } from '@codemirror/commands'
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search'
import { oneDark } from '@codemirror/theme-one-dark'
import { languageFor } from '../lib/language'

interface Props {
  fileName: string
  text: string
  // reveal scrolls to a line and selects it; a new seq reveals again.
  reveal?: { line: number; seq: number }
}

// CodeViewer shows text read-only with line numbers, search (Ctrl-F) and syntax highlighting for the file's language.
export function CodeViewer({ fileName, text, reveal }: Props) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const lang = useRef(new Compartment())

  useEffect(() => {
    if (!host.current) return
    view.current = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: '',
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          foldGutter(),
          drawSelection(),
          highlightActiveLine(),
          bracketMatching(),
          highlightSelectionMatches(),
          search({ top: true }),
          keymap.of([...searchKeymap, ...defaultKeymap]),
          EditorState.readOnly.of(true),
          oneDark,
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          lang.current.of([]),
        ],
      }),
    })
    return () => {
      view.current?.destroy()
      view.current = null
    }
  }, [])

  useEffect(() => {
    const v = view.current
    if (!v) return
    v.dispatch({
      changes: { from: 0, to: v.state.doc.length, insert: text },
      selection: { anchor: 0 },
      effects: [lang.current.reconfigure([]), EditorView.scrollIntoView(0)],
    })
    let live = true
    const desc = languageFor(fileName)
    desc
      ?.load()
      .then((support) => live && view.current?.dispatch({ effects: lang.current.reconfigure(support) }))
      .catch(() => undefined) // no highlighting is better than no file
    return () => {
      live = false
    }
  }, [fileName, text])

  useEffect(() => {
    const v = view.current
    if (!v || !reveal) return
    const n = Math.min(Math.max(reveal.line, 1), v.state.doc.lines)
    const line = v.state.doc.line(n)
    v.dispatch({ selection: { anchor: line.from, head: line.to }, effects: EditorView.scrollIntoView(line.from, { y: 'center' }) })
  }, [reveal?.line, reveal?.seq, text])

  return <div className="code-viewer" ref={host} data-testid="code-viewer" data-language={languageFor(fileName)?.name ?? 'plain'} />
}
