"""Ave Caesar: a rules-as-data race engine and course editor."""

from avecaesar.moved import install as _install_moved
from avecaesar.native import install as _install_native

__all__ = ["__version__"]
__version__ = "0.2.0"

# the compiled hot path when it was built from the current sources (avecaesar/native.py)
_install_native()
# module paths renamed in 0.2 stay importable for one release (avecaesar/moved.py)
_install_moved()
