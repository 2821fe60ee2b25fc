"""Layer context: which MindSpore layer usually follows which in a Cell's `__init__`, counted
from real model code (`build`), and completion ranked by it (`rank`, `context`)."""
