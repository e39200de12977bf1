// What the model receives of a tool's result: its text form (the backend's), capped. The window's card shows the
// structured result; the model reads text without JSON's quoting and repeated keys.
import { maxResultChars } from './context'
import { resultImage } from './images'

type TextOutput = { type: 'text'; value: string }
type ContentOutput = {
  type: 'content'
  value: ({ type: 'text'; text: string } | { type: 'file'; data: { type: 'data'; data: string }; mediaType: string })[]
}

const readOn: Record<string, string> = {
  read_file: 'read a line range with offset and limit',
  search_files: 'narrow the search: a path, a glob, output "files" or "count", or a lower limit',
  find_files: 'narrow it with a path or a more specific pattern',
  list_directory: 'list a subfolder, or use find_files with a pattern',
  exec_shell: 'run the command so it prints less (a narrower test, a filter option of the program)',
}

// capText keeps a text of at most max characters whole; a longer one loses its middle, with a note saying how much
// and how to ask for it.
export function capText(toolName: string, text: string, max = maxResultChars): TextOutput {
  if (text.length <= max) return { type: 'text', value: text }
  const head = Math.floor(max * 0.7)
  const tail = Math.floor(max * 0.2)
  const note = `\n[Rooted: this result is ${text.length.toLocaleString('en')} characters; ${(text.length - head - tail).toLocaleString('en')} in the middle were left out. To see them, ${readOn[toolName] ?? 'ask for less at a time'}.]\n`
  return { type: 'text', value: text.slice(0, head) + note + text.slice(text.length - tail) }
}

// modelOutput is the model's copy of a result: the text form from toText, or the JSON when it cannot be had (a
// result the window made itself, a backend that is gone).
// An image result (read_file of a PNG) is its text form, which says what it is, and the image as a file part; a
// provider that takes no image in a tool result gets it moved to a message of its own (llm/tool-images.ts).
export async function modelOutput(toolName: string, output: unknown, toText: (name: string, output: unknown) => Promise<string>): Promise<TextOutput | ContentOutput> {
  const image = resultImage(output)
  let text: string
  try {
    text = await toText(toolName, output)
  } catch {
    text = image ? `${toolName}: an image, ${image.mediaType}` : (JSON.stringify(output) ?? 'null')
  }
  const capped = capText(toolName, text)
  if (!image) return capped
  return { type: 'content', value: [{ type: 'text', text: capped.value }, { type: 'file', data: { type: 'data', data: image.data }, mediaType: image.mediaType }] }
}
