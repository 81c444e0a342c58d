"""Words of the lecture, kept out of the Python: one TOML table per language.

``syllabus/locales/<lang>.toml`` has one table per scene (its ``scene_key``) plus shared
tables such as ``[colours]``. A rewording or a translation touches no Python. The
language is the settings' ``lang`` (:mod:`common.settings`; by default the built-in
lecture file's first language).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from string import Formatter
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, ValidationError

from common.defaults import default
from common.files import odd_file
from common.schema import LANGUAGE_CODE, Shape, describe, read_toml
from common.settings import settings
from common.text import ALLOWED, Where, dotted, refused

LOCALE_DIR = Path(__file__).parent / "locales"
# A language is a locale file's name (common.files.LANGUAGE_CODE), and becomes a folder's
# (out/<lang>/): a BCP 47 tag such as en, zh-TW or pt-BR, never "..", a dot or a separator.
# Tables whose keys differ between languages (their words, their pronunciations, the
# heteronyms a language's voice was checked on: voice.readings), and [meta], which Language
# checks.
OWN_KEYS = ("meta", "pronounce", "subtitles", "speech", "readings")
PLACEHOLDER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
BEAT_MARK = re.compile(r"<([a-z][a-z0-9_]*)>")  # a beat's place in a locale line: <name>
WHOLE_NUMBER = re.compile(r"[0-9]+")  # a number kept as text, which a scene reads with int()


class LocaleError(KeyError):
    """A language, scene table or key is missing from the locale tables."""

    def __str__(self) -> str:
        return str(self.args[0])


def locale_dirs() -> list[Path]:
    """Where locale tables are found: syllabus/locales, then the settings' ``locales`` (an
    instructor's own folders: ``LECTURE_LOCALES``, separated by ``os.pathsep``, and the
    lecture file's ``locales``), in the order they are merged."""
    return [LOCALE_DIR, *settings().locales]


def locale_files(lang: str) -> list[Path]:
    """Every locale file of ``lang``, in merge order: the project's first, then each folder
    of the settings' ``locales`` that has one (a later file's keys win)."""
    return list(_files(lang, tuple(locale_dirs())))


@cache
def _files(lang: str, folders: tuple[Path, ...]) -> tuple[Path, ...]:
    """(Looked up once per process: subtitle splitting asks for every character.) A name
    there that is no readable file (a folder, a device, a loop of links) is refused, never
    skipped: the instructor's words would silently not apply."""
    found = []
    for folder in folders:
        path = folder / f"{lang}.toml"
        if odd_file(path):
            raise LocaleError(
                f"{path} is not a regular file (a folder, a device or a loop of links): "
                "make it the language's TOML file, or remove it"
            )
        if path.is_file():
            found.append(path)
    return tuple(found)


def locale_path(lang: str) -> Path:
    """The locale file of ``lang`` that the lecture's words start from (the first found)."""
    found = locale_files(lang)
    return found[0] if found else LOCALE_DIR / f"{lang}.toml"


def available_languages() -> list[str]:
    """The languages with a locale table (files whose name is no language code are not)."""
    found = {p.stem for d in locale_dirs() for p in d.glob("*.toml")}
    return sorted(code for code in found if LANGUAGE_CODE.match(code))


def current_language() -> str:
    """The language in force (the settings' ``lang``)."""
    return settings().lang


def merge(base: dict, over: Mapping[str, Any]) -> dict:
    """``base`` with ``over`` merged in: tables merged key by key, anything else replaced."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), dict):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def lecture_words(path: Path, lang: str) -> dict:
    """The lecture file's own words for ``lang``: its ``[words.<lang>]`` tables."""
    words = read_toml(path, "lecture file", LocaleError).get("words", {})
    found = words.get(lang, {}) if isinstance(words, dict) else {}
    return found if isinstance(found, dict) else {}


def _table(lang: str) -> dict:
    """The words of ``lang``: its locale files merged in order, then the lecture file's."""
    return _merged(lang, _files(lang, tuple(locale_dirs())), settings().words)


