"""The lecture's configuration: the model's hyper-parameters and the example patterns.

The configuration is a frozen pydantic model, written whole into the data file (as
nanoGPT stores its ``GPTConfig`` in a checkpoint), so a data file always says what made
it, and the loader validates it with the same model. Instructors set any field under
``[task]`` in their lecture file (``--config FILE``, see common/default_lecture.toml)::

    [task]
    seed = 7
    steps = 800

    [task.examples]
    my_pattern = "RRGBBBGR"   # one initial per position, or a list of colour names
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Self

from pydantic import Field, ValidationError, field_validator, model_validator

from common.defaults import default
from common.schema import (
    LANGUAGE_CODE,
    GivenVector,
    Shape,
    ShapeError,
    describe,
    one_line,
    read_toml,
)
from model.sentences import Pronoun, Walkthrough
from model.streams import MAX_SEED


def default_examples(positions: int, initials: str) -> dict[str, str]:
    """The lecture's own patterns for ``positions`` positions and the given colour initials.

    ``mixed`` cycles through every colour; ``all_same`` has one group of n (weights 1/n);
    ``halves`` two groups of n/2; ``one_two_rest`` a group of 1, a group of 2 and the rest
    in the last colour (weights 1/1, 1/2, 1/(n-3)); ``pairs_and_rest`` two pairs and the
    rest (1/2, 1/2, 1/(n-4)). With 8 positions and 3 colours, groups of exactly 1, 2 and 4
    cannot occur (1 + 2 + 4 = 7); these patterns show 1/8, 1/4, 1/2 and 1/1 between them.
    """
    first, second, last = initials[0], initials[1], initials[-1]
    half = positions // 2
    examples = {
        "mixed": "".join(initials[i % len(initials)] for i in range(positions)),
        "all_same": first * positions,
        "halves": first * half + last * (positions - half),
    }
    if positions >= 4:
        examples["one_two_rest"] = first + second * 2 + last * (positions - 3)
    if positions >= 6:
        examples["pairs_and_rest"] = first * 2 + second * 2 + last * (positions - 4)
    return examples


class ConfigError(ValueError):
    """A configuration value is missing, of the wrong type or out of range."""


# Keys an older config file may still have, and why they are gone.
REMOVED = {
    "pe_width": "was removed: the positional table drawn is the one the model adds, as wide "
    "as its input (delete the key)",
}


# The office room holds Keys within these bounds (scenes/kit/diagrams.py: OfficeRoom).
OFFICE_REACH = (2.2, 1.8)


class Colleague(Shape):
    """One person of the office: who (a key of the locale's [office] table, which holds
    their name in each language), where they stand (their Key) and what they hold (days)."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    key: GivenVector = Field(min_length=2, max_length=2)
    days: float = Field(gt=0, le=99, allow_inf_nan=False)

    @model_validator(mode="after")
    def _inside(self) -> Self:
        (x, y), (reach_x, reach_y) = self.key, OFFICE_REACH
        if abs(x) > reach_x or abs(y) > reach_y:
            raise ShapeError("key", f"must stand in the room (|x| ≤ {reach_x}, |y| ≤ {reach_y})")
        return self


