"""The lab's own-sentence demo and its heads demo, in Chromium: a typed sentence of 2 to 9
words in either language goes through the lecture's head, every step equal to numpy's; the
walkthrough sentence reproduces the data file's numbers; the trained heads' maps are the
data file's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
from pagekit import PAGE_MARKS, WINDOW, close, data_js, open_page, severe
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from model.datafile import in_language
from syllabus.locale import Words

pytestmark = PAGE_MARKS


def _numpy_run(x: np.ndarray, walk: dict, causal: bool) -> dict:
    """The same head in numpy: X (n, d) -> Q, K, V, scores, scaled (NaN: masked), weights,
    outputs."""
    q, k, v = (x @ np.array(walk[w]) for w in ("w_q", "w_k", "w_v"))  # (n, d) each
    scores = q @ k.T  # (n, n)
    scaled = scores / np.sqrt(q.shape[1])
    if causal:
        scaled = np.where(np.triu(np.ones_like(scaled), 1) > 0, -np.inf, scaled)
    e = np.exp(scaled - scaled.max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)  # (n, n)
    scaled = np.where(np.isinf(scaled), np.nan, scaled)
    return {
        "q": q,
        "k": k,
        "v": v,
        "scores": scores,
        "scaled": scaled,
        "weights": weights,
        "outputs": weights @ v,
    }


def _type(browser: webdriver.Chrome, text: str, causal: bool = False) -> dict:
    """Type ``text`` into the demo (as an input event) with the mask as given; its run."""
    return browser.execute_script(
        "const box = document.getElementById('sentence-text'), mask = "
        "document.getElementById('sentence-causal');"
        "box.value = arguments[0]; box.dispatchEvent(new Event('input'));"
        "if (mask.checked !== arguments[1]) mask.click();"
        "return JSON.parse(document.getElementById('demo-sentence').dataset.run);",
        text,
        causal,
    )


def _check_run(run: dict, words: list[str], walk: dict, causal: bool) -> None:
    """The page's run: its words, each word's vector from the lecture's table (0 for a word
    not in it) and every step equal to numpy's."""
    table = _table(walk)
    assert run["words"] == words
    x = np.array([table.get(w, [0.0] * len(walk["x"][0])) for w in words])
    close(run["x"], x, "X")
    for key, value in _numpy_run(x, walk, causal).items():
        found = np.array([[np.nan if c is None else c for c in row] for row in run[key]])
        assert np.allclose(found, value, atol=1e-6, equal_nan=True), (words, key)


