"""Record the narration in the tool: a page on this machine that walks the narration script
one line at a time (shows the line, records it, plays it back, keeps it or takes it again)
and writes each take where render.py looks for it.

``render.py --record --narration DIR`` serves the page on http://127.0.0.1:8765/<token>/
(``--port``) until Ctrl-C. The browser records with MediaRecorder; each kept take is sent
here, decoded (PyAV, in memory), written as ``DIR/<scene>/<nn>-<key>.wav`` (mono, 48 kHz)
and checked as render.py checks a recording (not empty, not silent, not too long): the page
shows the verdict. Only names that narration.json lists are written, each inside DIR.

It is a web server that any page in the instructor's browser could send requests to, so it
trusts nothing but the address it printed: it listens on 127.0.0.1 only; every request must
carry the random token of that address (a page elsewhere cannot know it), name this machine
as its Host (a DNS name rebound to 127.0.0.1 cannot read the page) and, for a take, come from
the page itself (a cross-site Origin is refused). A take is bounded before it is decoded (its
Content-Length, then the length its audio's header states, then the decoding itself), every
text on the page is escaped for where it stands, and every refusal or fault is an HTTP answer
and one line on stderr.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
import secrets
import socket
import sys
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import av
import numpy as np

from common.files import inside
from common.text import script_json
from pipeline.narration import read_manifest
from pipeline.serve import HOST  # this machine only: the recorder is never published
from syllabus.locale import Words
from voice.audio import SAMPLE_RATE, TooLongError, decode_stream
from voice.clips import MAX_LINE_SECONDS, VoiceError, check_recording, find_recording, write_wav

MAX_TAKE_BYTES = 64 * 2**20  # a take longer than any line may be is refused unread
READ_TIMEOUT = 20.0  # seconds a request may pause mid-way before it is dropped
WHOLE_REQUEST = 3  # a whole request, however it trickles in, lasts at most this many pauses
LENGTH = re.compile(r"[0-9]{1,12}")  # a Content-Length: ASCII digits only, not '²' or '-1'


class RefusedError(Exception):
    """A request the recorder answers with ``status`` and ``problem`` (one line)."""

    def __init__(self, status: HTTPStatus, problem: str) -> None:
        super().__init__(problem)
        self.status = status


def take_format(data: bytes) -> str:
    """The demuxer for a take, told by its first bytes: only the containers a browser's
    MediaRecorder writes (WebM, Ogg, MP4) and a recording's own (WAV, FLAC, MP3), so FFmpeg
    never guesses among its hundreds (some of which open other files: HLS, concat)."""
    head = data[:12]
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "wav"
    if head[4:8] == b"ftyp":
        return "mov"
    formats = {b"fLaC": "flac", b"OggS": "ogg", b"\x1aE\xdf\xa3": "matroska", b"ID3": "mp3"}
    for magic, name in formats.items():
        if head.startswith(magic):
            return name
    if len(head) > 1 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0:  # an MPEG audio frame
        return "mp3"
    raise VoiceError("the take is not WAV, FLAC, MP3, WebM, Ogg or MP4 audio")


def to_samples(data: bytes) -> np.ndarray:
    """A take as the browser sent it as mono floats at 48 kHz: decoded in memory (no
    temporary file to leave behind), never past what a line may last."""
    try:
        samples = decode_stream(io.BytesIO(data), MAX_LINE_SECONDS, take_format(data))
    except (av.error.FFmpegError, UnicodeDecodeError) as err:
        raise VoiceError(f"the take cannot be read as audio ({err})") from None
    if samples is None:
        raise VoiceError("the take holds no audio")
    return samples


def page(folder: Path, lang: str, nonce: str = "") -> str:
    """The recorder's page: every line of the script, in order, each with its state; its
    style and script carry ``nonce``, the only ones its Content-Security-Policy runs."""
    words = Words("recorder", lang)
    rows = []
    for k, line in enumerate(read_manifest(folder), start=1):
        done = find_recording(folder, line.file) is not None
        rows.append(
            f'<li data-file="{html.escape(line.file)}"{" class=done" if done else ""}>'
            f'<span class="n">{k}</span> <code>{html.escape(line.file)}</code>'
            f'<p class="text">{html.escape(line.text)}</p>'
            f'<button class="record">{html.escape(words["record"])}</button> '
            f'<button class="keep" disabled>{html.escape(words["keep"])}</button> '
            '<audio controls></audio> <span class="verdict" aria-live="polite">'
            f"{html.escape(words['recorded']) if done else ''}</span></li>"
        )
    ui = script_json({key: words[key] for key in ("record", "stop", "keep", "recorded")})
    return RECORDER_PAGE.format(
        lang=html.escape(lang),
        title=html.escape(words["title"]),
        rows="".join(rows),
        ui=ui,
        nonce=html.escape(nonce),
    )


RECORDER_PAGE = """<!doctype html>
<html lang="{lang}"><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,"><title>{title}</title>
<style nonce="{nonce}">body{{font:16px/1.5 sans-serif;margin:2em;background:#111;color:#eee}}
li{{margin:.6em 0;padding:.4em;border-left:4px solid #444}} li.done{{border-color:#4a4}}
li.current{{background:#222}} .text{{font-size:1.3em;margin:.2em 0}} code{{color:#999}}</style>
<h1>{title}</h1><ol id="lines">{rows}</ol>
<script nonce="{nonce}">
"use strict";
const UI = {ui};
let recorder = null, chunks = [], row = null, take = null;
async function start(li) {{
  const stream = await navigator.mediaDevices.getUserMedia({{ audio: true }});
  recorder = new MediaRecorder(stream); chunks = []; row = li;
  recorder.ondataavailable = e => chunks.push(e.data);
  recorder.onstop = () => {{
    stream.getTracks().forEach(t => t.stop());
    take = new Blob(chunks, {{ type: recorder.mimeType }});
    const audio = li.querySelector("audio");
    audio.src = URL.createObjectURL(take);
    audio.play().catch(() => {{}});
    li.querySelector(".keep").disabled = false;
    li.querySelector(".record").textContent = UI.record;
    recorder = null;
  }};
  recorder.start();
  li.querySelector(".record").textContent = UI.stop;
}}
async function keep(li) {{
  const file = li.dataset.file;
  const answer = await fetch("take/" + encodeURI(file), {{ method: "POST", body: take }});
  const verdict = await answer.json();
  li.querySelector(".verdict").textContent = verdict.ok ? UI.recorded : verdict.problem;
  li.classList.toggle("done", verdict.ok);
  li.querySelector(".keep").disabled = true;
  if (verdict.ok && li.nextElementSibling) li.nextElementSibling.scrollIntoView();
}}
document.querySelectorAll("#lines li").forEach(li => {{
  li.querySelector(".record").addEventListener("click", () => {{
    document.querySelectorAll("li.current").forEach(x => x.classList.remove("current"));
    li.classList.add("current");
    if (recorder && row === li) recorder.stop(); else if (!recorder) start(li);
  }});
  li.querySelector(".keep").addEventListener("click", () => keep(li));
}});
</script></html>
"""


class RecorderHandler(BaseHTTPRequestHandler):
    """GET ``/<token>/``: the page; POST ``/<token>/take/<name>``: a take of a listed line.
    Anything else is refused with its status, and one line on stderr."""

    server: RecorderServer
    answered = False  # whether a status line has gone out (a second one never does)

    def setup(self) -> None:
        self.timeout = self.server.read_timeout  # a stalled request frees its thread
        super().setup()
        # ... and one that trickles in, a header line each pause (slowloris), is cut at its
        # deadline: its connection shut, its reads end, its thread is free
        self.deadline = threading.Timer(self.timeout * WHOLE_REQUEST, self._cut)
        self.deadline.daemon = True
        self.deadline.start()

    def _cut(self) -> None:
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)

    def finish(self) -> None:
        self.deadline.cancel()
        self.deadline.join()  # gone with its request: the server's close leaves no thread
        with contextlib.suppress(OSError):  # the connection may be cut already
            super().finish()

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass  # quiet when it goes well: the page shows what happens

    def log_message(self, format: str, *args: object) -> None:
        self.server.log(format % args)

    def do_GET(self) -> None:
        self._handle(self._page)

    def do_POST(self) -> None:
        self._handle(self._take)

    def _handle(self, action: Callable[[str], None]) -> None:
        """``action`` with the route after the token, once the request is this machine's
        page's own; every refusal and fault is an answer and one line, never a traceback."""
        try:
            action(self._route())
        except RefusedError as err:
            self._refuse(err.status, str(err))
        except TimeoutError:
            self._refuse(HTTPStatus.REQUEST_TIMEOUT, f"nothing came for {self.timeout:g} s")
        except Exception as err:  # a fault of ours: answered and named, the server goes on
            self._refuse(HTTPStatus.INTERNAL_SERVER_ERROR, f"{type(err).__name__}: {err}")

    def _route(self) -> str:
        """What the request asks after ``/<token>/``, once its Host, token and Origin are
        the recorder's own."""
        for name in ("Host", "Origin"):  # one of each at most: a second could say otherwise
            if len(self.headers.get_all(name, [])) > 1:
                raise RefusedError(HTTPStatus.BAD_REQUEST, f"{name} given more than once")
        host = self.headers.get("Host", "").lower()
        if host not in self.server.hosts:  # a DNS name rebound to 127.0.0.1 says its own
            raise RefusedError(HTTPStatus.FORBIDDEN, f"Host '{host}' is not this recorder's")
        token, _, route = urlsplit(self.path).path.removeprefix("/").partition("/")
        if not secrets.compare_digest(token.encode(), self.server.token.encode()):
            raise RefusedError(
                HTTPStatus.FORBIDDEN, "no token, or not this recorder's: open the address printed"
            )
        origin = self.headers.get("Origin")
        if self.command == "POST" and origin is not None and origin.lower() != f"http://{host}":
            raise RefusedError(HTTPStatus.FORBIDDEN, f"a take sent from another site ({origin})")
        return route

    def _page(self, route: str) -> None:
        if route:
            raise RefusedError(HTTPStatus.NOT_FOUND, "not found")
        nonce = secrets.token_urlsafe(16)
        policy = (
            f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
            "media-src blob:; connect-src 'self'; img-src data:; base-uri 'none'; "
            "form-action 'none'; frame-ancestors 'none'"
        )
        body = page(self.server.folder, self.server.lang, nonce).encode()
        self._send(HTTPStatus.OK, body, "text/html; charset=utf-8", policy)

    def _take(self, route: str) -> None:
        name = unquote(route.removeprefix("take/"))
        if not route.startswith("take/") or name not in self.server.listed:
            raise RefusedError(HTTPStatus.NOT_FOUND, f"no line '{name}' in the script")
        data = self._body()
        target = inside(self.server.folder, f"{name}.wav")
        try:
            samples = to_samples(data)
            check_recording(f"the take for {name}", samples, self.server.listed[name])
        except TooLongError as err:
            raise RefusedError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"the take {err}") from None
        except VoiceError as err:
            raise RefusedError(HTTPStatus.UNPROCESSABLE_ENTITY, str(err)) from None
        write_wav(target, samples)  # atomic: the line's previous take stays until this is whole
        for old in (p for p in target.parent.glob(f"{target.stem}.*") if p != target):
            old.unlink(missing_ok=True)  # one take per line: this one
        self._answer(True, f"{len(samples) / SAMPLE_RATE:.1f} s", HTTPStatus.OK)

    def _body(self) -> bytes:
        """The take, its size checked from the headers before a byte of it is read."""
        if "Transfer-Encoding" in self.headers:
            raise RefusedError(HTTPStatus.LENGTH_REQUIRED, "send the take whole, with its length")
        given = self.headers.get_all("Content-Length") or []
        if not given:
            raise RefusedError(HTTPStatus.LENGTH_REQUIRED, "the take has no Content-Length")
        if len(given) > 1 or not LENGTH.fullmatch(given[0].strip()):
            shown = ", ".join(given)[:40]
            raise RefusedError(HTTPStatus.BAD_REQUEST, f"Content-Length '{shown}' is not a size")
        length = int(given[0])
        if not 0 < length <= MAX_TAKE_BYTES:
            raise RefusedError(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE if length else HTTPStatus.BAD_REQUEST,
                f"the take is {length} bytes (allowed: 1 to {MAX_TAKE_BYTES})",
            )
        data = self.rfile.read(length)
        if len(data) < length:
            raise RefusedError(
                HTTPStatus.BAD_REQUEST, f"the take stopped at {len(data)} of {length} bytes"
            )
        return data

    def _refuse(self, status: HTTPStatus, problem: str) -> None:
        self.server.log(f"{self.command} {self.path[:200]}: {status.value} {problem}")
        if not self.answered:
            with contextlib.suppress(OSError):  # the client may be gone: the line says it all
                self._answer(False, problem, status)

    def _answer(self, ok: bool, problem: str, status: HTTPStatus) -> None:
        if self.command == "POST":
            body, kind = json.dumps({"ok": ok, "problem": problem}).encode(), "application/json"
        else:
            body, kind = problem.encode(), "text/plain; charset=utf-8"
        self._send(status, body, kind)

    def _send(self, status: HTTPStatus, body: bytes, kind: str, policy: str = "") -> None:
        self.answered = True
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Referrer-Policy", "no-referrer")  # the token stays in this page
        self.send_header("X-Content-Type-Options", "nosniff")
        if policy:
            self.send_header("Content-Security-Policy", policy)
        self.end_headers()
        self.wfile.write(body)


class RecorderServer(ThreadingHTTPServer):
    """The recorder of ``folder`` (its narration.json) on 127.0.0.1:``port`` (0: any free
    port), at :attr:`url` only; ``serve_forever`` serves it, ``server_close`` (the end of a
    ``with`` block, Ctrl-C included) ends it with no take half-written."""

    daemon_threads = False  # joined when the server closes: a take being written is finished

    def __init__(
        self, folder: Path, lang: str, port: int, read_timeout: float = READ_TIMEOUT
    ) -> None:
        self.folder, self.lang, self.read_timeout = folder, lang, read_timeout
        self.listed = {line.file: line.text for line in read_manifest(folder)}
        self.token = secrets.token_urlsafe(24)
        self._open: set[socket.socket] = set()  # the connections in hand
        self._guard = threading.Lock()
        super().__init__((HOST, port), RecorderHandler)
        self.hosts = {f"{HOST}:{self.server_port}", f"localhost:{self.server_port}"}

    @property
    def url(self) -> str:
        """The page's address, its token in it: the only one the recorder answers."""
        return f"http://{HOST}:{self.server_port}/{self.token}/"

    def log(self, message: str) -> None:
        """One line on stderr, the token masked, control characters made visible."""
        text = message.replace(self.token, "<token>")
        print(
            "record: " + "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text),
            file=sys.stderr,
            flush=True,
        )

    def handle_error(self, request: object, client_address: object) -> None:
        err = sys.exc_info()[1]  # a connection that failed outside a handler's answer
        self.log(f"a request from {client_address} failed: {type(err).__name__}: {err}")

    def process_request(self, request: socket.socket, client_address: object) -> None:
        with self._guard:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: socket.socket) -> None:
        with self._guard:
            self._open.discard(request)
        super().shutdown_request(request)

    def server_close(self) -> None:
        """Stop listening, end the uploads still arriving (each answered as cut short) and
        wait for the requests in hand, so that every take is written whole or not at all."""
        with self._guard:
            for request in self._open:
                with contextlib.suppress(OSError):
                    request.shutdown(socket.SHUT_RD)
        super().server_close()  # ThreadingMixIn's: joins the handlers' threads


def serve(folder: Path, lang: str, port: int, read_timeout: float = READ_TIMEOUT) -> RecorderServer:
    """The recorder's server for ``folder`` (its narration.json), on 127.0.0.1:``port``
    (0: any free port), at its ``url``; call ``serve_forever`` on it."""
    return RecorderServer(folder, lang, port, read_timeout)
