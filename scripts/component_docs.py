"""Write docs/components.md: every shared picture of the kit (scenes/kit/labels.py, maps.py,
vectors.py, diagrams.py, devices.py), its docstring and the picture its own example draws
(docs/components/<Name>.png).

    .venv/bin/python scripts/component_docs.py          # re-make the page and the pictures
    .venv/bin/python scripts/component_docs.py --check  # exit 1 if the page is not current

The examples are the ``.. manim::`` blocks of the numpy-style docstrings, rendered for real
(Manim, 1080p, last frame, cropped to what is drawn), so the page shows what the code draws.
"""

from __future__ import annotations

import argparse
import inspect
import math
import re
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scenes.kit import devices, diagrams, labels, maps, plots, sums, vectors  # noqa: E402

# the modules of shared pictures, in the page's order
KIT = (labels, maps, vectors, diagrams, devices, sums, plots)

PAGE = ROOT / "docs" / "components.md"
PICTURES = ROOT / "docs" / "components"
_EXAMPLE = re.compile(r"\.\. manim:: (\w+)\n(?: +:\w+:\n)*\n((?: {4}.*\n|\n)+)")


def documented() -> list[tuple[str, type, str, str]]:
    """(name, class, docstring, example code) of every component class, module by module
    (:data:`KIT`'s order), in source order."""
    found = []
    for k, module in enumerate(KIT):
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            doc = inspect.getdoc(cls) or ""
            match = _EXAMPLE.search(doc + "\n")
            code = textwrap.dedent(match.group(2)) if match else ""
            found.append((name, cls, doc, code, (k, inspect.getsourcelines(cls)[1])))
    return [f[:4] for f in sorted(found, key=lambda f: f[4])]


def render_example(name: str, code: str, target: Path) -> None:
    """Run the example scene and save its last frame as ``target``."""
    import manim
    from manim import tempconfig
    from PIL import Image, ImageChops

    from common.settings import settings
    from scenes.kit import style
    from scenes.kit.numbers import Ref, ShownNumber

    style.use_theme(settings().theme)  # the lecture's theme, as a scene's setup applies it
    kit = {name: item for module in KIT for name, item in vars(module).items()}
    namespace = {**vars(manim), **kit, "math": math, "style": style, "Ref": Ref}
    namespace["ShownNumber"] = ShownNumber
    exec(code, namespace)  # our own docstring examples
    scene_class = next(
        v for k, v in namespace.items() if k.endswith("Example") and k.startswith(name)
    )
    with (
        tempfile.TemporaryDirectory() as media,
        tempconfig(
            {
                "quality": "medium_quality",
                "media_dir": media,
                "save_last_frame": True,
                "write_to_movie": False,
                "verbosity": "ERROR",
                "progress_bar": "none",
                "background_color": style.BACKGROUND,
                "disable_caching": True,
            }
        ),
    ):
        scene = scene_class()
        scene.render()
        image = scene.renderer.camera.get_image().convert("RGB")
    # Cropped to what was drawn, with a margin: the component at the size it is drawn.
    background = Image.new("RGB", image.size, style.BACKGROUND.to_hex())
    left, top, right, bottom = ImageChops.difference(image, background).getbbox()
    margin = 24
    box = (max(left - margin, 0), max(top - margin, 0), right + margin, bottom + margin)
    image.crop(box).save(target)


def _markdown(numpy_doc: str) -> str:
    """A numpy-style docstring body as Markdown: sections in bold, parameters as a list."""
    out: list[str] = []
    lines = numpy_doc.splitlines()
    k = 0
    while k < len(lines):
        line = lines[k]
        if k + 1 < len(lines) and set(lines[k + 1].strip()) == {"-"} and line.strip():
            out += [f"**{line.strip()}**", ""]
            k += 2
            continue
        if (
            line
            and not line.startswith(" ")
            and k + 1 < len(lines)
            and lines[k + 1].startswith("    ")
        ):
            description = []
            k += 1
            while k < len(lines) and lines[k].startswith("    "):
                description.append(lines[k].strip())
                k += 1
            out.append(f"- `{line.strip()}`: {' '.join(description)}")
            continue
        out.append(line)
        k += 1
    return "\n".join(out)


