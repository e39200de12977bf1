// ask_user in the window: the backend declares the tool (and refuses it where no one can answer); the window's
// agent answers it here, with a card in the conversation that waits for the user's reply (a choice clicked, or
// text typed) and gives it to the model as {"answer": ...}.

export const askUserName = 'ask_user'

export const maxChoices = 6

export interface AskUser {
  question: string
  choices: string[]
}

// askUserInput checks a call's input as the backend's declaration does, for the window that answers it itself.
export function askUserInput(input: Record<string, unknown>): AskUser | { error: { code: string; message: string } } {
  const bad = (message: string) => ({ error: { code: 'invalid_argument', message } })
  const question = typeof input.question === 'string' ? input.question.trim() : ''
  if (!question) return bad('question is required: the question to put to the user')
  const raw = input.choices ?? []
  if (!Array.isArray(raw) || raw.some((c) => typeof c !== 'string' || !c.trim())) return bad('choices is a list of short answers, none empty')
  if (raw.length > maxChoices) return bad(`offer at most ${maxChoices} choices; the user can type any other answer`)
  return { question, choices: (raw as string[]).map((c) => c.trim()) }
}
