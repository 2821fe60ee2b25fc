"""`python -m mindscope_ls.catalogue.build`: see writer.py."""

import sys

from mindscope_ls.catalogue.build.writer import main

if __name__ == "__main__":
    sys.exit(main())
