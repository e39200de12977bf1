// Images in tool results for providers whose APIs take none there: OpenAI's chat completions (and the servers that
// copy it) and Ollama take an image only in a user message, and their AI SDK providers would send a tool result's
// image as its base64 text. This middleware moves each image out of the tool results into a user message right
// after them, and leaves the result's text saying so. Anthropic takes images in tool results as they are.
import type { LanguageModelMiddleware } from 'ai'

type Params = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params']
type Prompt = Params['prompt']
type Message = Prompt[number]
type UserPart = Extract<Message, { role: 'user' }>['content'][number]

// moveToolImages returns prompt with the images of tool results moved into a user message after their tool message.
export function moveToolImages(prompt: Prompt): Prompt {
  const out: Message[] = []
  for (const m of prompt) {
    if (m.role !== 'tool') {
      out.push(m)
      continue
    }
    const moved: UserPart[] = []
    const content = m.content.map((part) => {
      if (part.type !== 'tool-result' || part.output.type !== 'content') return part
      const texts: string[] = []
      const files: UserPart[] = []
      for (const v of part.output.value) {
        if (v.type === 'text') texts.push(v.text)
        else if (v.type === 'file' && v.mediaType.startsWith('image/')) files.push({ type: 'file', data: v.data, mediaType: v.mediaType })
      }
      if (files.length === 0) return part
      moved.push({ type: 'text', text: `The image the ${part.toolName} call (${part.toolCallId}) returned:` }, ...files)
      return { ...part, output: { type: 'text' as const, value: `${texts.join('\n')}\n(the image follows in the next message)` } }
    })
    out.push({ ...m, content } as Message)
    if (moved.length > 0) out.push({ role: 'user', content: moved })
  }
  return out
}

export const imagesOutOfToolResults: LanguageModelMiddleware = {
  specificationVersion: 'v4',
  transformParams: async ({ params }) => ({ ...params, prompt: moveToolImages(params.prompt) }),
}
