"""Server infrastructure: transport, warm-up, GC policy, tracing, answers, releasing closed
documents, dependency checks."""
