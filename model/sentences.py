"""The lecture's hand-made sentences: the walkthrough and the pronoun sentence.

Both are a part of the lecture file (``[task.walkthrough]``, ``[task.pronoun]``), so an
instructor can bring their own words and vectors. The vectors are inputs chosen by hand
so that each dimension means something; every score, weight and output is computed from
them by :mod:`model.handmade`. Imports no torch.

* The **walkthrough** (seed 003's "我 吃 蘋果 很 開心") is followed from Q, K and V to the
  weighted sum by its first ``short`` words; the last of those asks. The causal chapter
  uses the whole sentence, so at least one word comes after the one that asks. The why
  chapter shows the asking word in ``other_sense``, a sentence where it means something
  else.
* The **pronoun** sentence (seed 002's "The cat was scared so it hid") has one word,
  ``query``, that looks for what it refers to; the √d and temperature chapters turn knobs
  on its row. Its Value is its Key (V = K), as on seed 002's page.

Names shown on screen (the meaning of each dimension, the two senses) are either one list
for every language or a table with a list per language (``{ "zh-TW" = [...], en = [...] }``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Self

from pydantic import Field, model_validator

from common.schema import GivenMatrix, GivenVector, Shape, ShapeError, need_length, need_matrix

MAX_WORDS = 9  # the longest sentence the pictures hold (the causal map, the T bars)
MAX_SHORT = 4  # the most words the walkthrough follows (one row of working each)
MAX_DIMS = 4  # the widest vector: W_Q, W_K and W_V are as tall, beside the kept rows
MAX_VOCABULARY = 60  # the most words the page's own-sentence demo ships besides the sentence's
# The pronoun's row at several temperatures T (model.handmade divides its scores by √d·T).
IT_CAT_TEMPERATURES = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
# The largest score the data file may hold: model.handmade stores exp(score), which float64
# keeps finite below about 709.
MAX_SCORE = 700.0

Names = list[str] | dict[str, list[str]]  # one list for every language, or one per language
Words = list[str]


def names_in(names: Names, lang: str) -> list[str] | None:
    """The names for ``lang``: the one list, or that language's list (None: it has none)."""
    return names if isinstance(names, list) else names.get(lang)


def _words(key: str, value: Any, least: int = 2) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(w, str) and w.strip() for w in value):
        raise ShapeError(key, "must be a list of non-empty words")
    if not least <= len(value) <= MAX_WORDS:
        raise ShapeError(key, f"must have {least} to {MAX_WORDS} words, got {len(value)}")
    return value


def _names(key: str, names: Names, length: int) -> None:
    lists = names.items() if isinstance(names, dict) else [("", names)]
    for lang, each in lists:
        where = f"{key}.{lang}" if lang else key
        if len(each) != length or not all(n.strip() for n in each):
            raise ShapeError(where, f"must name each of the {length} dimensions, got {each!r}"[:90])


def _vectors(key: str, matrix: list[list[float]], rows: int, width: int) -> None:
    if len(matrix) != rows:
        raise ShapeError(key, f"has {len(matrix)} rows, expected one per word ({rows})")
    for i, row in enumerate(matrix):
        if len(row) != width:
            raise ShapeError(f"{key}[{i}]", f"has {len(row)} numbers, expected {width}")


def _vocabulary(vocabulary: dict[str, list[float]], width: int) -> None:
    if len(vocabulary) > MAX_VOCABULARY:
        raise ShapeError("vocabulary", f"has {len(vocabulary)} words, at most {MAX_VOCABULARY}")
    for word, vector in vocabulary.items():
        if not word.strip() or any(ch.isspace() for ch in word):
            raise ShapeError("vocabulary", f"has the word {word!r}: one word, no spaces")
        if len(vector) != width:
            raise ShapeError(f"vocabulary.{word}", f"has {len(vector)} numbers, expected {width}")


def _product(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]]) -> list[list[float]]:
    """The matrix product ``a @ b`` (no torch here)."""
    return [
        [math.fsum(x * y for x, y in zip(row, col, strict=True)) for col in zip(*b, strict=True)]
        for row in a
    ]


def _scores_bounded(key: str, q: GivenMatrix, k: GivenMatrix, scale: float, how: str) -> None:
    """Every score ``q·k / scale`` is within :data:`MAX_SCORE`, else a ShapeError at ``key``."""
    largest = max(
        abs(math.fsum(a * b for a, b in zip(qi, kj, strict=True))) for qi in q for kj in k
    )
    if largest / scale > MAX_SCORE:
        raise ShapeError(
            key,
            f"gives a score of {largest / scale:.3g} ({how}): at most {MAX_SCORE:g}, so that "
            "exp(score) stays a number: use smaller numbers",
        )


