"""Where one chapter's render time goes: CPU seconds per share, per second of video.

    .venv/bin/python bench/profile_chapter.py qkv [--quality high] [--voice none] [--cached]
    .venv/bin/python bench/profile_chapter.py softmax --quality low --overhead 3

Renders a lecture of this one chapter as the default render does (voiced by the lecture
file's voice unless ``--voice`` says otherwise) with ``render.py --force`` and the profile
setting, into a fresh out folder (voice and formula caches empty), and prints the split of
its CPU time over the shares of common/timers.py. ``--cached`` renders it a second time
into the same folder (caches warm) and prints that too.

``--overhead N`` measures what the timers cost instead: the chapter rendered N times with
them and N times without, interleaved (after one render that fills the caches), each
render's CPU time read from the processes it ran (render.py and its worker); and, steadier
on a busy machine, the cost of one timed block measured here times the blocks the profiled
renders went through.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.profile_lecture import fresh_out, lecture_file, profiled_render, read_profiles  # noqa: E402
from common import timers  # noqa: E402
from common.timers import SHARES  # noqa: E402
from syllabus.lecture_file import load_lecture  # noqa: E402
from syllabus.plan import DEFAULT_PLAN  # noqa: E402


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def report(name: str, found: dict, label: str) -> None:
    seconds, cpu = found["seconds"], found["cpu"]
    frames = found["frames"]
    held = frames.get("held", 0) / (frames.get("held", 0) + frames.get("moving", 0))
    print(f"\n{name}, {label}: {seconds:.1f} s of video, {held:.0%} of its frames held")
    print(f"{'share':20} {'CPU s':>7} {'%':>5} {'CPU s per s':>12}")
    total = sum(cpu.values())
    for share, what in SHARES.items():
        value = cpu.get(share, 0.0)
        print(f"{share:20} {value:7.2f} {value / total:5.0%} {value / seconds:12.3f}  {what}")
    print(f"{'total':20} {total:7.2f} {1:5.0%} {total / seconds:12.3f}")


def overhead(name: str, lang: str, work: Path, flags: list[str], rounds: int) -> None:
    """CPU seconds of the chapter's render with the timers and without, interleaved."""
    out = work / "out"
    profiled_render(out, None, flags)  # fills the voice and formula caches for both
    spent: dict[bool, list[float]] = {True: [], False: []}
    for k in range(rounds):
        for timed in (True, False) if k % 2 == 0 else (False, True):
            before = children_cpu()
            profiled_render(out, work / f"overhead-{k}" if timed else None, flags)
            spent[timed].append(children_cpu() - before)
    on, off = (statistics.median(spent[t]) for t in (True, False))
    print(f"CPU s with the timers:    {' '.join(f'{s:.2f}' for s in spent[True])}")
    print(f"CPU s without the timers: {' '.join(f'{s:.2f}' for s in spent[False])}")
    print(f"medians {on:.2f} / {off:.2f}: the timers cost {on / off - 1:+.1%}")
    found = read_profiles(work / "overhead-0", lang, [name])[name]
    block, blocks = block_cost(), found["switches"] / 2  # a block: two switches
    cost = block * blocks
    print(f"one timed block {block * 1e6:.1f} µs x {blocks:.0f} blocks: ", end="")
    print(f"{cost:.3f} CPU s, {cost / off:.2%} of the render")


def block_cost(n: int = 100_000) -> float:
    """CPU seconds of one timed block, timing on, as a worker's main thread has it."""
    timers.start()
    began = time.thread_time()
    for _ in range(n):
        with timers.timed("scene build"):
            pass
    return (time.thread_time() - began) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scene", help="a chapter's name, as in scenes/chapters/plan.toml")
    parser.add_argument("--quality", default="high")
    parser.add_argument("--voice", help="render.py's --voice (default: the lecture file's)")
    parser.add_argument("--cached", action="store_true", help="again, caches warm")
    parser.add_argument("--overhead", type=int, metavar="N", help="the timers' cost, N rounds")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="profile-chapter-"))
    config = lecture_file(work, args.scene)
    lecture = load_lecture(config, DEFAULT_PLAN, None)
    out = fresh_out(work)
    flags = ["--quality", args.quality, "--config", str(config)]
    flags += ["--voice", args.voice] if args.voice else []
    print(f"{args.scene}, {args.quality}, voice {args.voice or lecture.voice}")
    if args.overhead:
        overhead(args.scene, lecture.first, work, flags, args.overhead)
    else:
        for run in ("cold", "cached") if args.cached else ("cold",):
            profiled_render(out, work / run, flags)
            found = read_profiles(work / run, lecture.first, [args.scene])[args.scene]
            report(args.scene, found, run)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
