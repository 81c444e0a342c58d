"""Heteronyms of the narration: characters with several readings, each one checked.

A Mandarin voice reads a character the way its G2P guesses (misaki's ZHG2P: jieba's words,
then pypinyin's readings), and a heteronym such as 調 (tiáo in 微調, diào in 調查) is easy to
guess wrong. Every heteronym of a language's narration must be either re-spelled (or
protected) where it stands by the locale's ``[pronounce]`` table, or listed in its
``[readings] reviewed``: characters whose reading, as the G2P says them in every line where
they occur, someone checked. :func:`unreviewed` lists the rest; :func:`g2p_readings` shows
what the G2P says, for the review. Imports no Manim and no torch.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache

from voice.speech import pronounced

# Tables of a locale that are no narration: settings, the voice's own tables, words shown
# beside a colour, and the page's words (index.html, the recorder), which nobody says.
NOT_SAID = (
    "meta",
    "speech",
    "pronounce",
    "readings",
    "subtitles",
    "colour_names",
    "colours",
    "page",
    "lab",
    "recorder",
)
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# What a line holds that is not said as written: {placeholders} and a beat's <name>.
MARKS = re.compile(r"\{[^{}]*\}|<[a-z][a-z0-9_]*>")
_COVERED = "\ue000"  # a private-use character: a place a [pronounce] entry takes


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)


def narration(table: Mapping[str, object]) -> list[str]:
    """Every line of a locale ``table`` a voice may say: each string of its chapter tables
    (all but :data:`NOT_SAID`), its {placeholders} and <beats> taken out, and the colour
    names the narration fills in (``[colour_names]``)."""
    lines = [
        MARKS.sub(" ", text)
        for name, value in table.items()
        if name not in NOT_SAID
        for text in _strings(value)
    ]
    lines += list(_strings(table.get("colour_names", {})))
    return [line for line in dict.fromkeys(lines) if line.strip()]


@cache
def readings(char: str) -> tuple[str, ...]:
    """The readings pypinyin knows for ``char``, and for its Simplified form, which is what
    the G2P is fed (髮 has one reading, 发 two)."""
    import zhconv
    from pypinyin.pinyin_dict import pinyin_dict

    found: dict[str, None] = {}
    for form in dict.fromkeys((char, zhconv.convert(char, "zh-hans"))):
        found.update(dict.fromkeys(pinyin_dict.get(ord(form), "").split(",")))
    return tuple(r for r in found if r)


def is_heteronym(char: str) -> bool:
    """Whether ``char`` (or its Simplified form) has more than one reading."""
    return len(readings(char)) > 1


def covered(line: str, pronounce: Mapping[str, str]) -> str:
    """``line`` with each place a ``[pronounce]`` entry takes (re-spelled, or protected by an
    entry spelled as itself) blanked out, as :func:`voice.speech.pronounced` matches them."""
    return pronounced(line, {word: _COVERED * len(word) for word in pronounce})


def heteronyms(lines: Iterable[str]) -> dict[str, list[str]]:
    """Each heteronym of ``lines`` and the lines where it occurs."""
    found: dict[str, list[str]] = {}
    for line in lines:
        for char in dict.fromkeys(HAN.findall(line)):
            if is_heteronym(char):
                found.setdefault(char, []).append(line)
    return found


def unreviewed(
    lines: Iterable[str], pronounce: Mapping[str, str], reviewed: str
) -> list[tuple[str, str]]:
    """The (character, line) pairs where a heteronym is said as the G2P guesses, unchecked:
    neither a ``[pronounce]`` entry covers it there nor is it in ``reviewed``."""
    found = []
    for line in lines:
        left = covered(line, pronounce)
        for char in dict.fromkeys(HAN.findall(left)):
            if char not in reviewed and is_heteronym(char):
                found.append((char, line))
    return found


def g2p_readings(text: str) -> list[tuple[str, str]]:
    """What the Mandarin G2P says for each Han character of ``text`` (already spoken: its
    words re-spelled, numbers and symbols in words), as (character, pinyin with tone digit):
    misaki's ZHG2P as voice.phonemes feeds it, Simplified, cut into words by jieba and each
    word read by pypinyin. For the review; loads jieba's dictionary (a second or two)."""
    import logging

    import jieba
    import zhconv
    from pypinyin import Style, lazy_pinyin

    jieba.setLogLevel(logging.WARNING)
    said = zhconv.convert(text, "zh-hans")
    found = []
    for run in re.findall(r"[\u4e00-\u9fff]+", said):
        for word in jieba.lcut(run, cut_all=False):
            said_as = lazy_pinyin(word, style=Style.TONE3, neutral_tone_with_five=True)
            found += zip(word, said_as, strict=True)  # a word of Han characters: one each
    return found
