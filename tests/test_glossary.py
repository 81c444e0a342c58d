"""One term for one thing: no line of a language uses a variant its glossary refuses
(syllabus/glossary.toml)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from syllabus.locale import locale_table

GLOSSARY = Path(__file__).resolve().parent.parent / "syllabus" / "glossary.toml"


def _strings(table: object, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(table, dict):
        for key, value in table.items():
            yield from _strings(value, f"{where}.{key}" if where else key)
    elif isinstance(table, list):
        for k, value in enumerate(table):
            yield from _strings(value, f"{where}[{k}]")
    elif isinstance(table, str):
        yield where, table


def _misuses(lang: str, table: dict) -> list[str]:
    rules = tomllib.loads(GLOSSARY.read_text(encoding="utf-8")).get(lang, [])
    found = []
    for where, text in _strings(table, ""):
        if where.startswith(("meta.", "speech.")):
            continue
        for rule in rules:
            for pattern in rule["not"]:
                if match := re.search(pattern, text):
                    found.append(f"[{where}] uses {match.group(0)!r}: say {rule['term']}")
    return found


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_every_line_uses_the_glossarys_terms(lang: str) -> None:
    problems = _misuses(lang, locale_table(lang))
    assert not problems, "\n".join(problems)


def test_the_glossary_catches_a_variant() -> None:
    table = {"demo": {"a": "每一行是一個字", "b": "這張 attention map", "c": "注意力權重"}}
    assert sorted({p.split(" uses")[0] for p in _misuses("zh-TW", table)}) == [
        "[demo.a]",
        "[demo.b]",
    ]
    assert _misuses("en", {"x": {"y": "the shares add up to 1"}})
    assert not _misuses("en", {"x": {"y": "positions that share its colour"}})