class LectureConfig(Shape):
    """Everything that decides the model's run; same config, same numbers.

    Attributes
    ----------
    seed
        Seeds weight initialisation, training batches, validation and example values.
    positions
        Sequence length n of the colour task (2 to 16).
    colours
        Names of the task's colours; their initials (upper-cased) spell patterns.
    d
        Width of the attention head (Q, K and V have d columns).
    steps, lr, batch_size
        Adam training schedule.
    val_size
        Number of unseen sequences for validation.
    examples
        Named colour patterns whose attention the data file stores; the lecture's own
        patterns (:func:`default_examples`) are always there.
    sqrt_d_dims
        The head widths d of the √d probe, increasing (the sqrt_d chapter sweeps them).
    office
        The office analogy's people: 2 to 8, the first one the Query arrow grows towards.
    walkthrough, pronoun
        The hand-made sentences and their vectors (:mod:`model.sentences`).
    walkthroughs
        A language's own walkthrough sentence, by language code (``[task.walkthroughs.en]``):
        that language's chapters follow it instead of ``walkthrough`` (:meth:`walkthrough_in`).
    """

    # No defaults here: every omitted key takes its value from the built-in lecture file's
    # [task] (common/default_lecture.toml), the one home of each default.
    seed: int = Field(ge=0, le=MAX_SEED)
    positions: int = Field(ge=2, le=16)
    colours: tuple[str, ...]
    d: int = Field(ge=1, le=512)
    steps: int = Field(ge=1, le=100_000)
    lr: float = Field(gt=0, lt=1)
    batch_size: int = Field(ge=1, le=4096)
    val_size: int = Field(ge=1, le=100_000)
    examples: dict[str, str]
    sqrt_d_dims: tuple[int, ...]
    office: tuple[Colleague, ...]
    walkthrough: Walkthrough
    walkthroughs: dict[str, Walkthrough]
    pronoun: Pronoun

    @model_validator(mode="before")
    @classmethod
    def _defaults(cls, data: Any) -> Any:
        """Each omitted key takes the built-in lecture file's value; but the built-in
        languages' own sentences (``walkthroughs``) tell the built-in walkthrough's story: with
        a walkthrough of one's own, they are left out, whether omitted or kept as printed."""
        if isinstance(data, dict):
            built_in = default("task")
            merged = {**built_in, **data}
            theirs = merged["walkthrough"] != built_in["walkthrough"]
            if theirs and merged["walkthroughs"] == built_in["walkthroughs"]:
                merged["walkthroughs"] = {}
            return merged
        return data

    @field_validator("office", mode="before")
    @classmethod
    def _office(cls, value: Any) -> Any:
        if isinstance(value, list):
            people = []
            for k, person in enumerate(value, 1):
                try:
                    people.append(Colleague.model_validate(person))
                except ValidationError as err:
                    path, problem = describe(err)
                    raise ValueError(f"person {k}: '{path}' {problem}") from None
            value = tuple(people)
        if not isinstance(value, tuple) or not 2 <= len(value) <= 8:
            raise ValueError("must list 2 to 8 people ([[task.office]] tables)")
        ids = [p.id for p in value]
        if len(set(ids)) != len(ids):
            raise ValueError(f"lists a person twice: {ids}")
        return value

    @field_validator("sqrt_d_dims", mode="before")
    @classmethod
    def _dims(cls, value: Any) -> Any:
        if isinstance(value, list):
            value = tuple(value)
        if (
            not isinstance(value, tuple)
            or len(value) < 2
            or not all(isinstance(d, int) and not isinstance(d, bool) for d in value)
            or any(not 1 <= d <= 4096 for d in value)
            or list(value) != sorted(set(value))
        ):
            raise ValueError(
                f"must be at least 2 increasing whole numbers in 1..4096, got {value!r}"[:90]
            )
        return value

    @field_validator("colours", mode="before")
    @classmethod
    def _colour_list(cls, value: Any) -> Any:
        # TOML and JSON give a list; strict tuples would refuse it.
        if isinstance(value, list) and all(isinstance(c, str) for c in value):
            return tuple(value)
        if not isinstance(value, tuple):
            raise ValueError(f"must be a list of colour names, got {value!r}"[:80])
        return value

    @field_validator("examples", mode="before")
    @classmethod
    def _patterns(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            raise ValueError("must be a table of name = pattern")
        patterns = {}
        for name, pattern in value.items():
            if isinstance(pattern, list) and all(isinstance(c, str) and c for c in pattern):
                pattern = "".join(c[:1] for c in pattern)
            if not isinstance(pattern, str):
                raise ValueError(f"'{name}' must be a string of initials or a list of colours")
            patterns[str(name)] = pattern.upper()
        return patterns

    @model_validator(mode="after")
    def _check(self) -> Self:
        initials = self.initials
        if len(self.colours) < 2 or len(set(initials)) != len(initials) or "" in self.colours:
            raise ShapeError(
                "colours",
                f"needs at least 2 names with distinct initials, got {list(self.colours)}",
            )
        examples = {**default_examples(self.positions, initials), **self.examples}
        for name, pattern in examples.items():
            if len(pattern) != self.positions or any(ch not in initials for ch in pattern):
                raise ShapeError(
                    f"examples.{name}",
                    f"must be {self.positions} letters from {initials}, got {pattern!r}",
                )
        object.__setattr__(self, "examples", examples)
        return self

    @field_validator("walkthroughs", mode="after")
    @classmethod
    def _languages(cls, value: dict[str, Walkthrough]) -> dict[str, Walkthrough]:
        for lang in value:
            if not LANGUAGE_CODE.fullmatch(lang):
                raise ValueError(f"'{lang}' is not a language code (such as en or zh-TW)")
        return value

    def walkthrough_in(self, lang: str) -> Walkthrough:
        """The walkthrough sentence ``lang``'s chapters follow: its own, else the lecture's."""
        return self.walkthroughs.get(lang, self.walkthrough)

    @property
    def initials(self) -> str:
        """One upper-case letter per colour, in order (``"RGB"`` by default)."""
        return "".join(c[:1].upper() for c in self.colours)

    def pattern_indices(self, pattern: str) -> list[int]:
        """Colour indices of a pattern written as initials."""
        return [self.initials.index(ch) for ch in pattern]

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @classmethod
    def from_dict(cls, data: Any, source: str = "config", prefix: str = "") -> LectureConfig:
        """Build a config from plain data; every problem is a one-line ConfigError."""
        if not isinstance(data, dict):
            raise ConfigError(f"{source}: '{prefix or 'top level'}' must be a table")
        known = sorted(cls.model_fields)
        for key, why in REMOVED.items():
            if key in data:
                raise ConfigError(f"{source}: '{prefix + '.' if prefix else ''}{key}' {why}")
        unknown = sorted(set(data) - set(known))
        if unknown:
            where = f"{prefix}." if prefix else ""
            raise ConfigError(
                f"{source}: unknown key '{where}{unknown[0]}' (allowed: {', '.join(known)})"
            )
        try:
            return cls.model_validate(data)
        except ValidationError as err:
            raise ConfigError(one_line(source, err, [prefix] if prefix else [])) from None

    @classmethod
    def from_file(cls, path: str | Path) -> LectureConfig:
        """The ``[task]`` of a lecture file; every problem is a one-line :class:`ConfigError`.

        The file's other keys (chapters, languages...) are the lecture's, checked by
        ``syllabus.lecture_file``; a model key at the top level (the older config file) is
        named with where it went.
        """
        source = f"lecture file {path}"
        data = read_toml(path, "lecture file", ConfigError)
        moved = sorted(set(data) & set(cls.model_fields))
        if moved:
            raise ConfigError(f"{source}: '{moved[0]}' belongs under [task] now")
        task = data.get("task", {})
        return cls.from_dict(task, source, prefix="task")
