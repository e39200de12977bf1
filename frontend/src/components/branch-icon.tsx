// BranchIcon is a git branch drawn in the text's colour (no font has to carry a branch glyph): the mark of a
// worktree wherever the window shows one.
export function BranchIcon({ size = 12 }: { size?: number }) {
  return (
    <svg className="branch-icon" width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <g fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round">
        <circle cx="4.5" cy="3.5" r="1.8" />
        <circle cx="4.5" cy="12.5" r="1.8" />
        <circle cx="11.5" cy="5.5" r="1.8" />
        <path d="M4.5 5.3v5.4M11.5 7.3c0 2.4-2.2 3-5.4 3.9" />
      </g>
    </svg>
  )
}
