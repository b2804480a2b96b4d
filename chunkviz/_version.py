"""The package's version, in a module of its own.

The runner records it without importing ``chunkviz`` itself, whose ``__init__`` imports the
public workflows, which import the runner.
"""

__version__ = "0.1.0"
