"""Benchmark the speed-ups on the gates' dry runs: each one left out in turn, side by side.

    .venv/bin/python bench/gates_bench.py [--scenes qkv,shuffle] [--rounds 1]

A dry run (``python -m scenes.gates``; every chapter twice in ``make test``) builds a whole
chapter and checks its picture after every animation, so it is Python work throughout: the
mobject copy, family lists, bounding boxes, texts and the cycle collector are where its time
goes. For each speed-up of :mod:`scenes.patches` that a dry run uses, two processes run at
once, the dry runs of the chosen chapters in both languages with every speed-up, and with
all but that one (Manim's own in its place), each timing its own CPU; the pair runs
``--rounds`` times, the two sides swapping places (the defaults: about five minutes in all
here). Machines here are shared and their speed moves by a quarter within the hour: the
ratio of the two sides of one pair is what to read.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PARTS = ("fastcopy", "textmemo", "fastbounds", "fastfamily", "gctune")  # a dry run's parts


def child(skip: list[str], scenes: list[str], data: Path, media: Path) -> None:
    """The dry runs of ``scenes`` in both languages, with the parts in ``skip`` left out;
    prints their CPU seconds."""
    from scenes import patches
    from scenes.gates.run import load_scene, run_gates
    from syllabus.locale import available_languages
    from syllabus.plan import checked

    patches._installed.update(skip)  # counted as in place: never installed
    start = time.process_time()
    for entry in (e for e in checked() if e.name in scenes):
        for lang in available_languages():
            problems = run_gates(load_scene(entry), lang, data, media).problems
            if problems:
                raise SystemExit(f"{entry.name} [{lang}]: {problems[0]}")
    print(json.dumps({"cpu": time.process_time() - start}))


def _start(skip: list[str], scenes: list[str], data: Path, media: Path) -> subprocess.Popen:
    command = [sys.executable, __file__, "--child", ",".join(skip) or "-"]
    command += ["--scenes", ",".join(scenes), "--data", str(data), "--media", str(media)]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)


def _cpu(process: subprocess.Popen) -> float:
    out, _ = process.communicate()
    if process.returncode != 0:
        raise SystemExit(f"a dry run failed (exit {process.returncode})")
    return json.loads(out.splitlines()[-1])["cpu"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", default="qkv,shuffle")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--media", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    scenes = args.scenes.split(",")
    if args.child:
        child([s for s in args.child.split(",") if s != "-"], scenes, args.data, args.media)
        return 0
    with tempfile.TemporaryDirectory(prefix="gates-bench-") as tmp:
        data = Path(tmp) / "data.json"
        subprocess.run([sys.executable, "-m", "model", "--out", str(data)], cwd=ROOT, check=True)
        print(f"dry runs of {', '.join(scenes)} in both languages; CPU seconds, side by side")
        for part in PARTS:
            sides: dict[str, list[float]] = {"all": [], "without": []}
            for k in range(args.rounds):
                order = [("all", []), ("without", [part])][:: 1 if k % 2 == 0 else -1]
                running = {
                    name: _start(skip, scenes, data, Path(tmp) / f"media-{part}-{k}-{name}")
                    for name, skip in order
                }
                for name, process in running.items():
                    sides[name].append(_cpu(process))
            with_all, without = sum(sides["all"]), sum(sides["without"])
            print(
                f"  without {part:<11} {without / args.rounds:6.1f} s   every speed-up "
                f"{with_all / args.rounds:6.1f} s   {without / with_all:4.2f}x"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