def test_a_typed_sentence_goes_through_the_lectures_head(
    browser: webdriver.Chrome, lecture: Path, tmp_path: Path
) -> None:
    raw = json.loads((lecture / "data.json").read_text(encoding="utf-8"))
    open_page(browser, lecture)
    browser.execute_script("Lab.open('sentence')")
    panel = browser.find_element(By.ID, "demo-sentence")
    # It opens on the video's numbers: the walkthrough's first words, every row (short_full),
    # then the whole sentence under the causal mask (the causal chapter's).
    walk = in_language(raw, "en")["tokens"]["eat_apple"]
    short = walk["short"]
    run = json.loads(panel.get_attribute("data-run"))
    assert run["words"] == walk["tokens"][:short]
    for key in ("q", "k", "v"):
        close(run[key], walk[key][:short], key)
    video = walk["short_full"]
    for key in ("weights", "outputs"):
        close(run[key], video[key], key)
    close(run["scaled"], video["scores"], "scores / √d")
    run = _type(browser, " ".join(walk["tokens"]), causal=True)
    masked = [[np.nan if s is None else s for s in row] for row in walk["causal"]["scores"]]
    found = [[np.nan if s is None else s for s in row] for row in run["scaled"]]
    assert np.allclose(found, masked, atol=1e-6, equal_nan=True)
    close(run["weights"], walk["causal"]["weights"], "causal weights")
    # Typed sentences of 2 to 9 words (words not in the table count as 0; a tenth is cut).
    for text, words, causal in (
        ("you drink coffee", ["you", "drink", "coffee"], False),
        (
            "She eats the bread, very happily!",
            ["she", "eats", "the", "bread", "very", "happily"],
            True,
        ),
        ("I eat", ["I", "eat"], False),
        ("a b c d e f g h k j", list("abcdefghk"), False),
    ):
        _check_run(_type(browser, text, causal), words, walk, causal)
    note = panel.find_element(By.CSS_SELECTOR, "p.muted").text
    assert Words("lab", "en").format("sentence_cut", max=9) in note
    # Nine words on a 320 px phone: every number still fits its cell (one decimal fewer).
    try:
        browser.set_window_size(320, WINDOW[1])
        _type(browser, "I eat an apple happily and you drink coffee", True)
        cut = browser.execute_script(
            "return [...document.querySelectorAll('#demo-sentence .mat span')]"
            ".filter(e => e.scrollWidth > e.clientWidth + 1)"
            ".map(e => `${e.closest('[data-m]').dataset.m} ${e.textContent}`)"
            ".concat(document.documentElement.scrollWidth > innerWidth ? ['the page'] : [])"
        )
        assert cut == [], cut
    finally:
        browser.set_window_size(*WINDOW)
    # A word's sliders change its vector wherever it stands, and every step follows.
    _type(browser, "sings bread and sings", False)
    panel.find_element(By.CSS_SELECTOR, ".chip.unknown").click()  # "sings"
    browser.execute_script(
        "const s = document.querySelector('#demo-sentence .editor input');"
        "s.value = '1.5'; s.dispatchEvent(new Event('input'));"
    )
    run = json.loads(panel.get_attribute("data-run"))
    assert run["x"][0] == run["x"][3] == [1.5, 0, 0, 0]
    edited = walk | {"vocabulary": walk["vocabulary"] | {"sings": [1.5, 0, 0, 0]}}
    _check_run(run, ["sings", "bread", "and", "sings"], edited, False)
    # Pointing at a score lights the Q row and the K row it came from, and says so.
    _type(browser, "you drink coffee", False)
    cell = panel.find_element(By.CSS_SELECTOR, "[data-m=scores] [data-r='2'][data-c='1']")
    webdriver.ActionChains(browser).move_to_element(cell).perform()
    lit = browser.execute_script(
        "return [...document.querySelectorAll('#demo-sentence .lit')].map("
        "e => e.closest('[data-m]').dataset.m + e.dataset.r + e.dataset.c)"
    )
    assert sorted(lit) == sorted(
        ["scores21", *(f"q2{c}" for c in range(4)), *(f"k1{c}" for c in range(4))]
    )
    table = _table(walk)
    q, k = np.array(table["coffee"]) @ walk["w_q"], np.array(table["drink"]) @ walk["w_k"]
    score = float(q @ k)
    assert panel.find_element(By.CSS_SELECTOR, ".explain").text == Words("lab", "en").format(
        "explain_scores", row="coffee", col="drink", value=f"{score:.2f}"
    )
    # From the keyboard: a matrix is one tab stop, and the arrows walk its cells.
    panel.find_element(By.CSS_SELECTOR, "[data-m=scores] [tabindex='0']").send_keys(Keys.ARROW_DOWN)
    assert browser.execute_script("return document.activeElement.dataset.r") == "1"
    assert panel.find_element(By.CSS_SELECTOR, ".explain").text.startswith("Q[drink] · K[you]")
    # The same demo in Chinese: its own sentence, cut into the table's words.
    zh = tmp_path / "zh"
    shutil.copytree(lecture, zh, ignore=shutil.ignore_patterns("segments"))
    from pipeline.lab import lab_data

    page = data_js(lecture) | {"lab": lab_data(raw, "zh-TW"), "lang": "zh-TW"}
    (zh / "lecture.data.js").write_text(
        "window.LECTURE = " + json.dumps(page, ensure_ascii=False) + ";\n", encoding="utf-8"
    )
    open_page(browser, zh)
    browser.execute_script("Lab.open('sentence')")
    walk = in_language(raw, "zh-TW")["tokens"]["eat_apple"]
    run = json.loads(browser.find_element(By.ID, "demo-sentence").get_attribute("data-run"))
    assert run["words"] == walk["tokens"][: walk["short"]]
    close(run["weights"], walk["short_full"]["weights"], "zh weights")
    for text, words, causal in (
        ("你喝咖啡很開心", ["你", "喝", "咖啡", "很", "開心"], True),
        ("他有點累。", ["他", "有點", "累"], False),
        ("我 drink 牛奶", ["我", "drink", "牛奶"], False),
        ("貓吃魚", ["貓", "吃", "魚"], False),
    ):
        _check_run(_type(browser, text, causal), words, walk, causal)
    _heads_are_the_data_files(browser, in_language(raw, "zh-TW"))
    assert severe(browser) == []


def _table(walk: dict) -> dict[str, list[float]]:
    """The lecture's table of words: its vocabulary and the sentence's own words."""
    return dict(walk["vocabulary"]) | dict(zip(walk["tokens"], walk["x"], strict=True))


def _heads_are_the_data_files(browser: webdriver.Chrome, data: dict) -> None:
    """Each view of the heads demo shows the data file's maps, three decimals a cell, named
    by the rule each head learned (where its overlap reaches RULE_MATCH)."""
    from model.parts import RULE_MATCH

    words = Words("multihead", "zh-TW")
    browser.execute_script("Lab.open('heads')")
    panel = browser.find_element(By.ID, "demo-heads")
    runs = {"two": data["multihead"]["two"], "four": data["multihead"]["four"]}
    for view, run in (*runs.items(), ("causal", data["causal"])):
        panel.find_element(By.CSS_SELECTOR, f"button[data-view={view}]").click()
        maps = browser.execute_script(
            "return [...document.querySelectorAll('#demo-heads .mat')].map(m => "
            "[...m.querySelectorAll('[role=row]')].slice(1).map(r => "
            "[...r.querySelectorAll('[role=cell]')].map(c => c.textContent)))"
        )
        expected = run["maps"] if view != "causal" else [run["attention"]]
        assert maps == [[[f"{w:.3f}" for w in row] for row in m] for m in expected], view
        if view == "causal":
            continue
        captions = [e.text for e in panel.find_elements(By.CSS_SELECTOR, "figcaption")]
        for h, caption in enumerate(captions):
            named = [
                words[key]
                for key, match in (
                    ("rule_colour", run["colour_match"]),
                    ("rule_previous", run["previous_match"]),
                )
                if match[h] >= RULE_MATCH
            ]
            assert caption.startswith(words.format("head", h=h + 1)), caption
            assert all(rule in caption for rule in named), caption
            assert named or Words("lab", "zh-TW")["no_rule"] in caption, caption