@cache
def _merged(lang: str, files: tuple[Path, ...], words: Path | None) -> dict:
    if not files:
        raise LocaleError(
            f"no locale table for language '{lang}' (have: {', '.join(available_languages())})"
        )
    table: dict = {}
    for path in files:
        own = read_toml(path, "locale table", LocaleError)
        check_characters(path, own)
        table = merge(table, own)
    return merge(table, lecture_words(words, lang)) if words else table


def multiline_keys() -> frozenset[tuple[str, str]]:
    """The ``(table, key)`` of every line that is a label of several lines: one of the
    built-in locale files breaks it with a newline. No other words may hold one."""
    return _multiline(LOCALE_DIR)


@cache
def _multiline(folder: Path) -> frozenset[tuple[str, str]]:
    found = set()
    for path in sorted(folder.glob("*.toml")):
        for table, words in read_toml(path, "locale table", LocaleError).items():
            if isinstance(words, dict):
                found |= {(table, k) for k, v in words.items() if isinstance(v, str) and "\n" in v}
    return frozenset(found)


def may_break(where: Where) -> bool:
    """Whether the words at ``where`` (a table, then a key) may hold a newline."""
    return len(where) == 2 and tuple(where) in multiline_keys()


def check_characters(path: Path, words: dict) -> None:
    """No key or text of the locale file ``path`` holds a control character, a bidi
    control or a line separator, nor a newline where the line is not a label of several
    lines (:func:`multiline_keys`): such words would reach the subtitles, the chapter list
    and the MP4 as they are."""
    found = refused(words, may_break)
    if found:
        where, problem = found
        table, *key = where
        named = f"[{dotted((table,))}] {dotted(tuple(key))}" if key else f"'{dotted(where)}'"
        raise LocaleError(f"{path}: {named} {problem} (allowed: {ALLOWED})")


def clear_cache() -> None:
    """Read the locale files afresh (a test that changes them)."""
    _multiline.cache_clear()
    _files.cache_clear()
    _merged.cache_clear()
    _language.cache_clear()


def locale_table(lang: str) -> dict:
    """The whole locale table of a language (every scene's strings)."""
    return _table(lang)


def shared_tables(lang: str) -> dict:
    """The tables of a language that belong to no scene (a scene's table has a title)."""
    return {k: v for k, v in _table(lang).items() if not (isinstance(v, dict) and "title" in v)}


class Language(Shape):
    """Everything that differs between languages but the words: the ``[meta]`` table.

    Attributes
    ----------
    code
        The locale file's name (``zh-TW``).
    name
        The language's own name, for menus and the README.
    iso639_2
        The three-letter code of the MP4 subtitle track (``zho``, ``eng``).
    spaces
        Whether words are separated by spaces (False for Chinese: subtitle lines may
        break between any two characters, and clauses join without a space).
    chars_per_line, chars_per_second
        Subtitle limits: a line's length and the reading speed.
    voice, voice_speed
        The draft voice (``render.py --voice espeak``): an espeak-ng voice and its speed in
        words a minute. Mandarin needs ``cmn-latn-pinyin``: plain ``cmn`` spells characters
        it does not know, such as 蘋果, as English-spelled pinyin.
    numbers
        How the voice reads numbers (:data:`voice.speech.READERS`: ``zh`` or ``en``).
    list_join, or_join, and_join
        How a spoken list is joined: between its items, and before its last one when it
        means "one of them" ("red, green or blue"; 「紅、綠、藍」) or "all of them" ("was,
        scared and it"; 「was、scared 和 it」).
    """

    code: str
    name: str
    iso639_2: Annotated[str, StringConstraints(pattern=r"^[a-z]{3}$")]
    spaces: bool
    chars_per_line: Annotated[int, Field(ge=8, le=80)]
    chars_per_second: Annotated[float, Field(gt=1, le=40)]
    voice: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_+-]+$")] = "en-us"
    voice_speed: Annotated[int, Field(ge=80, le=400)] = 160
    numbers: Literal["zh", "en"] = "en"
    list_join: str = ", "
    or_join: str = " or "
    and_join: str = " and "


def language(lang: str) -> Language:
    """The ``[meta]`` table of a language; a missing or wrong key is a LocaleError."""
    return _language(lang, _files(lang, tuple(locale_dirs())), settings().words)


