"""The viewers' page, out/index.html, in a real browser: Debian's Chromium, headless, driven
by Selenium with Debian's chromedriver (no browser download)."""

from __future__ import annotations

import io
import json
import shutil
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import av
import numpy as np
import pytest
from pagekit import PAGE_MARKS, chrome, close, data_js, not_blank, open_page, severe, until, video
from PIL import Image
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from common.files import NarrationFile, ScriptLine
from pipeline.lab import DEMO_CHAPTERS
from pipeline.recorder import serve
from syllabus.locale import Words
from voice.clips import SAMPLE_RATE, decode

pytestmark = PAGE_MARKS


def test_the_page_presenter_mode_and_the_lab(
    browser: webdriver.Chrome, lecture: Path, tmp_path: Path
) -> None:
    """One lecture rendered once (one test: a split group would render it twice): the page
    as viewers use it, presenter mode, then the lab."""
    _page_plays_seeks_and_searches(browser, lecture)
    _presenter_mode_stops_after_each_line(browser, lecture)
    _a_clicker_drives_it_from_a_chapter(browser, lecture)
    _the_lab_recomputes_the_data_file_and_trains_in_the_browser(browser, lecture, tmp_path)


def _page_plays_seeks_and_searches(browser: webdriver.Chrome, lecture: Path) -> None:
    manifest = json.loads((lecture / "lecture.json").read_text(encoding="utf-8"))
    open_page(browser, lecture)
    assert severe(browser) == []
    assert video(browser, "duration") == pytest.approx(manifest["duration"], abs=0.07)
    poster = video(browser, "poster")  # before it plays: the first chapter's still, not black
    assert poster.endswith(data_js(lecture)["chapters"][0]["still"])
    chapters = browser.find_elements(By.CSS_SELECTOR, "#chapters li")
    assert len(chapters) == len(manifest["chapters"]) == 2
    chapters[1].click()
    until(browser, "return !document.getElementById('video').seeking")
    assert video(browser, "currentTime") == pytest.approx(manifest["chapters"][1]["start"], abs=0.1)
    assert "current" in chapters[1].get_attribute("class")
    vtt_cues = (lecture / "lecture.vtt").read_text(encoding="utf-8").count("-->")
    lines = browser.find_elements(By.CSS_SELECTOR, "#transcript li")
    assert len(lines) == vtt_cues
    lines[2].click()
    until(browser, "return !document.getElementById('video').seeking")
    assert "current" in lines[2].get_attribute("class")
    search = browser.find_element(By.ID, "search")
    search.send_keys("data file")
    shown = [li for li in lines if li.is_displayed()]
    assert 0 < len(shown) < len(lines)
    assert all("data file" in li.text for li in shown)
    ui = Words("page", "en")  # every word of the page is the lecture's language
    assert browser.find_element(By.ID, "present").text == ui["present"]
    assert browser.find_element(By.ID, "transcript-heading").text == ui["transcript"]
    assert search.get_attribute("placeholder") == ui["search"]
    assert browser.execute_script("return document.getElementById('video').textTracks[0].mode") == (
        "showing"
    )
    picture = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("L")
    assert max(picture.getextrema()) - min(picture.getextrema()) > 100  # not blank
    assert (
        picture.resize((64, 40)).getcolors(4096)
        and len(picture.resize((64, 40)).getcolors(4096)) > 20
    )


_PAUSES = """
const v = document.getElementById('video');
window.pausedAt = [];
v.pause = function () {
  window.pausedAt.push(this.currentTime);
  HTMLMediaElement.prototype.pause.call(this);
};
"""


