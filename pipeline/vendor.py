"""The page's one library, TensorFlow.js, installed from npm at set-up and checked.

``python -m pipeline.vendor`` (scripts/setup.sh runs it) fetches ``@tensorflow/tfjs`` with
the npm client (``npm pack``, which checks the package's integrity against the registry),
keeps its browser build ``dist/tf.min.js`` and checks its SHA-256. The page writer copies
it beside ``index.html``: the lab trains in the viewer's browser with no CDN and no network.
What is already whole is left as it is; the file lands atomically.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common.closure import file_digest
from common.npm import SETUP, MemberDiffersError, MemberMissingError, NpmError, install_members

NPM_PACKAGE = "@tensorflow/tfjs@4.22.0"
MEMBER = "package/dist/tf.min.js"
SHA256 = "300dfae273d20b4046f46a06d735688f03675a807561e9bcb5f664eb2f3d2831"
HOME = Path(sys.prefix) / "share" / "attention-lecture" / "tfjs"
LIBRARY = HOME / "tf.min.js"


class VendorError(RuntimeError):
    """The library is missing, damaged or could not be fetched."""


def _whole(path: Path) -> bool:
    return path.is_file() and file_digest(path).hex() == SHA256


def library() -> Path:
    """The installed, checked tf.min.js (a VendorError naming set-up when it is not)."""
    try:
        whole = _whole(LIBRARY)
    except OSError as err:  # a read error: no fault of writing
        raise VendorError(
            f"TensorFlow.js at {LIBRARY} cannot be read ({err.strerror}): delete it and run "
            f"`{SETUP}`"
        ) from None
    if not whole:
        raise VendorError(f"TensorFlow.js is missing or damaged at {LIBRARY} (run `{SETUP}`)")
    return LIBRARY


def install(target: Path = LIBRARY) -> bool:
    """Fetch and check tf.min.js unless it is there and whole; True when it was fetched."""
    if _whole(target):
        return False
    try:
        install_members(NPM_PACKAGE, {MEMBER: (SHA256, target)})
    except MemberMissingError:
        raise VendorError(f"{NPM_PACKAGE} has no {MEMBER}") from None
    except MemberDiffersError:
        raise VendorError(f"{NPM_PACKAGE}'s {MEMBER} is not the build this project pins") from None
    except NpmError as err:
        raise VendorError(str(err)) from None
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--to", type=Path, default=LIBRARY, help="where tf.min.js goes")
    args = parser.parse_args(argv)
    try:
        if install(args.to):
            print(f"page: TensorFlow.js fetched -> {args.to}")
    except VendorError as err:
        print(f"page: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"page: cannot write {err.filename or args.to}: {err.strerror}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
