"""Quick fixes: text edits built from the source, and the rewrites of a few rules."""
