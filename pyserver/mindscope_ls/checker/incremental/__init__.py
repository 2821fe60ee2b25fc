"""What makes a re-check after a keystroke cheap: results kept per node, block and function."""
