// toolText asks the backend for the text form of a tool's result: what the model reads of it (numbered lines,
// path:line:text, "error <code>: <message>"), made once in Go from the tool's declaration. The card keeps the JSON.
import * as Tools from '../../wailsjs/go/app/Tools'
import { wrap } from './wrap'

export const toolText = (name: string, output: unknown): Promise<string> => wrap(() => Tools.Text(name, JSON.stringify(output)))
