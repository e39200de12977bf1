// Path helpers for the UI. The UI names files by their path relative to the project root with forward slashes;
// tools are called with absolute paths inside the root so the agent's working directory never changes what the
// tree shows.

export function joinRel(dir: string, name: string): string {
  return dir === '' || dir === '.' ? name : `${dir}/${name}`
}

export function absolute(root: string, rel: string): string {
  if (rel === '' || rel === '.') return root
  const sep = root.includes('\\') && !root.includes('/') ? '\\' : '/'
  return root.replace(/[\\/]+$/, '') + sep + rel.split('/').join(sep)
}

export function baseName(rel: string): string {
  const parts = rel.split(/[\\/]/)
  return parts[parts.length - 1] || rel
}

export function humanSize(n: number): string {
  if (n >= 1 << 30) return `${(n / (1 << 30)).toFixed(1)} GiB`
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`
  if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(1)} KiB`
  return `${n} B`
}
