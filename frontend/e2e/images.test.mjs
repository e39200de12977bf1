// Images, end to end against the real UI and backend: an image pasted into the request box shows as a chip and
// reaches each provider kind's stand-in (OpenAI-compatible, Anthropic, Ollama) as base64 with its media type, in
// the shape that kind's API takes; read_file of a PNG reaches the model as an image, and its card shows it; a model
// marked text-only in Settings gets unsupported_media instead, and the request box refuses a pasted image for it.
// read_file of a PDF reaches the model as its pages' text, read by the rooted-reader beside the app, confined.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { cleanupAll, screenshot } from './harness.mjs'
import { toolResults } from './fake-llm.mjs'
import { askAgent, newConversation, startAgentScenario, useProvider } from './agent-scenario.mjs'

// A 1×1 PNG and a 1×1 JPEG: small enough to be sent as they are, byte for byte.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const jpeg = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q=='

// A two-page PDF whose pages say "Installed and reading." and "Second page.".
const pdf = readFileSync(new URL('../../scripts/testdata/two-pages.pdf', import.meta.url))

function script(req) {
  const ask = req.messages.find((m) => m.role === 'user')?.text ?? ''
  if (ask.startsWith('read notes.pdf')) {
    if (toolResults(req).length === 0) return { tools: [{ name: 'read_file', input: { path: 'notes.pdf' } }] }
    return { text: 'Read the PDF.' }
  }
  if (ask.startsWith('look at shot.png')) {
    if (toolResults(req).length === 0) return { tools: [{ name: 'read_file', input: { path: 'shot.png' } }] }
    return { text: 'Seen the file.' }
  }
  return { text: 'A small picture.' }
}

// paste puts an image file on the request box as a paste from the clipboard would.
async function paste(page, name, type, b64) {
  await page.getByTestId('agent-input').evaluate(
    (el, { name, type, b64 }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
      const dt = new DataTransfer()
      dt.items.add(new File([bytes], name, { type }))
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }))
    },
    { name, type, b64 },
  )
  await page.getByTestId('image-chip').first().waitFor()
}

