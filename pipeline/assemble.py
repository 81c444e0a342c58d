"""Join segments into one lecture MP4 without re-encoding, with chapters and subtitles.

When the segments have a voice, their sound tracks are decoded, each cut or padded to its
chapter's frames exactly, joined, and encoded once as the lecture's AAC track.

The H.264 packets of every segment are copied in order with shifted timestamps (PyAV
remuxing; no system ffmpeg). The result has chapters (one per segment), a soft subtitle
track (mov_text) and ``+faststart``; the merged subtitles are also written as .srt and .vtt,
and the chapters as a "00:00 Title" list. Every file is written under a temporary name and
renamed when whole.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from common.atomic import atomic_path, write_json_atomic, write_text_atomic
from common.closure import file_digest
from common.text import one_line, subtitle_text
from pipeline.captions import Cue, read_srt, to_chapter_list, to_srt, to_vtt
from pipeline.page import write_page
from pipeline.records import MANIFEST, assembled_files
from pipeline.soundtrack import AAC_BITRATE, FRAME_SAMPLES, segment_track, under_peak
from syllabus.locale import language
from voice.audio import SAMPLE_RATE, encode_samples

_MS = Fraction(1, 1000)
# Written last, naming the set (lecture.mp4 and its side files) by their hashes: a reader
# that finds it matching knows the files belong together; a run killed mid-way leaves none.


class AssemblyError(RuntimeError):
    """Segments that cannot be joined as they are (they disagree on their format)."""


@dataclass(frozen=True)
class SegmentFile:
    """A rendered segment and its chapter title."""

    title: str
    video: Path
    subtitles: Path


@dataclass(frozen=True)
class AssembledLecture:
    """What the assembly wrote."""

    video: Path
    srt: Path
    vtt: Path
    chapters: Path
    duration: float
    starts: tuple[float, ...]
    page: Path  # index.html, the viewers' page


def _format(stream: av.video.stream.VideoStream) -> tuple:
    cc = stream.codec_context
    return (cc.name, stream.width, stream.height, cc.pix_fmt, stream.base_rate, stream.time_base)


def _titled(output: av.container.OutputContainer, lang: str, title: str) -> av.stream.Stream:
    """Give the MP4 its title and its subtitle track (mov_text, in ``lang``); return the
    track."""
    text = output.add_mux_stream("mov_text")
    text.time_base = _MS
    text.metadata["language"] = language(lang).iso639_2
    output.metadata["title"] = one_line(title)
    return text


def _subtitle_packet(cue: Cue, stream: av.stream.Stream) -> av.Packet:
    text = subtitle_text(cue.text).encode("utf-8")
    packet = av.Packet(struct.pack(">H", len(text)) + text)  # mov_text: length, then text
    packet.stream = stream
    packet.time_base = _MS
    packet.pts = packet.dts = round(cue.start * 1000)
    packet.duration = round((cue.end - cue.start) * 1000)
    return packet


def _check_formats(inputs: list[av.container.InputContainer]) -> None:
    if len({_format(i.streams.video[0]) for i in inputs}) != 1:
        raise AssemblyError(
            "segments differ in codec, size, pixel format or frame rate; "
            "render them again with the same --quality (or --force)"
        )


def _copy_video(
    source: av.container.InputContainer,
    output: av.container.OutputContainer,
    video: av.stream.Stream,
    offset: int,
) -> int:
    """Copy a segment's packets, ``offset`` ticks later; return the ticks it lasts (its
    samples' durations: a held picture is one sample lasting the hold)."""
    ticks = 0
    for packet in source.demux(source.streams.video[0]):
        if packet.dts is None:  # the demuxer's end-of-stream marker
            continue
        packet.pts += offset
        packet.dts += offset
        ticks += packet.duration
        packet.stream = video
        output.mux(packet)
    return ticks


def _chapters(segments: list[SegmentFile], starts: list[float], duration: float) -> list[dict]:
    ends = [*starts[1:], duration]
    return [
        {
            "id": k,
            "start": round(start * 1000),
            "end": round(end * 1000),
            "time_base": _MS,
            "metadata": {"title": one_line(segment.title)},  # a newline: a fake chapter
        }
        for k, (segment, start, end) in enumerate(zip(segments, starts, ends, strict=True))
    ]


