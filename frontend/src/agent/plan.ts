import { jsonSchema, tool, type Tool } from 'ai'
import type { PlanItem } from './conversation'

export const planToolName = 'update_plan'

const statuses = ['pending', 'in_progress', 'done'] as const

// planTool is the model's checklist for the task at hand (as Codex's update_plan and Claude Code's TodoWrite):
// it sends the whole list each time, and the panel shows it live above the conversation. It runs in the window:
// the plan belongs to the conversation, not to the project.
export function planTool(onPlan: (plan: PlanItem[]) => void): Tool {
  return tool({
    description:
      'Keep a short checklist of the steps of the current task, shown to the user above the conversation. Send the whole list each time: ' +
      'when you start a task of three or more steps, and whenever a step starts or is done. At most one step is in_progress. Skip it for one-step tasks.',
    inputSchema: jsonSchema<{ plan: PlanItem[] }>({
      type: 'object',
      properties: {
        plan: {
          type: 'array',
          maxItems: 30,
          items: {
            type: 'object',
            properties: { step: { type: 'string', description: 'the step, in a few words' }, status: { type: 'string', enum: [...statuses] } },
            required: ['step', 'status'],
          },
        },
      },
      required: ['plan'],
    }),
    execute: async ({ plan }) => {
      const bad = (plan ?? []).find((p) => typeof p?.step !== 'string' || !p.step.trim() || !statuses.includes(p.status))
      if (!Array.isArray(plan) || bad) return { error: { code: 'invalid_argument', message: 'plan is a list of {step, status} with status pending, in_progress or done' } }
      if (plan.filter((p) => p.status === 'in_progress').length > 1) return { error: { code: 'invalid_argument', message: 'at most one step can be in_progress' } }
      const clean = plan.map((p) => ({ step: p.step.trim().slice(0, 200), status: p.status }))
      onPlan(clean)
      return { ok: true, steps: clean.length, done: clean.filter((p) => p.status === 'done').length }
    },
  })
}
