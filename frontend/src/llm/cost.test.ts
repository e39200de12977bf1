import { simulateReadableStream } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { describe, expect, it, vi } from 'vitest'
import { newConversation, type Conversation } from '../agent/conversation'
import { runTurn, type TurnEvent } from '../agent/run-turn'
import { applyTurnEvent, newStream } from '../agent/turn-state'
import { addCost, formatCost, pricedCost, stepCost, validPrice } from './cost'

vi.mock('../bridge/tool-text', () => ({ toolText: async () => 'text' }))

describe('a request priced at the model price', () => {
  it('bills uncached input, cached input and output each at its own price', () => {
    // Claude Sonnet's list price: $3 in, $15 out, $0.30 for a cache read.
    const sonnet = { input: 3, output: 15, cached_input: 0.3 }
    expect(pricedCost({ input: 100_000, output: 2_000, cached: 90_000 }, sonnet)).toBeCloseTo((10_000 * 3 + 90_000 * 0.3 + 2_000 * 15) / 1e6, 12)
    // No cached-input price: cached input at the input price.
    expect(pricedCost({ input: 1_000_000, output: 0, cached: 500_000 }, { input: 2, output: 8 })).toBeCloseTo(2, 12)
    // A provider that counts more cached than input tokens never makes a negative uncached part.
    expect(pricedCost({ input: 10, output: 0, cached: 50 }, { input: 1, output: 1, cached_input: 0 })).toBe(0)
  })

  it("prefers the provider's figure, uses the price when there is none, and is unknown with neither", () => {
    const u = { input: 1000, output: 100, cached: 0 }
    expect(stepCost(u, { prompt_tokens: 1000, cost: 0.5 }, { input: 1, output: 1 })).toBe(0.5)
    expect(stepCost(u, { prompt_tokens: 1000 }, { input: 1, output: 10 })).toBeCloseTo(0.002, 12)
    expect(stepCost(u, { prompt_tokens: 1000 }, null)).toBeUndefined()
    expect(stepCost(u, undefined, undefined)).toBeUndefined()
    expect(stepCost(u, { cost: 'free' }, undefined)).toBeUndefined()
    // A free model is a price of zero, not an unknown one.
    expect(stepCost(u, undefined, { input: 0, output: 0 })).toBe(0)
    expect(validPrice({ input: -1, output: 1 })).toBe(false)
  })

  it('adds up what is known and counts what is not', () => {
    expect(addCost(addCost(addCost(undefined, 0.25), undefined), 0.5)).toEqual({ cost: 0.75, unknown: 1 })
  })

  it('is written with the digits a cheap request needs', () => {
    expect([0, 0.00004, 0.0042, 0.01234, 1.5, 12.345].map(formatCost)).toEqual(['$0', '<$0.0001', '$0.0042', '$0.0123', '$1.50', '$12.35'])
  })
})

const usage = (cost?: number) => ({
  inputTokens: { total: 200_000, noCache: 20_000, cacheRead: 180_000, cacheWrite: undefined },
  outputTokens: { total: 1_000, text: 1_000, reasoning: undefined },
  raw: cost === undefined ? { input_tokens: 20_000 } : { prompt_tokens: 200_000, cost },
})

async function turnEvents(cost: number | undefined, price: { input: number; output: number; cached_input?: number } | null) {
  const model = new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'ok' },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: usage(cost) },
        ] as never[],
      }),
    }),
  })
  const events: TurnEvent[] = []
  await runTurn({ model, instructions: '', messages: [{ role: 'user', content: 'hi' }], specs: [], execute: async () => ({}), onEvent: (e) => events.push(e), price })
  return events.filter((e) => e.type === 'step')
}

describe('the cost of a turn', () => {
  it("reaches the conversation per request and in total, from the provider's report or the price", async () => {
    const reported = await turnEvents(0.0123, { input: 3, output: 15 })
    const priced = await turnEvents(undefined, { input: 3, output: 15, cached_input: 0.3 })
    const unknown = await turnEvents(undefined, null)
    expect(reported.map((e) => e.type === 'step' && e.cost)).toEqual([0.0123])
    expect(priced.map((e) => e.type === 'step' && e.cost)).toEqual([(20_000 * 3 + 180_000 * 0.3 + 1_000 * 15) / 1e6])
    expect(unknown.map((e) => e.type === 'step' && e.cost)).toEqual([undefined])

    let c: Conversation = newConversation()
    const apply = (events: TurnEvent[]) => {
      for (const e of events) c = applyTurnEvent(c, newStream(), e, 200_000).conv
    }
    apply(unknown)
    expect(c.usage.cost).toBeUndefined() // nothing known: no money shown
    expect(c.usage.costUnknown).toBe(1)
    apply(reported)
    apply(priced)
    expect(c.usage.cost).toBeCloseTo(0.0123 + 0.129, 12)
    expect(c.usage.last?.cost).toBeCloseTo(0.129, 12)
    expect(c.usage.costUnknown).toBe(1)
    expect(c.usage.input).toBe(600_000)
  })
})