@cache
def _language(lang: str, files: tuple[Path, ...], words: Path | None) -> Language:
    meta = _table(lang).get("meta")
    if not isinstance(meta, dict):
        raise LocaleError(f"{locale_path(lang)}: table [meta] is missing")
    try:
        return Language.model_validate({**meta, "code": lang})
    except ValidationError as err:
        raise LocaleError(_meta_error(lang, files, words, err)) from None


def _meta_error(lang: str, files: Sequence[Path], words: Path | None, err: ValidationError) -> str:
    """A bad [meta] value as one line, blamed where the value in force is set: the lecture
    file's ``[words.<lang>.meta]``, else the last locale file that sets the key (for a key
    missing, the language's first file)."""
    path, problem = describe(err, ["meta"])
    key = path.removeprefix("meta.").split(".")[0].split("[")[0]

    def sets(table: dict) -> bool:
        meta = table.get("meta")
        return isinstance(meta, dict) and key in meta

    if words is not None and sets(lecture_words(words, lang)):
        return f"lecture file {words}: 'words.{lang}.{path}' {problem}"
    setting = [p for p in files if sets(read_toml(p, "locale table", LocaleError))]
    return f"{setting[-1] if setting else locale_path(lang)}: '{path}' {problem}"


class Words(Mapping[str, str]):
    """The strings of one scene in one language; a missing key names file, scene and key."""

    def __init__(self, scene_key: str, lang: str | None = None) -> None:
        self.lang = lang or current_language()
        self.scene_key = scene_key
        table = _table(self.lang)
        if scene_key not in table:
            raise LocaleError(
                f"{locale_path(self.lang)}: no table [{scene_key}] for scene '{scene_key}'"
            )
        self._strings: dict[str, str] = table[scene_key]

    def __getitem__(self, key: str) -> str:
        if key not in self._strings:
            raise LocaleError(f"{locale_path(self.lang)}: [{self.scene_key}] has no key '{key}'")
        return self._strings[key]

    def format(self, key: str, **fields: object) -> str:
        """The string ``key`` with its plain ``{placeholders}`` filled; an unknown one is
        named. Only ``{name}`` is filled: no index, attribute, conversion or format."""
        text = self[key]
        where = f"{locale_path(self.lang)}: [{self.scene_key}] {key}"
        parts = _parts(text, where)
        unknown = sorted({name for _, name in parts if name is not None} - set(fields))
        if unknown:
            raise LocaleError(
                f"{where}: placeholder '{unknown[0]}' is not one this scene fills "
                f"(it fills: {', '.join(sorted(fields)) or 'none'})"
            )
        return "".join(
            literal + ("" if name is None else str(fields[name])) for literal, name in parts
        )

    def __iter__(self):
        return iter(self._strings)

    def __len__(self) -> int:
        return len(self._strings)


def one_of(items: Sequence[str], lang: str) -> str:
    """``items`` as the language says "one of these" ("red, green or blue")."""
    meta = language(lang)
    if len(items) < 2:
        return "".join(items)
    return meta.list_join.join(items[:-1]) + meta.or_join + items[-1]


def all_of(items: Sequence[str], lang: str) -> str:
    """``items`` as the language says "all of these" ("was, scared and it")."""
    meta = language(lang)
    if len(items) < 2:
        return "".join(items)
    return meta.list_join.join(items[:-1]) + meta.and_join + items[-1]


def parse_choices(line: str, where: str) -> tuple[list[str], int]:
    """A multiple choice written as one line: choices split by "|", the right one marked
    "*" ("Q|K|*V"). Returns the choices, unmarked, and which one is right; any other shape
    is a LocaleError naming ``where`` (the file and the line)."""
    said = line.split("|")
    marked = [j for j, choice in enumerate(said) if choice.startswith("*")]
    if len(said) < 2 or len(marked) != 1:
        raise LocaleError(
            f'{where}: write two or more choices split by "|", the right one marked "*" '
            '(as "Q|K|*V")'
        )
    return [choice.removeprefix("*") for choice in said], marked[0]


