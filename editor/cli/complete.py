"""Shell completion of the project's names: course ids, ruleset ids and aliases, variant ids,
bot names (``avecaesar --install-completion`` installs it for bash, zsh, fish or
PowerShell; typer asks these functions while you type).

Each returns the names that start with what has been typed (case-insensitively); a name
that looks like a path (a slash, ``.yaml``) gets no completion here, so the shell's own file
completion is not crowded. The engine is imported only when a completion is asked for.
"""

from __future__ import annotations

__all__ = ["complete_bots", "complete_course", "complete_ruleset", "complete_variant"]


def _matching(names: list[str], incomplete: str) -> list[str]:
    low = incomplete.lower()
    return sorted({n for n in names if n.lower().startswith(low)})


def complete_course(incomplete: str) -> list[str]:
    """Bundled course ids (``dicetree-2022/arena-carthago``, …)."""
    from avecaesar.engine.course.bundled import bundled_course_ids

    return _matching(list(bundled_course_ids()), incomplete)


def _rulesets(variants: bool) -> list[str]:
    from avecaesar.engine.ruleset.load import list_rulesets

    out: list[str] = []
    for e in list_rulesets():
        if (e.kind == "variant") == variants:
            out += [e.id, *e.aliases]
    return out


def complete_ruleset(incomplete: str) -> list[str]:
    """Edition and homebrew ruleset ids and their aliases (``dicetree-2022``, ``2022``, …)."""
    return _matching(_rulesets(False), incomplete)


def complete_variant(incomplete: str) -> list[str]:
    """Variant ids (``four-hand-cards``, …)."""
    return _matching(_rulesets(True), incomplete)


def complete_bots(incomplete: str) -> list[str]:
    """Bot names, also after a comma: ``search,gr`` → ``search,greedy``."""
    from avecaesar.engine.bots.registry import POLICIES

    done, _, last = incomplete.rpartition(",")
    prefix = f"{done}," if done else ""
    return [prefix + name for name in _matching(list(POLICIES), last)]
