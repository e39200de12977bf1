// Images in tool results: read_file of a PNG, JPEG, GIF or WebP returns the image (base64, with its media type),
// and the model gets it as an image part beside the result's text form.

export interface ResultImage {
  mediaType: string
  data: string // base64
  width?: number
  height?: number
}

// resultImage is the image a tool's result carries (read_file's {image: {media_type, data, ...}}), or null.
export function resultImage(output: unknown): ResultImage | null {
  const im = (output as { image?: { media_type?: unknown; data?: unknown; width?: unknown; height?: unknown } } | null | undefined)?.image
  if (!im || typeof im.media_type !== 'string' || typeof im.data !== 'string' || !im.media_type.startsWith('image/') || !im.data) return null
  return {
    mediaType: im.media_type,
    data: im.data,
    width: typeof im.width === 'number' ? im.width : undefined,
    height: typeof im.height === 'number' ? im.height : undefined,
  }
}

// imageRefused is the error a text-only model gets for a result that is an image, or null for any other result.
export function imageRefused(output: unknown): { error: { code: string; message: string; path?: string } } | null {
  const im = resultImage(output)
  if (!im) return null
  const path = (output as { path?: unknown }).path
  const where = typeof path === 'string' ? path : 'the file'
  return {
    error: {
      code: 'unsupported_media',
      message: `${where} is an image (${im.mediaType}${im.width && im.height ? `, ${im.width}×${im.height}` : ''}), and this model is marked text-only in Settings, so it was not sent; ask the user what it shows, or use a model that takes images`,
      ...(typeof path === 'string' ? { path } : {}),
    },
  }
}
