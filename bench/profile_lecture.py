"""Where the voiced lecture's render time goes, cold and cached: one markdown table.

    .venv/bin/python bench/profile_lecture.py [--quality high] [--scenes a,b] [--voice none]

Runs ``render.py --force`` with the profile setting (``LECTURE_PROFILE``, common/timers.py)
into a fresh out folder, cold (its voice cache and formula cache empty; the data file is
out/'s, or trained first, as training is no part of a render), then again into the same folder,
cached (both caches warm). Prints, per chapter and in total, the CPU seconds per second of
video of each share, cold / cached, and each run's wall seconds and wall seconds per second
of video. ``--scenes`` renders a lecture of those chapters only (a lecture file listing
them), so that it is assembled as the whole one is. Machines are shared and noisy: read
the shares, which come from one run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.defaults import DEFAULT_LECTURE  # noqa: E402
from common.settings import PREFIX  # noqa: E402
from common.timers import SHARES, profile_file  # noqa: E402
from syllabus.lecture_file import load_lecture  # noqa: E402
from syllabus.plan import DEFAULT_PLAN  # noqa: E402

RUNS = ("cold", "cached")
Profiles = dict[str, dict]  # chapter: its profile file's contents


def lecture_file(folder: Path, scenes: str | None) -> Path:
    """The built-in lecture file, its chapters ``scenes`` (all by default)."""
    path = folder / "lecture.toml"
    text = DEFAULT_LECTURE.read_text(encoding="utf-8")
    if scenes:
        text = f"chapters = {json.dumps(scenes.split(','))}\n{text}"
    path.write_text(text, encoding="utf-8")
    return path


def fresh_out(work: Path) -> Path:
    """An empty out folder but for the data file: out/'s, or trained there (not timed)."""
    out = work / "out"
    out.mkdir()
    data = ROOT / "out" / "data.json"
    if data.is_file():
        shutil.copy2(data, out / "data.json")
    else:
        subprocess.run(
            [sys.executable, "-m", "model", "--out", str(out / "data.json")], cwd=ROOT, check=True
        )
    return out


def profiled_render(out: Path, profile: Path | None, args: list[str]) -> float:
    """``render.py --force`` into ``out`` with the profile written to ``profile`` (None:
    none): its wall seconds."""
    command = [sys.executable, "render.py", "--force", "--out", str(out), *args]
    env = {k: v for k, v in os.environ.items() if k != f"{PREFIX}PROFILE"}
    env |= {f"{PREFIX}PROFILE": str(profile)} if profile else {}
    start = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"profile: failed: {' '.join(command)}\n{result.stdout[-3000:]}{result.stderr}")
    return wall


def read_profiles(folder: Path, lang: str, chapters: list[str]) -> Profiles:
    """Each chapter's shares, in the lecture's order."""
    found = {}
    for name in chapters:
        path = profile_file(folder, lang, name)
        if not path.is_file():
            sys.exit(f"profile: {path}: not written (did the chapter render?)")
        found[name] = json.loads(path.read_text(encoding="utf-8"))
    return found


def with_total(profiles: Profiles) -> Profiles:
    """The chapters and, last, their sum."""
    total = {"cpu": {share: 0.0 for share in SHARES}, "seconds": 0.0}
    for found in profiles.values():
        total["seconds"] += found["seconds"]
        for share in SHARES:
            total["cpu"][share] += found["cpu"].get(share, 0.0)
    return {**profiles, "**total**": total}


def table(runs: dict[str, Profiles], walls: dict[str, float]) -> str:
    """One markdown table: a row per chapter and the total, a column per share (CPU-s per s
    of video, cold / cached), each run's CPU and, on the total's row, its wall time."""
    head = ["chapter", "video s", *SHARES, "CPU-s per s", "wall s (per s)"]
    rows = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    cold, cached = (with_total(runs[run]) for run in RUNS)
    for name, found in cold.items():
        seconds = found["seconds"]
        both = (found, cached[name])
        cells = [name, f"{seconds:.1f}"]
        for share in SHARES:
            cells.append(" / ".join(f"{p['cpu'].get(share, 0.0) / seconds:.3f}" for p in both))
        cells.append(" / ".join(f"{sum(p['cpu'].values()) / seconds:.2f}" for p in both))
        if name == "**total**":
            cells.append(" / ".join(f"{walls[r]:.0f} ({walls[r] / seconds:.2f})" for r in RUNS))
        else:
            cells.append("")
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quality", default="high")
    parser.add_argument("--scenes", help="a lecture of these chapters only (default: all)")
    parser.add_argument("--voice", help="render.py's --voice (default: the lecture file's)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="profile-lecture-"))
    config = lecture_file(work, args.scenes)
    lecture = load_lecture(config, DEFAULT_PLAN, None)
    chapters = [c.name for c in lecture.chapters]
    out = fresh_out(work)
    flags = ["--quality", args.quality, "--config", str(config)]
    flags += ["--voice", args.voice] if args.voice else []
    runs, walls = {}, {}
    for run in RUNS:  # the second finds the first's voice and formula caches
        walls[run] = profiled_render(out, work / run, flags)
        runs[run] = read_profiles(work / run, lecture.first, chapters)
    voice = args.voice or lecture.voice
    print(
        f"{args.quality}, voice {voice}, {len(chapters)} chapters; CPU-s per s of video, ", end=""
    )
    print("cold / cached (wall: the whole run, 2 workers)\n")
    print(table(runs, walls))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
