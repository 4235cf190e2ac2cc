"""Every limit the program enforces on its inputs, in one place (docs/course-format.md,
"Limits", lists them for users).

The limits keep a careless or hostile input from hanging the program or eating the memory:
each is far above what a real course, ruleset or record needs, and each is checked before
the work it protects starts.
"""

from __future__ import annotations

import os

__all__ = [
    "MAX_ALLEY_SPACES",
    "MAX_CHARIOTS",
    "MAX_COURSE_SPACES",
    "MAX_DATA_BYTES",
    "MAX_INCLUDE_DEPTH",
    "MAX_LANES",
    "MAX_PIECES",
    "MAX_PIECE_SPACES",
    "MAX_PLAYERS",
    "MAX_RACES",
    "MAX_RECORD_BYTES",
    "MAX_SET_VALUE_CHARS",
    "MAX_YAML_DEPTH",
    "MAX_YAML_NODES",
    "max_workers",
    "record_bytes_limit",
]

#: a course, course module, ruleset or variant overlay file (the largest bundled one is ~40 KB)
MAX_DATA_BYTES = 1_000_000
#: a game or tournament record, unless ``AVECAESAR_MAX_RECORD_BYTES`` or ``--max-bytes``
#: says otherwise (a long race is ~100 KB)
MAX_RECORD_BYTES = 20_000_000
#: YAML nodes after expanding every alias (a "billion laughs" file expands to 10⁹)
MAX_YAML_NODES = 200_000
#: nesting of YAML mappings and sequences
MAX_YAML_DEPTH = 40
#: spaces in one lane of one piece, alley spaces, lanes, pieces and spaces of a course
MAX_PIECE_SPACES = 60
MAX_ALLEY_SPACES = 60
MAX_LANES = 8
MAX_PIECES = 400
MAX_COURSE_SPACES = 3_000
#: modules including modules
MAX_INCLUDE_DEPTH = 8
#: players at one table (the box has 6 chariots) and chariots on a course
MAX_PLAYERS = 6
MAX_CHARIOTS = 12
#: races in one simulation
MAX_RACES = 10_000_000
#: the text of one ``--set KEY=VALUE`` value
MAX_SET_VALUE_CHARS = 200


def max_workers() -> int:
    """The largest ``--workers``: 4 processes per core."""
    return 4 * (os.cpu_count() or 1)


def record_bytes_limit() -> int:
    """The size limit of a record: ``AVECAESAR_MAX_RECORD_BYTES`` or the default."""
    text = os.environ.get("AVECAESAR_MAX_RECORD_BYTES", "")
    return int(text) if text.isdigit() and int(text) > 0 else MAX_RECORD_BYTES
