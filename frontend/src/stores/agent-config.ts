import { useCallback, useEffect, useState } from 'react'
import { providers as loadProviders, type Instructions, type ProjectSettings, type ProvidersView, type ToolSpec } from '../bridge'
import { useBridge } from '../stores/project-scope'

// useAgentConfig loads what the agent of a project works with: the providers, the project's settings (allowlist,
// rules), the tool specs and the instruction files (AGENTS.md and friends), again whenever the project changes.
export function useAgentConfig(root: string) {
  const { instructions: loadInstructions, onMCPServersChanged, projectSettings, toolSpecs } = useBridge()
  const [provs, setProvs] = useState<ProvidersView | null>(null)
  const [settings, setSettings] = useState<ProjectSettings | null>(null)
  const [specs, setSpecs] = useState<ToolSpec[]>([])
  const [extra, setExtra] = useState<Instructions | null>(null) // the instruction files of the last request

  const refreshProviders = useCallback(() => {
    loadProviders()
      .then(setProvs)
      .catch(() => undefined)
  }, [])
  // refreshSettings reads the project's settings again, and the tool list, which the user's settings shape (web_search
  // is listed only while a search endpoint is set).
  const refreshSettings = useCallback(() => {
    projectSettings()
      .then(setSettings)
      .catch(() => undefined)
    toolSpecs()
      .then(setSpecs)
      .catch(() => undefined)
  }, [projectSettings, toolSpecs])
  // reloadInstructions reads the instruction files again (each request does: they may have changed).
  const reloadInstructions = useCallback(async () => {
    const loaded = await loadInstructions().catch(() => null)
    setExtra(loaded)
    return loaded
  }, [loadInstructions])
  useEffect(() => {
    refreshProviders()
    refreshSettings()
    loadInstructions()
      .then(setExtra)
      .catch(() => undefined)
    toolSpecs()
      .then(setSpecs)
      .catch(() => undefined)
  }, [root, refreshProviders, refreshSettings, loadInstructions, toolSpecs])
  // The project's MCP servers connect after it opens, and their tools change: the list follows them.
  useEffect(
    () =>
      onMCPServersChanged(() => {
        toolSpecs()
          .then(setSpecs)
          .catch(() => undefined)
      }),
    [onMCPServersChanged, root, toolSpecs],
  )

  // Ready once the tools, the project's rules and the providers are known: a request sent before would run
  // without tools or approvals.
  const ready = specs.length > 0 && settings !== null && provs !== null
  const provider = provs?.providers.find((p) => p.id === provs.active)

  return { providers: provs, provider, settings, setSettings, specs, extra, ready, refreshProviders, refreshSettings, reloadInstructions }
}
