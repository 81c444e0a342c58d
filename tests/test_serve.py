"""Serving a lecture so that its video seeks: pipeline/serve.py (``python -m pipeline.serve``,
``render.py --serve``) over HTTP, and the page's notice where a server cannot seek (Chromium
plays a video from 0:00 when its server does not answer Range requests)."""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from pagekit import ROOT, open_page, until, video
from selenium import webdriver
from selenium.webdriver.common.by import By

import pipeline.serve
import render
from pipeline.options import RECORD_PORT
from pipeline.serve import PORT, make_server
from syllabus.locale import Words

VIDEO = bytes(range(256)) * 40  # 10240 bytes, each offset's byte known


@contextlib.contextmanager
def running(server: ThreadingHTTPServer) -> Iterator[str]:
    """``server`` answering in a thread (stopped within 0.05 s); its address."""
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A lecture folder's kinds of file, a folder without index.html, and a link out."""
    lecture = tmp_path / "lecture"
    (lecture / "stills").mkdir(parents=True)
    (lecture / "index.html").write_text("<!doctype html><title>lecture</title>", encoding="utf-8")
    (lecture / "lecture.mp4").write_bytes(VIDEO)
    (lecture / "lecture.data.js").write_text("window.LECTURE = {};\n", encoding="utf-8")
    (lecture / "lecture.vtt").write_text("WEBVTT\n", encoding="utf-8")
    (lecture / "data.json").write_text("{}", encoding="utf-8")
    (lecture / "stills" / "a.jpg").write_bytes(b"\xff\xd8")
    (tmp_path / "secret.txt").write_text("not the lecture's", encoding="utf-8")
    (lecture / "link.txt").symlink_to(tmp_path / "secret.txt")
    return lecture


@pytest.fixture
def served(folder: Path) -> Iterator[str]:
    server = make_server(folder, 0)
    assert server.server_address[0] == "127.0.0.1"  # this machine only
    with running(server) as url:
        yield url


