#!/usr/bin/env bash
# What subagents and skills cost the agent's context, measured on the AI SDK's mock model with the stand-in LLM's
# count (four characters a token of the request as sent): the agent's next request after reading 20 files of
# 2,000 characters itself, and after a subagent read them; the skills block of the system prompt for 50 installed
# skills of 1,000-character descriptions against its budget (2% of the window) for four windows.
# Usage: bench/agent-context.sh
set -euo pipefail
cd "$(dirname "$0")/../frontend"
npx vitest run src/agent/subagent.test.ts src/agent/skills.test.ts 2>&1 | grep -oE '(20 files read|50 skills).*'
