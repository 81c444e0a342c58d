"""LaTeX and Text renderings shared by every worker and every run, written atomically.

Manim keeps the SVG of each formula and each text in its media folder, under a name made
from a hash of what it shows. render.py gives every worker its own media folder (two Manim
processes must not share one), so every worker compiled the same formulas again, and every
run started from nothing. :func:`install` points both at one folder instead (render.py
uses ``<out>/.cache``), named by the content alone, so an entry never goes stale:

- a formula is compiled (latex, dvisvgm) in a private folder and its SVG renamed into the
  cache when whole: Manim's own clean-up, which deletes every non-SVG file in its TeX
  folder, cannot reach another worker's files half-way through;
- a text's SVG is written by Pango under a private name and renamed into place, so a
  worker never reads another's half-written file;
- Manim rewrites a text's SVG in place each time it makes that text (Pango's
  ``remove_last_M``), so a worker could read the file another had just emptied: the
  rewrite now happens once, before the file is renamed into place, and is skipped when it
  would change nothing;
- Manim parses every SVG through a styled copy it writes beside it and deletes, under one
  name per SVG (``<name>_.svg``): two workers making the same text deleted each other's
  copy. The copy now has a name of its own.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import manimpango
import svgelements
from manim import RIGHT, SVGMobject, config, tempconfig
from manim.mobject.text import tex_mobject
from manim.utils import tex_file_writing
from manim.utils.tex import TexTemplate

from common.atomic import atomic_path, write_text_atomic

_compile = tex_file_writing.tex_to_svg_file  # Manim's own: into config.tex_dir
_pango = manimpango.text2svg
_folder: list[Path] = []


def tex_to_svg_file(
    expression: str, environment: str | None = None, tex_template: TexTemplate | None = None
) -> Path:
    """The SVG of a formula, from the shared cache or compiled once into it."""
    template = tex_template or config["tex_template"]
    code = (
        template.get_texcode_for_expression_in_env(expression, environment)
        if environment
        else template.get_texcode_for_expression(expression)
    )
    recipe = f"{template.tex_compiler}\n{template.output_format}\n{code}"
    folder = _folder[0] / "tex"
    target = folder / f"{hashlib.sha256(recipe.encode()).hexdigest()[:32]}.svg"
    if target.is_file():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory(dir=folder, prefix=".compiling-") as private,
        tempconfig({"tex_dir": private}),
    ):
        svg = _compile(expression, environment, template)
        os.replace(svg, target)  # a twin another worker made is the same
    return target


def text2svg(*args: object, **kwargs: object) -> str:
    """Pango's text2svg, written under a private name and renamed into place when whole
    (and cleaned, once)."""
    args = list(args)
    named = "file_name" in kwargs
    target = Path(str(kwargs["file_name"] if named else args[4]))  # named after the text's hash
    with atomic_path(target) as private:
        if named:
            kwargs["file_name"] = str(private)
        else:
            args[4] = str(private)
        _pango(*args, **kwargs)
        remove_last_m(str(private))
    return str(target)


def remove_last_m(file_name: str) -> None:
    """Pango's clean-up of a text's SVG (a last stray move), written whole, and only when
    it changes something."""
    content = Path(file_name).read_text()
    cleaned = re.sub(r'Z M [^A-Za-z]*? "\/>', 'Z "/>', content)
    if cleaned != content:
        write_text_atomic(file_name, cleaned)


def generate_mobject(self: SVGMobject) -> SVGMobject:
    """Manim's own, with the styled copy of the SVG under a name no other process uses."""
    file_path = self.get_file_path()
    styled = self.modify_xml_tree(ET.parse(file_path))
    handle, private = tempfile.mkstemp(dir=file_path.parent, prefix=f".{file_path.stem}-")
    os.close(handle)
    try:
        styled.write(private)
        svg = svgelements.SVG.parse(private)
    finally:
        os.unlink(private)
    mobjects, self.id_to_vgroup_dict = self.get_mobjects_from(svg)
    self.add(*mobjects)
    self.flip(RIGHT)  # SVG's y axis points down
    return self


def install(folder: Path) -> None:
    """Share formulas and texts through ``folder`` (made when first needed)."""
    _folder[:] = [folder.resolve()]
    config.text_dir = str(_folder[0] / "texts")
    tex_mobject.tex_to_svg_file = tex_to_svg_file
    manimpango.text2svg = text2svg
    manimpango.PangoUtils.remove_last_M = staticmethod(remove_last_m)
    SVGMobject.generate_mobject = generate_mobject
