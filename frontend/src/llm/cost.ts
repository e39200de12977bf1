// What a request costs, in US dollars: the provider's own figure where it reports one (OpenRouter's usage.cost,
// asked for with usage.include), else the user's price for the model (Settings, per million tokens). Nothing is
// shown when neither is known: never an estimate dressed as a price.

// Price is what a model costs per million tokens, in US dollars.
export interface Price {
  input: number
  output: number
  // cached_input is the price of input read from the provider's prompt cache; absent: the input price.
  cached_input?: number
}

// StepUsage is one request's tokens as the provider counted them: input includes cached input.
export interface StepUsage {
  input: number
  output: number
  cached: number
}

// reportedCost reads the cost a provider put in a request's usage (OpenRouter: usage.cost, in US dollars of
// credit), or undefined when it did not say.
export function reportedCost(rawUsage: unknown): number | undefined {
  if (!rawUsage || typeof rawUsage !== 'object') return undefined
  const cost = (rawUsage as Record<string, unknown>).cost
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : undefined
}

// validPrice says whether a price can be used: input and output given, none negative. A price of zero is a
// price (a free model), not an unknown one.
export function validPrice(p: Price | null | undefined): p is Price {
  if (!p) return false
  const ok = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0
  return ok(p.input) && ok(p.output) && (p.cached_input === undefined || p.cached_input === null || ok(p.cached_input))
}

// pricedCost is what usage costs at price: uncached input at the input price, cached input at the cached-input
// price (the input price when none is set), output at the output price. Anthropic's cache writes, billed a
// little above input, are counted at the input price.
export function pricedCost(u: StepUsage, price: Price): number {
  const cached = Math.min(Math.max(u.cached, 0), u.input)
  const cachedPrice = price.cached_input ?? price.input
  return ((u.input - cached) * price.input + cached * cachedPrice + u.output * price.output) / 1_000_000
}

// stepCost is a request's cost: the provider's figure, else the configured price's, else undefined.
export function stepCost(u: StepUsage, rawUsage: unknown, price: Price | null | undefined): number | undefined {
  const reported = reportedCost(rawUsage)
  if (reported !== undefined) return reported
  return validPrice(price) ? pricedCost(u, price) : undefined
}

// Spent is a conversation's money so far: the sum of the requests whose cost is known, and how many were not
// (a total that leaves requests out says so rather than passing for the whole).
export interface Spent {
  cost: number
  unknown: number
}

// addCost adds one request's cost (or its being unknown) to what a conversation spent.
export function addCost(s: Spent | undefined, cost: number | undefined): Spent {
  const base = s ?? { cost: 0, unknown: 0 }
  return cost === undefined ? { ...base, unknown: base.unknown + 1 } : { ...base, cost: base.cost + cost }
}

// formatCost writes dollars with enough digits to see a cheap request: $0.0042, $1.27; under a hundredth of a
// cent, <$0.0001.
export function formatCost(usd: number): string {
  if (usd === 0) return '$0'
  if (usd < 0.0001) return '<$0.0001'
  if (usd < 1) return `$${usd.toFixed(4)}`
  return `$${usd.toFixed(2)}`
}
