"""Render the lecture: data file -> scenes -> one MP4 and one .srt per scene in out/.

    python render.py                      # everything, at high quality
    python render.py --quality low        # quick look
    python render.py --scenes attention_map --lang en
    python render.py --list

The data file (out/data.json) is made first if it is missing or stale (made from another
config or by other model code). Scenes render in their own Manim process, each with its
own media folder; finished files are copied into place under a temporary name and
renamed, so out/ never holds half a video.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from model.config import ConfigError, LectureConfig
from model.datafile import is_current, write_json_atomic
from scenes.locale import available_languages
from scenes.registry import LECTURE, SceneEntry, scene_names

QUALITIES = {"low": "l", "medium": "m", "high": "h", "4k": "k"}
DATA_NAME = "data.json"


class UsageError(Exception):
    """A bad flag or value: one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + error
        raise UsageError(message)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = _Parser(prog="render.py", description="Render the self-attention lecture.")
    parser.add_argument("--quality", default="high", choices=list(QUALITIES))
    parser.add_argument("--scenes", help="comma-separated scene names (default: all)")
    parser.add_argument("--list", action="store_true", help="list the scenes and exit")
    parser.add_argument("--out", type=Path, default=Path("out"), help="output folder")
    parser.add_argument("--config", type=Path, help="TOML file overriding the default config")
    parser.add_argument("--lang", default="zh-TW", help="language of the words and subtitles")
    args = parser.parse_args(argv)
    args.selected = select_scenes(args.scenes)
    if args.lang not in available_languages():
        raise UsageError(
            f"unknown language '{args.lang}' (allowed: {', '.join(available_languages())})"
        )
    return args


def select_scenes(names: str | None) -> list[SceneEntry]:
    if not names:
        return list(LECTURE)
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in scene_names()]
    if unknown:
        raise UsageError(f"unknown scene '{unknown[0]}' (allowed: {', '.join(scene_names())})")
    return [entry for entry in LECTURE if entry.name in wanted]


def check_writable(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            pass
    except OSError as err:
        raise UsageError(f"output folder {folder} is not writable ({err.strerror})") from None


def ensure_data(config: LectureConfig, path: Path) -> None:
    """Train and write the data file unless a current one is there."""
    if is_current(path, config.to_dict()):
        print(f"data: {path} is current")
        return
    print(f"data: training the model -> {path}")
    from model.lab import build  # torch is imported only when training

    data = build(config)
    write_json_atomic(path, data)
    tr = data["training"]
    print(
        f"data: {tr['steps']} steps in {tr['train_ms']:.0f} ms, "
        f"val MSE {tr['val_mse']:.5f} (always-0 baseline {tr['baseline_mse']:.4f})"
    )


def copy_atomic(source: Path, target: Path) -> None:
    tmp = target.with_name(f".{target.name}.tmp")
    shutil.copyfile(source, tmp)
    os.replace(tmp, target)


def render_scene(entry: SceneEntry, args: argparse.Namespace, data: Path) -> Path:
    """Render one scene in its own Manim process; return the finished MP4 in out/."""
    media = args.out / ".build" / entry.name
    command = [
        sys.executable,
        "-m",
        "manim",
        "render",
        "-q",
        QUALITIES[args.quality],
        "--media_dir",
        str(media),
        "--progress_bar",
        "none",
        "-v",
        "WARNING",
        str(entry.file),
        entry.class_name,
    ]
    env = {**os.environ, "LECTURE_DATA": str(data.resolve()), "LECTURE_LANG": args.lang}
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    videos = [
        p
        for p in media.glob(f"videos/**/{entry.class_name}.mp4")
        if "partial_movie_files" not in p.parts
    ]
    if result.returncode != 0 or not videos:
        lines = (result.stderr or result.stdout).strip().splitlines()[-12:]
        raise RuntimeError("\n".join(lines) or "manim wrote no video")
    video = max(videos, key=lambda p: p.stat().st_mtime)
    target = args.out / f"{entry.name}.mp4"
    subtitles = video.with_suffix(".srt")
    if subtitles.exists():
        copy_atomic(subtitles, target.with_suffix(".srt"))
    copy_atomic(video, target)
    return target


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        if args.list:
            for entry in LECTURE:
                print(f"{entry.name:20} {os.path.relpath(entry.file)}::{entry.class_name}")
            return 0
        check_writable(args.out)
        config = LectureConfig.from_file(args.config) if args.config else LectureConfig()
    except (UsageError, ConfigError) as err:
        print(f"render.py: error: {err}", file=sys.stderr)
        return 2

    data = args.out / DATA_NAME
    ensure_data(config, data)
    failed: list[str] = []
    for entry in args.selected:
        start = time.perf_counter()
        print(f"render: {entry.name} ...", flush=True)
        try:
            target = render_scene(entry, args, data)
        except RuntimeError as err:
            failed.append(entry.name)
            print(f"render: {entry.name} FAILED\n{err}", file=sys.stderr)
            continue
        print(f"render: {entry.name} done in {time.perf_counter() - start:.1f} s -> {target}")
    if failed:
        print(f"render.py: error: failed scenes: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"render: all {len(args.selected)} scene(s) in {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
