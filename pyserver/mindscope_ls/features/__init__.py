"""One module per LSP feature: its thin handlers and their registration (`register(server)`)."""
