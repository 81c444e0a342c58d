"""The lab's colour task in Chromium: nothing loads or trains until its tab is opened; then
the viewer watches the map form as the model trains, beside a loss curve with its axes and
its scale named; the map's rows and columns carry the positions' colours, and under it the
model's outputs stand against the right answers. Without tf.min.js the page says so in the
lecture's language."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import numpy as np
import pytest
from pagekit import PAGE_MARKS, WINDOW, close, data_js, not_blank, open_page, severe, until
from selenium import webdriver
from selenium.webdriver.common.by import By

from model.datafile import in_language
from pipeline.lab import lab_data
from pipeline.page import page_words
from syllabus.locale import Words

pytestmark = PAGE_MARKS

PANEL = "document.getElementById('demo-colours')"
DECADE = re.compile(r"^10[⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+$")


def _two(x: float) -> str:
    """A number as the page writes it under the map: two decimals, never -0.00."""
    text = f"{x:.2f}"
    return "0.00" if text == "-0.00" else text


def _table_rows(panel, which: int) -> list:
    return panel.find_elements(By.CSS_SELECTOR, ".colourmap")[which].find_elements(
        By.CSS_SELECTOR, "[role=row]"
    )


def test_the_colour_task_trains_once_opened_and_its_map_is_watched_forming(
    browser: webdriver.Chrome, lecture: Path, tmp_path: Path
) -> None:
    data = in_language(json.loads((lecture / "data.json").read_text(encoding="utf-8")), "en")
    mixed, steps = data["examples"]["mixed"], data["config"]["steps"]
    lab, words = data_js(lecture)["lab"]["colours"], Words("lab", "en")
    open_page(browser, lecture)
    run = browser.execute_script
    # The tab is closed: no library fetched, nothing trained.
    assert run("return window.tf === undefined && window.LabTraining === undefined")
    assert run("return document.querySelector('script[src$=\"tf.min.js\"]') === null")
    panel = browser.find_element(By.ID, "demo-colours")
    # Until then the map is the video's model's: its outputs are the data file's predictions,
    # and the right answers its targets, each the mean of the numbers of the same colour.
    close(json.loads(panel.get_attribute("data-outputs")), mixed["predictions"], "outputs")
    colours, values = np.array(mixed["colours"]), np.array(mixed["values"])
    means = [values[colours == c].mean() for c in colours]
    close(json.loads(panel.get_attribute("data-targets")), means, "the same-colour means")
    close(means, mixed["targets"], "the data file's targets")

    browser.find_element(By.ID, "tab-colours").click()  # opened: tf.js loads and it trains
    maps, end = set(), time.monotonic() + 120
    while True:
        done, seen = run(
            f"const t = window.LabTraining; return [t !== undefined && t.done, {PANEL}.dataset.map]"
        )
        if done:
            break
        maps.add(seen)
        assert time.monotonic() < end, "the colour task did not finish training"
        time.sleep(0.15)
    assert len(maps) >= 5, f"the map changed {len(maps)} times while it trained"
    trained = run("return window.LabTraining")
    assert run("return window.tf !== undefined")
    assert trained["steps"] == steps and trained["ms"] > 0
    assert trained["redraws"] >= 5, trained["redraws"]
    assert trained["mse"] < 0.02 * trained["baseline"], trained
    print(f"lab: trained in the browser in {trained['ms']:.0f} ms, MSE {trained['mse']:.2g}")

    _the_curve_has_its_axes(panel, words, steps)
    _rows_and_columns_carry_the_positions_colours(panel, lab, words, mixed["colours"])
    # Under the map: the outputs of the model in use, as LabMath reads them from its weights
    # (close to the right answers: it has learned), and the right answers, as written.
    outputs = json.loads(panel.get_attribute("data-outputs"))
    expected = run(
        "return LabMath.colourOutputs(...arguments)",
        trained["weights"],
        mixed["colours"],
        mixed["values"],
        len(lab["names"]),
    )
    close(outputs, expected, "the outputs row")
    assert np.max(np.abs(np.array(outputs) - means)) < 0.05, outputs
    rows = _table_rows(panel, 1)
    labels = [r.find_element(By.CSS_SELECTOR, "[role=rowheader]").text for r in rows[1:]]
    assert labels == [words[k] for k in ("numbers_row", "targets_row", "outputs_row")]
    written = [[c.text for c in r.find_elements(By.CSS_SELECTOR, "[role=cell]")] for r in rows[1:]]
    assert written == [[_two(x) for x in xs] for xs in (values, means, outputs)]

    _it_fits_a_phone(browser, panel)
    # The trained map re-divides: all one colour gives rows of 1/8, half and half 1/4, and a
    # position alone in its colour looks only at itself.
    buttons = panel.find_elements(By.CSS_SELECTOR, ".row button:not(.again)")
    n = len(mixed["colours"])
    for button, share in ((0, 1 / n), (1, 2 / n)):
        buttons[button].click()
        for row in json.loads(panel.get_attribute("data-map")):
            assert max(row) == pytest.approx(share, abs=0.03), row
    buttons[0].click()
    panel.find_elements(By.CSS_SELECTOR, ".strip .cell")[0].click()
    assert json.loads(panel.get_attribute("data-map"))[0][0] == pytest.approx(1, abs=0.03)
    not_blank(panel, tmp_path / "colours.png")
    # Train again: another run starts, and the button keeps the focus.
    again = panel.find_element(By.CSS_SELECTOR, "button.again")
    assert again.is_displayed() and again.text == words["train_again"]
    again.click()
    until(browser, "return window.LabTraining.run === 2 && !window.LabTraining.done")
    assert run("return document.activeElement.classList.contains('again')")
    assert severe(browser) == []


def _the_curve_has_its_axes(panel, words: Words, steps: int) -> None:
    """The step across from 0 to the lecture's steps; the loss up, a label at each power of
    ten; both axes titled, the loss's title naming its log scale."""
    curve = panel.find_element(By.CSS_SELECTOR, "svg.loss")
    decades = [t.text for t in curve.find_elements(By.CSS_SELECTOR, "text.decade")]
    assert len(decades) >= 4 and all(DECADE.match(d) for d in decades), decades
    powers = [int(d[2:].translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789"))) for d in decades]
    assert powers == list(range(powers[0], powers[0] + len(powers))), decades  # each decade
    # From the untrained model's loss (over 10⁻¹) to the trained one's (under 10⁻²)
    assert powers[0] <= -3 and powers[-1] >= -1, decades
    ticks = [t.text for t in curve.find_elements(By.CSS_SELECTOR, "text.tick")]
    assert ticks[0] == "0" and ticks[-1] == str(steps), ticks
    titles = {t.text for t in curve.find_elements(By.CSS_SELECTOR, "text.title")}
    assert titles == {words["step_axis"], words["loss_axis"]}
    assert "log scale" in words["loss_axis"]
    # Equal steps between decades: the scale is logarithmic, not linear.
    decade_text = curve.find_elements(By.CSS_SELECTOR, "text.decade")
    heights = [float(t.get_attribute("y")) for t in decade_text]
    assert np.allclose(np.diff(heights), np.diff(heights)[0]), heights


def _rows_and_columns_carry_the_positions_colours(
    panel, lab: dict, words: Words, colours: list[int]
) -> None:
    rows = _table_rows(panel, 0)
    named = [
        words["position"].replace("{k}", str(i + 1)).replace("{colour}", lab["names"][c])
        for i, c in enumerate(colours)
    ]
    columns = rows[0].find_elements(By.CSS_SELECTOR, "[role=columnheader]")
    assert [c.get_attribute("aria-label") for c in columns] == named
    assert [c.text for c in columns] == [lab["labels"][c] for c in colours]
    heads = [r.find_element(By.CSS_SELECTOR, "[role=rowheader]") for r in rows[1:]]
    assert [h.get_attribute("aria-label") for h in heads] == named
    fills = [h.value_of_css_property("background-color") for h in heads]
    assert len(set(fills)) == len(set(colours))  # each colour its own fill


def _it_fits_a_phone(browser: webdriver.Chrome, panel) -> None:
    """At 320 px the panel does not scroll sideways and the curve fits it."""
    try:
        browser.set_window_size(320, WINDOW[1])
        until(browser, "return window.innerWidth <= 320")
        fits = browser.execute_script(
            f"const p = {PANEL}, c = p.querySelector('svg.loss').getBoundingClientRect();"
            "const box = p.getBoundingClientRect();"
            "return [p.scrollWidth <= p.clientWidth, c.left >= box.left && c.right <= box.right];"
        )
        assert fits == [True, True], fits
    finally:
        browser.set_window_size(*WINDOW)


def test_a_missing_tensorflow_is_named_in_the_lectures_language(
    browser: webdriver.Chrome, lecture: Path, tmp_path: Path
) -> None:
    """A Chinese lecture whose folder lost tf.min.js: opening the colour task says, in
    Chinese, what is missing and where render.py puts it; the map stays the video's."""
    zh = tmp_path / "zh"
    shutil.copytree(lecture, zh, ignore=shutil.ignore_patterns("segments", "tf.min.js"))
    raw = json.loads((lecture / "data.json").read_text(encoding="utf-8"))
    page = data_js(lecture) | {"lab": lab_data(raw, "zh-TW"), "lang": "zh-TW"}
    page["ui"] = page_words("zh-TW")
    (zh / "lecture.data.js").write_text(
        "window.LECTURE = " + json.dumps(page, ensure_ascii=False) + ";\n", encoding="utf-8"
    )
    open_page(browser, zh)
    assert severe(browser) == []  # nothing asked for it yet
    browser.execute_script("Lab.open('colours')")
    words = Words("lab", "zh-TW")
    message = words.format("tf_missing", file="tf.min.js")
    until(
        browser,
        f"return {PANEL}.querySelector('.status').textContent === {json.dumps(message)}",
    )
    panel = browser.find_element(By.ID, "demo-colours")
    assert words["map_video"] in panel.text
    assert not panel.find_element(By.CSS_SELECTOR, "button.again").is_displayed()
    errors = severe(browser)
    assert errors and all("tf.min.js" in e["message"] for e in errors), errors
