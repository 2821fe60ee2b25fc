"""Facts about MindSpore's graph compiler, taken from the installed MindSpore itself: its parser's
support tables (`build`) and the outcomes of compiling small programs (`differential`)."""
