import { useEffect, useLayoutEffect, useRef } from 'react'
import { Compartment, EditorState } from '@codemirror/state'
import { EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view'
import { bracketMatching, foldGutter, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language'
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search'
import { codeTheme } from './code-theme'
import { languageFor } from '../lib/language'

interface Props {
  fileName: string
  // docKey names the document (its path); text for the same key is a reload, which keeps the scroll position.
  docKey?: string
  text: string
  // reveal scrolls to a line and selects it; a new seq reveals again.
  reveal?: { line: number; seq: number }
  // editable makes it an editor: onEdit hears every change of the text, onSave Ctrl+S (Cmd+S).
  editable?: boolean
  // revision, when it changes, puts text back even if it is unchanged (edits discarded).
  revision?: number
  onEdit?: (text: string) => void
  onSave?: () => void
  // onSelectLines hears the lines the selection spans (null when it is empty).
  onSelectLines?: (lines: { from: number; to: number } | null) => void
}

// CodeViewer shows text with line numbers, search (Ctrl-F) and syntax highlighting for the file's language;
// read-only unless editable.
export function CodeViewer({ fileName, docKey, text, reveal, editable = false, revision = 0, onEdit, onSave, onSelectLines }: Props) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const lang = useRef(new Compartment())
  const access = useRef(new Compartment())
  const shownName = useRef<string | null>(null)
  // The latest callbacks, for the editor's listeners set up once.
  const handlers = useRef({ onEdit, onSave, onSelectLines })
  useLayoutEffect(() => {
    handlers.current = { onEdit, onSave, onSelectLines }
  })

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
          history(),
          keymap.of([
            { key: 'Mod-s', preventDefault: true, run: () => (handlers.current.onSave?.(), true) },
            ...searchKeymap,
            ...historyKeymap,
            ...defaultKeymap,
            indentWithTab,
          ]),
          access.current.of([EditorState.readOnly.of(true), EditorView.editable.of(false)]),
          EditorView.updateListener.of((u) => {
            if (u.selectionSet) {
              const r = u.state.selection.main
              handlers.current.onSelectLines?.(r.empty ? null : { from: u.state.doc.lineAt(r.from).number, to: u.state.doc.lineAt(r.to).number })
            }
            if (u.docChanged && u.transactions.some((t) => t.isUserEvent('input') || t.isUserEvent('delete') || t.isUserEvent('undo') || t.isUserEvent('redo') || t.isUserEvent('move'))) {
              handlers.current.onEdit?.(u.state.doc.toString())
            }
          }),
          codeTheme,
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
    view.current?.dispatch({ effects: access.current.reconfigure(editable ? [] : [EditorState.readOnly.of(true), EditorView.editable.of(false)]) })
  }, [editable])

  useEffect(() => {
    const v = view.current
    if (!v) return
    const key = docKey ?? fileName
    if (shownName.current === key && v.state.doc.toString() === text) return // what the editor holds already (a save)
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
  }, [fileName, docKey, text, revision])

  const revealLine = reveal?.line
  const revealSeq = reveal?.seq
  useEffect(() => {
    const v = view.current
    if (!v || revealLine === undefined) return
    const n = Math.min(Math.max(revealLine, 1), v.state.doc.lines)
    const line = v.state.doc.line(n)
    v.dispatch({ selection: { anchor: line.from, head: line.to }, effects: EditorView.scrollIntoView(line.from, { y: 'center' }) })
  }, [revealLine, revealSeq]) // not on a reload of the same file: the reader may have scrolled away since

  return <div className="code-viewer" ref={host} data-testid="code-viewer" data-editable={editable} data-language={languageFor(fileName)?.name ?? 'plain'} />
}
