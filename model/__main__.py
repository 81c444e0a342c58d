"""``python -m model --out PATH [--config FILE]``: train, measure, write the data file.

``python -m model --schema PATH`` writes the data file's JSON schema (docs/data-file.schema.json).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common.atomic import write_json_atomic
from model.config import ConfigError, LectureConfig
from model.datafile import DataFileError, LectureData, json_schema


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m model", description="Train the attention model and write the data file."
    )
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--out", type=Path, help="data file to write (JSON)")
    what.add_argument("--schema", type=Path, help="write the data file's JSON schema here")
    parser.add_argument("--config", type=Path, help="lecture file (its [task] is the model's)")
    args = parser.parse_args(argv)
    if args.schema:
        write_json_atomic(args.schema, json_schema())
        print(f"wrote {args.schema}")
        return 0
    try:
        config = LectureConfig.from_file(args.config) if args.config else LectureConfig()
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2

    from model.lab import build  # torch is imported only when training

    data = build(config)
    try:
        write_json_atomic(args.out, data)
    except OSError as err:
        print(f"error: cannot write {args.out}: {err.strerror}", file=sys.stderr)
        return 2
    try:
        LectureData.from_file(args.out)
    except DataFileError as err:  # the writer broke the contract: say so, loudly
        print(f"error: {err}", file=sys.stderr)
        return 1
    tr = data["training"]
    print(
        f"wrote {args.out}: {tr['steps']} steps in {tr['train_ms']:.0f} ms, "
        f"val MSE {tr['val_mse']:.5f} vs baseline {tr['baseline_mse']:.4f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
