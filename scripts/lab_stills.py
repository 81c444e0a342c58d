"""Screenshots of the page's lab, one per demo, as a viewer sees it (for the README).

    python scripts/lab_stills.py out --to docs/lab

opens ``out/index.html`` in Debian's Chromium (headless, the page tests' set-up), opens
the colour task (it trains when its tab is first opened), waits until it has trained in the
browser, and saves ``<demo>.png`` for each demo.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

# What each demo's picture shows besides its opening state, as a viewer leaves it
SET_UP = {
    "quiz": "document.querySelectorAll('#demo-quiz [role=group] button')[2].click()",
    "sentence": "document.getElementById('sentence-causal').click();"
    "document.querySelector('#demo-sentence [data-m=weights] [role=cell]:last-child').focus()",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="a rendered lecture's folder (its index.html)")
    parser.add_argument("--to", type=Path, default=Path("docs/lab"))
    args = parser.parse_args(argv)
    page = args.out / "index.html"
    if not page.is_file():
        print(f"lab_stills: {page} not found (render the lecture first)", file=sys.stderr)
        return 2
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,2400"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        driver.get(page.resolve().as_uri())
        end = time.monotonic() + 180
        driver.execute_script("Lab.open('colours')")  # it trains once its tab is opened
        while not driver.execute_script("return window.LabTraining && window.LabTraining.done"):
            if time.monotonic() > end:
                print("lab_stills: the colour task did not finish training", file=sys.stderr)
                return 1
            time.sleep(0.2)
        args.to.mkdir(parents=True, exist_ok=True)
        shown = "return [...document.querySelectorAll('#lab [role=tab]')].map(t => t.id.slice(4))"
        for name in driver.execute_script(shown):  # every demo, in the tabs' order
            driver.execute_script(f"Lab.open('{name}')")
            if name in SET_UP:
                driver.execute_script(SET_UP[name])
            panel = driver.find_element(By.ID, f"demo-{name}")
            (args.to / f"{name}.png").write_bytes(panel.screenshot_as_png)
            print(f"  {args.to / (name + '.png')}")
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
