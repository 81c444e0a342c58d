"""The data file: round trip, atomic writes, and one clear line for every kind of bad file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from common import atomic
from common.atomic import write_json_atomic
from model import datafile
from model.config import LectureConfig
from model.datafile import DataFileError, LectureData, is_current


def test_round_trip(built: dict, data_file: Path) -> None:
    data = LectureData.from_file(data_file)
    assert data.schema_version == datafile.SCHEMA_VERSION
    assert data.config.to_dict() == built["config"]
    assert data.training.val_mse == built["training"]["val_mse"]
    assert data.training.loss_curve == built["training"]["loss_curve"]
    ex = data.example("mixed")
    assert ex.attention == built["examples"]["mixed"]["attention"]
    assert ex.pattern == built["config"]["examples"]["mixed"]
    assert len(data.weights.w_q) == 4 and len(data.weights.w_q[0]) == built["config"]["d"]


def test_loader_imports_no_torch(data_file: Path) -> None:
    code = (
        "import sys; from model.datafile import LectureData; "
        f"LectureData.from_file({str(data_file)!r}); print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _damage(data: dict, path: str, value: object) -> None:
    *parents, last = path.split(".")
    node = data
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is KeyError:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("schema_version", 99, "'schema_version' is 99; this loader reads version"),
        ("training", KeyError, "'training' is missing"),
        ("training.val_mse", "low", "'training.val_mse' must be a number"),
        ("training.loss_curve", [0.5, 0.1], "'training.loss_curve' has 2 points for 1000 steps"),
        ("weights.w_q", [[0.0]], "'weights.w_q' must be a 4x8 matrix"),
        ("examples.mixed.values", [1.0, 2.0], "'examples.mixed.values' has length 2, expected 8"),
        ("examples.mixed.colours.0", 7, "'examples.mixed.colours' must be colour indices 0..2"),
        ("examples.mixed.attention.2", [1.0] * 8, "'examples.mixed.attention' row 2 sums to 8"),
        ("examples", {}, "'examples' is empty"),
        ("source_hash", KeyError, "'source_hash' is missing"),
        ("pitfalls.projection.plain.mean", 0.5, "'pitfalls.projection.plain.mean' disagrees"),
        ("pitfalls.projection.example.plain.0", [1.0] * 8, "example.plain' row 0 sums to 8"),
        ("pitfalls.sqrt_d.dims.1.example_scaled", [0.5] * 8, "dims[1].example_scaled' sums"),
        ("pitfalls.shuffle.permutation", [0] * 5, "must be a permutation of 0..4"),
        ("pitfalls.shuffle.without_positions.max_abs_diff", 0.5, "but the outputs differ"),
        ("pitfalls.shuffle.with_positions.inputs", [[0.0]], "with_positions.inputs' must be"),
        ("positional.table.0.0", 3.0, "'positional.table' has values outside [-1, 1]"),
        ("tokens.eat_apple.causal.weights.0", [0.5, 0.5, 0, 0, 0], "gives weight to a masked"),
        ("tokens.eat_apple.gloss", ["I"], "'tokens.eat_apple.gloss' has length 1, expected 5"),
        ("tokens.it_cat.temperatures", [], "'tokens.it_cat.temperatures' must be a non-empty"),
        ("tokens.it_cat.scaled.outputs", [[0.0]], "'tokens.it_cat.scaled.outputs' must be a 7x4"),
        ("office.sweep.0.weights", [1, 1, 0, 0, 0], "'office.sweep[0].weights' sums to 2"),
        ("multihead.two.maps", [[[1.0]]], "'multihead.two.maps' and 'head_outputs' must hold 2"),
        ("multihead.bookkeeping.d_head", 100, "times 32 heads must equal the width 4096"),
        ("pitfalls.sqrt_d.walks.0", [0.1, 0.2], "'pitfalls.sqrt_d.walks[0]'"),
        ("pitfalls.sqrt_d.rescaled.0.weights", [0.5] * 8, "'pitfalls.sqrt_d.rescaled[0]"),
        ("pitfalls.sqrt_d.rescaled.1.divisor", 3.0, "rescaled[1].divisor' times its factor"),
        ("training.settling_steps", [10, 5], "'training.settling_steps' must rise from 0"),
        ("examples.mixed.settling.0.3", [1.0] * 8, "'examples.mixed.settling[0]' row 3 sums"),
    ],
)
def test_bad_content_names_the_key(
    data_copy: dict, tmp_path: Path, path: str, value: object, message: str
) -> None:
    _damage(data_copy, path, value)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data_copy))
    with pytest.raises(DataFileError) as err:
        LectureData.from_file(bad)
    text = str(err.value)
    assert message in text and str(bad) in text and "\n" not in text


def test_nan_is_rejected(data_copy: dict, tmp_path: Path) -> None:
    data_copy["examples"]["mixed"]["attention"][0][0] = float("nan")
    bad = tmp_path / "nan.json"
    bad.write_text(json.dumps(data_copy))  # json writes NaN as a bare constant
    with pytest.raises(DataFileError, match="contains NaN"):
        LectureData.from_file(bad)


def test_missing_truncated_and_garbage_files(data_file: Path, tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="data file not found"):
        LectureData.from_file(tmp_path / "none.json")
    truncated = tmp_path / "truncated.json"
    truncated.write_bytes(data_file.read_bytes()[:5000])
    with pytest.raises(DataFileError, match="not valid JSON"):
        LectureData.from_file(truncated)
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(DataFileError, match="cannot be read"):
        LectureData.from_file(garbage)
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2]")
    with pytest.raises(DataFileError, match="'top level' must be an object"):
        LectureData.from_file(listed)


def test_missing_example_is_named(data_file: Path) -> None:
    with pytest.raises(DataFileError, match="no example 'nope'"):
        LectureData.from_file(data_file).example("nope")


def test_interrupted_write_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "data.json"
    write_json_atomic(target, {"old": True})

    def explode(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, "replace", explode)
    with pytest.raises(KeyboardInterrupt):
        write_json_atomic(target, {"new": True})
    assert json.loads(target.read_text()) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["data.json"]


def test_staleness(config: LectureConfig, built: dict, data_file: Path, tmp_path: Path) -> None:
    assert is_current(data_file, config)
    assert not is_current(data_file, config.model_copy(update={"seed": 99}))
    assert not is_current(tmp_path / "missing.json", config)
    other = dict(built, source_hash="0" * 64)
    write_json_atomic(tmp_path / "other.json", other)
    assert not is_current(tmp_path / "other.json", config)


def _run_model(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "model", *args], capture_output=True, text=True, timeout=120
    )


def test_cli_writes_a_valid_file(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[task]\nsteps = 30\n")
    out = tmp_path / "sub" / "data.json"
    result = _run_model("--out", str(out), "--config", str(config))
    assert result.returncode == 0, result.stderr
    assert "wrote" in result.stdout
    assert LectureData.from_file(out).training.steps == 30
    assert [p.name for p in out.parent.iterdir()] == ["data.json"]


def test_cli_bad_config_is_one_line_and_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[task]\nstepz = 30\n")
    out = tmp_path / "data.json"
    result = _run_model("--out", str(out), "--config", str(config))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "unknown key 'task.stepz'" in result.stderr
    assert not out.exists()


def test_missing_part_is_named_when_asked_for(data_copy: dict, tmp_path: Path) -> None:
    del data_copy["pitfalls"]
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(data_copy))
    data = LectureData.from_file(path)  # the colour task alone still loads
    assert data.it_cat.d == 4
    with pytest.raises(DataFileError, match=r"has no part 'pitfalls.sqrt_d' \(re-make it"):
        data.sqrt_d  # noqa: B018