def colour_name(name: str, lang: str) -> str:
    """A task colour (``red``) as the narration says it: ``[colour_names]``, else itself."""
    return _table(lang).get("colour_names", {}).get(name, name)


def colour_label(name: str, lang: str | None = None) -> str:
    """Short label of a task colour (``紅`` for red in zh-TW), else its initial."""
    labels = _table(lang or current_language()).get("colours", {})
    return labels.get(name, name[:1].upper())


def placeholders(text: str, where: str) -> set[str]:
    """The ``{names}`` of a line; anything but a plain name in braces is a LocaleError
    naming ``where`` (``{{`` and ``}}`` are braces themselves)."""
    return {name for _, name in _parts(text, where) if name is not None}


def _parts(text: str, where: str) -> list[tuple[str, str | None]]:
    """A line as (literal text, the plain placeholder after it or None), checked."""
    try:
        fields = list(Formatter().parse(text))
    except ValueError as err:
        raise LocaleError(f"{where}: {err} (write {{{{ and }}}} for a brace itself)") from None
    for _, name, spec, conversion in fields:
        if name is not None and (not PLACEHOLDER.match(name) or spec or conversion):
            shown = (
                "{"
                + name
                + (f"!{conversion}" if conversion else "")
                + (f":{spec}" if spec else "")
                + "}"
            )
            raise LocaleError(
                f"{where}: placeholder '{shown}' is not allowed: write a plain name, such as "
                "{steps}"
            )
    return [(literal, name) for literal, name, _, _ in fields]


def _kind(value: Any) -> str:
    if isinstance(value, str):
        return "text"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list):
        return "a list"
    return "a table" if isinstance(value, dict) else type(value).__name__


def check_value(where: str, value: Any, model: Any) -> None:
    """``value`` has the kind of the reference language's ``model`` (None: no reference),
    and its lines use only the placeholders the model's do."""
    if model is not None and _kind(value) != _kind(model):
        raise LocaleError(
            f"{where} must be {_kind(model)} (as in {reference_path()}), got {value!r}"[:300]
        )
    if isinstance(value, str):
        names = placeholders(value, where)
        if isinstance(model, str):
            extra = sorted(names - placeholders(model, where))
            if extra:
                used = ", ".join(sorted(placeholders(model, where))) or "none"
                raise LocaleError(
                    f"{where}: placeholder '{extra[0]}' is not one the scene fills "
                    f"(it fills: {used})"
                )
    elif isinstance(value, list):
        for k, item in enumerate(value):
            inner = (
                model[k]
                if isinstance(model, list) and k < len(model)
                else (model[0] if isinstance(model, list) and model else None)
            )
            check_value(f"{where}[{k}]", item, inner)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_value(f"{where}.{key}", item, (model or {}).get(key))


def reference_path() -> Path:
    """The built-in table every language is checked against: the first default language's."""
    return LOCALE_DIR / f"{default('languages')[0]}.toml"


def check_tables(languages: Iterable[str], scene_keys: Iterable[str | None]) -> None:
    """Before anything renders: each language's table is readable, its [meta] is whole, and
    the tables of ``scene_keys`` and the shared ones have every key of the built-in
    reference language, of the same kind, with plain placeholders the scene fills."""
    reference = read_toml(reference_path(), "locale table", LocaleError)
    keys = [key for key in dict.fromkeys(scene_keys) if key]
    shared = [k for k, v in reference.items() if isinstance(v, dict) and "title" not in v]
    for lang in languages:
        table = _table(lang)
        language(lang)
        path = locale_path(lang)
        for name in [*keys, *shared]:
            if name not in OWN_KEYS:
                _check_table(path, name, table.get(name), reference.get(name), name in keys)
        for name in ("pronounce", "subtitles", "speech", "readings"):
            for key, value in (table.get(name) or {}).items():
                check_value(f"{path}: [{name}] {key}", value, (reference.get(name) or {}).get(key))


