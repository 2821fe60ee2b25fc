// Which notebooks MindScope's controller is preferred for: those that import MindSpore.
const IMPORTS_MINDSPORE = /^\s*(?:import\s+mindspore\b|from\s+mindspore\b)/m;

export function importsMindSpore(sources: readonly string[]): boolean {
  return sources.some((source) => IMPORTS_MINDSPORE.test(source));
}
