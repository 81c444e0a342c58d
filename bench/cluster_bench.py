"""Benchmark render.py on a Dask cluster against its local pool, side by side in one run, and
work out what a course would take on N workers from the scene times it measured.

    .venv/bin/python bench/cluster_bench.py [--quality medium] [--scenes a,b] [--workers 2]
        [--course 6x3] [--no-4k]

1. The lecture (or ``--scenes``) is rendered twice with ``--force``, at ``--quality``: on
   the local pool (``--jobs N``) and on ``--cluster local:N`` (a LocalCluster of N worker
   processes here), their caches of formulas emptied first (the workers' too). The ratio
   of the two is the engine's overhead on one machine: shipping each job's files, starting
   the cluster, bringing the segments back as bytes. The segments of both runs are compared frame by
   frame.
2. The shortest chapter is rendered again at 4k (2160p60): its time against its own at
   ``--quality`` scales every measured scene time to 4K60 (``--no-4k``: scaled by pixels
   times frames instead, which overstates it).
3. A course of lectures × languages (``--course 6x3``: six instructors' variants, each in
   three languages) at 4K60: every scene of it a job, on 1 to 256 workers of one core each,
   scheduled longest first as render.py does, each job slowed by the measured overhead.

Machines are shared and noisy: read the ratios, which come from one run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scenes.gates.video import compare_videos, read_video  # noqa: E402
from syllabus.lecture_file import load_lecture  # noqa: E402
from syllabus.plan import DEFAULT_PLAN  # noqa: E402
from syllabus.presets import PRESETS  # noqa: E402

DONE = re.compile(r"done\s+(\S+) \(([\d.]+) s\)")
WORKERS = (1, 2, 8, 32, 64, 256)


def render(
    out: Path, quality: str, scenes: str | None, *extra: str, tmp: Path | None = None
) -> tuple[float, dict]:
    """One render.py run: its wall time and each scene's own time (its ``done`` line);
    ``tmp``: the temporary folder of the run and its cluster's workers (their formula cache
    is kept there, so a new one starts them as empty as the local pool's)."""
    command = [sys.executable, "render.py", "--quality", quality, "--out", str(out)]
    command += ["--voice", "none", *(["--scenes", scenes] if scenes else []), *extra]
    env = {**os.environ, **({"TMPDIR": str(tmp)} if tmp else {})}
    start = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f"bench: failed: {' '.join(command)}\n{result.stdout[-2000:]}{result.stderr}")
    return time.perf_counter() - start, {m[1]: float(m[2]) for m in DONE.finditer(result.stdout)}


def longest_first(seconds: list[float], workers: int) -> float:
    """When the last of ``seconds`` ends on ``workers`` one-at-a-time workers, each taking
    the longest job left when it is free (render.py's order)."""
    free = [0.0] * workers
    for job in sorted(seconds, reverse=True):
        k = min(range(workers), key=free.__getitem__)
        free[k] += job
    return max(free)


def _clock(seconds: float) -> str:
    hours, rest = divmod(round(seconds), 3600)
    return f"{hours:d} h {rest // 60:02d} min" if hours else f"{rest // 60:d} min {rest % 60:02d} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quality", default="medium", help="render.py's --quality name")
    parser.add_argument("--scenes", help="comma-separated chapters (default: the whole lecture)")
    parser.add_argument("--workers", type=int, default=2, help="local pool and cluster size")
    parser.add_argument("--course", default="6x3", help="LECTURESxLANGUAGES of the estimate")
    parser.add_argument("--keep", action="store_true", help="keep the renders (to look)")
    parser.add_argument("--no-4k", action="store_true", help="scale to 4K60 by pixels x frames")
    args = parser.parse_args()
    lectures, languages = (int(n) for n in args.course.lower().split("x"))
    chapters = load_lecture(None, DEFAULT_PLAN, None).chapters
    names = args.scenes.split(",") if args.scenes else [c.name for c in chapters]
    work = Path(tempfile.mkdtemp(prefix="cluster-bench-"))
    outs = {"local pool": work / "local", f"local:{args.workers}": work / "cluster"}
    for out in outs.values():  # trains the data file once, renders one scene: not timed
        out.mkdir()
        if out != outs["local pool"]:
            shutil.copy(outs["local pool"] / "data.json", out / "data.json")
        render(out, "low", names[0])
    timed = {}
    for (how, out), flag in zip(
        outs.items(), (["--jobs", str(args.workers)], ["--cluster", f"local:{args.workers}"]),
        strict=True,
    ):  # fmt: skip
        shutil.rmtree(out / ".cache" / "tex", ignore_errors=True)
        shutil.rmtree(out / ".cache" / "texts", ignore_errors=True)
        tmp = work / f"tmp-{out.name}"  # the workers' formula cache: empty too
        tmp.mkdir()
        timed[how] = render(out, args.quality, args.scenes, "--force", *flag, tmp=tmp)
        print(f"{how}: {timed[how][0]:.1f} s", flush=True)
    (local, scenes), (cluster, on_cluster) = timed.values()
    video = sum(
        read_video(outs["local pool"] / "segments" / f"{n}.mp4", False).duration for n in names
    )
    same = [
        n
        for n in names
        if not compare_videos(*(o / "segments" / f"{n}.mp4" for o in outs.values()))
    ]
    preset, big = PRESETS[args.quality], PRESETS["4k"]
    shortest = min(names, key=scenes.__getitem__)
    if args.no_4k:
        scale = (big.width * big.height * big.fps) / (preset.width * preset.height * preset.fps)
        how_scaled = "by pixels x frames"
    else:
        _, at_4k = render(outs["local pool"], "4k", shortest, "--force", "--jobs", "1")
        scale = at_4k[shortest] / scenes[shortest]
        how_scaled = (
            f"measured on {shortest}: {at_4k[shortest]:.1f} s against {scenes[shortest]:.1f} s"
        )
    overhead = cluster / local
    print(f"\n{len(names)} chapters, {video:.0f} s of video, {preset}, {args.workers} workers here")
    print(f"{'':12} {'wall':>8} {'sum of scenes':>14}")
    print(f"{'local pool':12} {local:7.1f}s {sum(scenes.values()):13.1f}s")
    print(f"{f'local:{args.workers}':12} {cluster:7.1f}s {sum(on_cluster.values()):13.1f}s")
    print(f"cluster / local pool: {overhead:.3f} (the engine's overhead on one machine)")
    print(
        f"frames: {len(same)} of {len(names)} segments identical, frame by frame"
        + "".join(f"\n    {name}: differs" for name in names if name not in same)
    )
    per_lecture = [seconds * scale for seconds in scenes.values()]
    jobs = per_lecture * (lectures * languages)
    print(
        f"\nA course at 4K60: {lectures} lectures x {languages} languages = {len(jobs)} scene jobs;"
        f"\n  each scene's time here x {scale:.1f} ({how_scaled}),"
        f"\n  one lecture {_clock(sum(per_lecture))} of one core, the course {_clock(sum(jobs))},"
        f"\n  the longest scene {_clock(max(per_lecture))}; x {overhead:.3f} for the engine:"
    )
    print(f"{'workers':>8} {'course done in':>16} {'workers busy':>13}")
    for workers in WORKERS:
        span = longest_first(jobs, workers) * overhead
        print(f"{workers:8d} {_clock(span):>16} {sum(jobs) * overhead / (workers * span):12.0%}")
    shutil.rmtree(work, ignore_errors=True) if not args.keep else print(f"kept {work}")


if __name__ == "__main__":
    main()
