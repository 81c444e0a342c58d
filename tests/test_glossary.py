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


def _first_use(pattern: str, tables: dict, order: list[str]) -> str | None:
    """The first chapter (in lecture order) one of whose lines matches ``pattern``."""
    for chapter in order:
        if any(
            re.search(pattern, BEAT_MARK.sub("", text))
            for _, text in _strings(tables.get(chapter, {}), "")
        ):
            return chapter
    return None


def _taught_late(lang: str, tables: dict, order: list[str]) -> list[str]:
    problems = []
    for entry in tomllib.loads(GLOSSARY.read_text(encoding="utf-8"))["taught"]:
        chapter = entry["chapter"] if isinstance(entry["chapter"], str) else entry["chapter"][lang]
        first = _first_use(entry[lang], tables, order)
        if first != chapter:
            problems.append(f"{entry[lang]!r}: taught in [{chapter}], first used in [{first}]")
        tested = _first_use(
            entry[lang], {k: tables.get(k, {}) for k in ("summary", "quiz")}, ["summary", "quiz"]
        )
        if tested is None:
            problems.append(f"{entry[lang]!r}: neither the summary nor the quiz uses it")
    return problems


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_every_term_the_quiz_uses_is_taught_first(lang: str) -> None:
    """glossary.toml's [[taught]]: each term's first use is the chapter that teaches it,
    before the summary and the quiz test it."""
    from syllabus.plan import checked

    order = [chapter.scene_key for chapter in checked()]
    assert order.index("summary") < order.index("quiz")
    problems = _taught_late(lang, locale_table(lang), order)
    assert not problems, "\n".join(problems)


def test_the_order_check_catches_a_term_used_too_early() -> None:
    order = ["office", "sqrt_d", "summary", "quiz"]
    tables = {
        "office": {"a": "softmax 飽和了"},  # used before sqrt_d teaches it
        "sqrt_d": {"b": "這叫 softmax 飽和"},
        "quiz": {"c": "softmax 飽和"},
    }
    assert any("first used in [office]" in p for p in _taught_late("zh-TW", tables, order))


def _distractors_said(lang: str, table: dict) -> list[str]:
    """Wrong choices of the quiz (phrases: a name such as Q is not a claim) that a chapter's
    line says word for word."""
    said = [
        BEAT_MARK.sub("", text).lower()
        for chapter, lines in table.items()
        if chapter not in ("quiz", "meta", "speech", "pronounce", "readings", "lab", "page")
        for _, text in _strings(lines, "")
    ]
    found = []
    for key, line in table["quiz"].items():
        if not key.startswith("choices_"):
            continue
        for choice in line.split("|"):
            if choice.startswith("*") or len(choice) < 3:  # a name (Q, K) is not a claim
                continue
            if any(choice.lower() in s for s in said):
                found.append(f"[quiz] {key}: the wrong choice {choice!r} is said by the lecture")
    return found


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_no_wrong_choice_of_the_quiz_is_what_the_lecture_says(lang: str) -> None:
    problems = _distractors_said(lang, locale_table(lang))
    assert not problems, "\n".join(problems)


def test_the_distractor_check_catches_one() -> None:
    table = {
        "shuffle": {"a": "數字都沒變，完全不變"},
        "quiz": {"choices_2": "*跟著一起打亂|完全不變"},
    }
    assert _distractors_said("zh-TW", table) == [
        "[quiz] choices_2: the wrong choice '完全不變' is said by the lecture"
    ]
