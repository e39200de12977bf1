import { LanguageDescription } from '@codemirror/language'
import { languages } from '@codemirror/language-data'
import { classHighlighter, highlightCode } from '@lezer/highlight'
import { Fragment, memo, useDeferredValue, useEffect, useMemo, useState, type ReactNode } from 'react'
import Markdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { openExternal } from '../bridge'
import { markdownBlocks } from '../lib/markdown-blocks'

// MessageText renders a model's answer as Markdown, as chat apps do: GFM tables, lists, headings, task lists;
// code blocks highlighted with the CodeMirror grammars the viewer already ships, each with a copy button; links
// open in the system browser, never in the app's web view. Raw HTML in the answer is shown as text.
// Parsing Markdown is the costliest part of drawing the log: an answer is parsed again only when its text changes
// (not on each key typed in the request box), and while it streams, at a lower priority than the user's input,
// which React may interrupt (useDeferredValue). It is parsed a block at a time (markdownBlocks), each block again
// only when its own text changes: a streamed piece parses the last block, not the whole answer, so the work per
// piece stays the same however long the answer grows.
export const MessageText = memo(function MessageText({ text }: { text: string }) {
  const shown = useDeferredValue(text)
  const blocks = useMemo(() => markdownBlocks(shown), [shown])
  return (
    <div className="markdown" data-testid="markdown">
      {blocks.map((b, i) => (
        // The newline between blocks is the one a whole parse puts between them (shown where text keeps its breaks).
        <Fragment key={i}>
          {i > 0 ? '\n' : null}
          <MarkdownBlock text={b} />
        </Fragment>
      ))}
    </div>
  )
})

const plugins = [remarkGfm]

// MarkdownBlock is one block of an answer, parsed again only when its text changes.
const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return (
    <Markdown remarkPlugins={plugins} components={components} skipHtml={false}>
      {text}
    </Markdown>
  )
})

// components draws the links and code blocks of an answer.
export const components: Components = {
  a: ({ href, children }) => (
    <a
      href={href}
      onClick={(e) => {
        e.preventDefault()
        if (href && /^https?:\/\//i.test(href)) openExternal(href)
      }}
      title={href}
      data-testid="md-link"
    >
      {children}
    </a>
  ),
  pre: ({ children }) => <>{children}</>,
  code: ({ className, children }) => {
    const lang = /language-([\w+#-]+)/.exec(className ?? '')?.[1]
    const code = String(children ?? '')
    // Fenced blocks come with a language class or span lines; the rest is inline code.
    if (!lang && !code.includes('\n')) return <code>{children}</code>
    return <CodeBlock lang={lang ?? ''} code={code.replace(/\n$/, '')} />
  },
}

function CodeBlock({ lang, code }: { lang: string; code: string }) {
  const [nodes, setNodes] = useState<ReactNode[] | null>(null)
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    let live = true
    const desc = lang ? LanguageDescription.matchLanguageName(languages, lang, true) : null
    if (!desc) return
    desc
      .load()
      .then((support) => {
        if (!live) return
        const out: ReactNode[] = []
        highlightCode(
          code,
          support.language.parser.parse(code),
          classHighlighter,
          (t, classes) => out.push(classes ? <span key={out.length} className={classes}>{t}</span> : t),
          () => out.push('\n'),
        )
        setNodes(out)
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [lang, code])
  return (
    <div className="code-block" data-testid="code-block" data-lang={lang}>
      <button
        className="copy-button"
        onClick={() => {
          void navigator.clipboard
            ?.writeText(code)
            .then(() => setCopied(true))
            .catch(() => undefined)
          setTimeout(() => setCopied(false), 1500)
        }}
        data-testid="code-copy"
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
      <pre className="msg-code">
        <code>{nodes ?? code}</code>
      </pre>
    </div>
  )
}
