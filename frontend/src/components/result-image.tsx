import { resultImage } from '../agent/images'

// ResultImage shows the image a tool returned (read_file of a PNG) on its card, as the model gets it.
export function ResultImage({ output }: { output: unknown }) {
  const im = resultImage(output)
  if (!im) return null
  const path = (output as { path?: unknown }).path
  return (
    <figure className="tool-image" data-testid="tool-image">
      <img src={`data:${im.mediaType};base64,${im.data}`} alt={typeof path === 'string' ? path : 'image'} />
      <figcaption>
        {im.mediaType}
        {im.width && im.height ? `, ${im.width}×${im.height}` : ''}
      </figcaption>
    </figure>
  )
}
