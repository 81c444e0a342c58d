"""A package from npm's registry, through the npm client, for set-up only."""

from __future__ import annotations

import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SETUP = "make setup"  # the command that installs what is missing


class NpmError(RuntimeError):
    """npm is missing, or could not fetch the package."""


@contextmanager
def npm_package(spec: str) -> Iterator[tarfile.TarFile]:
    """The package ``spec`` (``name@version``) as an open archive: fetched with ``npm pack``,
    which checks its integrity against the registry, into a folder removed afterwards."""
    if shutil.which("npm") is None:
        raise NpmError(f"npm is not installed (run `{SETUP}`: Debian's npm package)")
    with tempfile.TemporaryDirectory() as work:
        result = subprocess.run(
            ["npm", "pack", spec, "--pack-destination", work, "--silent"],
            capture_output=True,
            text=True,
            cwd=work,
        )
        tarballs = sorted(Path(work).glob("*.tgz"))
        if result.returncode != 0 or not tarballs:
            raise NpmError(f"npm pack {spec} failed: {result.stderr.strip()[-300:]}")
        try:
            with tarfile.open(tarballs[0]) as archive:
                yield archive
        except tarfile.TarError as err:
            raise NpmError(f"{spec} came as a damaged archive ({err})") from None
