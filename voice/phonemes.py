"""A line's words as Kokoro's phonemes: Mandarin by misaki's ZHG2P, English by espeak-ng.

A Kokoro voice's name says its language: ``z`` Mandarin, ``a`` American and ``b`` British
English (:func:`g2p_of`). Mandarin lines of this lecture hold Latin terms (self-attention,
softmax, Q, K): ZHG2P would leave them as raw letters, so a line is cut into Han and Latin
runs (:func:`runs`) and each Latin run is phonemised as English. Words a G2P still gets
wrong are re-spelled before this, by the locale's ``[pronounce]`` table (:mod:`voice.speech`).
The G2P models load once per process, on first use. Imports no Manim and no torch.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Literal

G2P = Literal["zh", "en-us", "en-gb"]
# A Latin run: words of letters (and digits after a letter), joined by spaces or hyphens.
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9'’]*(?:[\s\-]+[A-Za-z][A-Za-z0-9'’]*)*")
_PREFIX: dict[str, G2P] = {"z": "zh", "a": "en-us", "b": "en-gb"}


class PhonemeError(ValueError):
    """A voice whose language has no G2P here."""


def g2p_of(voice: str) -> G2P:
    """The G2P a Kokoro voice needs, by its name's first letter (``zf_xiaobei``: zh)."""
    if voice[:1] not in _PREFIX:
        raise PhonemeError(
            f"voice '{voice}': no phonemes for its language here "
            "(a Mandarin zf_/zm_ or an English af_/am_/bf_/bm_ voice)"
        )
    return _PREFIX[voice[:1]]


def runs(text: str) -> list[tuple[bool, str]]:
    """``text`` cut into (is_latin, run) pieces, in order, none empty."""
    pieces: list[tuple[bool, str]] = []
    at = 0
    for match in LATIN.finditer(text):
        if text[at : match.start()].strip():
            pieces.append((False, text[at : match.start()]))
        pieces.append((True, match.group()))
        at = match.end()
    if text[at:].strip():
        pieces.append((False, text[at:]))
    return pieces


@cache
def _english(dialect: str) -> Callable[[str], str]:
    from misaki import espeak  # phonemizer with its own espeak-ng library

    g2p = espeak.EspeakG2P(language=dialect)
    return lambda text: g2p(text)[0]


@cache
def _mandarin() -> Callable[[str], str]:
    import logging

    import jieba
    import zhconv
    from misaki.zh import ZHG2P

    jieba.setLogLevel(logging.WARNING)  # its dictionary's load messages are not ours to show
    g2p = ZHG2P()
    # Its word readings are keyed by Simplified characters: read from Traditional ones it
    # takes 長度 for zhǎng and 處理 for chù. The characters are converted, not the words
    # (zh-hans, not zh-cn: 影片 stays 影片).
    return lambda text: g2p(zhconv.convert(text, "zh-hans"))[0]


@cache
def _lexicon() -> tuple[dict, dict]:
    import json
    from importlib import resources

    data = resources.files("misaki") / "data"
    return tuple(
        json.loads((data / f"us_{kind}.json").read_text(encoding="utf-8"))
        for kind in ("gold", "silver")
    )  # type: ignore[return-value]


def _lexicon_word(word: str) -> str | None:
    for table in _lexicon():
        for key in (word, word.lower()):
            found = table.get(key)
            if isinstance(found, dict):  # a word read by its part of speech: the default
                found = found.get("DEFAULT")
            if isinstance(found, str):
                return found
    return None


def english_term(run: str) -> str:
    """A Latin run (``self-attention``, ``W Q``) as American English phonemes, word by word:
    misaki's lexicon, which Kokoro's English voices were trained on, else espeak-ng."""
    words = [w for w in re.split(r"[\s\-]+", run) if w]
    return " ".join(_lexicon_word(w) or _english("en-us")(w).strip() for w in words)


def phonemes(text: str, g2p: G2P) -> str:
    """``text`` (numbers and symbols already in words) as one phoneme string."""
    if g2p != "zh":
        return _english(g2p)(text).strip()
    english = _english("en-us")  # a Mandarin voice reads Latin terms in American English
    parts = [english(run) if latin else _mandarin()(run) for latin, run in runs(text)]
    return " ".join(part.strip() for part in parts if part.strip())
