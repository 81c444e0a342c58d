"""Render the lecture: data file -> scenes (in parallel, unchanged ones skipped) -> lecture.

    python render.py                      # the whole lecture, at high quality (1080p30)
    python render.py --quality low        # a quick look (480p15)
    python render.py --scenes attention_map --lang en
    python render.py --list               # chapters and whether their segments are current
    python render.py --serve              # watch out/index.html on http://127.0.0.1:8000

Writes into out/ (or --out): data.json, segments/<scene>.mp4 (+ .srt, + .json record of
what it was made from), and lecture.mp4 with chapters and a subtitle track, lecture.srt,
lecture.vtt and chapters.txt. Every file is written under a temporary name and renamed
when whole; a killed run leaves the previous files intact and the next run resumes.

The command only parses: the flags and the lecture file become one typed, frozen
:class:`~pipeline.options.Run`, which :func:`pipeline.run.run` carries out.
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import sys
from pathlib import Path

from common.defaults import DEFAULT_LECTURE
from common.files import OutsideFolderError
from common.settings import tempsettings
from common.voices import LECTURE_VOICES, VoiceKind
from model.config import ConfigError
from pipeline.cluster import ClusterError, ClusterLost
from pipeline.lock import FolderInUseError
from pipeline.options import RECORD_PORT, Flags, Run, UsageError
from pipeline.run import run
from pipeline.serve import PORT as SERVE_PORT
from syllabus.lecture_file import LectureFileError, load_lecture
from syllabus.locale import LocaleError, available_languages
from syllabus.plan import DEFAULT_PLAN, PlanError, load_plan
from syllabus.presets import PRESETS


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: stop like Ctrl-C, with exit code 128 + the signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminate(signum: int, _frame: object) -> None:
    raise Terminated(signum)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + error
        raise UsageError(message)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line, as argparse reads it (checked in :func:`flags`)."""
    parser = _Parser(prog="render.py", description="Render the self-attention lecture.")
    parser.add_argument(
        "--quality",
        choices=list(PRESETS),
        help="low 480p15, medium 720p30, high 1080p30, production 1080p60, 4k 2160p60 "
        "(default: the lecture file's)",
    )
    parser.add_argument("--fps", type=float, help="override the preset's frame rate")
    parser.add_argument("--scenes", help="comma-separated scene names (default: all)")
    parser.add_argument("--list", action="store_true", help="list the chapters and exit")
    parser.add_argument("--out", type=Path, default=Path("out"), help="output folder")
    parser.add_argument("--config", type=Path, help="the lecture file (default: the built-in one)")
    parser.add_argument(
        "--print-config", action="store_true", help="print the built-in lecture file and exit"
    )
    parser.add_argument(
        "--plan", type=Path, default=DEFAULT_PLAN, help="the scenes a lecture file chooses from"
    )
    parser.add_argument(
        "--lang", help="language(s), comma-separated: zh-TW,en (default: the lecture file's)"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="scenes rendered at once (default: the number of cores)",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="render on a Dask cluster: a scheduler's address (tcp://host:8786), or local:N "
        "for N worker processes here (--jobs is then the cluster's)",
    )
    parser.add_argument("--force", action="store_true", help="render every scene again")
    parser.add_argument(
        "--wait", action="store_true", help="wait while another run uses the output folder"
    )
    parser.add_argument("--verbose", action="store_true", help="show Manim's own output")
    _voice_arguments(parser)
    parser.add_argument(
        "--serve",
        action="store_true",
        help="serve the lecture rendered in --out (the first language's; --lang picks another) "
        "on http://127.0.0.1:PORT with Range requests, so that its video seeks, until Ctrl-C; "
        "renders nothing",
    )
    parser.add_argument(
        "--port",
        type=int,
        help=f"the recorder's port (default {RECORD_PORT}) or --serve's (default {SERVE_PORT})",
    )
    return parser.parse_args(argv)


