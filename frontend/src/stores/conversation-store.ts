import { useCallback, useEffect, useRef, useState } from 'react'
import { conversations as listConversations, deleteConversation, loadConversation, renameConversation, saveConversation, type ConversationMeta } from '../bridge'
import { newConversation, restore, type Conversation } from '../agent/conversation'

const saveDelay = 250

// useConversationStore holds the open conversation and the list of the project's saved ones (read again when the
// project at root changes). Every change is saved shortly after it happens, and at once on flush (a turn's end,
// switching conversations).
export function useConversationStore(root: string) {
  const [conv, setConv] = useState<Conversation>(newConversation)
  const [list, setList] = useState<ConversationMeta[]>([])
  // convRef is the truth (updates from tool calls and the stream interleave); React state follows it.
  const convRef = useRef(conv)
  const dirty = useRef(false)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  const refreshList = useCallback(() => {
    listConversations()
      .then(setList)
      .catch(() => undefined)
  }, [])

  useEffect(() => {
    refreshList()
  }, [root, refreshList])

  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current)
    timer.current = null
    const c = convRef.current
    if (!dirty.current || c.items.length === 0) return
    dirty.current = false
    try {
      await saveConversation(c.id, c.title, { items: c.items, messages: c.messages, usage: c.usage, notes: c.notes ?? [], plan: c.plan ?? [], context: c.context, halt: c.halt, planMode: c.planMode, rewound: c.rewound })
      refreshList()
    } catch {
      dirty.current = true
    }
  }, [refreshList])

  // update applies f to the conversation and schedules a save.
  const update = useCallback(
    (f: (c: Conversation) => Conversation) => {
      const n = f(convRef.current)
      if (n === convRef.current) return
      convRef.current = n
      setConv(n)
      dirty.current = true
      if (!timer.current) timer.current = setTimeout(() => void flush(), saveDelay)
    },
    [flush],
  )

  // show makes c the open conversation without saving it (it is saved already, or new).
  const show = useCallback((c: Conversation) => {
    convRef.current = c
    setConv(c)
  }, [])

  const open = useCallback(
    async (id: string) => {
      await flush()
      const meta = list.find((m) => m.id === id)
      show(restore(id, meta?.title ?? '', await loadConversation(id)))
    },
    [flush, list, show],
  )

  const startNew = useCallback(async () => {
    await flush()
    show(newConversation())
  }, [flush, show])

  const rename = useCallback(
    async (id: string, title: string) => {
      await renameConversation(id, title)
      if (convRef.current.id === id) show({ ...convRef.current, title })
      refreshList()
    },
    [refreshList, show],
  )

  const remove = useCallback(
    async (id: string) => {
      await deleteConversation(id)
      if (convRef.current.id === id) show(newConversation())
      refreshList()
    },
    [refreshList, show],
  )

  return { conv, convRef, list, refreshList, update, flush, open, startNew, rename, remove }
}