class OtherSense(Shape):
    """The asking word in a sentence where it means something else (the why chapter)."""

    tokens: Words
    gloss: Words | None = None  # shown in languages whose [eat_apple] show = "gloss"
    word: int = Field(ge=0)  # where the asking word stands in ``tokens``
    means: Names  # two short names: its sense here, then its sense in the walkthrough

    @model_validator(mode="after")
    def _check(self) -> Self:
        _words("tokens", self.tokens)
        if self.gloss is not None:
            need_length("gloss", self.gloss, len(self.tokens))
        if self.word >= len(self.tokens):
            raise ShapeError("word", f"must be below {len(self.tokens)} (a position in tokens)")
        _names("means", self.means, 2)
        return self


class Walkthrough(Shape):
    """The sentence followed from Q, K and V to the weighted sum, then under the mask."""

    tokens: Words
    gloss: Words | None = None  # shown in languages whose [eat_apple] show = "gloss"
    short: int = Field(ge=2, le=MAX_SHORT)  # the words followed; the last of them asks
    dims: Names  # what each dimension of the vectors means
    x: GivenMatrix  # one input vector per word
    w_q: GivenMatrix  # rows: the input dimension; columns: the Query's
    w_k: GivenMatrix
    w_v: GivenMatrix
    other_sense: OtherSense | None = None  # the why chapter needs it
    # More words with their vectors, for the page's "your own sentence" demo (its table
    # holds these and the sentence's own words): {word: one number per dimension}
    vocabulary: dict[str, GivenVector] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _check(self) -> Self:
        n = len(_words("tokens", self.tokens, least=3))
        if self.gloss is not None:
            need_length("gloss", self.gloss, n)
        if self.short >= n:
            raise ShapeError(
                "short",
                f"must be below the {n} words: the causal chapter shows the words after it",
            )
        width = len(self.x[0]) if self.x else 0
        if not 2 <= width <= MAX_DIMS:
            raise ShapeError("x[0]", f"must have 2 to {MAX_DIMS} numbers, got {width}")
        _vectors("x", self.x, n, width)
        for key in ("w_q", "w_k", "w_v"):
            need_matrix(key, getattr(self, key), width, width)
        _names("dims", self.dims, width)
        _vocabulary(self.vocabulary, width)
        words = [*self.x, *self.vocabulary.values()]  # the page's own sentences score these
        q, k = _product(words, self.w_q), _product(words, self.w_k)
        _scores_bounded(
            "x",
            q,
            k,
            math.sqrt(width),
            "x·W_Q with x·W_K over √d, a word's vector from x or vocabulary",
        )
        sense = self.other_sense
        asking = self.tokens[self.short - 1].casefold()  # "Apple" the company is still "apple"
        if sense is not None and sense.tokens[sense.word].casefold() != asking:
            raise ShapeError(
                "other_sense.word",
                f"must point at the asking word '{self.tokens[self.short - 1]}', "
                f"found '{sense.tokens[sense.word]}'",
            )
        glosses = (self.gloss, sense.gloss if sense is not None else None)
        if sense is not None and glosses[0] is not None and glosses[1] is not None:
            asked, shared = glosses[0][self.short - 1], glosses[1][sense.word]
            if asked.casefold() != shared.casefold():  # "Apple" the company is still "apple"
                raise ShapeError(
                    f"other_sense.gloss[{sense.word}]",
                    f"is '{shared}', but the word both sentences share is glossed '{asked}' in "
                    "'gloss': the why chapter says they contain the same word, so gloss it "
                    "the same",
                )
        return self


class Pronoun(Shape):
    """A sentence with a word that looks for what it refers to; V = K."""

    tokens: Words
    query: int = Field(ge=0)  # the word that looks (the pronoun)
    dims: Names  # what each dimension of Q and K means
    q: GivenMatrix  # one Query per word
    k: GivenMatrix  # one Key per word (also its Value)

    @model_validator(mode="after")
    def _check(self) -> Self:
        n = len(_words("tokens", self.tokens))
        if self.query >= n:
            raise ShapeError("query", f"must be below {n} (a position in tokens)")
        width = len(self.q[0]) if self.q else 0
        if not 2 <= width <= MAX_DIMS:
            raise ShapeError("q[0]", f"must have 2 to {MAX_DIMS} numbers, got {width}")
        _vectors("q", self.q, n, width)
        _vectors("k", self.k, n, width)
        _names("dims", self.dims, width)
        coolest = min(1.0, math.sqrt(width) * min(IT_CAT_TEMPERATURES))  # unscaled, or T = 0.25
        how = f"q·k over √d·T at T = {min(IT_CAT_TEMPERATURES):g}" if coolest < 1 else "q·k"
        _scores_bounded("q", self.q, self.k, coolest, how)
        return self
