import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { defineConfig, type Plugin } from 'vitest/config'
import react from '@vitejs/plugin-react'

// With ROOTED_SERVE_BUILT naming a folder `vite build` wrote, the dev server answers with that folder's files as
// they are, and never with the sources: `wails dev` always starts this server, and this is how the end-to-end
// harness and the window's benches run the app on the production build (React's own, minified), as users run it.
export default defineConfig({
  plugins: [react(), ...(process.env.ROOTED_SERVE_BUILT ? [serveBuilt(process.env.ROOTED_SERVE_BUILT)] : [])],
  build: { chunkSizeWarningLimit: 1500 },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
})

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
}

function serveBuilt(dir: string): Plugin {
  return {
    name: 'rooted-serve-built',
    configureServer(server) {
      // Added here (not in a returned hook) it runs before Vite's own middleware: a path not in the build is a 404,
      // so no source module is ever mixed into the built page.
      server.middlewares.use((req, res) => {
        const url = decodeURIComponent((req.url ?? '/').split('?')[0])
        const rel = path.posix.normalize(url === '/' ? '/index.html' : url) // '/../x' normalises to '/x'
        readFile(path.join(dir, rel))
          .then((body) => {
            res.setHeader('Content-Type', types[path.extname(rel)] ?? 'application/octet-stream')
            res.end(body)
          })
          .catch(() => {
            res.statusCode = 404
            res.end()
          })
      })
    },
  }
}
