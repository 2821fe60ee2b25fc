"""Long-lived server state: the check scheduler and the workspace index with file watching."""
