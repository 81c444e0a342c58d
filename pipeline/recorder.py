"""Record the narration in the tool: a page on this machine that walks the narration script
one line at a time (shows the line, records it, plays it back, keeps it or takes it again)
and writes each take where render.py looks for it.

``render.py --record --narration DIR`` serves the page on http://127.0.0.1:8765 (``--port``)
until Ctrl-C. The browser records with MediaRecorder; each kept take is sent here, decoded
(PyAV), written as ``DIR/<scene>/<nn>-<key>.wav`` (mono, 48 kHz) and checked as render.py
checks a recording (not empty, not silent, not too long): the page shows the verdict. Only
names that narration.json lists are written, each inside DIR. Served to this machine only.
"""

from __future__ import annotations

import html
import json
import tempfile
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

import av
import numpy as np

from common.files import inside
from pipeline.narration import read_manifest
from syllabus.locale import Words
from voice.audio import SAMPLE_RATE, decode_stream
from voice.clips import VoiceError, check_recording, find_recording, write_wav

MAX_TAKE_BYTES = 64 * 2**20  # a take longer than any line may be is refused unread


def to_samples(data: bytes) -> np.ndarray:
    """A take as the browser sent it (WebM/Opus, Ogg, WAV...) as mono floats at 48 kHz."""
    with tempfile.NamedTemporaryFile(suffix=".take") as raw:
        raw.write(data)
        raw.flush()
        try:
            samples = decode_stream(raw.name)
        except av.error.FFmpegError as err:
            raise VoiceError(f"the take cannot be read as audio ({err})") from None
    if samples is None:
        raise VoiceError("the take holds no audio")
    return samples


def page(folder: Path, lang: str) -> str:
    """The recorder's page: every line of the script, in order, each with its state."""
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
    ui = json.dumps({key: words[key] for key in ("record", "stop", "keep", "recorded")})
    return RECORDER_PAGE.format(
        lang=html.escape(lang), title=html.escape(words["title"]), rows="".join(rows), ui=ui
    )


RECORDER_PAGE = """<!doctype html>
<html lang="{lang}"><meta charset="utf-8"><title>{title}</title>
<style>body{{font:16px/1.5 sans-serif;margin:2em;background:#111;color:#eee}}
li{{margin:.6em 0;padding:.4em;border-left:4px solid #444}} li.done{{border-color:#4a4}}
li.current{{background:#222}} .text{{font-size:1.3em;margin:.2em 0}} code{{color:#999}}</style>
<h1>{title}</h1><ol id="lines">{rows}</ol>
<script>
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


def serve(folder: Path, lang: str, port: int) -> ThreadingHTTPServer:
    """The recorder's server for ``folder`` (its narration.json), on 127.0.0.1:``port``
    (0: any free port); call ``serve_forever`` on it."""
    listed = {line.file: line.text for line in read_manifest(folder)}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # quiet: the page shows what happens
            pass

        def _send(self, status: HTTPStatus, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            if self.path != "/":
                self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain")
                return
            self._send(HTTPStatus.OK, page(folder, lang).encode(), "text/html; charset=utf-8")

        def do_POST(self) -> None:
            name = unquote(self.path.removeprefix("/take/"))
            length = int(self.headers.get("Content-Length") or 0)
            if not self.path.startswith("/take/") or name not in listed:
                self._answer(False, f"no line '{name}' in the script", HTTPStatus.NOT_FOUND)
                return
            if not 0 < length <= MAX_TAKE_BYTES:
                self._answer(False, "the take is empty or too large", HTTPStatus.BAD_REQUEST)
                return
            data = self.rfile.read(length)
            target = inside(folder, f"{name}.wav")
            try:
                samples = to_samples(data)
                check_recording(target, samples, listed[name])
            except VoiceError as err:
                self._answer(False, str(err), HTTPStatus.UNPROCESSABLE_ENTITY)
                return
            for old in (p for p in target.parent.glob(f"{target.stem}.*") if p != target):
                old.unlink(missing_ok=True)  # one take per line: this one
            target.parent.mkdir(parents=True, exist_ok=True)
            write_wav(target, samples)
            self._answer(True, f"{len(samples) / SAMPLE_RATE:.1f} s", HTTPStatus.OK)

        def _answer(self, ok: bool, problem: str, status: HTTPStatus) -> None:
            body = json.dumps({"ok": ok, "problem": problem}).encode()
            self._send(status, body, "application/json")

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)
