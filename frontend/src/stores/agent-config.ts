import { useCallback, useEffect, useState, type SetStateAction } from 'react'
import { providers as loadProviders, type Instructions, type ProjectSettings, type ProvidersView, type ToolSpec } from '../bridge'
import { useBridge } from '../stores/project-scope'
import { readInOrder, useOrdered } from '../lib/use-sequence'

// useAgentConfig loads what the agent of a project works with: the providers, the project's settings (allowlist,
// rules), the tool specs and the instruction files (AGENTS.md and friends), again whenever the project changes.
export function useAgentConfig(root: string) {
  const { instructions: loadInstructions, onMCPServersChanged, projectSettings, settledMCPServers, toolSpecs } = useBridge()
  const [provs, setProvs] = useState<ProvidersView | null>(null)
  const [settings, setSettings] = useState<ProjectSettings | null>(null)
  const [specs, setSpecs] = useState<ToolSpec[]>([])
  const [extra, setExtra] = useState<Instructions | null>(null) // the instruction files of the last request

  // Each is read again on its own occasions (a model picked, Settings closed, an MCP server's tools changed, the
  // project opened); an answer older than one already applied is dropped, or it would put back the provider or
  // model picked before, or the tools before a server's came. A later read that fails leaves the last answer.
  const nextProvs = useOrdered()
  const nextSettings = useOrdered()
  const nextSpecs = useOrdered()
  const nextExtra = useOrdered()
  const refreshProviders = useCallback(() => readInOrder(nextProvs, loadProviders, setProvs), [nextProvs])
  const refreshSpecs = useCallback(() => readInOrder(nextSpecs, toolSpecs, setSpecs), [nextSpecs, toolSpecs])
  // settledSpecs is the tool list a request goes with: once the project's MCP servers still starting (it just opened,
  // or they restarted) have connected or failed, at most 10 s, read afresh and shown too; null if it cannot be read.
  const settledSpecs = useCallback(async (): Promise<ToolSpec[] | null> => {
    try {
      await settledMCPServers()
      const fresh = nextSpecs()
      const v = await toolSpecs()
      if (fresh()) setSpecs(v)
      return v
    } catch {
      return null
    }
  }, [nextSpecs, settledMCPServers, toolSpecs])
  // refreshSettings reads the project's settings again, and the tool list, which the user's settings shape (web_search
  // is listed only while a search endpoint is set).
  const refreshSettings = useCallback(() => {
    readInOrder(nextSettings, projectSettings, setSettings)
    refreshSpecs()
  }, [nextSettings, projectSettings, refreshSpecs])
  // putSettings sets the settings as the caller knows them (from the backend's answer to a change), over any read
  // still on its way.
  const putSettings = useCallback(
    (v: SetStateAction<ProjectSettings | null>) => {
      nextSettings()() // applied now: a read asked for before answers too late to replace it
      setSettings(v)
    },
    [nextSettings],
  )
  // reloadInstructions reads the instruction files again (each request does: they may have changed).
  const reloadInstructions = useCallback(async () => {
    const fresh = nextExtra()
    const loaded = await loadInstructions().catch(() => null)
    if (fresh()) setExtra(loaded)
    return loaded
  }, [loadInstructions, nextExtra])
  useEffect(() => {
    refreshProviders()
    refreshSettings() // and the tools
    readInOrder(nextExtra, loadInstructions, setExtra)
  }, [root, refreshProviders, refreshSettings, loadInstructions, nextExtra])
  // The project's MCP servers connect after it opens, and their tools change: the list follows them.
  useEffect(() => onMCPServersChanged(refreshSpecs), [onMCPServersChanged, root, refreshSpecs])

  // Ready once the tools, the project's rules and the providers are known: a request sent before would run
  // without tools or approvals.
  const ready = specs.length > 0 && settings !== null && provs !== null
  const provider = provs?.providers.find((p) => p.id === provs.active)

  return { providers: provs, provider, settings, setSettings: putSettings, specs, settledSpecs, extra, ready, refreshProviders, refreshSettings, reloadInstructions }
}
