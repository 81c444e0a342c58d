"""Cut narration into subtitle cues that can be read in time.

The limits follow the usual broadcast subtitle guides: at most two lines a cue, at most
16 CJK characters a line for zh-TW (42 characters for English), a reading speed of at
most 9 characters a second for zh-TW (17 for English), each cue on screen 0.83-7 s.
Narration is cut at punctuation, never inside a word: Chinese words come from jieba.
"""

from __future__ import annotations

import logging
import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import accumulate

from common.text import one_line
from syllabus.locale import LocaleError, language, locale_table


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
# (never before punctuation that closes: "（包括我自己），" ends after its "，", not its "）")
_CLAUSE_END = re.compile(r"(?<=[，。！？；：、）」])\s*(?![，。！？；：、）」』])|(?<=[,.!?;:])\s+")
# The most chunks' width :func:`_pack` balances as a whole (the longest line of the lecture
# is 12 cues); before that much is left, a longer line's chunks are filled in turn.
BALANCED = 16
# Good places to break a CJK line when no punctuation is near: after these particles.
_SOFT_BREAK_AFTER = set("的是在了和跟就都也把給而與或")
# Units that must not be cut: a run of Latin letters/digits, or any other single character.
_UNIT = re.compile(r"[A-Za-z0-9_.'’%+\-−=/√·×^]+|\s+|.", re.S)


def limits_for(lang: str) -> CueLimits:
    """Limits of ``lang``, from its locale's ``[meta]`` table."""
    meta = language(lang)
    return CueLimits(meta.chars_per_line, meta.chars_per_second)


def _width(ch: str, spaces: bool) -> float:
    """A character's width in the language's characters: in a language written without
    spaces (``spaces`` False) the unit is one full-width character, and a Latin letter,
    digit or space is half."""
    if spaces:
        return 1
    return 1 if unicodedata.east_asian_width(ch) in "WF" else 0.5


def visible_length(text: str, lang: str) -> float:
    """How long ``text`` takes to read, in the language's characters (whitespace is free)."""
    spaces = language(lang).spaces  # looked up once a text, not once a character
    return sum(_width(ch, spaces) for ch in text if not ch.isspace())


def line_width(text: str, lang: str) -> float:
    """How wide ``text`` is on one line, in the language's characters (spaces included)."""
    return _line_width(text, language(lang).spaces)


def _line_width(text: str, spaces: bool) -> float:
    """:func:`line_width`, the language's ``spaces`` looked up once by the caller."""
    return sum(_width(ch, spaces) for ch in text if ch != "\n")


def _units(text: str, lang: str) -> list[str]:
    """The pieces a line may break between; a run longer than a line (a URL, a long word)
    is cut after its slashes, dots or hyphens where it can, else where it must."""
    limit, spaces = limits_for(lang).chars_per_line, language(lang).spaces
    units = []
    for unit in _UNIT.findall(text):
        units += _cut_run(unit, limit, spaces)
    return units


