"""The lab's fixes (issue 45): its keys stay in the lab, the focus stays on the row chosen,
the office's handle lands under the finger, every demo reflows from 320 to 1920 px, the
it→cat formula lights what each symbol names beside the scores it adds up, and every text
in the lab stands out from its cell. One page for all of them (each load costs a second)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from pagekit import PAGE_MARKS, WINDOW, close, open_page, until
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.keys import Keys

from syllabus.locale import Words

pytestmark = PAGE_MARKS


@pytest.fixture(scope="module")
def page(browser: webdriver.Chrome, lecture: Path) -> Iterator[webdriver.Chrome]:
    """The lecture's page, opened once for this file's tests; the window put back after."""
    open_page(browser, lecture)
    yield browser
    browser.set_window_size(*WINDOW)


def test_keys_inside_the_lab_never_reach_the_video(page: webdriver.Chrome) -> None:
    """Space and Enter on an it→cat row, a tab, a slider and the office's handle, and on any
    control that redraws itself on its own key: the video stays paused. Each key that played
    it is recorded and the video paused again, so that no key can undo another's harm; the
    last Space, outside the lab, must play it (it is still the page's play key)."""
    run = page.execute_script
    controls = run(
        """const video = document.getElementById('video');
        video.pause();
        window.played = [];
        let key = null;  // where the last key went, told before anything could remove it
        addEventListener('keydown', e => {
          key = `${e.target.tagName} ${e.target.textContent.trim().slice(0, 20)}`;
        }, true);
        video.addEventListener('play', () => { played.push(key); video.pause(); });
        // a control (a later demo's, made here) that leaves the page on its own Space, as
        // the it→cat rows did when they were redrawn, before the key bubbles up
        const redraws = document.createElement('button');
        redraws.textContent = 'redraws';
        redraws.addEventListener('keydown', () => redraws.remove());
        document.getElementById('demo-office').append(redraws);
        const q = s => document.querySelector(s);
        return [q('#demo-it_cat [role=option]:not([aria-selected=true])'), q('#tab-it_cat'),
                q('#demo-it_cat input[type=range]'), q('#demo-office .handle'), redraws];"""
    )
    for k, control in enumerate(controls):
        run(
            "Lab.open(arguments[0]); arguments[1].focus()", "office" if k > 2 else "it_cat", control
        )
        ActionChains(page).send_keys(" ", Keys.ENTER).perform()
    run("document.activeElement.blur()")
    ActionChains(page).send_keys(" ").perform()
    until(page, "return played.some(k => k.startsWith('BODY'))")  # every key before handled
    assert run("return played.map(k => k.split(' ')[0])") == ["BODY"], run("return played")


def test_the_focus_stays_on_the_row_chosen(page: webdriver.Chrome) -> None:
    """Enter or Space on an it→cat row chooses it and leaves the focus on it; the arrows move
    the choice (a listbox: one tab stop, the chosen row)."""
    run = page.execute_script
    rows = run(
        "Lab.open('it_cat'); return [...document.querySelectorAll('#demo-it_cat [role=option]')]"
    )
    chosen = (
        "return document.querySelectorAll('#demo-it_cat [role=option]')[{}].ariaSelected === 'true'"
    )
    for key, k in ((Keys.ENTER, 1), (" ", 3)):
        run("arguments[0].focus()", rows[k])
        ActionChains(page).send_keys(key).perform()
        until(page, chosen.format(k))  # the key handled (the page may be busy training)
        focus = run(
            "const a = document.activeElement;"
            "return [a === arguments[0], a.getAttribute('aria-selected'), a.tabIndex]",
            rows[k],
        )
        assert focus == [True, "true", 0], (repr(key), focus)
    ActionChains(page).send_keys(Keys.ARROW_DOWN).perform()
    until(page, chosen.format(4))
    assert run("return document.activeElement === arguments[0]", rows[4])


def test_the_office_handle_lands_under_the_finger(page: webdriver.Chrome) -> None:
    """At 390 px, and with the board letterboxed (taller than its picture): pointer down at
    a point, then a drag to another, and the handle's centre is within 2 px of each."""
    run = page.execute_script
    page.set_window_size(390, WINDOW[1])
    assert run("return innerWidth") == 390
    # each pointer event counted once the lab has handled it (its listeners come first)
    run(
        "window.pointers = 0; for (const kind of ['pointerdown', 'pointerup'])"
        " addEventListener(kind, () => { pointers += 1; })"
    )
    for letterbox in (False, True):
        box = run(
            """Lab.open('office');
            const board = document.querySelector('#demo-office svg');
            board.style.height = '';
            const height = board.getBoundingClientRect().height;
            if (arguments[0]) board.style.height = `${1.5 * height}px`;
            board.scrollIntoView({ block: 'center' });
            const r = board.getBoundingClientRect();
            return [r.left, r.top, r.width, r.height];""",
            letterbox,
        )
        left, top, width, height = box
        points = [(left + f * width, top + g * height) for f, g in ((0.25, 0.4), (0.55, 0.6))]
        points = [(round(x), round(y)) for x, y in points]
        for k, (x, y) in enumerate(points):
            actions = ActionBuilder(page)
            actions.pointer_action.move_to_location(x, y)
            if k == 0:
                actions.pointer_action.pointer_down()
            else:
                actions.pointer_action.pointer_up()
            actions.perform()
            until(page, f"return pointers === {2 * letterbox + k + 1}")
            centre = run(
                "const r = document.querySelector('#demo-office .handle').getBoundingClientRect();"
                "return [r.left + r.width / 2, r.top + r.height / 2]"
            )
            assert np.hypot(centre[0] - x, centre[1] - y) <= 2, (letterbox, (x, y), centre)
    run("document.querySelector('#demo-office svg').style.height = ''")
    page.set_window_size(*WINDOW)


def test_the_formula_lights_what_it_names_beside_the_scores(
    page: webdriver.Chrome, lecture: Path
) -> None:
    """Each symbol of softmax(q·k / (√d·T)), focused, outlines exactly what it names; the
    q·k and q·k / (√d·T) columns are the data file's q and k, computed again here."""
    run = page.execute_script
    names = {  # in the rows: the word, q·k, q·k / (√d·T), the weight's bar and its number
        "q": "[role=option][aria-selected=true] > :nth-child(1)",
        "k": "[role=option] > :nth-child(1)",
        "d": "[role=option] > :nth-child(3)",
        "t": "input[type=range], output",
        "softmax": "[role=option] > i, [role=option] > b",
    }
    lit = run(
        """Lab.open('it_cat');
        const panel = document.getElementById('demo-it_cat'), names = arguments[0];
        const outlined = () => [...panel.querySelectorAll('*')].filter(e =>
          !e.closest('.formula') && getComputedStyle(e).outlineStyle !== 'none');
        const found = {};
        for (const part of panel.querySelectorAll('.formula [data-part]')) {
          part.focus();
          const named = new Set(panel.querySelectorAll(names[part.dataset.part]));
          const lit = outlined();
          found[part.textContent] = [lit.length === named.size && lit.every(e => named.has(e)),
                                     named.size, part.getAttribute('aria-label')];
          part.blur();
        }
        found.none = [outlined().length === 0, 0, ''];
        return found;""",
        names,
    )
    words = Words("lab", "en")
    assert set(lit) == {"softmax(", "q", "k", "√d", "T", "))", "none"}, lit
    for symbol, (exactly, size, label) in lit.items():
        assert exactly and (size > 0 or symbol == "none"), (symbol, lit)
        assert symbol == "none" or label in {words[f"formula_{n}"] for n in names}, symbol
    # The columns: row 2 asking, at T = 0.5, against numpy; shown as the data rounded.
    data = json.loads((lecture / "data.json").read_text(encoding="utf-8"))["tokens"]["it_cat"]
    q, k = np.array(data["q"]), np.array(data["k"])
    shown = run(
        """const panel = document.getElementById('demo-it_cat');
        const slider = panel.querySelector('input[type=range]');
        slider.value = 0.5;
        slider.dispatchEvent(new Event('input'));
        panel.querySelectorAll('[role=option]')[2].click();
        const cells = n => [...panel.querySelectorAll(`[role=option] > :nth-child(${n})`)]
          .map(e => Number(e.textContent));
        return [JSON.parse(panel.dataset.qk), JSON.parse(panel.dataset.scaled), cells(2), cells(3),
                [...panel.querySelector('.heading').children].map(e => e.textContent)];"""
    )
    qk = q[2] @ k.T
    scaled = qk / (np.sqrt(q.shape[1]) * 0.5)
    close(shown[0], qk, "q·k")
    close(shown[1], scaled, "q·k / (√d·T)")
    assert np.allclose(shown[2], qk, atol=0.005 + 1e-9) and np.allclose(shown[3], scaled, atol=5e-4)
    root = np.sqrt(q.shape[1])  # the scaled column's header names √d's value: 2 for d = 4
    named = {"root": f"{root:.0f}" if root == round(root) else f"{root:.3f}"}
    assert shown[4] == [
        words.format(f"it_cat_{n}", **named) for n in ("word", "qk", "scaled", "weight")
    ]


# Every demo, open in turn: the page no wider than the window, every element of the open
# panel inside the panel, none whose content overflows it, and a map's numbers >= 11 px.
REFLOW = """const found = [];
for (const name of Object.keys(Lab.demos)) {
  Lab.open(name);
  const panel = Lab.demos[name].panel, box = panel.getBoundingClientRect();
  const where = e => `${name}: <${e.tagName.toLowerCase()} class="${e.getAttribute('class')}">` +
    e.textContent.trim().slice(0, 30);
  if (document.documentElement.scrollWidth > innerWidth) {
    found.push(`${name}: the page is ${document.documentElement.scrollWidth} px wide`);
  }
  for (const e of panel.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;  // not shown
    if (r.right > box.right + 0.5 || r.left < box.left - 0.5) found.push(where(e) + ' sticks out');
    if (e.ownerSVGElement) continue;  // a picture's parts: inside its box, or clipped
    if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) found.push(where(e) + ' overflows');
  }
  for (const cell of panel.querySelectorAll('.maprow > *, .mat [role=cell]')) {
    const size = parseFloat(getComputedStyle(cell).fontSize);
    if (size < 11) found.push(`${where(cell)} is ${size} px`);
  }
}
return [innerWidth, found];"""


def test_every_demo_reflows_from_320_to_1920_px(page: webdriver.Chrome) -> None:
    """WCAG 1.4.10: at 320, 390 and 1920 px no demo scrolls the page sideways or sticks out
    of its panel (each demo the lab has, those added later too)."""
    try:
        for width in (320, 390, 1920):
            page.set_window_size(width, WINDOW[1])
            shown, found = page.execute_script(REFLOW)
            assert shown == width and not found, (width, found)
    finally:
        page.set_window_size(*WINDOW)


def _rgba(css: str) -> tuple[float, ...]:
    """A computed colour, ``rgb(r, g, b)`` or ``rgba(r, g, b, a)``, as (r, g, b, a)."""
    parts = [float(x) for x in re.findall(r"[\d.]+", css)]
    return (*parts[:3], parts[3] if len(parts) > 3 else 1.0)  # r, g, b and a, or opaque


def _luminance(rgb: tuple[float, ...]) -> float:
    """WCAG 2's relative luminance of an sRGB colour (0-255 channels)."""
    linear = [
        c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _over(top: tuple[float, ...], under: tuple[float, ...]) -> tuple[float, ...]:
    """Colour ``top`` (with its alpha) laid over the opaque colour ``under``."""
    return tuple(top[3] * t + (1 - top[3]) * u for t, u in zip(top[:3], under[:3], strict=True))


# Every element in the lab with text of its own, shown: its ink (an SVG text's fill), and
# the backgrounds under it, from its own up to the first opaque one (the page's, at worst).
TEXTS = """const found = [];
for (const name of Object.keys(Lab.demos)) {
  Lab.open(name);
  for (const e of document.querySelectorAll('#lab *')) {
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const r = e.getBoundingClientRect();
    if (!own || r.width === 0) continue;
    const style = getComputedStyle(e);
    const ink = e instanceof SVGElement ? style.fill : style.color;
    const under = [];
    for (let a = e; a; a = a.parentElement) {
      const bg = getComputedStyle(a).backgroundColor;
      under.push(bg);
      if (/^rgb\\(/.test(bg)) break;  // opaque
    }
    const where = `${name}: <${e.tagName.toLowerCase()}> ${e.textContent.trim().slice(0, 20)}`;
    found.push([where, ink, under]);
  }
}
return found;"""


def test_every_text_in_the_lab_stands_out_from_its_cell(page: webdriver.Chrome) -> None:
    """WCAG 1.4.3: every number (every text) in the lab, a map's cells and the colour
    strip's included, has a contrast ratio of at least 4.5:1 against what is under it."""
    texts = page.execute_script(TEXTS)
    assert len(texts) > 100  # every demo's words and numbers
    low = []
    for where, ink, under in texts:
        background = (255.0, 255.0, 255.0)  # the canvas, under a page without a colour
        for layer in reversed(under):
            background = _over(_rgba(layer), background)
        dark, light = sorted((_luminance(_over(_rgba(ink), background)), _luminance(background)))
        ratio = (light + 0.05) / (dark + 0.05)
        if ratio < 4.5:  # WCAG AA, for text of any size
            low.append(f"{where}: {ratio:.2f}")
    assert not low, low
