"""Ave Caesar: a rules-as-data race engine and course editor."""

__all__ = ["__version__"]
__version__ = "0.1.0"