def _cut_run(unit: str, limit: float, spaces: bool) -> list[str]:
    """``unit`` in pieces of at most ``limit`` wide, each cut after the last slash, dot,
    hyphen or underscore in the second half of what fits, else where it must. One pass:
    each character is measured once, so a token of any length costs its length."""
    pieces, start = [], 0
    while True:
        width, end = 0.0, start
        while end < len(unit) and width + _width(unit[end], spaces) <= limit:
            width += _width(unit[end], spaces)
            end += 1
        if end == len(unit):
            return [*pieces, unit[start:]]
        fits = max(end - start, 1)  # a character wider than a line still goes on one
        soft = [k for k in range(max(fits // 2, 1), fits + 1) if unit[start + k - 1] in "/.-_"]
        cut = soft[-1] if soft else fits
        pieces.append(unit[start : start + cut])
        start += cut


def clean(text: str, lang: str) -> str:
    """Narration as one line of plain text for a subtitle: whitespace (newlines too)
    collapsed (and dropped between two CJK characters in a language without spaces), no
    control character (:func:`common.text.one_line`) and no ``-->``, which ends a WebVTT
    cue's timing line."""
    text = one_line(text)
    if not language(lang).spaces:
        text = re.sub(r"(?<=[^\x00-\x7f])\s+(?=[^\x00-\x7f])", "", text)
    return re.sub(r"\s+", " ", text).strip().replace("-->", "→")


def _running(units: list[str], lang: str) -> tuple[list[float], list[int]]:
    """The width and the length in characters of ``units[:k]``, for every k: each unit
    measured once, so that weighing every break of a line costs the line's length."""
    spaces = language(lang).spaces
    widths = list(accumulate((_line_width(unit, spaces) for unit in units), initial=0.0))
    return widths, list(accumulate((len(unit) for unit in units), initial=0))


def _pack(pieces: list[str], limit: float, joiner: str, lang: str) -> list[str]:
    """Join pieces, in order, into as few chunks of at most ``limit`` as possible, balanced.

    Among the packings with the fewest chunks, the one whose chunks are closest to equal
    wins (least sum of squared slack), so a sentence never ends on a stray word. Pieces
    wider than :data:`BALANCED` chunks (no line of the lecture's, a hostile one) are first
    filled into chunks in turn, which keeps their number fewest, until that much is left to
    balance: the work stays linear in the length.
    """
    n = len(pieces)
    # each piece measured once: a chunk's width is a difference of these running sums
    spaces = language(lang).spaces
    at = list(accumulate((_line_width(piece, spaces) for piece in pieces), initial=0.0))
    gap = line_width(joiner, lang)

    def width(start: int, end: int) -> float:
        return at[end] - at[start] + gap * (end - start - 1)

    filled, first = [], 0
    while width(first, n) > BALANCED * limit:
        end = first + 1
        while width(first, end + 1) <= limit:
            end += 1
        filled.append(joiner.join(pieces[first:end]))
        first = end
    best: list[tuple[int, float, int] | None] = [None] * (n + 1)  # (chunks, cost, start)
    best[first] = (0, 0.0, first)
    for end in range(first + 1, n + 1):
        for start in range(end - 1, first - 1, -1):
            length = width(start, end)
            if length > limit and end - start > 1:
                break
            if best[start] is None:
                continue
            chunks, cost, _ = best[start]
            option = (chunks + 1, cost + (limit - length) ** 2, start)
            if best[end] is None or option[:2] < best[end][:2]:
                best[end] = option
    cuts, end = [], n
    while end > first:
        start = best[end][2]
        cuts.append(joiner.join(pieces[start:end]))
        end = start
    return filled + cuts[::-1]


def _split_long(clause: str, limit: float, lang: str) -> list[str]:
    """Split one clause longer than ``limit`` between units (never inside a word)."""
    return [c.strip() for c in _pack(_units(clause, lang), limit, "", lang) if c.strip()]


_NO_LINE_START = set("，。！？；：、）」』,.!?;:)")
# A break inside a word costs this much balance.
_INSIDE_WORD = 20


@cache
def _segmenter(extra_words: tuple[str, ...] = ()) -> Callable[[str], list[str]]:
    """jieba's word cutter for Traditional Chinese text, knowing ``extra_words`` too
    (imported only when CJK text wraps; one per list of extra words).

    jieba's packaged dictionary is Simplified: each character is converted on its own
    (zhconv), so offsets keep their meaning, then the Simplified text is cut and the word
    lengths are mapped back onto the original text.
    """
    import jieba
    import zhconv

    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()

    def simplified(text: str) -> str:
        chars = [zhconv.convert(ch, "zh-hans") for ch in text]
        return "".join(c if len(c) == 1 else o for c, o in zip(chars, text, strict=True))

    for word in extra_words:
        tokenizer.add_word(simplified(word))
    return lambda text: list(tokenizer.cut(simplified(text)))


def _keep_together(lang: str) -> tuple[str, ...]:
    try:
        return tuple(locale_table(lang).get("subtitles", {}).get("keep_together", []))
    except LocaleError:
        return ()


def _word_boundaries(text: str, lang: str) -> set[int]:
    """Character offsets where a line should not be cut: inside a word, or before punctuation.

    Languages written with spaces break between units already. For CJK text the words
    come from jieba, plus the locale's ``[subtitles] keep_together`` list (the lecture's
    own terms, which instructors extend), which wins over the segmenter.
    """
    # No line starts with closing punctuation.
    inside = {i for i, ch in enumerate(text) if i and ch in _NO_LINE_START}
    if language(lang).spaces:
        return inside
    keep = _keep_together(lang)
    offset = 0
    for word in _segmenter(keep)(text):
        inside.update(range(offset + 1, offset + len(word)))
        offset += len(word)
    for word in keep:
        start = text.find(word)
        while start != -1:
            inside.update(range(start + 1, start + len(word)))
            start = text.find(word, start + 1)
    return inside


def split_cues(text: str, lang: str) -> list[str]:
    """Cut narration into cues, each fitting the language's lines; lines joined by '\\n'."""
    lim = limits_for(lang)
    clauses: list[str] = []
    for clause in _CLAUSE_END.split(clean(text, lang)):
        if not clause:
            continue
        clauses += (
            [clause]
            if line_width(clause, lang) <= lim.chars_per_cue
            else _split_long(clause, lim.chars_per_cue, lang)
        )
    joiner = " " if language(lang).spaces else ""
    chunks = _pack(clauses, lim.chars_per_cue, joiner, lang)
    return [c for chunk in chunks for c in fit(chunk, lang)]


def fit(chunk: str, lang: str) -> list[str]:
    """The chunk as one wrapped cue, or cut in two (at the best break) until each fits."""
    wrapped = wrap(chunk, lang)
    if wrapped is not None:
        return [wrapped]
    first, second = halves(chunk, lang) or (chunk, "")
    return fit(first, lang) + fit(second, lang) if second else [chunk]


def halves(chunk: str, lang: str) -> tuple[str, str] | None:
    """``chunk`` (one line, or a cue's lines) cut in two at its best break: near the
    middle, after punctuation, not inside a word; each half on one line (:func:`fit` wraps
    it). None when it is a single unit that cannot be cut."""
    chunk = unwrapped(chunk, lang) if "\n" in chunk else chunk
    units = _units(chunk, lang)
    if len(units) < 2:
        return None
    inside = _word_boundaries(chunk, lang)
    widths, offsets = _running(units, lang)

    def badness(k: int) -> float:  # near the middle, after punctuation, not inside a word
        if units[k][:1] in _NO_LINE_START:  # a cue never starts with a comma or a ")"
            return math.inf
        before = units[k - 1]
        opens = before in "“「『（(" or (before == '"' and (k < 2 or units[k - 2].isspace()))
        if opens:  # nor ends on a quotation's opening mark
            return math.inf
        distance = abs(widths[k] - widths[-1] / 2)
        punctuation = 6 if _CLAUSE_END.search(units[k - 1] + " ") else 0
        return distance - punctuation + (_INSIDE_WORD if offsets[k] in inside else 0)

    k = min(range(1, len(units)), key=badness)
    if math.isinf(badness(k)):  # no good break (a run of commas): the middle, so that
        k = len(units) // 2  # cutting the halves again takes as few steps as it can
    first, second = "".join(units[:k]).strip(), "".join(units[k:]).strip()
    return (first, second) if first and second else None


def wrap(cue: str, lang: str) -> str | None:
    """Break a cue into at most two balanced lines, at a clause end where possible.

    None when no break between words gives two lines that fit.
    """
    lim = limits_for(lang)
    if line_width(cue, lang) <= lim.chars_per_line:
        return cue
    units = _units(cue, lang)
    inside = _word_boundaries(cue, lang)
    widths, offsets = _running(units, lang)
    best, best_score = None, None
    for k, unit in enumerate(units[:-1], start=1):
        offset = offsets[k]
        # the lines as stripped: a space between them belongs to neither
        width = widths[k] - (widths[k] - widths[k - 1] if unit.isspace() else 0)
        rest = widths[-1] - widths[k] - (widths[k + 1] - widths[k] if units[k].isspace() else 0)
        if width > lim.chars_per_line or rest > lim.chars_per_line or offset in inside:
            continue
        score = abs(width - rest)
        if _CLAUSE_END.search(unit + " "):
            score -= 6
        elif unit in _SOFT_BREAK_AFTER:
            score -= 3
        if best_score is None or score < best_score:
            best, best_score = k, score
    if best is None:
        return None
    return "".join(units[:best]).strip() + "\n" + "".join(units[best:]).strip()


_LATIN_END = re.compile(r"[A-Za-z0-9]$")
_LATIN_START = re.compile(r"^[A-Za-z0-9]")


def unwrapped(cue: str, lang: str) -> str:
    """A wrapped cue as one line again, as it was before :func:`wrap` broke it: the lines
    joined by a space in a language written with spaces, and in one written without them
    by nothing, except between two Latin words ("permutation\nequivariance")."""
    lines = cue.split("\n")
    if language(lang).spaces:
        return " ".join(lines)
    text = lines[0]
    for line in lines[1:]:
        text += (" " if _LATIN_END.search(text) and _LATIN_START.match(line) else "") + line
    return text


def cue_seconds(cue: str, lang: str, fps: float = 60) -> float:
    """How long a cue must stay on screen to be read, in whole frames at ``fps``."""
    lim = limits_for(lang)
    seconds = visible_length(cue, lang) / lim.chars_per_second + 0.3
    seconds = min(max(seconds, lim.min_seconds + 0.2), lim.max_seconds)
    return (
        math.floor(seconds * fps + 1e-9) / fps
        if seconds == lim.max_seconds
        else (math.ceil(seconds * fps - 1e-9) / fps)
    )
