// Checks of what a person sees, run in the page over its computed colours and its pixels: WCAG's contrast ratio for
// every visible piece of text, and a probe that no control is drawn lighter than the theme allows (a native white
// select or checkbox on the dark theme).

// contrastFailures returns each visible text element whose contrast against what is behind it is under WCAG's AA
// minimum: 4.5:1, or 3:1 for large text (24px, or 18.66px bold). The background is found by compositing the
// element's ancestors' background colours (their opacity included); text inside a disabled control is exempt, as
// WCAG exempts inactive components. Each failure names the element, its text, both colours and the ratio.
export function contrastFailures(page, scope = 'body') {
  return page.evaluate((scope) => {
    const parse = (c) => {
      const m = c.match(/rgba?\(([^)]+)\)/)
      if (!m) return null
      const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number)
      return [r, g, b, a]
    }
    const over = (top, under) => {
      const a = top[3]
      return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1)
    }
    const lum = ([r, g, b]) => {
      const f = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
    }
    const ratio = (a, b) => {
      const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p)
      return (x + 0.05) / (y + 0.05)
    }
    // background composites the backgrounds from the root down to el, each at its element's own opacity.
    const background = (el) => {
      const chain = []
      for (let e = el; e; e = e.parentElement) chain.unshift(e)
      let bg = [255, 255, 255, 1] // the canvas under everything
      let opacity = 1
      for (const e of chain) {
        const s = getComputedStyle(e)
        opacity *= Number(s.opacity)
        const c = parse(s.backgroundColor)
        if (c && c[3] > 0) bg = over([c[0], c[1], c[2], c[3] * opacity], bg)
      }
      return { bg, opacity }
    }
    const visible = (el) => {
      const r = el.getBoundingClientRect()
      if (r.width < 1 || r.height < 1 || r.bottom < 0 || r.right < 0 || r.top > innerHeight || r.left > innerWidth) return false
      const s = getComputedStyle(el)
      return s.visibility === 'visible' && s.display !== 'none'
    }
    const failures = []
    const root = document.querySelector(scope)
    if (!root) return [{ what: `no ${scope}` }]
    for (const el of [root, ...root.querySelectorAll('*')]) {
      const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim()
      const field = (el instanceof HTMLInputElement && !['checkbox', 'radio', 'hidden'].includes(el.type) && el.value) || (el instanceof HTMLSelectElement && el.selectedOptions[0]?.text) || (el instanceof HTMLTextAreaElement && el.value)
      if ((!text && !field) || !visible(el)) continue
      if (el.closest(':disabled, [aria-disabled="true"]')) continue
      const s = getComputedStyle(el)
      const { bg, opacity } = background(el)
      const fgRaw = parse(s.color)
      const fg = over([fgRaw[0], fgRaw[1], fgRaw[2], fgRaw[3] * opacity], bg)
      const r = ratio(fg, bg)
      const size = parseFloat(s.fontSize)
      const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700)
      const need = large ? 3 : 4.5
      if (r < need - 0.005) {
        const id = el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : ''
        failures.push({ what: `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}${id}`, text: (text || String(field)).slice(0, 40), fg: s.color, bg: `rgb(${bg.slice(0, 3).map(Math.round).join(', ')})`, ratio: Math.round(r * 100) / 100, need })
      }
    }
    return failures
  }, scope)
}

// lightControls returns each visible control (button, field, select, checkbox, radio) whose drawn pixels are
// mostly lighter than maxLuminance (WCAG's relative luminance, 0 black to 1 white): the median pixel of its box in
// a screenshot, so the control's own face counts, not its text. A native white control on the dark theme is about
// 0.9; the theme's blue and red buttons are under 0.2.
export async function lightControls(page, scope = 'body', maxLuminance = 0.3) {
  const boxes = await page.evaluate((scope) => {
    const out = []
    for (const el of document.querySelector(scope)?.querySelectorAll('button, input, select, textarea, summary') ?? []) {
      if (el.type === 'hidden') continue
      const r = el.getBoundingClientRect()
      const s = getComputedStyle(el)
      if (r.width < 4 || r.height < 4 || s.visibility !== 'visible' || r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) continue
      const x = Math.max(0, r.left)
      const y = Math.max(0, r.top)
      out.push({
        what: `${el.tagName.toLowerCase()}${el.type ? `[type=${el.type}]` : ''}${el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : ''}`,
        clip: { x, y, width: Math.min(innerWidth, r.right) - x, height: Math.min(innerHeight, r.bottom) - y },
      })
    }
    return out
  }, scope)
  const shot = (await page.screenshot()).toString('base64')
  return page.evaluate(
    async ({ shot, boxes, maxLuminance }) => {
      const img = new Image()
      img.src = `data:image/png;base64,${shot}`
      await img.decode()
      const canvas = document.createElement('canvas')
      canvas.width = img.width
      canvas.height = img.height
      const ctx = canvas.getContext('2d')
      ctx.drawImage(img, 0, 0)
      const scale = img.width / innerWidth
      const f = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
      const light = []
      for (const b of boxes) {
        const w = Math.max(1, Math.floor(b.clip.width * scale))
        const h = Math.max(1, Math.floor(b.clip.height * scale))
        const d = ctx.getImageData(Math.floor(b.clip.x * scale), Math.floor(b.clip.y * scale), w, h).data
        const lums = []
        for (let i = 0; i < d.length; i += 4) lums.push(0.2126 * f(d[i]) + 0.7152 * f(d[i + 1]) + 0.0722 * f(d[i + 2]))
        lums.sort((p, q) => p - q)
        const median = lums[Math.floor(lums.length / 2)]
        if (median > maxLuminance) light.push({ what: b.what, median: Math.round(median * 100) / 100 })
      }
      return light
    },
    { shot, boxes, maxLuminance },
  )
}
