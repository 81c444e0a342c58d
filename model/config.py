"""The lecture's configuration: the model's hyper-parameters and the example patterns.

The configuration is a frozen dataclass, written whole into the data file (as nanoGPT
stores its ``GPTConfig`` in a checkpoint), so a data file always says what made it.
Instructors override any field with a TOML file (``--config FILE``)::

    seed = 7
    steps = 800

    [examples]
    my_pattern = "RRGBBBGR"   # one initial per position, or a list of colour names
"""

from __future__ import annotations

import tomllib
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any


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


@dataclass(frozen=True)
class LectureConfig:
    """Everything that decides the model's run; same config, same numbers.

    Attributes
    ----------
    seed
        Seeds weight initialisation, training batches, validation and example values.
    positions
        Sequence length n of the colour task.
    colours
        Names of the task's colours; their initials (upper-cased) spell patterns.
    d
        Width of the attention head (Q, K and V have d columns).
    steps, lr, batch_size
        Adam training schedule.
    val_size
        Number of unseen sequences for validation.
    pe_width
        Width of the positional-encoding table drawn in the lecture (even).
    examples
        Named colour patterns whose attention the data file stores.
    """

    seed: int = 0
    positions: int = 8
    colours: tuple[str, ...] = ("red", "green", "blue")
    d: int = 8
    steps: int = 1000
    lr: float = 0.03
    batch_size: int = 64
    val_size: int = 256
    pe_width: int = 16
    examples: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("seed", "positions", "d", "steps", "batch_size", "val_size", "pe_width"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"key '{name}' must be an integer, got {value!r}")
            if value < (0 if name == "seed" else 1):
                raise ConfigError(f"key '{name}' must be positive, got {value}")
        if self.positions < 2 or self.positions > 16:
            raise ConfigError(f"key 'positions' must be between 2 and 16, got {self.positions}")
        if self.pe_width % 2:
            raise ConfigError(f"key 'pe_width' must be even, got {self.pe_width}")
        if not isinstance(self.lr, int | float) or not 0 < self.lr < 1:
            raise ConfigError(f"key 'lr' must be a number in (0, 1), got {self.lr!r}")
        initials = [c[:1].upper() for c in self.colours]
        if len(self.colours) < 2 or len(set(initials)) != len(initials):
            raise ConfigError(
                f"key 'colours' needs at least 2 names with distinct initials, got {self.colours}"
            )
        if not self.examples:
            object.__setattr__(self, "examples", default_examples(self.positions, initials))
        for name, pattern in self.examples.items():
            if len(pattern) != self.positions or any(ch not in initials for ch in pattern):
                raise ConfigError(
                    f"example '{name}' must be {self.positions} letters from "
                    f"{''.join(initials)}, got {pattern!r}"
                )

    @property
    def initials(self) -> str:
        """One upper-case letter per colour, in order (``"RGB"`` by default)."""
        return "".join(c[:1].upper() for c in self.colours)

    def pattern_indices(self, pattern: str) -> list[int]:
        """Colour indices of a pattern written as initials."""
        return [self.initials.index(ch) for ch in pattern]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["colours"] = list(self.colours)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "config") -> LectureConfig:
        """Build a config from plain data, rejecting unknown keys with a clear message.

        Examples given here are added to the default ones (an instructor lists extra
        patterns; the lecture's own patterns stay).
        """
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(
                f"{source}: unknown key '{unknown[0]}' (allowed: {', '.join(sorted(known))})"
            )
        values = dict(data)
        if "colours" in values:
            values["colours"] = tuple(values["colours"])
        raw_examples = values.pop("examples", {})
        if not isinstance(raw_examples, dict):
            raise ConfigError(f"{source}: key 'examples' must be a table of name = pattern")
        examples: dict[str, str] = {}
        for name, pattern in raw_examples.items():
            if isinstance(pattern, list):
                pattern = "".join(str(c)[:1] for c in pattern)
            examples[str(name)] = str(pattern).upper()
        try:
            base = cls(**values)
            return cls(**values, examples={**base.examples, **examples})
        except ConfigError as err:
            raise ConfigError(f"{source}: {err}") from None

    @classmethod
    def from_file(cls, path: str | Path) -> LectureConfig:
        """Read a TOML config file; every problem is a one-line :class:`ConfigError`."""
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"config file {path} not found") from None
        except tomllib.TOMLDecodeError as err:
            raise ConfigError(f"config file {path} is not valid TOML: {err}") from None
        return cls.from_dict(data, source=f"config file {path}")
