// Images pasted or dropped into the request box: PNG, JPEG, WebP or GIF, made to fit what every provider takes
// (Anthropic: 5 MB of base64 and 8000 pixels a side; it scales anything over 1568 pixels on the long edge down
// anyway) before they are sent, so none is refused by the provider.

export const acceptedImageTypes = ['image/png', 'image/jpeg', 'image/webp', 'image/gif']
export const maxImageInput = 20 << 20 // a larger file is refused rather than decoded
export const maxImageBytes = 3_750_000 // 5 MB once base64-encoded
export const maxImageEdge = 1568

export interface PastedImage {
  id: string
  name: string
  mediaType: string
  data: string // base64
  width: number
  height: number
  bytes: number
}

export class ImageRefused extends Error {}

// fitSize is the size an image of w×h pixels is sent at: as it is when its long edge fits, else scaled to it.
export function fitSize(w: number, h: number, edge = maxImageEdge): { width: number; height: number; scaled: boolean } {
  const long = Math.max(w, h)
  if (long <= edge) return { width: w, height: h, scaled: false }
  const k = edge / long
  return { width: Math.max(1, Math.round(w * k)), height: Math.max(1, Math.round(h * k)), scaled: true }
}

function base64(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(s)
}

// prepareImage reads a pasted or dropped file as an image to send: as it is when it fits, else drawn smaller (PNG
// stays PNG, which keeps a screenshot's text sharp, unless that is still too large; the rest become JPEG).
export async function prepareImage(file: Blob, name = 'pasted image'): Promise<PastedImage> {
  if (!acceptedImageTypes.includes(file.type)) throw new ImageRefused(`${name}: ${file.type || 'this kind of file'} cannot be sent; PNG, JPEG, WebP and GIF can`)
  if (file.size > maxImageInput) throw new ImageRefused(`${name}: ${(file.size / 1048576).toFixed(1)} MB is more than the ${maxImageInput >> 20} MB an image may be`)
  const bitmap = await createImageBitmap(file)
  const fit = fitSize(bitmap.width, bitmap.height)
  const id = `img${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  if (!fit.scaled && file.size <= maxImageBytes) {
    bitmap.close()
    const bytes = new Uint8Array(await file.arrayBuffer())
    return { id, name, mediaType: file.type, data: base64(bytes), width: fit.width, height: fit.height, bytes: bytes.length }
  }
  const canvas = document.createElement('canvas')
  canvas.width = fit.width
  canvas.height = fit.height
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, fit.width, fit.height)
  bitmap.close()
  const encode = (type: string, quality?: number) => new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality))
  let out = file.type === 'image/png' ? await encode('image/png') : null
  if (!out || out.size > maxImageBytes) out = await encode('image/jpeg', 0.85)
  if (!out || out.size > maxImageBytes) throw new ImageRefused(`${name}: still over ${(maxImageBytes / 1e6).toFixed(2)} MB at ${fit.width}×${fit.height}`)
  const bytes = new Uint8Array(await out.arrayBuffer())
  return { id, name, mediaType: out.type, data: base64(bytes), width: fit.width, height: fit.height, bytes: bytes.length }
}

// userContent is a request's content for the model: the text, then each image as a file part.
export function userContent(text: string, images: PastedImage[]): string | ({ type: 'text'; text: string } | { type: 'file'; data: string; mediaType: string })[] {
  if (images.length === 0) return text
  return [{ type: 'text', text }, ...images.map((im) => ({ type: 'file' as const, data: im.data, mediaType: im.mediaType }))]
}

// describe is how the conversation log names an image sent with a request.
export const describeImage = (im: PastedImage): string => `${im.name} (${im.mediaType}, ${im.width}×${im.height})`
