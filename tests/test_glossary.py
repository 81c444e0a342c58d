"""One term for one thing: no line of a language uses a variant its glossary refuses
(syllabus/glossary.toml)."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from scenes.kit.planner import BEAT_MARK
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
        if where.startswith(("meta.", "speech.", "pronounce.")):
            continue
        text = BEAT_MARK.sub("", text)  # a beat's <name> is not a word of the line
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


CLAIMS = Path(__file__).resolve().parent.parent / "docs" / "claims.md"


def test_every_claim_names_a_line_that_exists() -> None:
    """docs/claims.md: each row's chapter is a locale table and each key one of its lines in
    both languages (a line removed or renamed must take its row along)."""
    tables = {lang: locale_table(lang) for lang in ("zh-TW", "en")}
    problems, rows = [], 0
    for line in CLAIMS.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if len(cells) != 4 or cells[0] in ("chapter", "---"):
            continue
        rows += 1
        chapters = [c.strip() for c in cells[0].split(",")]
        keys = [k.split("(")[0].strip() for k in re.split(r"[,/]", cells[1])]
        for key in (k for k in keys if k and k != "—"):
            for lang, table in tables.items():
                lines = [line for chapter in chapters for line in table.get(chapter, {})]
                if not fnmatch.filter(lines, key):
                    problems.append(f"{cells[0]} / {key}: no such line in {lang}")
    assert rows > 100 and not problems, "\n".join(problems[:20])
