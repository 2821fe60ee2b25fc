"""What the checker reads: source files, their parsed modules, and the workspace of files."""