def _held_picture(path: Path) -> tuple[float, float]:
    """The start and length of the video's first picture held for at least a second."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        for packet in container.demux(stream):
            if packet.duration and packet.duration * stream.time_base >= 1:
                return float(packet.pts * stream.time_base), float(
                    packet.duration * stream.time_base
                )
    raise AssertionError(f"{path}: no picture is held for a second")


def _presenter_mode_stops_after_each_line(browser: webdriver.Chrome, lecture: Path) -> None:
    open_page(browser, lecture, "#present")
    data = json.loads(
        (lecture / "lecture.data.js").read_text(encoding="utf-8").split("=", 1)[1].rstrip(";\n")
    )
    frame = 1 / data["fps"]
    body = browser.find_element(By.TAG_NAME, "body")
    assert "present" in body.get_attribute("class")
    browser.execute_script(_PAUSES)
    browser.execute_script("document.getElementById('video').playbackRate = 4")  # quicker
    for k in range(3):  # space plays the first line, then → each next one
        body.send_keys(Keys.SPACE if k == 0 else Keys.ARROW_RIGHT)
        until(browser, "return !document.getElementById('video').paused", 5)
        until(browser, "return document.getElementById('video').paused", 20)
        stopped = video(browser, "currentTime")
        assert stopped == pytest.approx(data["lines"][k]["end"], abs=frame + 1e-3), k
    assert "Line" in browser.find_element(By.ID, "counter").text
    body.send_keys(Keys.ARROW_LEFT)  # ← replays the line just heard
    until(browser, "return !document.getElementById('video').paused", 5)
    until(browser, "return document.getElementById('video').paused", 20)
    assert video(browser, "currentTime") == pytest.approx(data["lines"][2]["end"], abs=frame + 1e-3)
    # a stop inside a held picture (one frame in the file, lasting the hold: no frame is
    # presented while it lasts) is still made in time, by the clock
    start, length = _held_picture(lecture / "lecture.mp4")
    stop = start + length / 2
    browser.execute_script(f"seek({start + 0.1}); present.playTo({stop})")
    until(browser, "return !document.getElementById('video').paused", 5)
    until(browser, "return document.getElementById('video').paused", 20)
    assert browser.execute_script("return window.pausedAt.pop()") < stop + frame / 2


def _a_clicker_drives_it_from_a_chapter(browser: webdriver.Chrome, lecture: Path) -> None:
    """#present/2 starts at chapter 2; PageDown plays its first line and PageUp plays it
    again (what a clicker sends); B blanks the screen; the counter is below the picture."""
    open_page(browser, lecture, "#present/2")
    data = json.loads(
        (lecture / "lecture.data.js").read_text(encoding="utf-8").split("=", 1)[1].rstrip(";\n")
    )
    frame = 1 / data["fps"]
    first = next(k for k, line in enumerate(data["lines"]) if line["chapter"] == 1)
    counter = browser.find_element(By.ID, "counter")
    assert counter.text.startswith("Chapter 2/2 · Line 1/"), counter.text
    body = browser.find_element(By.TAG_NAME, "body")
    browser.execute_script("document.getElementById('video').playbackRate = 4")  # quicker
    body.send_keys(Keys.PAGE_DOWN)  # plays the chapter's first line to its end
    until(browser, "return !document.getElementById('video').paused", 5)
    until(browser, "return document.getElementById('video').paused", 20)
    stopped = video(browser, "currentTime")
    assert stopped == pytest.approx(data["lines"][first]["end"], abs=frame + 1e-3)
    body.send_keys(Keys.PAGE_UP)  # plays it again, from its start
    until(browser, "return !document.getElementById('video').paused", 5)
    again = video(browser, "currentTime")
    assert data["lines"][first]["start"] - frame <= again < data["lines"][first]["end"] - 0.2
    browser.execute_script("document.getElementById('video').pause()")
    body.send_keys("b")
    assert browser.find_element(By.ID, "black").is_displayed()
    body.send_keys("b")
    assert not browser.find_element(By.ID, "black").is_displayed()
    below = browser.execute_script(
        "const v = document.getElementById('video').getBoundingClientRect();"
        "return document.getElementById('counter').getBoundingClientRect().top >= v.bottom - 1;"
    )
    assert below, "the counter covers the picture"
    _the_presenters_window_follows(browser, data, first)


def _the_presenters_window_follows(browser: webdriver.Chrome, data: dict, first: int) -> None:
    """P opens the presenter's window: the line now, the next one, the chapter's lines and a
    clock, in step with the lecture's window, and its keys drive the lecture."""
    lecture_window = browser.current_window_handle
    browser.find_element(By.TAG_NAME, "body").send_keys("p")
    end = time.monotonic() + 5
    while len(browser.window_handles) < 2:
        assert time.monotonic() < end, "P opened no presenter's window"
        time.sleep(0.05)
    view = next(h for h in browser.window_handles if h != lecture_window)
    browser.switch_to.window(view)
    now = data["lines"][first]["text"]
    until(browser, f"return document.getElementById('now').textContent === {json.dumps(now)}")
    assert browser.find_element(By.ID, "next").text == data["lines"][first + 1]["text"]
    notes = browser.find_elements(By.CSS_SELECTOR, "#notes li")
    assert len(notes) == sum(1 for line in data["lines"] if line["chapter"] == 1)
    assert browser.find_element(By.ID, "clock").text
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.PAGE_DOWN)  # drives the lecture
    browser.switch_to.window(lecture_window)
    until(browser, "return !document.getElementById('video').paused", 5)
    browser.execute_script("document.getElementById('video').pause()")
    browser.switch_to.window(view)
    browser.close()
    browser.switch_to.window(lecture_window)


