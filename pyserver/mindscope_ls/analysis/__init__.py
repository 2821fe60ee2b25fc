"""What the features compute, without LSP: text scans, source models, inference, blocks, and
the logic behind completion, hover, definition, file mode and diagnostics."""
