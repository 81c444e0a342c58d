"""A narration line as a voice should say it: numbers in words, symbols in words.

The subtitles print ``0.83``, ``786,432`` and ``1.1×10⁻¹⁶``; a voice reads them as the
language speaks them ("零點八三", "seven hundred eighty-six thousand four hundred
thirty-two", "one point one times ten to the minus sixteen"), never digit by digit or as
"e minus sixteen". How each language reads numbers lives here, chosen by the locale's
``[meta] numbers`` ("zh" or "en"); what its symbols are called (√, →, ×...) is the
locale's ``[speech]`` table; the words a synthesiser gets wrong (a heteronym, an acronym)
are re-spelled by the locale's ``[pronounce]`` table. Imports no Manim.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

_SUPER = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
# A number as the lecture prints it: sign, digits (grouped or not), decimals, and an
# optional power of ten written with superscripts; not inside a Latin word ("x1", "W_2"),
# but right after a Chinese character ("有5個", as a recogniser writes it too).
NUMBER = re.compile(
    r"(?<![A-Za-z0-9_.])([-−]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:×10(⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))?"
)

_ZH_DIGITS = "零一二三四五六七八九"
_ZH_SMALL = ("", "十", "百", "千")
_ZH_LARGE = ("", "萬", "億", "兆")


def _zh_below_10000(n: int) -> str:
    text, zero = "", False
    for power in range(3, -1, -1):
        digit = n // 10**power % 10
        if digit == 0:
            zero = bool(text)
            continue
        if zero:
            text += "零"
            zero = False
        text += _ZH_DIGITS[digit] + _ZH_SMALL[power]
    return text


def zh_integer(n: int) -> str:
    """A whole number in Chinese words: 786432 -> 七十八萬六千四百三十二; one beyond the
    named units (萬, 億, 兆) digit by digit, as a long number is read out."""
    if n < 0:
        return "負" + zh_integer(-n)
    if n >= 10000 ** len(_ZH_LARGE):
        return zh_number(str(n))
    if n == 0:
        return "零"
    groups = []
    while n:
        groups.append(n % 10000)
        n //= 10000
    text = ""
    for k in range(len(groups) - 1, -1, -1):
        group = groups[k]
        if group == 0:
            continue
        if text and group < 1000:
            text += "零"
        text += _zh_below_10000(group) + _ZH_LARGE[k]
    return text[1:] if text.startswith("一十") else text  # 十二, not 一十二


_EN_ONES = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)  # fmt: skip
_EN_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_EN_LARGE = ("", " thousand", " million", " billion", " trillion")


def _en_below_1000(n: int) -> str:
    hundreds, rest = divmod(n, 100)
    words = [f"{_EN_ONES[hundreds]} hundred"] if hundreds else []
    if rest >= 20:
        tens, ones = divmod(rest, 10)
        words.append(_EN_TENS[tens] + (f"-{_EN_ONES[ones]}" if ones else ""))
    elif rest:
        words.append(_EN_ONES[rest])
    return " ".join(words)


def en_integer(n: int) -> str:
    """A whole number in English words: 786432 -> seven hundred eighty-six thousand...; one
    beyond the named scales (trillions) digit by digit, as a long number is read out."""
    if n < 0:
        return "minus " + en_integer(-n)
    if n >= 1000 ** len(_EN_LARGE):
        return en_number(str(n))
    if n == 0:
        return "zero"
    words, k = [], 0
    while n:
        n, group = divmod(n, 1000)
        if group:
            words.append(_en_below_1000(group) + _EN_LARGE[k])
        k += 1
    return " ".join(reversed(words))


def zh_number(digits: str) -> str:
    """A whole number written in digits (grouped with commas or not, of any length), in
    Chinese words: :func:`zh_integer` up to 兆, beyond it digit by digit (never int() of
    thousands of digits, which Python refuses)."""
    digits = digits.replace(",", "")
    if len(digits) > 4 * len(_ZH_LARGE):
        return "".join(_ZH_DIGITS[int(d)] for d in digits)
    return zh_integer(int(digits))


def en_number(digits: str) -> str:
    """A whole number written in digits, of any length, in English words: :func:`en_integer`
    up to the trillions, beyond them digit by digit."""
    digits = digits.replace(",", "")
    if len(digits) > 3 * len(_EN_LARGE):
        return " ".join(_EN_ONES[int(d)] for d in digits)
    return en_integer(int(digits))


def _zh(sign: str, whole: str, decimals: str | None, power: str | None) -> str:
    text = ("負" if sign else "") + zh_number(whole)
    if decimals:
        text += "點" + "".join(_ZH_DIGITS[int(d)] for d in decimals)
    if power:
        exponent = power.translate(_SUPER)
        minus = "負" if exponent.startswith("-") else ""
        text += "乘以十的" + minus + zh_number(exponent.lstrip("-")) + "次方"
    return text


def _en(sign: str, whole: str, decimals: str | None, power: str | None) -> str:
    text = ("minus " if sign else "") + en_number(whole)
    if decimals:
        text += " point " + " ".join(_EN_ONES[int(d)] for d in decimals)
    if power:
        exponent = power.translate(_SUPER)
        minus = "minus " if exponent.startswith("-") else ""
        text += " times ten to the " + minus + en_number(exponent.lstrip("-"))
    return text


READERS: dict[str, Callable[[str, str, str | None, str | None], str]] = {"zh": _zh, "en": _en}
FRACTION = re.compile(r"(?<![\w.])(\d+)/(\d+)(?![\w.])")
FRACTIONS: dict[str, Callable[[str, str], str]] = {
    "zh": lambda a, b: f"{zh_number(b)}分之{zh_number(a)}",
    "en": lambda a, b: f"{en_number(a)} over {en_number(b)}",
}


# A year, read digit by digit in Mandarin (二〇一七年, said 二零一七年): four digits before
# 年, or alone in brackets when they are 1900-2099 (《…》（2017）).
YEAR = re.compile(r"(?<![\w.,])(\d{4})(?=\s*年)|(?<=[（(])((?:19|20)\d{2})(?=[）)])")
YEARS: dict[str, Callable[[str], str]] = {"zh": lambda y: "".join(_ZH_DIGITS[int(d)] for d in y)}


def pronounced(line: str, pronounce: Mapping[str, str]) -> str:
    """``line`` with each word of the ``pronounce`` table said as the table says, in one
    pass, the longest word first at each place (so an entry that says a word as it is
    written keeps a shorter entry out of it); a Latin word only where it stands whole
    ("Q", not the Q of "W_Q")."""
    if not pronounce:
        return line
    words = sorted((w for w in pronounce if w), key=len, reverse=True)  # "" matches nothing
    if not words:
        return line
    pattern = "|".join(
        rf"(?<![A-Za-z0-9_]){re.escape(w)}(?![A-Za-z0-9_])"
        if re.search(r"[A-Za-z0-9]", w)
        else re.escape(w)
        for w in words
    )
    return re.sub(pattern, lambda m: pronounce[m[0]], line)


def spoken(
    line: str,
    numbers: str,
    symbols: Mapping[str, str] = {},
    pronounce: Mapping[str, str] = {},
) -> str:
    """``line`` as a voice should say it: the words of ``pronounce`` re-spelled
    (:func:`pronounced`), a year as the language reads one (:data:`YEARS`), every number in
    words (``numbers``: a key of :data:`READERS`) and
    each symbol of ``symbols`` replaced by its words."""
    read, fraction = READERS[numbers], FRACTIONS[numbers]
    text = pronounced(line, pronounce)
    if numbers in YEARS:
        text = YEAR.sub(lambda m: YEARS[numbers](m[1] or m[2]), text)
    text = FRACTION.sub(lambda m: fraction(m[1], m[2]), text)
    text = NUMBER.sub(lambda m: read(*m.groups()), text)
    for symbol in sorted(symbols, key=len, reverse=True):  # "W_Q" before "W"
        text = text.replace(symbol, symbols[symbol])
    return text
