"""The built-in lecture file, ``common/default_lecture.toml``: the one home of every default.

The model's task, the hand-made sentences and their matrices, the office, the languages,
the theme and the quality are written there and nowhere else; Python reads them from it
(``render.py --print-config`` prints the file as an instructor's starting point). The
chapter order is the plan's (``scenes/chapters/plan.toml``): a lecture file without
``chapters`` is the whole plan. Imports nothing of ours.
"""

from __future__ import annotations

import copy
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

DEFAULT_LECTURE = Path(__file__).resolve().parent / "default_lecture.toml"


@cache
def _read() -> dict[str, Any]:
    return tomllib.loads(DEFAULT_LECTURE.read_text(encoding="utf-8"))


def default_lecture() -> dict[str, Any]:
    """The built-in lecture file, parsed (a copy: callers may change it)."""
    return copy.deepcopy(_read())


def default(key: str) -> Any:
    """One top-level default (``languages``, ``theme``, ``quality``) or table (``task``)."""
    return copy.deepcopy(_read()[key])
