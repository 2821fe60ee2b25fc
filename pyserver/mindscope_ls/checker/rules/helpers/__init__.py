"""Shared by the rules: AST walks, MindSpore names, value kinds, classes, discovery, scopes."""
