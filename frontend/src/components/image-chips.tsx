import { memo, useCallback, useState, type ClipboardEvent, type DragEvent } from 'react'
import { ImageRefused, prepareImage, type PastedImage } from '../lib/paste-image'

const maxImages = 8

// usePastedImages holds the images pasted or dropped into the request box until the request is sent.
// textOnly (the model takes no images, as Settings says) refuses them with a note instead.
export function usePastedImages(textOnly = false) {
  const [images, setImages] = useState<PastedImage[]>([])
  const [error, setError] = useState('')
  const add = useCallback(async (files: File[]) => {
    setError('')
    if (textOnly) {
      setError('This model is marked text-only in Settings: it takes no images.')
      return
    }
    for (const f of files) {
      try {
        const im = await prepareImage(f, f.name && f.name !== 'image.png' ? f.name : 'pasted image')
        setImages((list) => (list.length >= maxImages ? list : [...list, im]))
      } catch (e) {
        setError(e instanceof ImageRefused ? e.message : `${f.name || 'image'}: could not be read (${String(e)})`)
      }
    }
  }, [textOnly])
  const imageFiles = (items: DataTransferItemList | null, files: FileList | null): File[] => {
    const out: File[] = []
    for (const it of items ?? []) {
      if (it.kind === 'file' && it.type.startsWith('image/')) {
        const f = it.getAsFile()
        if (f) out.push(f)
      }
    }
    if (out.length === 0) for (const f of files ?? []) if (f.type.startsWith('image/')) out.push(f)
    return out
  }
  const onPaste = (e: ClipboardEvent) => {
    const files = imageFiles(e.clipboardData.items, e.clipboardData.files)
    if (files.length === 0) return // text pastes as text
    e.preventDefault()
    void add(files)
  }
  const onDrop = (e: DragEvent) => {
    const files = imageFiles(e.dataTransfer.items, e.dataTransfer.files)
    if (files.length === 0) return
    e.preventDefault()
    void add(files)
  }
  const remove = (id: string) => setImages((list) => list.filter((im) => im.id !== id))
  const clear = () => {
    setImages([])
    setError('')
  }
  return { images, error, onPaste, onDrop, remove, clear }
}

// ImageChips shows the images waiting to be sent, each a thumbnail with a button that removes it.
export const ImageChips = memo(function ImageChips({ images, error, remove }: { images: PastedImage[]; error: string; remove: (id: string) => void }) {
  if (images.length === 0 && !error) return null
  return (
    <div className="image-chips" data-testid="image-chips">
      {images.map((im) => (
        <span key={im.id} className="image-chip" data-testid="image-chip" title={`${im.name}: ${im.mediaType}, ${im.width}×${im.height}, ${(im.bytes / 1024).toFixed(0)} KB`}>
          <img src={`data:${im.mediaType};base64,${im.data}`} alt={im.name} />
          <button className="link-button" onClick={() => remove(im.id)} aria-label={`Remove ${im.name}`} data-testid="image-chip-remove">
            ×
          </button>
        </span>
      ))}
      {error ? <span className="image-chip-error" data-testid="image-chip-error">{error}</span> : null}
    </div>
  )
})