def test_the_recorder_walks_the_script_a_line_at_a_time(tmp_path: Path) -> None:
    """render.py --record's page, with Chromium's generated signal for a microphone: a line
    recorded, played back and kept lands where render.py looks for it, checked as a
    recording; a name the script does not list is refused."""
    folder = tmp_path / "rec"
    lines = [
        ScriptLine(scene="template", file=f"template/0{k}-line", text=f"line {k}") for k in (1, 2)
    ]
    NarrationFile(lang="en", lines=lines).write(folder / NarrationFile.NAME)
    server = serve(folder, "en", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    browser = chrome(
        "--use-fake-device-for-media-stream",  # a generated signal
        "--use-fake-ui-for-media-stream",  # no permission prompt
    )
    try:
        browser.get(server.url)
        rows = browser.find_elements(By.CSS_SELECTOR, "#lines li")
        assert [r.find_element(By.CLASS_NAME, "text").text for r in rows] == ["line 1", "line 2"]
        record = rows[0].find_element(By.CLASS_NAME, "record")
        record.click()
        until(browser, "return document.querySelector('.record').textContent === 'Stop'", 5)
        time.sleep(1.5)
        record.click()  # stop: it plays back, and may be kept
        until(browser, "return !document.querySelector('.keep').disabled", 5)
        rows[0].find_element(By.CLASS_NAME, "keep").click()
        until(browser, "return document.querySelector('.verdict').textContent !== ''", 10)
        assert rows[0].find_element(By.CLASS_NAME, "verdict").text == "Recorded"
    finally:
        browser.quit()
    take = folder / "template" / "01-line.wav"
    samples = decode(take)
    assert 1.0 < len(samples) / SAMPLE_RATE < 3.0 and np.max(np.abs(samples)) > 0.01
    request = urllib.request.Request(server.url + "take/..%2Foutside", data=b"x", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    assert refused.value.code == 404 and not (tmp_path / "outside.wav").exists()
    server.shutdown()


def _the_lab_recomputes_the_data_file_and_trains_in_the_browser(
    browser: webdriver.Chrome, lecture: Path, tmp_path: Path
) -> None:
    """The lab beside the video: its JavaScript is checked against the data file's numbers,
    and each demo answers its controls; then the same lab in Chinese."""
    from model.datafile import in_language
    from pipeline.lab import lab_data
    from pipeline.page import page_words

    data = in_language(json.loads((lecture / "data.json").read_text(encoding="utf-8")), "en")
    open_page(browser, lecture)
    run = browser.execute_script
    # LabMath, a second implementation, against model/'s numbers (read here from data.json).
    office = data["office"]
    for stop in office["sweep"]:
        found = run(
            "return LabMath.officeWeights(...arguments)",
            stop["query"],
            office["keys"],
            office["scale"],
        )
        close(found, stop["weights"], "office weights")
    mixed, weights = data["examples"]["mixed"], data["weights"]
    found = run(
        "return LabMath.colourMap(...arguments)",
        weights,
        mixed["colours"],
        mixed["values"],
        len(data["config"]["colours"]),
    )
    close(found, mixed["attention"], "the colour task's map")
    it = data["tokens"]["it_cat"]
    for table in it["temperatures"]:
        rows = [
            run("return LabMath.scoresAt(...arguments).weights", it["q"], it["k"], i, table["t"])
            for i in range(len(it["q"]))
        ]
        close(rows, table["weights"], f"it_cat at T = {table['t']}")
    for row in data["pitfalls"]["sqrt_d"]["dims"]:
        scores = row["example_scores"]
        close(run("return LabMath.softmax(arguments[0])", scores), row["example_unscaled"], "√d")
        scaled = [s / row["sqrt_d"] for s in scores]
        close(run("return LabMath.softmax(arguments[0])", scaled), row["example_scaled"], "√d")
    walk, probe = data["tokens"]["eat_apple"], data["pitfalls"]["shuffle"]
    sentence = {k: walk[k] for k in ("x", "w_q", "w_k", "w_v")} | {
        "table": data["positional"]["table"]
    }
    for key, positions in (("without_positions", False), ("with_positions", True)):
        found = run(
            "return LabMath.shuffleRun(...arguments)", sentence, probe["permutation"], positions
        )
        for part in ("out", "out_of_shuffled", "shuffled_out"):
            close(found[part], probe[key][part], f"shuffle {key} {part}")
    projection = data["pitfalls"]["projection"]
    share = run("return LabMath.selfShare(arguments[0])", projection["example"]["plain"])
    assert share == pytest.approx(projection["plain"]["values"][0], abs=1e-6)
    # The colour task's training: tests/test_lab_colours.py.
    _the_demos_answer_their_controls(browser, lecture, tmp_path)
    # The same lab in Chinese: its words, the office's names and the quiz are the locale's.
    zh = tmp_path / "zh"
    shutil.copytree(lecture, zh, ignore=shutil.ignore_patterns("segments"))
    page = data_js(lecture) | {
        "lab": lab_data(json.loads((lecture / "data.json").read_text(encoding="utf-8")), "zh-TW")
    }
    page |= {"lang": "zh-TW", "ui": page_words("zh-TW")}
    page["chapters"][1]["scene"] = "quiz"  # as if chapter 2 were the quiz: it has a demo
    (zh / "lecture.data.js").write_text(
        "window.LECTURE = " + json.dumps(page, ensure_ascii=False) + ";\n", encoding="utf-8"
    )
    open_page(browser, zh)
    words = Words("lab", "zh-TW")
    tabs = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "#lab [role=tab]")]
    assert tabs == [words[k] for k in DEMO_CHAPTERS]  # in the lecture's order
    # The chapter's entry opens its demo, and the demo's button plays its chapter.
    browser.find_element(By.CSS_SELECTOR, "#chapters li:nth-child(2) button.try").click()
    assert browser.find_element(By.ID, "demo-quiz").is_displayed()
    browser.find_element(By.CSS_SELECTOR, "#demo-quiz button.watch").click()
    until(browser, "return !document.getElementById('video').paused")
    assert video(browser, "currentTime") >= page["chapters"][1]["start"] - 0.1
    run("document.getElementById('video').pause()")
    buttons = browser.find_elements(By.CSS_SELECTOR, "#demo-quiz button:not(.watch)")
    buttons[2].click()  # question 1's right answer, V
    assert browser.find_element(By.CSS_SELECTOR, "#demo-quiz .verdict").text.startswith(
        words["right"]
    )
    assert severe(browser) == []
    # From a static server too, as on a course site: the page, its library and its lab load.
    from functools import partial
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    handler = partial(SimpleHTTPRequestHandler, directory=str(zh))
    handler.log_message = lambda *args: None
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/index.html")
        until(browser, "return window.Lab !== undefined")
        run("Lab.open('colours')")  # the library is fetched when the colour task opens
        until(browser, "return window.tf !== undefined")
        assert severe(browser) == []
    finally:
        server.shutdown()