def get(url: str, range_: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of a GET (an error status too)."""
    request = urllib.request.Request(url, headers={"Range": range_} if range_ else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def test_a_range_is_answered_with_exactly_its_bytes(served: str) -> None:
    size = len(VIDEO)
    status, headers, body = get(f"{served}/lecture.mp4", "bytes=1000-1999")
    assert (status, headers["Content-Range"], body) == (
        206,
        f"bytes 1000-1999/{size}",
        VIDEO[1000:2000],
    )
    assert headers["Accept-Ranges"] == "bytes" and headers["Content-Length"] == "1000"
    status, headers, body = get(f"{served}/lecture.mp4", "bytes=-500")  # the last 500
    assert (status, headers["Content-Range"], body) == (
        206,
        f"bytes {size - 500}-{size - 1}/{size}",
        VIDEO[-500:],
    )
    status, headers, body = get(f"{served}/lecture.mp4", "bytes=9000-")  # to the end
    assert (status, body) == (206, VIDEO[9000:])
    status, headers, body = get(f"{served}/lecture.mp4", f"bytes={size}-")  # past the end
    assert (status, headers["Content-Range"], body) == (416, f"bytes */{size}", b"")
    status, headers, body = get(f"{served}/lecture.mp4")  # no Range: the whole file
    assert (status, headers["Accept-Ranges"], body) == (200, "bytes", VIDEO)


def test_each_file_has_its_type(served: str) -> None:
    """The types the page needs, text in UTF-8 (the Chinese page's words), whatever this
    system's mimetypes knows."""
    types = {
        "lecture.mp4": "video/mp4",
        "lecture.data.js": "text/javascript; charset=utf-8",
        "lecture.vtt": "text/vtt; charset=utf-8",
        "data.json": "application/json",
        "": "text/html; charset=utf-8",  # the folder: its index.html
    }
    for name, kind in types.items():
        status, headers, _ = get(f"{served}/{name}")
        assert (status, headers["Content-Type"]) == (200, kind), name


@pytest.mark.parametrize(
    "path", ["/../secret.txt", "/%2e%2e/secret.txt", "/stills/..%2f..%2fsecret.txt", "/link.txt"]
)
def test_nothing_outside_the_folder_is_sent(served: str, path: str) -> None:
    status, _, body = get(served + path)
    assert status == 404 and b"not the lecture's" not in body


def test_a_folder_is_never_listed(served: str) -> None:
    status, _, body = get(f"{served}/stills/")
    assert status == 404 and b"a.jpg" not in body


def serve_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "pipeline.serve", *args]


def test_a_bad_folder_or_port_is_one_line_and_exit_2(folder: Path, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        in_use = taken.getsockname()[1]
        cases = {
            str(tmp_path): "has no index.html",
            f"{folder} --port 0": "--port must be between 1 and 65535, got 0",
            f"{folder} --port 65536": "--port must be between 1 and 65535, got 65536",
            f"{folder} --port {in_use}": f"port {in_use} is in use",
        }
        for args, problem in cases.items():
            done = subprocess.run(
                serve_command(*args.split()), capture_output=True, text=True, cwd=ROOT, timeout=20
            )
            assert (done.returncode, done.stdout, done.stderr.count("\n")) == (2, "", 1), args
            assert problem in done.stderr, done.stderr


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serves_until_ctrl_c(command: list[str], expected: bytes) -> None:
    """The command prints its address, answers there with ``expected``, and ends on Ctrl-C
    with exit code 0 and no traceback."""
    # An ignored SIGINT is inherited through exec, and Python then leaves Ctrl-C ignored: an
    # earlier test in this process may have left it so (as a shell does for a job started
    # with &), so the server starts with Python's own handler in place here.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        server = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        line = server.stdout.readline()
        url = line.split("open ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:"), line
        assert get(url)[::2] == (200, expected)
        _abandon(url)  # a client that hangs up is its own request's end, not the server's
        assert get(url)[::2] == (200, expected)
        server.send_signal(signal.SIGINT)
        _, errors = server.communicate(timeout=10)
    finally:
        server.kill()
    assert (server.returncode, errors) == (0, "")


def _abandon(url: str) -> None:
    """A request that stops mid-headers and hangs up (a closed tab, a seek): the server's
    answer meets a closed connection, which once ended render.py with SIGPIPE."""
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as client:
        client.sendall(f"GET /index.html HTTP/1.1\r\nHost: {host}:{port}\r\n".encode())
    time.sleep(0.3)  # the server reads the end of the connection and answers into it


def test_python_m_pipeline_serve_prints_its_address_and_ends_on_ctrl_c(folder: Path) -> None:
    index = (folder / "index.html").read_bytes()
    serves_until_ctrl_c(serve_command(str(folder), "--port", str(free_port())), index)


def test_render_py_serve_outlives_a_client_that_hangs_up(folder: Path) -> None:
    """render.py ignores SIGPIPE as Python does: a browser hanging up mid-answer (as it does
    when the video seeks) is that request's end, not the server's (it once killed it)."""
    command = [sys.executable, str(ROOT / "render.py"), "--serve", "--out", str(folder)]
    serves_until_ctrl_c(
        [*command, "--port", str(free_port())], (folder / "index.html").read_bytes()
    )


def test_render_py_serve_serves_the_folder_render_py_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """--serve serves what --out holds for the first language (--lang another: its folder),
    renders nothing, and has its own default port, so it runs beside the recorder."""
    (tmp_path / "en").mkdir()
    (tmp_path / "index.html").write_text("first", encoding="utf-8")
    (tmp_path / "en" / "index.html").write_text("en", encoding="utf-8")
    pages = []

    def answer_once(server: ThreadingHTTPServer, folder: Path) -> int:  # not until Ctrl-C
        with running(server) as url:
            pages.append(get(url + "/")[2])
        return 0

    monkeypatch.setattr(pipeline.serve, "serve_until_stopped", answer_once)
    command = ["--serve", "--out", str(tmp_path), "--port"]
    assert render.main([*command, str(free_port())]) == 0
    assert render.main([*command, str(free_port()), "--lang", "en"]) == 0
    assert pages == [b"first", b"en"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["en", "index.html"]  # nothing made
    assert render.main(["--serve", "--out", str(tmp_path / "en" / "missing")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert render.flags(render.parse_args(["--serve"])).port == PORT != RECORD_PORT
    assert render.flags(render.parse_args(["--record"])).port == RECORD_PORT


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.mark.render
@pytest.mark.xdist_group("page")  # pagekit.PAGE_MARKS: the page tests' worker and browser
def test_the_page_says_when_its_server_cannot_seek(
    browser: webdriver.Chrome, lecture: Path
) -> None:
    """Python's http.server (no Range requests): the page says so, in its language; served
    by pipeline.serve: nothing said, and a chapter's click lands at its start; file://:
    nothing said either (Chromium seeks a local file)."""
    second = json.loads((lecture / "lecture.json").read_text(encoding="utf-8"))["chapters"][1]
    notice = "return document.getElementById('unseekable')"
    plain = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(lecture)))
    with running(plain) as url:
        browser.get(url + "/index.html")
        until(browser, f"{notice}.textContent !== ''")
        said = Words("page", "en")["unseekable"]
        assert browser.execute_script(f"{notice}.textContent") == said.replace("`", "")
        commands = browser.find_elements(By.CSS_SELECTOR, "#unseekable code")
        assert [c.text for c in commands] == said.split("`")[1::2]  # shown as code
        assert browser.find_element(By.ID, "unseekable").is_displayed()
    with running(make_server(lecture, 0)) as url:
        browser.get(url + "/")
        until(browser, "return document.getElementById('video').readyState >= 2")
        browser.find_elements(By.CSS_SELECTOR, "#chapters li")[1].click()
        until(browser, "return !document.getElementById('video').seeking")
        assert video(browser, "currentTime") == pytest.approx(second["start"], abs=0.1)
        assert browser.execute_script(f"{notice}.textContent") == ""  # said after metadata
        assert not browser.find_element(By.ID, "unseekable").is_displayed()
    open_page(browser, lecture)
    assert browser.execute_script(f"{notice}.textContent") == ""
