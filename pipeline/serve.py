"""Serve a lecture folder (the one with index.html) on this machine, with HTTP Range requests.

    python -m pipeline.serve out/ [--port 8000]      # or: render.py --serve

A browser seeks a video by asking for a range of its bytes. A server that answers every
request with the whole file (Python's own ``python -m http.server``) leaves Chromium a video
it cannot seek: a click on a chapter plays from 0:00. This one answers ``Range: bytes=...``
with 206 and those bytes (416 past the end), on 127.0.0.1 only, and never sends a file
outside the folder: no ``..``, no link out of it, no folder listed. Standard library only.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import sys
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import BinaryIO, NoReturn
from urllib.parse import unquote, urlsplit

HOST = "127.0.0.1"  # this machine only: a lecture folder is not published by serving it
PORT = 8000
MAX_PORT = 65535  # a TCP port is 1 to 65535 (the recorder and --cluster check theirs so too)
CHUNK = 1 << 16
RANGE = re.compile(r"bytes=(\d*)-(\d*)")
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".vtt": "text/vtt; charset=utf-8",
    ".srt": "text/plain; charset=utf-8",
    ".mp4": "video/mp4",
    ".jpg": "image/jpeg",
    ".png": "image/png",
}


class ServeError(Exception):
    """A folder that is not a lecture's, or a port that cannot be listened on: one line."""


def byte_range(header: str | None, size: int) -> range | None:
    """The bytes a ``Range`` header asks of a file of ``size`` bytes. None: the whole file
    (no header, or one HTTP lets a server ignore: several ranges, another unit, a malformed
    or backwards one); an empty range: none of it is in the file (416)."""
    found = RANGE.fullmatch(header.strip()) if header else None
    if found is None or found.groups() == ("", ""):
        return None
    first, last = found.groups()
    if not first:  # bytes=-N: the last N bytes
        return range(max(size - int(last), 0), size)
    if last and int(last) < int(first):
        return None
    return range(int(first), min(int(last) + 1 if last else size, size))


class LectureHandler(SimpleHTTPRequestHandler):
    """GET and HEAD of the files under ``directory``, whole or a range of their bytes."""

    extensions_map = TYPES
    left = 0  # the bytes of the open file that the response promised

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet: a video's seeks are dozens of requests a minute

    def _inside(self, name: str) -> Path | None:
        """``name`` (a URL's path) in the folder, links followed; None when it is not there
        or leads out of the folder."""
        root = Path(self.directory)
        try:  # ".." and links resolved first: what is checked is where the name leads
            path = root.joinpath(*[part for part in name.split("/") if part]).resolve()
        except (OSError, ValueError):  # a loop of links, a NUL in the name
            return None
        return path if path.is_relative_to(root) and path.exists() else None

    def send_head(self) -> BinaryIO | None:
        url = urlsplit(self.path)
        path = self._inside(unquote(url.path))
        if path is not None and path.is_dir():
            if not url.path.endswith("/"):  # so that the page's relative links resolve in it
                self.send_response(HTTPStatus.MOVED_PERMANENTLY)
                self.send_header("Location", url.path + "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            path = self._inside(unquote(url.path) + "index.html")  # a folder is never listed
        if path is None or not path.is_file():
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        try:
            file = path.open("rb")
        except OSError:  # not readable by this user
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        info = os.fstat(file.fileno())
        size, modified = info.st_size, self.date_time_string(int(info.st_mtime))
        span = byte_range(self.headers.get("Range"), size)
        if self.headers.get("If-Range", modified) != modified:  # changed since: all of it
            span = None
        if span is not None and not span:
            file.close()
            self.send_response(HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE)
            self.send_header("Content-Range", f"bytes */{size}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        self.send_response(HTTPStatus.OK if span is None else HTTPStatus.PARTIAL_CONTENT)
        if span is not None:
            self.send_header("Content-Range", f"bytes {span.start}-{span.stop - 1}/{size}")
        span = span or range(size)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Length", str(len(span)))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Last-Modified", modified)
        self.end_headers()
        file.seek(span.start)
        self.left = len(span)
        return file

    def copyfile(self, source: BinaryIO, outputfile: BinaryIO) -> None:
        """The promised bytes only. A browser that seeks elsewhere hangs up mid-file: no error."""
        with contextlib.suppress(ConnectionError):
            while self.left > 0 and (chunk := source.read(min(self.left, CHUNK))):
                outputfile.write(chunk)
                self.left -= len(chunk)


def make_server(folder: Path, port: int) -> ThreadingHTTPServer:
    """A server of ``folder`` on 127.0.0.1:``port`` (0: any free port); call
    ``serve_forever`` on it. :class:`ServeError` when ``folder`` has no index.html or the
    port cannot be listened on."""
    root = Path(folder).resolve()
    if not (root / "index.html").is_file():
        raise ServeError(
            f"{folder} has no index.html: give a lecture folder (render.py writes one beside "
            "lecture.mp4)"
        )
    try:
        return ThreadingHTTPServer((HOST, port), partial(LectureHandler, directory=str(root)))
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            raise ServeError(f"port {port} is in use: give another with --port") from None
        raise ServeError(f"port {port}: {err.strerror}") from None


def serve_until_stopped(server: ThreadingHTTPServer, folder: Path) -> int:
    """Print the page's address, then serve until Ctrl-C (an ordinary end: exit code 0)."""
    print(
        f"serve: open http://{HOST}:{server.server_port}/ to watch {folder} (Ctrl-C ends)",
        flush=True,
    )
    with server, contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not usage + error
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(
        prog="python -m pipeline.serve",
        description="Serve a lecture folder on 127.0.0.1 with Range requests (the video seeks).",
    )
    parser.add_argument("folder", type=Path, help="the lecture folder, with index.html (out/)")
    parser.add_argument("--port", type=int, default=PORT, help=f"default {PORT}")
    args = parser.parse_args(argv)
    if not 1 <= args.port <= MAX_PORT:
        parser.error(f"--port must be between 1 and {MAX_PORT}, got {args.port}")
    try:
        server = make_server(args.folder, args.port)
    except ServeError as err:
        parser.error(str(err))
    return serve_until_stopped(server, args.folder)


if __name__ == "__main__":
    sys.exit(main())