def _mux(
    segments: list[SegmentFile],
    inputs: list,
    target: Path,
    lang: str,
    title: str,
    gain: float = 1.0,
):
    """Write the joined MP4 (its sound times ``gain``); return the segments' start times,
    the duration and the cues."""
    starts: list[float] = []
    cues: list[Cue] = []
    options = {"movflags": "+faststart"}
    with av.open(str(target), "w", format="mp4", container_options=options) as output:
        template = inputs[0].streams.video[0]
        video = output.add_stream_from_template(template)
        text = _titled(output, lang, title)
        voiced = any(source.streams.audio for source in inputs)
        if voiced:
            sound = output.add_stream("aac", rate=SAMPLE_RATE, layout="mono")
            sound.bit_rate = AAC_BITRATE
        offset = 0
        for segment, source in zip(segments, inputs, strict=True):
            starts.append(float(offset * template.time_base))
            for cue in read_srt(segment.subtitles, shift=starts[-1]):
                cues.append(cue)
                output.mux(_subtitle_packet(cue, text))
            offset += _copy_video(source, output, video, offset)
        duration = float(offset * template.time_base)
        if voiced:  # each chapter's sound cut to its frames exactly: no drift at the joins
            ends = [*starts[1:], duration]
            track = np.concatenate(
                [
                    segment_track(segment.video, end - start)
                    for segment, start, end in zip(segments, starts, ends, strict=True)
                ]
            )
            # each at -16 LUFS already
            encode_samples(track * np.float32(gain), sound, output, FRAME_SAMPLES)
        output.set_chapters(_chapters(segments, starts, duration))
    return starts, duration, cues


def _join(segments: list[SegmentFile], inputs: list, target: Path, lang: str, title: str):
    """:func:`_mux`, again a little quieter while AAC's overshoot passes full scale
    (:func:`pipeline.soundtrack.under_peak`)."""
    made = []

    def encode(gain: float) -> float:
        for source in inputs:
            source.seek(0)
        made.append(_mux(segments, inputs, target, lang, title, gain))
        return made[-1][1]  # its duration

    if any(source.streams.audio for source in inputs):
        under_peak(encode, target)
    else:
        encode(1.0)
    return made[-1]


def assemble(
    segments: list[SegmentFile],
    out_dir: Path,
    lang: str,
    title: str,
    made_from: dict | None = None,
    lab: dict | None = None,
) -> AssembledLecture:
    """Write lecture.mp4, lecture.srt, lecture.vtt, chapters.txt and the viewers' page
    (index.html, lecture.data.js, stills/) into ``out_dir``; the manifest records
    ``made_from`` (:func:`pipeline.records.lecture_inputs`), so that an unchanged lecture
    is not assembled again. ``lab``: what the page's lab reads (None: a page without one)."""
    manifest = out_dir / MANIFEST
    inputs = [av.open(str(s.video)) for s in segments]
    try:
        _check_formats(inputs)
        with atomic_path(out_dir / "lecture.mp4") as tmp:
            starts, duration, cues = _join(segments, inputs, tmp, lang, title)
            # Joined: the set changes from here, and no manifest vouches for it until the
            # new one (a join that fails leaves the lecture, its manifest too, as it was).
            manifest.unlink(missing_ok=True)
            lecture = AssembledLecture(
                out_dir / "lecture.mp4",
                out_dir / "lecture.srt",
                out_dir / "lecture.vtt",
                out_dir / "chapters.txt",
                duration,
                tuple(starts),
                out_dir / "index.html",
            )
            write_text_atomic(lecture.srt, to_srt(cues))
            write_text_atomic(lecture.vtt, to_vtt(cues))
            titled = [(t, segment.title) for t, segment in zip(starts, segments, strict=True)]
            write_text_atomic(lecture.chapters, to_chapter_list(titled, duration))
            fps = float(inputs[0].streams.video[0].base_rate)
            shown = [(s.title, s.video) for s in segments]
            write_page(out_dir, lang, title, shown, starts, duration, fps, cues, lab)
            # leaving the block renames lecture.mp4 last: it always has its side files
    finally:
        for source in inputs:
            source.close()
    written = _manifest(lecture, segments)
    written |= {"made_from": made_from, "written": assembled_files(out_dir)}
    write_json_atomic(manifest, written)
    return lecture


def _manifest(lecture: AssembledLecture, segments: list[SegmentFile]) -> dict:
    files = (lecture.video, lecture.srt, lecture.vtt, lecture.chapters)
    return {
        "files": {path.name: file_digest(path).hex() for path in files},
        "duration": lecture.duration,
        "chapters": [
            {"title": s.title, "start": start}
            for s, start in zip(segments, lecture.starts, strict=True)
        ],
    }


def manifest_matches(out_dir: Path) -> bool:
    """True when ``lecture.json`` names exactly the lecture files now in ``out_dir``."""
    try:
        files = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))["files"]
        return all(file_digest(out_dir / name).hex() == digest for name, digest in files.items())
    except (OSError, ValueError, KeyError, TypeError):
        return False
