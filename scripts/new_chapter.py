"""Start a new chapter in one command: its scene module, its words in every built-in
language, and its place in the plan.

    .venv/bin/python scripts/new_chapter.py my_scene            # after the plan's last chapter
    .venv/bin/python scripts/new_chapter.py my_scene --after qkv

Writes ``scenes/chapters/<name>.py`` (the template, its class and ``scene_key`` renamed), a
``[<name>]`` table in ``syllabus/locales/<lang>.toml`` for each built-in language (the
template's words, to be rewritten), and a ``[[chapter]]`` entry in the plan. The built-in
lecture file takes the whole plan, so the chapter is in the lecture at once (a lecture file
of your own that lists ``chapters`` names it there too). Then it says what to run next.
Refuses a name that is not a plain name or is taken, with one line and exit 2, before any
file is written.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.atomic import write_text_atomic  # noqa: E402
from syllabus.locale import LOCALE_DIR  # noqa: E402
from syllabus.plan import CHAPTERS_DIR, DEFAULT_PLAN  # noqa: E402

TEMPLATE = CHAPTERS_DIR / "template.py"
NAME = re.compile(r"^[a-z][a-z0-9_]{1,40}$")  # a module, a scene and a table name at once


def class_name(name: str) -> str:
    """``my_scene`` -> ``MyScene``."""
    return "".join(part.capitalize() for part in name.split("_"))


def module_text(name: str) -> str:
    """The template, as the chapter ``name``."""
    text = TEMPLATE.read_text(encoding="utf-8")
    docstring = f'"""The chapter {name}: one idea, its words in syllabus/locales/*.toml [{name}].'
    text = docstring + text[text.index("\n\n") :].replace("TemplateScene", class_name(name))
    text = text.replace('scene_key = "template"', f'scene_key = "{name}"')
    text = text.replace("scenes/chapters/template.py", f"scenes/chapters/{name}.py")
    text = text.replace("scenes.gates template", f"scenes.gates {name}")
    return text.replace("under [template]", f"under [{name}]")


def table_text(name: str, lang_file: Path) -> str:
    """A ``[name]`` table holding the template's words of that language, to be rewritten."""
    words = tomllib.loads(lang_file.read_text(encoding="utf-8"))["template"]
    lines = [f"\n[{name}]", "# Rewrite these: the template's words, as a start."]
    lines += [f"{key} = {json.dumps(value, ensure_ascii=False)}" for key, value in words.items()]
    return "\n".join(lines) + "\n"


def plan_text(plan: str, name: str, after: str | None) -> str:
    entry = f'[[chapter]]\nscene = "{name}"\nfile = "{name}.py"\nclass = "{class_name(name)}"\n'
    if after is None:
        return plan.rstrip("\n") + "\n\n" + entry
    blocks = plan.split("\n[[chapter]]\n")
    k = next(
        (i for i, block in enumerate(blocks) if re.search(rf'^scene = "{after}"$', block, re.M)),
        None,
    )
    if k is None:
        raise ValueError(f"--after: the plan has no chapter '{after}'")
    blocks.insert(k + 1, entry.removeprefix("[[chapter]]\n").rstrip("\n") + "\n")
    return "\n[[chapter]]\n".join(blocks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("name", help="the chapter's name: lower case letters, digits and _")
    parser.add_argument("--after", help="the chapter it follows (default: the last)")
    parser.add_argument("--plan", type=Path, default=DEFAULT_PLAN, help="the plan to add it to")
    args = parser.parse_args(argv)
    module = CHAPTERS_DIR / f"{args.name}.py"
    languages = sorted(LOCALE_DIR.glob("*.toml"))
    plan = args.plan.read_text(encoding="utf-8")
    try:
        if not NAME.match(args.name):
            raise ValueError(f"'{args.name}' is not a plain name (a-z, 0-9 and _, from a letter)")
        if module.exists() or args.name == "template":
            raise ValueError(f"{module} exists already: choose another name")
        if re.search(rf'^scene = "{args.name}"$', plan, re.M):
            raise ValueError(f"{args.plan} has a chapter '{args.name}' already")
        for lang_file in languages:
            if args.name in tomllib.loads(lang_file.read_text(encoding="utf-8")):
                raise ValueError(f"{lang_file} has a table [{args.name}] already")
        new_plan = plan_text(plan, args.name, args.after)
    except ValueError as err:
        print(f"new_chapter.py: error: {err}", file=sys.stderr)
        return 2
    write_text_atomic(module, module_text(args.name))
    for lang_file in languages:
        text = lang_file.read_text(encoding="utf-8")
        write_text_atomic(lang_file, text.rstrip("\n") + "\n" + table_text(args.name, lang_file))
    write_text_atomic(args.plan, new_plan)
    print(f"new chapter '{args.name}' ({class_name(args.name)}):")
    for path in (module, *languages, args.plan):
        print(f"  {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    print("next: write its lines and picture, then check them and look at them:")
    print(f"  .venv/bin/python -m scenes.gates {args.name}")
    print(f"  .venv/bin/python render.py --scenes {args.name} --quality medium --out /tmp/look")
    return 0


if __name__ == "__main__":
    sys.exit(main())
