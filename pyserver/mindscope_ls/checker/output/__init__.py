"""The checker's outputs outside the editor: the `mindscope check` CLI, SARIF and rule docs."""
