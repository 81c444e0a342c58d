"""The config: defaults, TOML overrides and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from model.config import ConfigError, LectureConfig


def test_defaults_have_the_lecture_patterns() -> None:
    config = LectureConfig()
    assert config.positions == 8 and config.initials == "RGB"
    assert config.examples["all_same"] == "RRRRRRRR"
    assert config.examples["halves"] == "RRRRBBBB"
    assert config.examples["one_two_rest"] == "RGGBBBBB"


def test_toml_overrides_and_adds_examples(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    listed = ", ".join(['"red"', '"blue"'] * 4)
    path.write_text(
        f'[task]\nseed = 3\nsteps = 40\n[task.examples]\nmine = "RRGGBBRG"\nlisted = [{listed}]\n'
    )
    config = LectureConfig.from_file(path)
    assert config.seed == 3 and config.steps == 40
    assert config.examples["mine"] == "RRGGBBRG"
    assert config.examples["listed"] == "RBRBRBRB"
    assert "mixed" in config.examples


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("stepz = 3", "unknown key 'stepz'"),
        ("steps = -1", "'steps' must be at least 1"),
        ("steps = 'many'", "'steps' must be an integer"),
        ("lr = 5", "'lr' must be less than 1"),
        ("positions = 40", "'positions' must be at most 16"),
        ("positions = 1", "'positions' must be at least 2"),
        ("[examples]\nbad = 'RRXX'", "'examples.bad' must be 8 letters from RGB"),
        ("seed = ", "not valid TOML"),
        ("colours = [1, 2, 3]", "'colours' must be a list of colour names"),
        ('colours = "rgb"', "'colours' must be a list of colour names"),
        ('colours = ["red", "rose"]', "'colours' needs at least 2 names with distinct initials"),
        ("seed = 99999999999999999999", "'seed' must be at most 4294967295"),
        ("pe_width = 16", "'pe_width' was removed"),
        ("[examples]\nbad = 3", "'examples' 'bad' must be a string"),
    ],
)
def test_bad_config_is_one_clear_line(tmp_path: Path, content: str, message: str) -> None:
    """Each problem in the lecture file's [task] is named with its key under task."""
    path = tmp_path / "c.toml"
    path.write_text("[task]\n" + content.replace("[examples]", "[task.examples]"))
    if "TOML" not in message:
        message = message.replace("unknown key '", "unknown key 'task.").replace(" '", " '", 1)
        message = "'task." + message[1:] if message.startswith("'") else message
    with pytest.raises(ConfigError) as err:
        LectureConfig.from_file(path)
    assert message in str(err.value) and str(path) in str(err.value)
    assert "\n" not in str(err.value)


def test_a_model_key_outside_task_says_where_it_went(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("seed = 3\n")
    with pytest.raises(ConfigError, match=r"'seed' belongs under \[task\] now"):
        LectureConfig.from_file(path)


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        LectureConfig.from_file(tmp_path / "nope.toml")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x00\x01\xff\xfe binary", "is not UTF-8 text"),
        ("[task]\nseed = 3 # caf\xe9".encode("latin-1"), "is not UTF-8 text"),
        (None, "is a folder, not a file"),
    ],
)
def test_unreadable_config_file(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "c.toml"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    with pytest.raises(ConfigError) as err:
        LectureConfig.from_file(path)
    assert message in str(err.value) and str(path) in str(err.value)


def test_smaller_lecture_gets_fitting_examples() -> None:
    config = LectureConfig(positions=5)
    assert all(len(p) == 5 for p in config.examples.values())