def page(entries: list[tuple[str, type, str, str]]) -> str:
    lines = [
        "# Components",
        "",
        "The shared pictures of the lecture, for anyone writing a new scene: reuse them rather",
        "than drawing your own. They live in four modules of `scenes/kit/`, grouped as Manim",
        "groups its mobjects, each module's docstring naming what it holds. Each picture is drawn",
        "by the example in the component's own docstring (`scripts/component_docs.py` re-makes",
        "this page). The numbers a chapter shows and says are at the end ([Numbers](#numbers)).",
        "",
    ]
    module = None
    for name, cls, doc, code in entries:
        if cls.__module__ != module:  # a module's heading: its docstring's first words
            module = cls.__module__
            group = (inspect.getdoc(sys.modules[module]) or "").split(":")[0]
            lines += [f"## {group}: `{module.replace('.', '/')}.py`", ""]
        summary, _, rest = doc.partition("\n")
        rest = rest.split("Examples\n--------")[0].strip()
        lines += [f"### `{name}`", "", summary, "", _markdown(rest), "", "```python", code.strip()]
        lines += ["```", ""]
        lines += [f"![{name}](components/{name}.png)", ""]
    return "\n".join([*lines, *numbers_section()]).rstrip() + "\n"


def numbers_section() -> list[str]:
    """The page's part on numbers (``scenes/kit/numbers.py``), from the docstrings: what a
    new chapter needs to show and say a number the gates can trace to the data file."""
    from scenes.kit import numbers

    lines = [
        "# Numbers",
        "",
        "Every number a chapter shows or says is made by `scenes/kit/numbers.py` from a value",
        "of the data file, remembering where it came from, so that the numbers gate checks it",
        "to the displayed precision. In a chapter, `self.number(path, decimals)` gives a",
        "`ShownNumber` and `self.spoken(path, decimals)` a `Spoken` (a path, or a `Sum`,",
        "`Count` or `Mean` of one); pass either to `self.say(key, ..., name=number)` to fill",
        "`{name}` in the line, and `phrase(...)` to set numbers inside a line of words.",
        "",
    ]
    public = [
        (name, item)
        for name, item in vars(numbers).items()
        if not name.startswith("_")
        and (inspect.isclass(item) or inspect.isfunction(item))
        and getattr(item, "__module__", "") == numbers.__name__
    ]
    for name, item in sorted(public, key=lambda p: inspect.getsourcelines(p[1])[1]):
        doc = (inspect.getdoc(item) or "").split("Examples\n--------")[0].strip()
        summary, _, rest = doc.partition("\n")
        target = item.__init__ if inspect.isclass(item) and "__init__" in vars(item) else item
        try:
            signature = str(inspect.signature(target)).replace("self, ", "").replace("(self)", "()")
            signature = signature.replace("'", "")
            if inspect.isclass(item):
                signature = signature.split(" -> ")[0]
        except (TypeError, ValueError):
            signature = "()"
        lines += [f"## `{name}{signature}`", "", summary]
        lines += ["", _markdown(rest.strip())] if rest.strip() else []
        lines.append("")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only check the page is current")
    args = parser.parse_args(argv)
    entries = documented()
    missing = [name for name, _, _, code in entries if not code]
    if missing:
        print(f"component_docs: {missing[0]} has no '.. manim::' example", file=sys.stderr)
        return 1
    text = page(entries)
    if args.check:
        stale = PAGE.read_text(encoding="utf-8") != text if PAGE.is_file() else True
        absent = [n for n, *_ in entries if not (PICTURES / f"{n}.png").is_file()]
        if stale or absent:
            print("component_docs: docs/components.md is not current", file=sys.stderr)
            return 1
        return 0
    PICTURES.mkdir(parents=True, exist_ok=True)
    for name, _, _, code in entries:
        render_example(name, code, PICTURES / f"{name}.png")
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE} and {len(entries)} pictures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