def _check_table(path: Path, name: str, words: Any, model: Any, is_scene: bool) -> None:
    """One table of a language against the reference language's (``model``, None when the
    reference has none); ``is_scene``: a scene's own table, which needs a title."""
    if words is None:
        if model is None or is_scene:
            raise LocaleError(f"{path}: no table [{name}] for scene '{name}'")
        raise LocaleError(f"{path}: table [{name}] is missing (as in {reference_path()})")
    if not isinstance(words, dict):
        raise LocaleError(f"{path}: [{name}] must be a table, got {words!r}"[:200])
    if is_scene and not isinstance(words.get("title"), str):
        raise LocaleError(f"{path}: [{name}] title must be text, got {words.get('title')!r}")
    for key in model or {}:
        if key not in words:
            raise LocaleError(f"{path}: [{name}] has no key '{key}'")
    said = is_scene or said_table(model)
    for key, value in words.items():
        check_value(f"{path}: [{name}] {key}", value, (model or {}).get(key))
        check_line(f"{path}: [{name}] {key}", value, (model or {}).get(key), said)


def said_table(table: Any) -> bool:
    """Whether the scenes say lines of this table: a table with a beat's ``<marker>`` in
    some line (a scene's own table, which has a title, always is one)."""
    if not isinstance(table, dict):
        return False
    lines = [v for v in table.values() if isinstance(v, str)]
    return "title" in table or any(BEAT_MARK.search(line) for line in lines)


def _speakable(line: str) -> bool:
    """Whether a voice can say something of ``line``: a letter or a digit outside its
    markers (a placeholder is a name, so it counts: the scene fills it with words)."""
    return any(unicodedata.category(ch)[0] in "LN" for ch in BEAT_MARK.sub("", line))


def check_line(where: str, line: Any, model: Any, said: bool) -> None:
    """What a scene will need of ``line``, which stands for ``model`` (the built-in line),
    checked before anything trains or renders: a whole number where the model is one (the
    scene reads it with int()), a multiple choice of as many choices where the model is one
    (:func:`parse_choices`) and, in a table the scenes say (``said``), something a voice can
    say and the model's beat markers, all of them or none (a line without markers plays the
    scene's beats in order after its own animations)."""
    if not isinstance(line, str) or not isinstance(model, str):
        return
    if WHOLE_NUMBER.fullmatch(model.strip()) and not WHOLE_NUMBER.fullmatch(line.strip()):
        got = f"{line!r}"[:80]
        raise LocaleError(
            f'{where} must be a whole number written as text, as "{model.strip()}", got {got}'
        )
    if len(model.split("|")) > 1 and "*" in model:  # a multiple choice ("Q|K|*V")
        count = len(parse_choices(model, where)[0])
        if len(parse_choices(line, where)[0]) != count:
            raise LocaleError(
                f'{where}: write {count} choices split by "|", the right one marked "*", '
                f"as the scene shows {count}"
            )
    if not said:
        return
    if _speakable(model) and not _speakable(line):
        got = f"{line!r}"[:80]
        raise LocaleError(
            f"{where}: nothing in {got} can be said (only punctuation, symbols or emoji): "
            "write it in words"
        )
    _check_markers(where, line, model)


def check_marks(where: str, names: Sequence[str], beats: Sequence[str]) -> None:
    """A line marking ``names`` for a scene whose beats are ``beats``: each marker a beat's,
    once, and every beat marked (the lecture file's check and the scenes' own reading)."""
    listed = ", ".join(f"<{name}>" for name in beats) or "none"
    for name in names:
        if name not in beats or names.count(name) > 1:
            raise LocaleError(
                f"{where}: marks <{name}> "
                + ("twice" if name in beats else "but the scene has no such beat")
                + f" (its beats: {listed})"
            )
    missing = [name for name in beats if name not in names]
    if missing:
        raise LocaleError(
            f"{where}: has no <{missing[0]}> marker for the scene's beat (its beats: {listed}; "
            "mark them all, or none)"
        )


def _check_markers(where: str, line: str, model: str) -> None:
    """``line``'s beat markers are ``model``'s, each once, and words follow the last; or it
    has none."""
    names = BEAT_MARK.findall(line)
    if not names:
        return
    check_marks(where, names, BEAT_MARK.findall(model))
    if not BEAT_MARK.split(line)[-1].strip():
        raise LocaleError(f"{where}: a <marker> ends the line; put it before its words")
