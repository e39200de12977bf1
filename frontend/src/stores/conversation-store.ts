import { startTransition, useCallback, useEffect, useRef, useState } from 'react'
import { appendConversation, type ConversationMeta } from '../bridge'
import { useProjectScope } from '../stores/project-scope'
import { readInOrder, useOrdered } from '../lib/use-sequence'
import { newConversation, restore, type Conversation } from '../agent/conversation'
import { diffEvents } from '../agent/conversation-events'

const saveDelay = 250
const retryDelay = 2000

// SaveFailure is why the open conversation is not saved; it stays shown until a save succeeds.
export interface SaveFailure {
  message: string
  since: number // Date.now() of the first failure
}

// useConversationStore holds the open conversation and the list of the project's saved ones (read again when the
// project at root changes). What changed is sent to the store as events shortly after it happens, and at once on
// flush (a turn's end, switching conversations). A save that fails is tried again every few seconds with
// everything since the last one that succeeded; until one does, saveError says so, and the conversation is not
// closed (flush resolves false, and open and startNew keep it open).
export function useConversationStore(root: string) {
  const { bridge, unsaved } = useProjectScope()
  const { conversations: listConversations, deleteConversation, loadConversation, renameConversation } = bridge
  const [conv, setConv] = useState<Conversation>(newConversation)
  const [list, setList] = useState<ConversationMeta[]>([])
  const [saveError, setSaveError] = useState<SaveFailure | null>(null)
  // convRef is the truth (updates from tool calls and the stream interleave); React state follows it.
  const convRef = useRef(conv)
  // saved is the conversation as the store has it (null: nothing of it yet): events are the difference.
  const saved = useRef<Conversation | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  // saving chains the saves, so each diffs against what the one before it stored.
  const saving = useRef<Promise<boolean>>(Promise.resolve(true))
  const failing = useRef<SaveFailure | null>(null)
  // flushRef is flush, for the timer that schedule sets (flush itself schedules the next try).
  const flushRef = useRef<() => Promise<boolean>>(() => Promise.resolve(true))

  // The list is read again after every save, rename and delete; one read answering after a later one would bring
  // back a conversation just deleted, or its old title.
  const nextList = useOrdered()
  const refreshList = useCallback(() => readInOrder(nextList, listConversations, setList), [listConversations, nextList])

  useEffect(() => {
    refreshList()
  }, [root, refreshList])

  const saveNow = useCallback(async (): Promise<boolean> => {
    const c = convRef.current
    if (c.items.length === 0) return true
    const base = saved.current?.id === c.id ? saved.current : null
    const events = diffEvents(base, c)
    if (events.length === 0) return true
    try {
      await appendConversation(root, c.id, events)
      saved.current = c
      if (failing.current) {
        failing.current = null
        setSaveError(null)
        unsaved('')
      }
      refreshList()
      return true
    } catch (e) {
      const message = e instanceof Error ? e.message : String((e as { message?: string }).message ?? e)
      failing.current = { message, since: failing.current?.since ?? Date.now() }
      setSaveError(failing.current)
      unsaved(message)
      return false
    }
  }, [root, refreshList, unsaved])

  const schedule = useCallback((delay: number) => {
    if (timer.current) return
    timer.current = setTimeout(() => {
      timer.current = null
      void flushRef.current()
    }, delay)
  }, [])

  // flush saves what changed now; false when it could not be saved (saveError says why; it is tried again).
  const flush = useCallback((): Promise<boolean> => {
    if (timer.current) clearTimeout(timer.current)
    timer.current = null
    saving.current = saving.current.then(saveNow).then((ok) => {
      if (!ok) schedule(retryDelay)
      return ok
    })
    return saving.current
  }, [saveNow, schedule])
  useEffect(() => {
    flushRef.current = flush
  }, [flush])
  // The panel goes (another project opens): the last changes are saved to this project's store all the same.
  useEffect(
    () => () => {
      void flushRef.current()
    },
    [],
  )

  // frame is the pending redraw of the updates made for the next frame (null: none).
  const frame = useRef<{ cancel: () => void } | null>(null)
  // update applies f to the conversation and schedules a save. The conversation (convRef) changes at once; the
  // window shows it at once, or, for 'frame' (the pieces of a streamed answer, many a frame), with the next frame,
  // as one render for all the pieces since the last, rendered at a lower priority than the user's input
  // (startTransition: a key typed meanwhile is handled first). An update for now shows those pending too.
  const update = useCallback(
    (f: (c: Conversation) => Conversation, when: 'now' | 'frame' = 'now') => {
      const n = f(convRef.current)
      if (n === convRef.current) return
      convRef.current = n
      if (when === 'frame') {
        frame.current ??= nextFrame(() => {
          frame.current = null
          startTransition(() => setConv(convRef.current))
        })
      } else {
        frame.current?.cancel()
        frame.current = null
        setConv(n)
      }
      schedule(saveDelay)
    },
    [schedule],
  )
  useEffect(() => () => frame.current?.cancel(), [])

  // show makes c the open conversation, as the store has it (saved is what it was loaded as, or null when new).
  const show = useCallback((c: Conversation, stored: Conversation | null) => {
    frame.current?.cancel()
    frame.current = null
    convRef.current = c
    saved.current = stored
    setConv(c)
  }, [])

  // open shows a saved conversation; false (and the open one stays) when the open one could not be saved. title is
  // its title when the caller knows it (a list read elsewhere): a store just made has not listed the project's yet.
  const open = useCallback(
    async (id: string, title?: string): Promise<boolean> => {
      if (!(await flush())) return false
      const meta = list.find((m) => m.id === id)
      const c = restore(id, meta?.title ?? title ?? '', await loadConversation(id))
      show(c, c)
      return true
    },
    [flush, list, loadConversation, show],
  )

  const startNew = useCallback(async (): Promise<boolean> => {
    if (!(await flush())) return false
    show(newConversation(), null)
    return true
  }, [flush, show])

  const rename = useCallback(
    async (id: string, title: string) => {
      const m = await renameConversation(id, title)
      if (convRef.current.id === id) {
        const c = { ...convRef.current, title: m.title }
        convRef.current = c
        if (saved.current?.id === id) saved.current = { ...saved.current, title: m.title }
        setConv(c)
      }
      refreshList()
    },
    [refreshList, renameConversation],
  )

  const remove = useCallback(
    async (id: string) => {
      await deleteConversation(id)
      if (convRef.current.id === id) show(newConversation(), null)
      refreshList()
    },
    [deleteConversation, refreshList, show],
  )

  return { conv, convRef, list, saveError, refreshList, update, flush, open, startNew, rename, remove }
}

// nextFrame runs f before the next frame is painted (a timer where there are no frames: a test without a window).
function nextFrame(f: () => void): { cancel: () => void } {
  if (typeof requestAnimationFrame === 'function') {
    const id = requestAnimationFrame(f)
    return { cancel: () => cancelAnimationFrame(id) }
  }
  const t = setTimeout(f, 16)
  return { cancel: () => clearTimeout(t) }
}
