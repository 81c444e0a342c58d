"""What the page tests share: Debian's Chromium (headless, driven by Selenium with Debian's
chromedriver, no browser download), one small rendered lecture, and the helpers that read
the page. The fixtures are in conftest.py; every page test file is marked with
:data:`PAGE_MARKS`, so that one worker renders the lecture and opens the browser once."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "scenes" / "chapters" / "template.py"
PLAN = (
    '[[chapter]]\nscene = "template"\nfile = "{file}"\nclass = "TemplateScene"\n\n'
    '[[chapter]]\nscene = "template_again"\nfile = "{file}"\nclass = "TemplateScene"\n'
)
CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
PAGE_MARKS = [pytest.mark.render, pytest.mark.xdist_group("page")]
WINDOW = (1280, 800)  # the browser's size; a test that changes it puts it back


def render_lecture(tmp: Path, data_file: Path) -> Path:
    """A lecture of two short chapters, rendered silent at 480p15, in ``tmp/out``."""
    plan = tmp / "plan.toml"
    plan.write_text(PLAN.format(file=TEMPLATE), encoding="utf-8")
    out = tmp / "out"
    out.mkdir()
    shutil.copy(data_file, out / "data.json")  # the same model: no training again
    lecture_file = tmp / "lecture.toml"  # an English lecture: its lecture is out/ itself
    lecture_file.write_text('languages = ["en"]\n', encoding="utf-8")
    command = [sys.executable, str(ROOT / "render.py"), "--plan", str(plan), "--config"]
    command.append(str(lecture_file))
    command += ["--quality", "low", "--voice", "none", "--out", str(out)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    return out


def chrome(*flags: str) -> webdriver.Chrome:
    """Headless Chromium with ``flags`` besides the usual ones, its console kept."""
    assert CHROMIUM and DRIVER, "set-up installs Debian's chromium and chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--mute-audio", *flags):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def open_page(browser: webdriver.Chrome, lecture: Path, hash_: str = "") -> None:
    browser.get("about:blank")  # a fresh page, not a hash change of the last one
    browser.get((lecture / "index.html").as_uri() + hash_)
    until(browser, "return document.getElementById('video').readyState >= 2")


def until(browser: webdriver.Chrome, script: str, seconds: float = 20) -> None:
    end = time.monotonic() + seconds
    while not browser.execute_script(script):
        assert time.monotonic() < end, f"timed out: {script}"
        time.sleep(0.05)


def video(browser: webdriver.Chrome, prop: str):
    return browser.execute_script(f"return document.getElementById('video').{prop}")


def data_js(folder: Path) -> dict:
    text = (folder / "lecture.data.js").read_text(encoding="utf-8")
    return json.loads(text.split("=", 1)[1].rstrip(";\n"))


def close(found, expected, where: str) -> None:
    """Nested lists of numbers equal to 1e-6."""
    assert np.allclose(np.array(found, dtype=float), np.array(expected, dtype=float), atol=1e-6), (
        where
    )


def not_blank(element, path: Path) -> None:
    """A screenshot of a demo shows something: many shades, from dark to light."""
    path.write_bytes(element.screenshot_as_png)
    picture = Image.open(path).convert("L")
    low, high = picture.getextrema()
    assert high - low > 100 and len(picture.resize((64, 40)).getcolors(4096)) > 12, path.name


def severe(browser: webdriver.Chrome) -> list[dict]:
    """The console's errors since the last call."""
    return [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
