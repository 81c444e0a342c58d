"""Save stills of a rendered video, to look at a scene the way a viewer will.

    .venv/bin/python scripts/stills.py out/segments/office.mp4 5 12.5 30 --to /tmp/stills

Each time (seconds) gives ``<video stem>_<time>.png`` in the target folder; ``--every S``
takes one every S seconds instead.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import av


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("video", type=Path)
    parser.add_argument("times", nargs="*", type=float)
    parser.add_argument("--every", type=float)
    parser.add_argument("--to", type=Path, default=Path("out/stills"))
    args = parser.parse_args()
    args.to.mkdir(parents=True, exist_ok=True)
    with av.open(str(args.video)) as container:
        stream = container.streams.video[0]
        wanted = sorted(args.times)
        step = args.every
        next_time = 0.0 if step else None
        for frame in container.decode(stream):
            t = float(frame.pts * stream.time_base)
            if step and t >= next_time:
                wanted.append(next_time)
                next_time += step
            while wanted and t >= wanted[0]:
                target = args.to / f"{args.video.stem}_{wanted.pop(0):06.2f}.png"
                frame.to_image().save(target)
                print(target)


if __name__ == "__main__":
    main()
