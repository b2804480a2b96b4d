"""Entry point for ``python -m chunkviz``."""

import sys

from chunkviz.cli import main

if __name__ == "__main__":
    sys.exit(main())
