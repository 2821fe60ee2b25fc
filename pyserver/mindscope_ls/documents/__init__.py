"""Documents as the editor has them: positions and lines, and the one notebook model."""
