"""Text on its way into a file format: which characters the lecture's words may hold, and
each format's own way to hold the rest.

The words (the lecture file, every locale table) are checked when read
(:func:`control_problem`): a control character, a bidi override or a line separator is
refused, naming the key, and a newline is allowed only where a key is a label of several
lines. The writers do not trust that check: each passes its text through this module's
form for its format, so that no text, whatever it holds, can make a new chapter, end a
subtitle cue, write a timing line, or leave a string in a page's script.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

Where = tuple[str | int, ...]  # where in a TOML document: its keys and list indices

# Refused in the words and dropped by every writer: C0 controls (a newline is checked on its
# own), DEL and C1, the bidi embeddings, overrides and isolates (they reorder what a reader
# sees, "Trojan Source"), and the Unicode line and paragraph separators (a line break in
# JavaScript before ES2019, and in some subtitle readers).
_CONTROL = "\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029"
CONTROL = re.compile(f"[{_CONTROL}]")
CONTROL_OR_NEWLINE = re.compile(f"[{_CONTROL}\n]")
# What str.splitlines ends a line at: each of them a space on one line.
_BREAKS = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]+")
_LINE_BREAKS = re.compile(r"\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")
# What the words may hold, as a refusal says it.
ALLOWED = (
    "printable text: no control character, bidi embedding, override or isolate (the marks "
    "U+200E, U+200F and U+061C are text's own), or line separator, and a newline "
    "only where the built-in words break a line"
)
_KINDS = (
    ("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069", "a bidi override or isolate"),
    ("\u2028\u2029", "a line separator"),
    ("\n", "a newline"),
)


def code_point(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def control_problem(text: str, newline: bool = False) -> str | None:
    """What is wrong with ``text`` as words (None: nothing): the first character refused
    (a newline too, unless ``newline``), its code point and where (from 1)."""
    found = (CONTROL if newline else CONTROL_OR_NEWLINE).search(text)
    if found is None:
        return None
    ch = found.group()
    kind = next((name for chars, name in _KINDS if ch in chars), "a control character")
    return f"has {kind} {code_point(ch)} at character {found.start() + 1}"


def refused(
    data: Any, newline: Callable[[Where], bool] = lambda path: False, path: Where = ()
) -> tuple[Where, str] | None:
    """The first key or text in ``data`` (a TOML document: tables, lists, text, numbers)
    that holds a character the words may not: where (a key's own path when the key itself
    does) and :func:`control_problem`'s words; a newline is allowed where ``newline(path)``.
    None when there is none."""
    if isinstance(data, str):
        problem = control_problem(data, newline(path))
        return None if problem is None else (path, problem)
    if isinstance(data, dict):
        items = list(data.items())
    else:
        items = list(enumerate(data)) if isinstance(data, list) else []
    for key, value in items:
        if isinstance(key, str) and (problem := control_problem(key)):
            return (*path, key), f"is a key with {problem.removeprefix('has ')}"
        if found := refused(value, newline, (*path, key)):
            return found
    return None


def dotted(where: Where) -> str:
    """A place in a TOML document as its keys say it (``words.en.office.title``,
    ``task.walkthrough.tokens[1]``), safe to print (:func:`shown`)."""
    text = "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in where)
    return shown(text.removeprefix("."))


def shown(text: str) -> str:
    """``text`` safe to print in a message: each refused character (newline included) as
    its ``\\uXXXX`` escape, so that a key cannot move the cursor or colour a terminal."""
    return CONTROL_OR_NEWLINE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def one_line(text: str) -> str:
    """``text`` as one line (a chapter title, a page or MP4 title, a list entry): every run
    of line breaks a space, every other refused character (a tab a space) dropped."""
    text = _BREAKS.sub(" ", text).replace("\t", " ")
    return CONTROL.sub("", text).strip()


def text_lines(text: str) -> list[str]:
    """``text`` as lines of :func:`one_line` text, empty ones left out: a blank line, which
    ends a subtitle cue, can never come of it."""
    lines = (one_line(line) for line in _LINE_BREAKS.split(text))
    return [line for line in lines if line]


def subtitle_text(text: str) -> str:
    """A cue's text as any subtitle format holds it (SRT, WebVTT, MP4's mov_text): its
    :func:`text_lines`, and no ``-->`` (it makes a timing line in SRT and WebVTT)."""
    return "\n".join(line.replace("-->", "→") for line in text_lines(text))


def vtt_text(text: str) -> str:
    """A cue's text in a WebVTT file: :func:`subtitle_text` with ``&``, ``<`` and ``>``
    escaped (WebVTT reads them as its markup)."""
    escaped = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"))
    text = subtitle_text(text)
    for raw, escape in escaped:
        text = text.replace(raw, escape)
    return text


def html_text(text: str) -> str:
    """One line of text inside an HTML element (a page's ``<title>``) or attribute."""
    return html.escape(one_line(text), quote=True)


_SURROGATE = re.compile("[\ud800-\udfff]")


def json_text(data: Any) -> str:
    """JSON, UTF-8 as it reads (no NaN): lone surrogates (from a file name that was not
    UTF-8) and U+2028/U+2029 written as ``\\u`` escapes, so that the text encodes as UTF-8
    and is a JavaScript literal too. Nothing is lost: ``json.loads`` gives ``data`` back."""
    text = json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False)
    return _SURROGATE.sub(_escape, text).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _escape(found: re.Match[str]) -> str:
    return f"\\u{ord(found.group()):04x}"


def script_json(data: Any) -> str:
    """:func:`json_text` fit to stand in a page's ``<script>``, inline or its own file:
    ``<``, ``>`` and ``&`` escaped too, so that no ``</script>`` or ``<!--`` can end it."""
    text = json_text(data)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
