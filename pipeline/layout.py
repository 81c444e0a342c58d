"""Where each language's lecture lives in the output folder: the lecture file's first
language in ``out`` itself, every other in ``out/<lang>`` (:meth:`Run.lang_out`), and
moving what an earlier layout left elsewhere."""

from __future__ import annotations

import os
from pathlib import Path

from pipeline.options import Run
from pipeline.records import ASSEMBLED, MANIFEST, read_record

LANGUAGE_FILES = ("segments", "stills", *ASSEMBLED, MANIFEST)  # a language's part of out


def language_in(folder: Path) -> str | None:
    """Whose segments a folder holds (None: none)."""
    records = sorted((folder / "segments").glob("*.json"))
    said = read_record(records[0]) if records else None
    return said.lang if said else None


def settle_layout(r: Run) -> None:
    """Move a language's rendered files to where :meth:`Run.lang_out` puts them, when an
    earlier layout left them elsewhere (``out/<lang>`` for the first language, ``out`` for
    another), so that nothing renders again and nothing stale stays behind.

    A language moves once its place is free: the first language of a file whose languages
    were swapped leaves out/ for out/<lang> before the new first one moves into out/."""
    waiting = [lang for lang in r.langs if language_in(r.lang_out(lang)) != lang]
    while waiting:
        moved = False
        for lang in list(waiting):
            target = r.lang_out(lang)
            sources = [s for s in (r.out, r.out / lang) if s != target]
            source = next((s for s in sources if language_in(s) == lang), None)
            if source is None:  # nothing of it rendered anywhere: it renders in place
                waiting.remove(lang)
                continue
            if language_in(target) is not None:  # another language's, not yet moved away
                continue
            _move(source, target, r.out)
            print(f"render: moved the {lang} lecture from {source} to {target}")
            waiting.remove(lang)
            moved = True
        if not moved:  # a place held by a language this run does not render: left as it is
            break


def _move(source: Path, target: Path, out: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for name in LANGUAGE_FILES:
        if (source / name).exists() and not (target / name).exists():
            os.replace(source / name, target / name)
    if source != out and not any(source.iterdir()):
        source.rmdir()  # out/<lang> emptied: nothing stale stays behind
