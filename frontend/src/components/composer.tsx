import { memo, useEffect, useImperativeHandle, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent, type Ref, type RefObject } from 'react'

// ComposerHandle is what the pane does to the request box's text without holding it: read it to send, and put text
// in it (a completion picked, an edited request, the queue given back by Stop).
export interface ComposerHandle {
  text: () => string
  setText: (next: string | ((t: string) => string)) => void
}

interface Props {
  handle: Ref<ComposerHandle>
  input: RefObject<HTMLTextAreaElement | null>
  // onFilled hears whether the box holds more than blanks (Send's state): a state setter, so the pane renders only
  // when that flips, not on every key.
  onFilled: (filled: boolean) => void
  // onInput hears each change with the caret, for the @file and /command completions.
  onInput: (value: string, caret: number) => void
  onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => void
  onBlur: () => void
  onPaste: (e: ClipboardEvent<HTMLTextAreaElement>) => void
  onDrop: (e: DragEvent<HTMLTextAreaElement>) => void
  placeholder: string
  // mention, when its seq changes, is added to the text if the pane is shown (a pane out of sight marks it taken).
  mention?: { text: string; seq: number } | null
  shown: boolean
}

// Composer is the request box. The text typed lives here, not in the conversation pane, so a key renders this box
// alone: the log, its cards and a long answer streaming into it are not rendered again for each key.
export const Composer = memo(function Composer({ handle, input, onFilled, onInput, onKeyDown, onBlur, onPaste, onDrop, placeholder, mention, shown }: Props) {
  const [text, setTextState] = useState('')
  // latest is the text as last set, read by the pane between a set and its render (a Stop then a send).
  const latest = useRef('')
  const put = (v: string) => {
    latest.current = v
    setTextState(v)
  }
  useImperativeHandle(handle, () => ({
    text: () => latest.current,
    setText: (next) => put(typeof next === 'function' ? next(latest.current) : next),
  }))
  useEffect(() => {
    onFilled(text.trim() !== '')
  }, [text, onFilled])
  // A new mention is added as it renders (state that follows a prop); only the pane shown takes it.
  const [takenMention, setTakenMention] = useState(mention)
  if (mention !== takenMention) {
    setTakenMention(mention)
    if (mention && shown) {
      const t = latest.current
      put(t && !/\s$/.test(t) ? `${t} ${mention.text} ` : `${t}${mention.text} `)
    }
  }
  return (
    <textarea
      ref={input}
      onPaste={onPaste}
      onDrop={onDrop}
      value={text}
      onChange={(e) => {
        put(e.target.value)
        onInput(e.target.value, e.target.selectionStart ?? e.target.value.length)
      }}
      onBlur={onBlur}
      onKeyDown={onKeyDown}
      placeholder={placeholder}
      aria-label="Message to the agent"
      data-testid="agent-input"
      rows={3}
    />
  )
})