describe('images', { timeout: 600_000 }, () => {
  let page, llm

  before(async () => {
    ;({ page, llm } = await startAgentScenario({
      script,
      llmOptions: { ollamaShow: { parameters: 'num_ctx 16384', model_info: {} } },
      fixture: { name: 'images', files: { 'shot.png': Buffer.from(png, 'base64'), 'notes.pdf': pdf } },
      provider: { id: 'oa', name: 'OpenAI-compatible', kind: 'openai-compatible' },
    }))
  })

  after(cleanupAll)

  const kinds = [
    {
      provider: { id: 'oa', name: 'OpenAI-compatible', kind: 'openai-compatible', path: '/v1' },
      protocol: 'openai',
      image: { name: 'shot.png', type: 'image/png', b64: png },
      carries: (body) => body.messages.some((m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url' && p.image_url.url === `data:image/png;base64,${png}`)),
    },
    {
      provider: { id: 'an', name: 'Anthropic', kind: 'anthropic', path: '/v1' },
      protocol: 'anthropic',
      image: { name: 'photo.jpg', type: 'image/jpeg', b64: jpeg },
      carries: (body) => body.messages.some((m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((p) => p.type === 'image' && p.source?.media_type === 'image/jpeg' && p.source.data === jpeg)),
    },
    {
      provider: { id: 'ol', name: 'Ollama', kind: 'ollama', path: '' },
      protocol: 'ollama',
      image: { name: 'shot.png', type: 'image/png', b64: png },
      carries: (body) => body.messages.some((m) => m.role === 'user' && (m.images ?? []).includes(png)),
    },
  ]

  for (const k of kinds) {
    test(`a pasted ${k.image.type} reaches the ${k.provider.kind} stand-in as base64 with its media type`, async () => {
      const { path, ...p } = k.provider
      await useProvider(page, { ...p, model: 'scripted', base_url: `${llm.url}${path}` })
      await newConversation(page)
      await paste(page, k.image.name, k.image.type, k.image.b64)
      const before = llm.requests.length
      await askAgent(page, 'describe this image')
      await page.getByTestId('msg-assistant').filter({ hasText: 'A small picture.' }).waitFor()
      assert.equal(await page.getByTestId('image-chip').count(), 0, 'the chips are cleared once sent')
      const sent = llm.requests.slice(before).filter((r) => r.protocol === k.protocol)
      assert.ok(sent.length > 0 && k.carries(sent[0].body), `${k.protocol} request without the image: ${JSON.stringify(sent[0]?.body.messages).slice(0, 600)}`)
      await page.getByTestId('msg-attached').filter({ hasText: k.image.type }).waitFor()
    })
  }

  test('read_file of a PNG reaches Anthropic as an image in the tool result, and its card shows it', async () => {
    await useProvider(page, { id: 'an', name: 'Anthropic', kind: 'anthropic', model: 'scripted', base_url: `${llm.url}/v1` })
    await newConversation(page)
    const before = llm.requests.length
    await askAgent(page, 'look at shot.png')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Seen the file.' }).waitFor()
    const second = llm.requests.slice(before).filter((r) => r.protocol === 'anthropic')[1]
    const result = second.body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((p) => p.type === 'tool_result')
    assert.ok(result.content.some((c) => c.type === 'image' && c.source.media_type === 'image/png' && c.source.data === png), JSON.stringify(result).slice(0, 600))
    await page.getByTestId('tool-image').waitFor()
    // The file pane shows the image too, not an empty editor.
    await page.getByTestId('tree-node').filter({ hasText: 'shot.png' }).click()
    await page.getByTestId('tool-image').nth(1).waitFor()
    assert.equal(await page.getByTestId('code-viewer').count(), 0, 'an editor was opened on an image')
    await screenshot(page, 'images-read-file.png')
  })

  test("read_file of a PDF reaches the model as its pages' text, read in the rooted-reader beside the app", async () => {
    await useProvider(page, { id: 'an', name: 'Anthropic', kind: 'anthropic', model: 'scripted', base_url: `${llm.url}/v1` })
    await newConversation(page)
    const before = llm.requests.length
    await askAgent(page, 'read notes.pdf')
    // A first PDF may compile PDFium (seconds, more on a busy machine) before it is read.
    await page.getByTestId('msg-assistant').filter({ hasText: 'Read the PDF.' }).waitFor({ timeout: 180_000 })
    const second = llm.requests.slice(before).filter((r) => r.protocol === 'anthropic')[1]
    const result = JSON.stringify(second.body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((p) => p.type === 'tool_result'))
    for (const want of ['--- page 1 ---', 'Installed and reading.', '--- page 2 ---', 'Second page.']) {
      assert.ok(result.includes(want), `the tool result has no ${JSON.stringify(want)}: ${result.slice(0, 800)}`)
    }
    assert.ok(!result.includes('is_error":true'), result.slice(0, 800))
  })

  test('a model marked text-only gets unsupported_media for read_file of a PNG, and no pasted image', async () => {
    await useProvider(page, { id: 'an', name: 'Anthropic', kind: 'anthropic', model: 'scripted', base_url: `${llm.url}/v1`, text_only: true })
    await newConversation(page)
    await page.getByTestId('agent-input').evaluate((el) => {
      const dt = new DataTransfer()
      dt.items.add(new File([new Uint8Array([137, 80, 78, 71])], 'x.png', { type: 'image/png' }))
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }))
    })
    await page.getByTestId('image-chip-error').filter({ hasText: 'text-only' }).waitFor()
    const before = llm.requests.length
    await askAgent(page, 'look at shot.png')
    await page.getByTestId('msg-assistant').filter({ hasText: 'Seen the file.' }).waitFor()
    const second = llm.requests.slice(before).filter((r) => r.protocol === 'anthropic')[1]
    const text = JSON.stringify(second.body.messages)
    assert.ok(text.includes('unsupported_media') && !text.includes(png), text.slice(-800))
  })
})
