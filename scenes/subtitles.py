"""Cut narration into subtitle cues that can be read in time.

The limits follow the usual broadcast subtitle guides: at most two lines a cue, at most
16 CJK characters a line for zh-TW (42 characters for English), a reading speed of at
most 9 characters a second for zh-TW (17 for English), each cue on screen 0.83-7 s.
Narration is cut at punctuation, never inside a word.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from scenes.locale import LocaleError, language, locale_table


@dataclass(frozen=True)
class CueLimits:
    """Subtitle limits of one language."""

    chars_per_line: int
    chars_per_second: float
    max_lines: int = 2
    min_seconds: float = 0.83
    max_seconds: float = 7.0

    @property
    def chars_per_cue(self) -> int:
        return min(
            self.chars_per_line * self.max_lines, int(self.max_seconds * self.chars_per_second)
        )


# A clause ends after CJK punctuation, or after ASCII punctuation followed by a space
# (so "0.33" and "1/3" stay whole). The punctuation stays with its clause.
_CLAUSE_END = re.compile(r"(?<=[，。！？；：、）」])\s*|(?<=[,.!?;:])\s+")
# Good places to break a CJK line when no punctuation is near: after these particles.
_SOFT_BREAK_AFTER = set("的是在了和跟就都也把給而與或")
# Units that must not be cut: a run of Latin letters/digits, or any other single character.
_UNIT = re.compile(r"[A-Za-z0-9_.'’%+\-−=/√·×^]+|\s+|.", re.S)


def limits_for(lang: str) -> CueLimits:
    """Limits of ``lang``, from its locale's ``[meta]`` table."""
    meta = language(lang)
    return CueLimits(meta.chars_per_line, meta.chars_per_second)


def visible_length(text: str) -> int:
    """Characters a reader reads: everything but whitespace and line breaks."""
    return sum(1 for ch in text if not ch.isspace())


def _units(text: str) -> list[str]:
    return _UNIT.findall(text)


def _pack(pieces: list[str], limit: int, joiner: str) -> list[str]:
    """Greedily join pieces into chunks of at most ``limit`` visible characters."""
    chunks: list[str] = []
    for piece in pieces:
        if chunks and len(chunks[-1] + joiner + piece) <= limit:
            chunks[-1] = (chunks[-1] + joiner + piece) if joiner else chunks[-1] + piece
        else:
            chunks.append(piece)
    return chunks


def _split_long(clause: str, limit: int) -> list[str]:
    """Split one clause longer than ``limit`` between units (never inside a word)."""
    return [c.strip() for c in _pack(_units(clause), limit, "") if c.strip()]


# A break inside one of a language's keep-together words costs this much balance.
_INSIDE_WORD = 20


def _word_boundaries(text: str, lang: str) -> set[int]:
    """Character offsets that fall inside a keep-together word of the language.

    CJK text has no spaces to break at; the locale table's ``[subtitles] keep_together``
    lists words a line must not be cut inside (instructors add their own).
    """
    try:
        words = locale_table(lang).get("subtitles", {}).get("keep_together", [])
    except LocaleError:
        return set()
    inside: set[int] = set()
    for word in words:
        start = text.find(word)
        while start != -1:
            inside.update(range(start + 1, start + len(word)))
            start = text.find(word, start + 1)
    return inside


def split_cues(text: str, lang: str) -> list[str]:
    """Cut narration into cues, each fitting the language's lines; lines joined by '\\n'."""
    lim = limits_for(lang)
    clauses: list[str] = []
    for clause in _CLAUSE_END.split(text.strip()):
        if not clause:
            continue
        clauses += (
            [clause] if len(clause) <= lim.chars_per_cue else _split_long(clause, lim.chars_per_cue)
        )
    joiner = " " if language(lang).spaces else ""
    return [c for chunk in _pack(clauses, lim.chars_per_cue, joiner) for c in _fit(chunk, lang)]


def _fit(chunk: str, lang: str) -> list[str]:
    """The chunk as one wrapped cue, or cut in two (at the best break) until each fits."""
    wrapped = wrap(chunk, lang)
    if wrapped is not None:
        return [wrapped]
    units = _units(chunk)
    inside = _word_boundaries(chunk, lang)

    def badness(k: int) -> float:  # near the middle, after punctuation, not inside a word
        offset = len("".join(units[:k]))
        distance = abs(offset - len(chunk) / 2)
        punctuation = 6 if _CLAUSE_END.search(units[k - 1] + " ") else 0
        return distance - punctuation + (_INSIDE_WORD if offset in inside else 0)

    k = min(range(1, len(units)), key=badness)
    return _fit("".join(units[:k]).strip(), lang) + _fit("".join(units[k:]).strip(), lang)


def wrap(cue: str, lang: str) -> str | None:
    """Break a cue into at most two balanced lines, at a clause end where possible.

    None when no break gives two lines that fit.
    """
    lim = limits_for(lang)
    if len(cue) <= lim.chars_per_line:
        return cue
    units = _units(cue)
    inside = _word_boundaries(cue, lang)
    best, best_score = None, None
    length = 0
    for k, unit in enumerate(units[:-1], start=1):
        length += len(unit)
        rest = len(cue) - length
        if length > lim.chars_per_line or rest > lim.chars_per_line:
            continue
        score = abs(length - rest)
        if _CLAUSE_END.search(unit + " "):
            score -= 6
        elif unit in _SOFT_BREAK_AFTER:
            score -= 3
        if length in inside:
            score += _INSIDE_WORD
        if best_score is None or score < best_score:
            best, best_score = k, score
    if best is None:
        return None
    return "".join(units[:best]).strip() + "\n" + "".join(units[best:]).strip()


def cue_seconds(cue: str, lang: str, fps: float = 60) -> float:
    """How long a cue must stay on screen to be read, in whole frames at ``fps``."""
    lim = limits_for(lang)
    seconds = visible_length(cue) / lim.chars_per_second + 0.3
    seconds = min(max(seconds, lim.min_seconds + 0.2), lim.max_seconds)
    return (
        math.floor(seconds * fps + 1e-9) / fps
        if seconds == lim.max_seconds
        else (math.ceil(seconds * fps - 1e-9) / fps)
    )
