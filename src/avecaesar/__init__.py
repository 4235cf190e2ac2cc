"""Ave Caesar: a rules-as-data race engine and course editor."""

from avecaesar.native import install as _install_native

__all__ = ["__version__"]
__version__ = "0.2.0"

# the compiled hot path when it was built from the current sources (avecaesar/native.py)
_install_native()