def _the_demos_answer_their_controls(browser: webdriver.Chrome, lecture: Path, shots: Path) -> None:
    run = browser.execute_script
    # The colour task's controls, once trained: tests/test_lab_colours.py.
    # The office: dragging the Query arrow changes the weights.
    run("Lab.open('office')")
    office = browser.find_element(By.ID, "demo-office")
    before = office.get_attribute("data-weights")
    board = office.find_element(By.CSS_SELECTOR, "svg")
    webdriver.ActionChains(browser).move_to_element_with_offset(
        board, -100, -100
    ).click_and_hold().move_by_offset(30, 10).release().perform()
    after = json.loads(office.get_attribute("data-weights"))
    assert after != json.loads(before) and sum(after) == pytest.approx(1)
    not_blank(office, shots / "office.png")
    # it -> cat: T changes the row, and the row still sums to 1.
    run("Lab.open('it_cat')")
    it = browser.find_element(By.ID, "demo-it_cat")
    at_one = json.loads(it.get_attribute("data-row"))
    slider = it.find_element(By.CSS_SELECTOR, "input[type=range]")
    for _ in range(20):
        slider.send_keys(Keys.ARROW_RIGHT)
    hotter = json.loads(it.get_attribute("data-row"))
    assert hotter != at_one and sum(hotter) == pytest.approx(1, abs=1e-9)
    assert max(hotter) < max(at_one)  # a larger T, more even weights
    not_blank(it, shots / "it_cat.png")
    # The quiz marks a wrong answer and a right one.
    run("Lab.open('quiz')")
    quiz = browser.find_element(By.ID, "demo-quiz")
    first = quiz.find_elements(By.CSS_SELECTOR, "[role=group]")[0].find_elements(
        By.TAG_NAME, "button"
    )
    verdict = quiz.find_elements(By.CSS_SELECTOR, ".verdict")[0]
    first[0].click()
    assert "wrong" in verdict.get_attribute("class")
    first[2].click()
    assert "right" in verdict.get_attribute("class")
    not_blank(quiz, shots / "quiz.png")
    before = list(DEMO_CHAPTERS)[-2]  # the tab shown left of the quiz's: the lecture's order
    browser.find_element(By.ID, "tab-quiz").send_keys(Keys.ARROW_LEFT)  # tabs move by arrows
    assert browser.find_element(By.ID, f"demo-{before}").is_displayed()
    assert run("return document.activeElement.id") == f"tab-{before}"
    for name in ("projection", "sqrt_d", "shuffle", "sentence", "heads"):
        run(f"Lab.open('{name}')")
        not_blank(browser.find_element(By.ID, f"demo-{name}"), shots / f"{name}.png")
    run("Lab.open('shuffle')")
    shuffle = browser.find_element(By.ID, "demo-shuffle")
    shuffle.find_element(By.CSS_SELECTOR, ".row button").click()
    assert float(shuffle.get_attribute("data-diff")) < 1e-9  # outputs only move
    shuffle.find_element(By.ID, "with-positions").click()
    assert float(shuffle.get_attribute("data-diff")) > 1e-3  # with positions, they change


def test_the_transcript_joins_a_cues_lines_as_the_language_writes() -> None:
    """A two-line subtitle is one line in the transcript: no space between two Chinese
    characters, one between English words and around a Latin word in Chinese."""
    from pipeline.page import transcript_text

    assert transcript_text("每個字都換成\n一個固定的向量", "zh-TW") == "每個字都換成一個固定的向量"
    assert transcript_text("A line is cut\ninto cues", "en") == "A line is cut into cues"
    assert transcript_text("就是你的\nQuery：", "zh-TW") == "就是你的 Query："
