"""Shared fixtures: one trained run per test worker, its data file, Manim in a temp folder."""

from __future__ import annotations

import atexit
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from common.atomic import write_json_atomic
from common.settings import tempsettings
from model.config import LectureConfig


@pytest.fixture(scope="session")
def config() -> LectureConfig:
    return LectureConfig()


@pytest.fixture(scope="session")
def built(config: LectureConfig) -> dict:
    """The data file's content from a real training run (about 7 s; once a test process)."""
    from model.lab import build

    return build(config)


@pytest.fixture(scope="session")
def data_file(built: dict, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("data") / "data.json"
    write_json_atomic(path, built)
    return path


@pytest.fixture
def data_copy(built: dict) -> dict:
    """A deep copy of the data file's content, free to damage."""
    return json.loads(json.dumps(built))


@pytest.fixture
def kit() -> None:
    """As a scene process before it draws: Manim's speed-ups installed and the settings'
    theme in force (nothing does either on import; a LectureScene's setup does both), for
    tests that draw the kit's pictures outside a LectureScene."""
    from common.settings import settings
    from scenes import patches
    from scenes.kit import style

    patches.install(settings())
    style.use_theme(settings().theme)


@pytest.fixture
def scene_env(data_file: Path) -> Iterator[Path]:
    """Point scenes at the test data file, in zh-TW."""
    with tempsettings(data=data_file, lang="zh-TW"):
        yield data_file


def pytest_addoption(parser: pytest.Parser) -> None:
    """The options Manim's own suite defines for golden-frame tests (frames_comparison)."""
    parser.addoption(
        "--set_test",
        action="store_true",
        default=False,
        help="write the control frames of the golden-frame tests instead of comparing",
    )
    parser.addoption(
        "--show_diff",
        action="store_true",
        default=False,
        help="show a visual diff when a golden-frame test fails",
    )


# The files whose tests run longest (a real render, a browser, a voice, a cluster), measured
# with --durations, longest first: they start first, so that the two workers end together
# instead of one waiting on the other's last long test (longest first packs a schedule
# tightest). xdist's own reordering (largest group first) would put every chapter's gates
# before a single long test, so the Makefile turns it off (--no-loadscope-reorder).
LONGEST_FIRST = (
    "test_guide.py",
    "test_voice.py",
    "test_kokoro.py",
    "test_cluster.py",
    "test_page.py",
    "test_render.py",
    "test_datafile.py",
    "test_lecture.py",
    "test_languages.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: k for k, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: else as found


def pytest_configure(config: pytest.Config) -> None:
    """A test worker leaves as soon as it is done. At exit its interpreter freed, one by one,
    the millions of objects its tests had made (every chapter's dry runs and their caches):
    6-9 s at the end of every run, with the results long reported (measured on twelve dry
    runs: 4.5 s from the last test to the end, 1.5 s leaving at once). Every exit handler
    still runs (those registered later first, as always, then those before this one); only
    the freeing is skipped."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        atexit.register(_leave)


def _leave() -> None:
    atexit.unregister(_leave)
    atexit._run_exitfuncs()  # the handlers registered before this one (logging's, ...)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


_LOST_GROUP: list[str] = []  # why this worker's grouped tests must fail, if they must


def pytest_collection_finish(session: pytest.Session) -> None:
    """Under ``--dist loadgroup`` every test marked ``xdist_group`` must carry its group in
    its id, or xdist spreads a group's tests over the workers and each pays the group's
    set-up again (a whole render, the voice, the page): pytest 9.2 broke this silently
    (pytest-xdist#1386), and the suite ran about a minute longer for it."""
    if not session.config.getoption("loadgroup", default=False):
        return
    lost = [
        item.nodeid
        for item in session.items
        if item.get_closest_marker("xdist_group") and "@" not in item.nodeid
    ]
    if lost:
        _LOST_GROUP.append(
            f"xdist's loadgroup lost the group of {len(lost)} tests (first: {lost[0]}); "
            "pytest 9.2 does this with pytest-xdist 3.8: keep pytest below 9.2 (pyproject.toml)"
        )


def pytest_runtest_setup(item: pytest.Item) -> None:
    if _LOST_GROUP and item.get_closest_marker("xdist_group"):
        pytest.fail(_LOST_GROUP[0], pytrace=False)


# --- the viewers' page: one small rendered lecture and one browser per worker, shared by
# the page tests (each file marked pagekit.PAGE_MARKS, so that one worker runs them all)
@pytest.fixture(scope="session")
def lecture(tmp_path_factory: pytest.TempPathFactory, data_file: Path) -> Path:
    """A lecture of two short chapters, rendered silent at 480p15."""
    from pagekit import render_lecture

    return render_lecture(tmp_path_factory.mktemp("page"), data_file)


@pytest.fixture(scope="session")
def browser() -> Iterator:
    from pagekit import WINDOW, chrome

    width, height = WINDOW
    driver = chrome("--autoplay-policy=no-user-gesture-required", f"--window-size={width},{height}")
    yield driver
    driver.quit()
