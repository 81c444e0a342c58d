"""Whether two renders of a lecture are the same, segment by segment: every decoded frame,
and every decoded audio sample of a voiced one. For a change that must change no frame
(a refactor): render the whole lecture before and after it into two folders, then

    .venv/bin/python bench/same_frames.py OUT_BEFORE OUT_AFTER

Prints each segment's verdict and exits 1 when any differs (or is missing from either).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import av

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scenes.gates.video import compare_videos  # noqa: E402


def audio_digest(path: Path) -> str | None:
    """The SHA-256 of a segment's decoded audio samples (None: it has no sound)."""
    with av.open(str(path)) as container:
        if not container.streams.audio:
            return None
        digest = hashlib.sha256()
        for frame in container.decode(audio=0):
            digest.update(frame.to_ndarray().tobytes())
        return digest.hexdigest()


def differences(before: Path, after: Path) -> list[str]:
    """How one segment's two renders differ (frames first, then sound)."""
    found = compare_videos(before, after)
    if audio_digest(before) != audio_digest(after):
        found.append("the sound differs")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    names = sorted(
        {p.name for out in (args.before, args.after) for p in (out / "segments").glob("*.mp4")}
    )
    same = 0
    for name in names:
        pair = [out / "segments" / name for out in (args.before, args.after)]
        missing = [str(p) for p in pair if not p.is_file()]
        found = [f"{m} is missing" for m in missing] or differences(*pair)
        same += not found
        verdict = "identical" if not found else f"{len(found)} difference(s): {found[0]}"
        print(f"  {Path(name).stem:20} {verdict}")
    print(f"same_frames: {same} of {len(names)} segments identical, frame by frame and sample")
    return 0 if names and same == len(names) else 1


if __name__ == "__main__":
    sys.exit(main())
