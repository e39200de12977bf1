import { describe, expect, it } from 'vitest'
import { imageRefused, resultImage } from './images'
import { estimateTokens } from './context'

const shot = { path: 'ui/shot.png', exists: true, image: { media_type: 'image/png', data: 'iVBORw0KGgo=', width: 640, height: 480, bytes: 9 } }

describe('image results', () => {
  it('finds the image read_file returned, and nothing in other results', () => {
    expect(resultImage(shot)).toEqual({ mediaType: 'image/png', data: 'iVBORw0KGgo=', width: 640, height: 480 })
    expect(resultImage({ path: 'a.go', content: 'package a' })).toBeNull()
    expect(resultImage({ image: { media_type: 'text/html', data: 'x' } })).toBeNull()
    expect(resultImage(null)).toBeNull()
  })
  it('refuses an image for a text-only model with unsupported_media naming the file', () => {
    expect(imageRefused(shot)).toEqual({ error: { code: 'unsupported_media', path: 'ui/shot.png', message: expect.stringContaining('ui/shot.png is an image (image/png, 640×480)') } })
    expect(imageRefused({ path: 'a.go', content: 'x' })).toBeNull()
  })
  it('counts an image as about 1,600 tokens, not its base64 over four', () => {
    const big = [{ role: 'tool' as const, content: [{ type: 'tool-result' as const, toolCallId: 'c', toolName: 'read_file', output: { type: 'content' as const, value: [{ type: 'file-data' as const, data: 'A'.repeat(4_000_000), mediaType: 'image/png' }] } }] }]
    expect(estimateTokens(big as never)).toBeLessThan(2000)
  })
})
