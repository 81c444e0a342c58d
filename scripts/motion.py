"""How much of each chapter plays over a still picture (scenes/gates/motion.py).

    .venv/bin/python scripts/motion.py out/segments            # every segment, and in total
    .venv/bin/python scripts/motion.py out/segments/sqrt_d.mp4  # one chapter alone

Prints, per chapter, its cues over an unchanging picture and its seconds in stills longer
than 3 s, then the totals against the lecture's targets (at most 10% and 15%).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scenes.gates.motion import LONG_STILL, measure  # noqa: E402

CUE_TARGET, TIME_TARGET = 0.10, 0.15


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path, help="segments, or folders of them")
    parser.add_argument("--cues", action="store_true", help="also print each still cue")
    args = parser.parse_args()
    videos = []
    for path in args.paths:
        found = sorted(path.glob("*.mp4")) if path.is_dir() else [path]
        videos += [v for v in found if not v.name.endswith(".voiced.mp4")]
    total_cues = still_cues = 0
    seconds = long_seconds = 0.0
    print(f"{'chapter':16} {'still cues':>14} {f'stills > {LONG_STILL:g} s':>18} {'length':>8}")
    for video in videos:
        m = measure(video)
        total_cues += m.cues
        still_cues += len(m.still_cues)
        seconds += m.seconds
        long_seconds += m.long_still_seconds
        print(
            f"{m.name:16} {len(m.still_cues):4d}/{m.cues:<3d} {m.still_share:5.0%} "
            f"{m.long_still_seconds:8.1f} s {m.long_still_share:5.0%} {m.seconds:7.1f} s"
        )
        if args.cues and m.still_cues:
            print(f"{'':16} still: {', '.join(str(k + 1) for k in m.still_cues)}")
    cue_share = still_cues / total_cues if total_cues else 0.0
    time_share = long_seconds / seconds if seconds else 0.0
    print(
        f"{'total':16} {still_cues:4d}/{total_cues:<3d} {cue_share:5.0%} "
        f"{long_seconds:8.1f} s {time_share:5.0%} {seconds:7.1f} s   "
        f"(targets: {CUE_TARGET:.0%} of cues, {TIME_TARGET:.0%} of the time)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
