// @vitest-environment jsdom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolItem } from '../agent/conversation'
import { ToolCard } from './tool-card'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const failed = (name: string, input: Record<string, unknown>): ToolItem => ({
  kind: 'tool',
  id: `call-${name}`,
  name,
  input,
  state: 'failed',
  error: { code: 'not_found', message: 'src/gone.go: no such file' },
})

afterEach(() => {
  document.body.innerHTML = ''
})

async function errorOf(item: ToolItem): Promise<HTMLElement> {
  const host = document.createElement('div')
  document.body.append(host)
  await act(async () => createRoot(host).render(<ToolCard item={item} onAnswer={() => undefined} onUndo={() => undefined} onOpen={() => undefined} />))
  const el = host.querySelector<HTMLElement>('[data-testid="tool-error"]')
  if (!el) throw new Error(`no tool-error on the ${item.name} card`)
  return el
}

describe('a failed call shows its error on its card', () => {
  // Every card marks its error with the code (tests and the window find a failure by it) and keeps the backend's
  // message, which names the path and the reason.
  it.each([
    ['read_file', { path: 'src/gone.go' }],
    ['ask_user', { question: 'Which file?' }],
    ['spawn_agent', { label: 'look', task: 'find it' }],
  ])('%s: the code and the message', async (name, input) => {
    const el = await errorOf(failed(name, input))
    expect(el.dataset.code).toBe('not_found')
    expect(el.textContent).toContain('src/gone.go: no such file')
    expect(el.querySelector('.error-code')?.textContent).toBe('not_found')
  })

  it('a plain call says what happened in words, the raw code under Details', async () => {
    const el = await errorOf(failed('read_file', { path: 'src/gone.go' }))
    expect(el.querySelector('.error-title')?.textContent).toBe('That file or folder does not exist')
    expect(el.querySelector('details.error-details .error-code')?.textContent).toBe('not_found')
  })

  // The question and subagent cards say what they are about above the error: it is the code and the message.
  it.each([
    ['ask_user', { question: 'Which file?' }],
    ['spawn_agent', { label: 'look', task: 'find it' }],
  ])('%s: the code, then the message, with no title', async (name, input) => {
    const el = await errorOf(failed(name, input))
    expect(el.querySelector('.error-title')).toBeNull()
    expect(el.textContent).toBe('not_found src/gone.go: no such file')
  })
})
