"""Save stills of a rendered video, to look at a scene the way a viewer will.

    .venv/bin/python scripts/stills.py out/segments/office.mp4 5 12.5 30 --to /tmp/stills
    .venv/bin/python scripts/stills.py out/segments/qkv.mp4 --cues --sheet /tmp/qkv.png

Each time (seconds) gives ``<video stem>_<time>.png`` in the target folder; ``--every S``
takes one every S seconds instead; ``--cues`` takes one at the end of each subtitle cue of
the ``.srt`` beside the video (the picture each narrated line leaves), with the cue's text
written under it. ``--sheet FILE`` also puts them all on one contact sheet. ``--pages DIR``
writes the frames every ``--every`` seconds (0.5 unless given) as pages of 8 × 8 small
frames, each with its time (``<stem>_every_<k>.png``: 32 s a page at 0.5 s), to watch the
motion between two cues without saving a file per frame.

    .venv/bin/python scripts/stills.py out/segments/qkv.mp4 --pages /tmp/qkv-every
"""

from __future__ import annotations

import argparse
from pathlib import Path

import av
import srt
from PIL import Image, ImageDraw, ImageFont

from common.video import frame_rate, held_frames

FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"


def cue_ends(path: Path) -> list[tuple[float, str]]:
    """(end time, text) of every cue of an .srt file."""
    cues = srt.parse(path.read_text(encoding="utf-8"))
    return [(cue.end.total_seconds(), " ".join(cue.content.splitlines())) for cue in cues]


def grab(video: Path, times: list[float], every: float | None) -> list[tuple[float, Image.Image]]:
    """Decoded frames at (or just after) each time; one per ``every`` seconds if given."""
    frames = []
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        wanted = sorted(times)
        next_time = 0.0 if every else None
        step = 1 / float(frame_rate(container))
        for frame, count in held_frames(container):  # a held picture: on screen count frames
            t = float(frame.pts * stream.time_base)
            end = t + count * step
            while every and next_time < end:
                wanted.append(next_time)
                next_time += every
            wanted.sort()
            while wanted and wanted[0] < end:
                frames.append((wanted.pop(0), frame.to_image()))
    return frames


def sheet(stills: list[tuple[float, Image.Image, str]], target: Path, columns: int = 3) -> None:
    """A contact sheet: the stills in a grid, each with its time and caption under it."""
    width = 640
    font = ImageFont.truetype(FONT, 18) if Path(FONT).exists() else ImageFont.load_default()
    scaled = [(t, img.resize((width, width * img.height // img.width)), c) for t, img, c in stills]
    cell_h = scaled[0][1].height + 56
    rows = -(-len(scaled) // columns)
    page = Image.new("RGB", (columns * width, rows * cell_h), "white")
    draw = ImageDraw.Draw(page)
    for k, (t, img, caption) in enumerate(scaled):
        x, y = (k % columns) * width, (k // columns) * cell_h
        page.paste(img, (x, y))
        draw.text((x + 6, y + img.height + 4), f"{t:6.2f}s {caption}"[:60], fill="black", font=font)
    page.save(target)


PAGE_COLUMNS, PAGE_ROWS, PAGE_WIDTH = 8, 8, 320  # a page of small frames, and each one's width


def pages(frames: list[tuple[float, Image.Image]], folder: Path, stem: str) -> list[Path]:
    """The frames on pages of :data:`PAGE_COLUMNS` × :data:`PAGE_ROWS`, each with its time."""
    font = ImageFont.truetype(FONT, 16) if Path(FONT).exists() else ImageFont.load_default()
    folder.mkdir(parents=True, exist_ok=True)
    per_page, written = PAGE_COLUMNS * PAGE_ROWS, []
    for start in range(0, len(frames), per_page):
        chunk = frames[start : start + per_page]
        height = PAGE_WIDTH * chunk[0][1].height // chunk[0][1].width
        page = Image.new("RGB", (PAGE_COLUMNS * PAGE_WIDTH, PAGE_ROWS * (height + 20)), "white")
        draw = ImageDraw.Draw(page)
        for k, (t, image) in enumerate(chunk):
            x, y = (k % PAGE_COLUMNS) * PAGE_WIDTH, (k // PAGE_COLUMNS) * (height + 20)
            page.paste(image.resize((PAGE_WIDTH, height)), (x, y))
            draw.text((x + 4, y + height), f"{t:.1f}s", fill="black", font=font)
        target = folder / f"{stem}_every_{start // per_page + 1}.png"
        page.save(target)
        written.append(target)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("video", type=Path)
    parser.add_argument("times", nargs="*", type=float)
    parser.add_argument("--every", type=float)
    parser.add_argument("--cues", action="store_true", help="one still at each cue's end")
    parser.add_argument("--sheet", type=Path, help="also write a contact sheet here")
    parser.add_argument("--to", type=Path, default=Path("out/stills"))
    parser.add_argument("--pages", type=Path, help="frames every --every s, on pages, here")
    args = parser.parse_args()
    if args.pages:
        for target in pages(grab(args.video, [], args.every or 0.5), args.pages, args.video.stem):
            print(target)
        return
    captions = dict.fromkeys(args.times, "")
    if args.cues:
        cues = cue_ends(args.video.with_suffix(".srt"))
        captions |= {max(end - 0.1, 0): text for end, text in cues}
    args.to.mkdir(parents=True, exist_ok=True)
    stills = []
    for t, image in grab(args.video, list(captions), args.every):
        target = args.to / f"{args.video.stem}_{t:06.2f}.png"
        image.save(target)
        print(target)
        stills.append((t, image, captions.get(t, "")))
    if args.sheet and stills:
        sheet(stills, args.sheet)
        print(args.sheet)


if __name__ == "__main__":
    main()
