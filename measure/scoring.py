"""How much of a line a recogniser heard: error rates over words, and the Latin terms.

A line and what was heard are made alike first (:func:`tokens`): one script (zhconv, to
Traditional), lower case, punctuation dropped, numbers in words as the project says them
(:func:`voice.speech.spoken`), a hyphen as a space. Mandarin is scored by character: each
Han character is one unit and so is each Latin word (``softmax``, ``Q``), so that a term
heard as two syllables of Chinese counts as one error, not as many. English is scored by
word. Where the recogniser splits a term the line says whole ("soft max" for "softmax")
the pieces are joined back before scoring, and so are single letters said in a row ("W Q"
and "WQ" are one unit); British and American spellings count as one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from voice.speech import spoken

HAN = r"[\u3400-\u9fff\uf900-\ufaff]"
_UNIT = re.compile(rf"{HAN}|[a-z0-9]+")
LATIN_WORD = re.compile(r"[a-z][a-z0-9']*")
# A letter said alone is often written as the word it sounds like: heard right.
LETTER_NAMES = {"q": ("cue", "queue"), "k": ("kay",), "v": ("vee",), "t": ("tee", "tea"),
                "d": ("dee",), "w": ("double",)}  # fmt: skip


def tokens(text: str, lang: str) -> list[str]:
    """``text`` as the units it is scored by (see the module's docstring)."""
    if lang != "en":
        import zhconv

        text = zhconv.convert(text, "zh-tw")
    text = spoken(text, "en" if lang == "en" else "zh").lower()
    text = text.replace("-", " ").replace("’", "").replace("'", "")
    return [
        unit
        for chunk in re.split(r"[，。、；：！？,.;:!?()（）「」]", text)
        for unit in _letters_joined([SPELLING.get(u, u) for u in _UNIT.findall(chunk)])
    ]


SPELLING = {"colour": "color", "colours": "colors", "neighbour": "neighbor", "grey": "gray"}


def _letters_joined(units: list[str]) -> list[str]:
    """Neighbouring single letters as one unit ("w", "q" -> "wq"), as a recogniser writes
    a spelled-out name ("WQ") either way."""
    out: list[str] = []
    spelled = False  # whether the last unit is letters joined here
    for unit in units:
        letter = len(unit) == 1 and "a" <= unit <= "z"
        if letter and out and (spelled or (len(out[-1]) == 1 and "a" <= out[-1] <= "z")):
            out[-1] += unit
            spelled = True
        else:
            out.append(unit)
            spelled = False
    return out


def _joined(heard: list[str], said: set[str]) -> list[str]:
    """``heard`` with neighbouring Latin pieces joined where together they are a word of
    ``said`` ("soft", "max" -> "softmax"; three pieces at most)."""
    out: list[str] = []
    k = 0
    while k < len(heard):
        for n in (3, 2):
            whole = "".join(heard[k : k + n])
            if (
                len(heard[k : k + n]) == n
                and whole in said
                and all(LATIN_WORD.fullmatch(p) for p in heard[k : k + n])
            ):
                out.append(whole)
                k += n
                break
        else:
            out.append(heard[k])
            k += 1
    return out


def alignment(ref: Sequence[str], hyp: Sequence[str]) -> tuple[int, list[tuple[int, int]]]:
    """The edit distance of ``hyp`` from ``ref`` and the pairs (i, j) it keeps equal."""
    n, m = len(ref), len(hyp)
    d = [[0] * (m + 1) for _ in range(n + 1)]  # d[i][j]: ref[:i] against hyp[:j]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            same = ref[i - 1] == hyp[j - 1]
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (not same))
    kept, i, j = [], n, m
    while i and j:
        if ref[i - 1] == hyp[j - 1] and d[i][j] == d[i - 1][j - 1]:
            kept.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif d[i][j] == d[i - 1][j - 1] + 1:
            i, j = i - 1, j - 1
        elif d[i][j] == d[i - 1][j] + 1:
            i -= 1
        else:
            j -= 1
    return d[n][m], kept[::-1]


@dataclass(frozen=True)
class Score:
    """One line: its units, the errors among them, and its Latin words (Mandarin only)."""

    said: str
    heard: str
    units: int
    errors: int
    latin: int
    latin_heard: int
    missed: tuple[str, ...]
    letters: int = 0  # of the Latin words, those of one letter (d, k, W)
    letters_heard: int = 0

    @property
    def rate(self) -> float:
        return self.errors / max(self.units, 1)


def score(said: str, heard: str, lang: str) -> Score:
    """How well ``heard`` matches the line ``said`` (as the voice was given it)."""
    ref, hyp = tokens(said, lang), tokens(heard, lang)
    latin = {t for t in ref if LATIN_WORD.fullmatch(t)}
    hyp = _joined(hyp, latin)
    hyp = [
        next((letter for letter in latin & LETTER_NAMES.keys() if t in LETTER_NAMES[letter]), t)
        for t in hyp
    ]
    errors, kept = alignment(ref, hyp)
    matched = {i for i, _ in kept}
    terms = [i for i, t in enumerate(ref) if LATIN_WORD.fullmatch(t)] if lang != "en" else []
    missed = tuple(ref[i] for i in terms if i not in matched)
    letters = [i for i in terms if len(ref[i]) == 1]
    return Score(
        said,
        heard,
        len(ref),
        errors,
        len(terms),
        len(terms) - len(missed),
        missed,
        len(letters),
        sum(i in matched for i in letters),
    )
