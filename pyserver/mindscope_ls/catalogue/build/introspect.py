"""Builder side: turn one live MindSpore object into a catalogue entry (needs MindSpore)."""

from __future__ import annotations

import inspect
import re
import types
from typing import Any, Optional

from mindscope_ls.catalogue import docparse

# Where an API is defined decides whether compiled code (construct, @jit) can call it.
# Verified cases live in tests/python/server/test_catalogue_build.py.
GRAPH_OK = (
    "mindspore.ops",
    "mindspore.mint",
    "mindspore.numpy",
    "mindspore.nn",
    "mindspore.common.tensor",
    "mindspore._c_expression",
    "mindspore.common.dtype",
    "mindspore.common._stub_tensor",
    "mindspore.common.api",
)
GRAPH_NO = (
    "mindspore.dataset",
    "mindspore.train",
    "mindspore.communication.management",
    "mindspore.amp",
    "mindspore.context",
    "mindspore.profiler",
    "mindspore.runtime",
    "mindspore.device_context",
    "mindspore.parallel",
    "mindspore.hal",
    "mindspore.mindrecord",
    "mindspore.common.parameter",
    "mindspore.common.seed",
    "mindspore.common.initializer",
    "mindspore.nn.optim",
)


def kind_of(obj: Any, name: str, owner: Optional[type] = None) -> str:
    if isinstance(obj, types.ModuleType):
        return "module"
    if owner is not None:
        static = inspect.getattr_static(owner, name, None)
        if isinstance(static, property) or type(static).__name__ == "getset_descriptor":
            return "property"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "method" if owner is not None else "function"
    return "constant"


def defining_module(obj: Any) -> str:
    module = getattr(obj, "__module__", None)
    if isinstance(obj, types.ModuleType):
        return obj.__name__
    if not isinstance(module, str):
        module = type(obj).__module__
    return module or ""


def member_module(obj: Any, owner: Optional[type]) -> str:
    """The module that defines `obj`; an attribute of a class without one gets the class's."""
    module = defining_module(obj)
    if owner is None or module not in ("builtins", ""):
        return module
    # Reading a Parameter's attributes is fine in graph mode; only creating one is not.
    is_tensor = any(base.__name__ == "TensorPy" for base in owner.__mro__)
    return "mindspore.common.tensor" if is_tensor else owner.__module__


def usable_in_graph(module: str, kind: str) -> Optional[bool]:
    if kind == "module":
        return None
    for prefix in GRAPH_NO:
        if module == prefix or module.startswith(prefix + "."):
            return False
    for prefix in GRAPH_OK:
        if module == prefix or module.startswith(prefix + "."):
            return True
    return None


def signature(
    obj: Any, name: str, doc: str, strip_self: bool = False
) -> tuple[Optional[str], Optional[str]]:
    """("(a, b=1)", "Tensor"): the real signature, else the one the docstring's first line gives."""
    from_doc = docparse.signature_line(doc, name)
    text: Optional[str] = None
    try:
        sig = inspect.signature(obj)
        if strip_self or inspect.isclass(obj) or inspect.ismethoddescriptor(obj):
            params = list(sig.parameters.values())
            if params and params[0].name == "self":
                sig = sig.replace(parameters=params[1:])
        text = str(sig.replace(return_annotation=inspect.Signature.empty))
        text = re.sub(r" at 0x[0-9a-fA-F]+>", ">", text)  # default values' addresses vary
        # A module as a default value prints its file: keep the name, not this machine's path.
        text = re.sub(r"<module '([\w.]+)' from '[^']*'>", r"\1", text)
    except (TypeError, ValueError):
        text = None
    if from_doc and (text is None or text in ("(*args, **kwargs)", "(*args)")):
        return from_doc
    if text is None or text == "(*args, **kwargs)":
        documented = docparse.parameters(doc)  # a pybind class: its Args section
        text = f"({', '.join(documented)})" if documented else text
    return text, from_doc[1] if from_doc else None


def deprecated_by_decorator(obj: Any) -> Optional[str]:
    """MindSpore's `@deprecated(version, substitute)` leaves both in the wrapper's closure."""
    target = obj.__init__ if inspect.isclass(obj) else obj
    code = getattr(target, "__code__", None)
    closure = getattr(target, "__closure__", None)
    if code is None or not closure or "substitute" not in code.co_freevars:
        return None
    if "_decorator" not in (getattr(code, "co_filename", "") or ""):
        return None
    value = closure[code.co_freevars.index("substitute")].cell_contents
    return str(value) if value else ""


def call_signature(obj: Any, doc: str) -> Optional[str]:
    """What calling an instance takes: a Cell's `construct`, a Primitive's documented Inputs."""
    if not inspect.isclass(obj):
        return None
    construct = getattr(obj, "construct", None)
    if construct is not None and callable(construct):
        try:
            params = list(inspect.signature(construct).parameters.values())[1:]
            return str(inspect.Signature(params))
        except (TypeError, ValueError):
            return None
    inputs = docparse.parameters(doc, "Inputs")
    return f"({', '.join(inputs)})" if inputs else None


def entry(obj: Any, name: str, public: str, owner: Optional[type] = None) -> dict[str, Any]:
    """The catalogue record of `obj`, reachable as `public` (e.g. mindspore.ops.matmul)."""
    kind = kind_of(obj, name, owner)
    raw = "" if kind == "constant" else (inspect.getdoc(obj) or "")
    if kind == "constant" and isinstance(getattr(type(obj), "__doc__", None), str):
        raw = ""
    doc = docparse.clean(raw)
    record: dict[str, Any] = {"k": kind, "p": public}
    if kind in ("function", "method", "class"):
        sig, ret = signature(obj, name, doc, strip_self=owner is not None)
        if sig:
            record["s"] = sig
        ret = docparse.returns(doc, ret) if kind != "class" else None
        if ret:
            record["r"] = ret
    if kind == "class":
        call = call_signature(obj, doc)
        if call:
            record["c"] = call
        record["b"] = [f"{b.__module__}.{b.__qualname__}" for b in obj.__mro__[1:-1]][:12]
    summary = docparse.summary(doc, name)
    if summary:
        record["d"] = summary
    replacement = deprecated_by_decorator(obj)
    if replacement is None and doc:
        replacement = docparse.deprecation(doc, name)
    if replacement and _short(replacement) == _short(public):
        replacement = None  # a docstring shared with a deprecated alias names this very API
    if replacement is not None:
        record["x"] = replacement
    graph = usable_in_graph(member_module(obj, owner), kind)
    if graph is not None:
        record["g"] = graph
    if doc:
        record["_doc"] = doc
    return record


def _short(public: str) -> str:
    return public[len("mindspore.") :] if public.startswith("mindspore.") else public
