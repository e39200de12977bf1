import { HighlightStyle, syntaxHighlighting } from '@codemirror/language'
import { EditorView } from '@codemirror/view'
import { tags } from '@lezer/highlight'

// The code viewer's theme: One Dark's palette on the window's own background, with the colours that fell short of
// WCAG's 4.5:1 (comments and line numbers, keywords, names on the active line) brightened until they meet it.
const c = {
  chalky: '#e5c07b',
  coral: '#ef7d86',
  cyan: '#56b6c2',
  ivory: '#c3c8d1',
  stone: '#98a1b3',
  malibu: '#61afef',
  sage: '#98c379',
  whiskey: '#d19a66',
  violet: '#d08ae6',
  background: '#181a1f',
  panel: '#1f2229',
  activeLine: '#1d2027',
  activeGutter: '#262a33',
  tooltip: '#2c313a',
  selection: '#3e4451',
  cursor: '#528bff',
}

const theme = EditorView.theme(
  {
    '&': { color: c.ivory, backgroundColor: c.background },
    '.cm-content': { caretColor: c.cursor },
    '.cm-cursor, .cm-dropCursor': { borderLeftColor: c.cursor },
    '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection': { backgroundColor: c.selection },
    '.cm-panels': { backgroundColor: c.panel, color: c.ivory },
    '.cm-panels.cm-panels-top': { borderBottom: '1px solid #2c313a' },
    '.cm-panels.cm-panels-bottom': { borderTop: '1px solid #2c313a' },
    '.cm-panel input, .cm-panel button, .cm-panel label': { color: c.ivory },
    '.cm-searchMatch': { backgroundColor: '#72a1ff40', outline: '1px solid #457dff' },
    '.cm-searchMatch.cm-searchMatch-selected': { backgroundColor: '#6199ff2f' },
    '.cm-activeLine': { backgroundColor: c.activeLine },
    '.cm-selectionMatch': { backgroundColor: '#aafe661a' },
    '&.cm-focused .cm-matchingBracket, &.cm-focused .cm-nonmatchingBracket': { backgroundColor: '#bad0f847' },
    '.cm-gutters': { backgroundColor: c.background, color: c.stone, border: 'none' },
    '.cm-activeLineGutter': { backgroundColor: c.activeGutter },
    '.cm-foldPlaceholder': { backgroundColor: 'transparent', border: 'none', color: '#ddd' },
    '.cm-tooltip': { border: 'none', backgroundColor: c.tooltip },
  },
  { dark: true },
)

const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: c.violet },
  { tag: [tags.name, tags.deleted, tags.character, tags.propertyName, tags.macroName], color: c.coral },
  { tag: [tags.function(tags.variableName), tags.labelName], color: c.malibu },
  { tag: [tags.color, tags.constant(tags.name), tags.standard(tags.name)], color: c.whiskey },
  { tag: [tags.definition(tags.name), tags.separator], color: c.ivory },
  { tag: [tags.typeName, tags.className, tags.number, tags.changed, tags.annotation, tags.modifier, tags.self, tags.namespace], color: c.chalky },
  { tag: [tags.operator, tags.operatorKeyword, tags.url, tags.escape, tags.regexp, tags.link, tags.special(tags.string)], color: c.cyan },
  { tag: [tags.meta, tags.comment], color: c.stone },
  { tag: tags.strong, fontWeight: 'bold' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strikethrough, textDecoration: 'line-through' },
  { tag: tags.link, color: c.stone, textDecoration: 'underline' },
  { tag: tags.heading, fontWeight: 'bold', color: c.coral },
  { tag: [tags.atom, tags.bool, tags.special(tags.variableName)], color: c.whiskey },
  { tag: [tags.processingInstruction, tags.string, tags.inserted], color: c.sage },
  { tag: tags.invalid, color: '#ffffff' },
])

export const codeTheme = [theme, syntaxHighlighting(highlight)]
