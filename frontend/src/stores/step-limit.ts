import { loadStepLimit, saveStepLimit } from '../bridge'
import { defaultMaxSteps } from '../agent/run-turn'

// Earlier versions kept the step limit in the window's local storage; the first read moves it to settings.json.
const oldKey = 'rooted.agent.stepLimit'

// stepLimit is how many model calls one request may take before the agent stops and offers Continue: the user's
// setting (settings.json, the same for every project and window), 100 until set.
export async function stepLimit(): Promise<number> {
  const old = Number(globalThis.localStorage?.getItem(oldKey))
  if (Number.isInteger(old) && old > 0) {
    try {
      const n = await saveStepLimit(old)
      globalThis.localStorage?.removeItem(oldKey)
      return n
    } catch {
      // kept for the next read
    }
  }
  try {
    return await loadStepLimit()
  } catch {
    return defaultMaxSteps // settings unreadable: the default, rather than no request at all
  }
}

// setStepLimit saves the step limit and returns the one in force; a number out of range is refused by the backend.
export const setStepLimit = (n: number): Promise<number> => saveStepLimit(n)
