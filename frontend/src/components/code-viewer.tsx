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
  // docKey names the document (its path); text for the same key is a reload, which keeps the scroll position.
  docKey?: string
  text: string
  // reveal scrolls to a line and selects it; a new seq reveals again.
  reveal?: { line: number; seq: number }
}

// CodeViewer shows text read-only with line numbers, search (Ctrl-F) and syntax highlighting for the file's language.
export function CodeViewer({ fileName, docKey, text, reveal }: Props) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const lang = useRef(new Compartment())
  const shownName = useRef<string | null>(null)

  useEffect(() => {
    if (!host.current) return
    shownName.current = null
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
    const key = docKey ?? fileName
    if (shownName.current === key) {
      // The same file read again after it changed on disk: keep the reader's place (and the highlighting).
      const keep = v.scrollSnapshot()
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text }, selection: { anchor: 0 } })
      v.dispatch({ effects: keep })
    } else {
      v.dispatch({
        changes: { from: 0, to: v.state.doc.length, insert: text },
        selection: { anchor: 0 },
        effects: [lang.current.reconfigure([]), EditorView.scrollIntoView(0)],
      })
    }
    shownName.current = key
    let live = true
    const desc = languageFor(fileName)
    desc
      ?.load()
      .then((support) => live && view.current?.dispatch({ effects: lang.current.reconfigure(support) }))
      .catch(() => undefined) // no highlighting is better than no file
    return () => {
      live = false
    }
  }, [fileName, docKey, text])

  useEffect(() => {
    const v = view.current
    if (!v || !reveal) return
    const n = Math.min(Math.max(reveal.line, 1), v.state.doc.lines)
    const line = v.state.doc.line(n)
    v.dispatch({ selection: { anchor: line.from, head: line.to }, effects: EditorView.scrollIntoView(line.from, { y: 'center' }) })
  }, [reveal?.line, reveal?.seq]) // not on a reload of the same file: the reader may have scrolled away since

  return <div className="code-viewer" ref={host} data-testid="code-viewer" data-language={languageFor(fileName)?.name ?? 'plain'} />
}
