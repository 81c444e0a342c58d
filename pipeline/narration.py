"""The instructor's own voice: the script to read, and the recordings checked before a render.

``render.py --narration-script --narration DIR`` dry-runs each chapter (no frame drawn), takes
every line it says, and writes into DIR ``script.txt`` and ``script.html`` (numbered lines
with the file each recording goes to) and ``narration.json`` (the same, for render.py). A
render with ``--narration DIR`` reads ``narration.json`` first: recordings that are missing
are listed, and every one present is decoded and checked (not empty, not silent, not longer
than a line may be) before anything renders.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

from common.atomic import write_text_atomic
from common.files import NarrationFile, OwnFileError, ScriptLine, inside, odd_file
from common.text import html_text, one_line
from voice.clips import (
    FORMATS,
    MAX_LINE_SECONDS,
    VoiceError,
    check_recording,
    decode,
    find_recording,
)


def write_script(folder: Path, lang: str, entries: list[ScriptLine]) -> list[Path]:
    """script.txt, script.html and narration.json in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    text = [f"Narration script ({lang}): record each line into the file named after it.", ""]
    rows = []
    for k, entry in enumerate(entries, start=1):
        text.append(f"{k:4d}. {entry.file}.wav\n      {one_line(entry.text)}")
        rows.append(
            f"<tr><td>{k}</td><td><code>{html.escape(entry.file)}.wav</code></td>"
            f"<td>{html_text(entry.text)}</td></tr>"
        )
    page = (
        f'<!doctype html>\n<html lang="{html.escape(lang)}"><meta charset="utf-8">'
        f"<title>Narration script ({html.escape(lang)})</title>"
        "<style>body{font:16px/1.5 sans-serif;margin:2em}td{padding:.4em .8em;"
        "vertical-align:top;border-bottom:1px solid #ccc}tr{break-inside:avoid}</style>"
        f"<h1>Narration script ({html.escape(lang)})</h1><table>{''.join(rows)}</table></html>\n"
    )
    paths = [folder / "script.txt", folder / "script.html", folder / NarrationFile.NAME]
    write_text_atomic(paths[0], "\n".join(text) + "\n")
    write_text_atomic(paths[1], page)
    NarrationFile(lang=lang, lines=entries).write(paths[2])
    return paths


def read_manifest(folder: Path) -> list[ScriptLine]:
    """The lines a narration folder should hold (its narration.json)."""
    path = folder / NarrationFile.NAME
    try:
        return NarrationFile.read(path).lines
    except FileNotFoundError:
        raise VoiceError(
            f"{path} not found: write the script first (render.py --narration-script "
            f"--narration {folder})"
        ) from None
    except (OSError, OwnFileError) as err:
        raise VoiceError(f"{path}: not a narration list ({err})") from None


def check_folder(folder: Path, scenes: set[str]) -> list[str]:
    """Check every recording of ``scenes`` (chapter names or scene tables) now, one line per
    bad file, raised together; return the names of the lines with no recording yet."""
    missing, problems = [], []
    for entry in read_manifest(folder):
        if entry.scene not in scenes and entry.file.split("/")[0] not in scenes:
            continue
        home = inside(folder, entry.file).parent  # the scene's folder
        if os.path.lexists(home) and not home.is_dir():
            problems.append(f"{home}: is not a folder (the scene's recordings go in one)")
            continue
        # a folder, a pipe or a loop of links named like a recording: never opened
        odd = [
            (p, kind)
            for ext in FORMATS
            if (kind := odd_file(p := inside(folder, f"{entry.file}{ext}")))
        ]
        if odd:
            path, kind = odd[0]
            problems.append(f"{path}: is {kind}, not a recording")
            continue
        path = find_recording(folder, entry.file)
        if path is None:
            stray = [p for p in folder.glob(f"{entry.file}.*") if p.suffix not in FORMATS]
            if stray:
                problems.append(f"{stray[0]}: unsupported format (use {', '.join(FORMATS)})")
            missing.append(entry.file)
            continue
        try:
            check_recording(path, decode(path, MAX_LINE_SECONDS), entry.text)
        except VoiceError as err:
            problems.append(str(err))
    if problems:
        raise VoiceError("; ".join(problems[:5]) + (" ..." if len(problems) > 5 else ""))
    return missing
