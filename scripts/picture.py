"""What a viewer sees, frame by frame, per chapter and in total (scenes/gates/picture.py).

    .venv/bin/python scripts/picture.py out/segments             # every segment, and in total
    .venv/bin/python scripts/picture.py out/segments/why.mp4 --theme light

Prints, per chapter: the share of still frames, the time in stills of 3 s or more, the
longest still and the near-empty time; then the totals against the lecture's targets.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.defaults import default  # noqa: E402
from scenes.gates.picture import LONG_STILL, measure  # noqa: E402
from syllabus.themes import THEMES  # noqa: E402

LONGEST_TARGET, LONG_SHARE_TARGET, EMPTY_TARGET = 6.0, 0.15, 0.01


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path, help="segments, or folders of them")
    parser.add_argument("--theme", default=default("theme"), choices=list(THEMES))
    parser.add_argument("--where", action="store_true", help="list when each long still begins")
    args = parser.parse_args()
    videos = []
    for path in args.paths:
        found = sorted(path.glob("*.mp4")) if path.is_dir() else [path]
        videos += [v for v in found if not v.name.endswith(".voiced.mp4")]
    background = THEMES[args.theme].background
    head = f"{'chapter':16} {'still':>6} {f'stills ≥ {LONG_STILL:g} s':>16} {'longest':>8} "
    print(head + f"{'near-empty':>10} {'length':>8}")
    frames = still = empty = 0
    seconds = long_seconds = longest = 0.0
    for video in videos:
        p = measure(video, background)
        frames, still = frames + p.frames, still + p.still_frames
        empty += p.near_empty_frames
        seconds += p.seconds
        long_seconds += p.long_still_seconds
        longest = max(longest, p.longest_still)
        print(
            f"{p.name:16} {p.still_share:6.1%} {len(p.long_stills):4d} "
            f"{p.long_still_seconds:7.1f} s {p.longest_still:7.1f} s "
            f"{p.near_empty_seconds:8.1f} s {p.seconds:7.1f} s"
        )
        if args.where:
            for start, length in zip(p.long_still_starts, p.long_stills, strict=True):
                print(f"{'':16} still from {start:6.1f} s for {length:4.1f} s")
    share = long_seconds / seconds if seconds else 0.0
    empty_seconds = empty / (frames / seconds) if frames else 0.0
    print(
        f"{'total':16} {still / max(frames, 1):6.1%} {long_seconds:12.1f} s {share:4.0%} "
        f"{longest:5.1f} s {empty_seconds:8.1f} s {seconds:7.1f} s"
    )
    print(
        f"targets: no still over {LONGEST_TARGET:g} s, stills of {LONG_STILL:g} s or more at most "
        f"{LONG_SHARE_TARGET:.0%} of the time, near-empty at most {EMPTY_TARGET:.0%}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
