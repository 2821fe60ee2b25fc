"""The MindSpore API catalogue: data introspected from a real MindSpore, one file per version.

`python -m mindscope_ls.catalogue.build` writes it (in an interpreter with MindSpore); the
server only reads it (`load.catalogue_for`) and never imports MindSpore.
"""

from mindscope_ls.catalogue.load import catalogue_for
from mindscope_ls.catalogue.model import Catalogue, Entry

__all__ = ["Catalogue", "Entry", "catalogue_for"]