def _voice_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of the narration: its voice, recordings, script and recorder."""
    parser.add_argument(
        "--voice",
        choices=[kind.value for kind in LECTURE_VOICES],
        help="; ".join(f"{kind}: {kind.summary}" for kind in LECTURE_VOICES)
        + " (default: the lecture file's 'voice'); with --narration, the voice says only the "
        "lines not recorded",
    )
    parser.add_argument(
        "--narration",
        type=Path,
        help="a folder of recordings, <scene>/<nn>-<key>.wav|flac|mp3 (one folder per language "
        "for several: the lecture file's first language in the folder itself, each other in "
        "<folder>/<language>/, as the lecture in --out)",
    )
    parser.add_argument(
        "--narration-script",
        action="store_true",
        help="write every line to record (script.txt, script.html, narration.json) into the "
        "--narration folder (default: <out>/narration) and exit",
    )
    parser.add_argument(
        "--record",
        action="store_true",
        help="record the lines of the --narration folder's script in the browser, one at a "
        "time (a page on http://127.0.0.1:PORT), until Ctrl-C",
    )


def flags(args: argparse.Namespace) -> Flags:
    """The flags of a parsed command line, checked (a bad value is one line, exit 2)."""
    langs = None
    if args.lang is not None:  # checked with the lecture file, which may add languages
        langs = tuple(lang.strip() for lang in args.lang.split(",") if lang.strip())
        if not langs:
            raise UsageError(
                f"unknown language '{args.lang}' (allowed: {', '.join(available_languages())})"
            )
    actions = {
        "list": args.list,
        "record": args.record,
        "script": args.narration_script,
        "serve": args.serve,
    }
    action = next((name for name, asked in actions.items() if asked), "render")  # in that order
    default_port = SERVE_PORT if action == "serve" else RECORD_PORT  # one can run beside the other
    port = default_port if args.port is None else args.port
    return Flags(
        out=args.out,
        config=args.config,
        plan=args.plan,
        langs=langs,
        quality=args.quality,
        fps=args.fps,
        scenes=args.scenes,
        jobs=args.jobs,
        cluster=args.cluster,
        voice=None if args.voice is None else VoiceKind(args.voice),
        narration=args.narration,
        port=port,
        force=args.force,
        wait=args.wait,
        verbose=args.verbose,
        action=action,
    )


ERRORS = (
    UsageError,
    ConfigError,
    PlanError,
    LocaleError,
    FolderInUseError,
    LectureFileError,
    OutsideFolderError,
    ClusterError,
)  # one line and exit 2: the input is wrong, not the program


WRITE_FAULTS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG)  # only writing meets


def os_fault(err: OSError) -> str:
    """An OSError as one line: "cannot write" only where the fault is one of writing (a
    full disk, a read-only file system), else the file and the fault as the system says."""
    where = f"{err.filename}: " if err.filename else ""
    verb = "cannot write: " if err.errno in WRITE_FAULTS else ""
    return f"{verb}{where}{err.strerror or err}"


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        given = flags(args)
        if args.print_config:
            print(DEFAULT_LECTURE.read_text(encoding="utf-8"), end="")
            return 0
        lecture = load_lecture(given.config, given.plan, list(given.langs or ()) or None)
        planned = tuple(c.name for c in load_plan(given.plan)) if given.scenes else ()
        with tempsettings(**lecture.overlay):  # the lecture file's own words, in force
            return run(Run.build(given, lecture, planned))
    except ERRORS as err:
        print(f"render.py: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # what it printed was not all read (`render.py --list | head`)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 0
    except OSError as err:  # a full disk, a read-only folder; a read error where none was foreseen
        print(f"render.py: error: {os_fault(err)}", file=sys.stderr)
        return 2
    except ClusterLost as err:  # as Ctrl-C: what is whole is kept, the next run resumes
        print(f"render.py: error: {err}; finished segments are kept", file=sys.stderr)
        return 1
    except KeyboardInterrupt as err:
        signum = getattr(err, "signum", signal.SIGINT)
        print("render.py: interrupted; finished segments are kept", file=sys.stderr)
        return 128 + signum


if __name__ == "__main__":
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _terminate)
    # SIGPIPE stays ignored (Python's default): a browser that closes its connection to the
    # recorder or the server is a BrokenPipeError in that request, never the end of the
    # process; a reader that stops reading --list is the BrokenPipeError above.
    sys.exit(main())
