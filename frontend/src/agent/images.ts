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

// imageTokens is what an image costs a model, about: Anthropic's width×height/750, at most what its 1568-pixel
// edge gives; an image without dimensions counts as the largest.
export const imageTokens = (im: Pick<ResultImage, 'width' | 'height'>): number =>
  im.width && im.height ? Math.min(1600, Math.ceil((im.width * im.height) / 750)) : 1600
