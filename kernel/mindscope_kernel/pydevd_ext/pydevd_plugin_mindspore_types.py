"""debugpy (pydevd) extension: MindSpore Tensors show shape, dtype and a value preview.

pydevd loads modules named `pydevd_plugin*` from every folder on the `__path__` of its
`pydevd_plugins.extensions` package; `debugplugin.register()` appends this folder to it.
"""

from __future__ import annotations

from typing import Any

from _pydevd_bundle.pydevd_extension_api import (  # type: ignore[import-not-found]
    StrPresentationProvider,
    TypeResolveProvider,
)

from mindscope_kernel import tensorview


class MindSporeTensorProvider:
    def can_provide(self, type_object: type, type_name: str) -> bool:
        return any(
            base.__name__ == "Tensor" and base.__module__.startswith("mindspore")
            for base in getattr(type_object, "__mro__", ())
        )

    def get_str(self, val: Any) -> str:
        return tensorview.summary(val)

    def get_str_in_context(self, val: Any, context: str) -> str:
        return tensorview.summary(val)

    def resolve(self, var: Any, attribute: str) -> Any:
        return tensorview.details(var).get(attribute)

    def get_dictionary(self, var: Any) -> dict[str, Any]:
        return tensorview.details(var)


StrPresentationProvider.register(MindSporeTensorProvider)
TypeResolveProvider.register(MindSporeTensorProvider)
