"""The rule modules: one family of rules per module, each `Rule` declared beside its check.

`registry.py` collects them; shared machinery lives in `helpers/`, quick-fix edits in `../fixes/`.
"""
