"""The lab beside the video: what each of the page's demos needs, from the data file.

The page (``pipeline/viewer.html`` with ``pipeline/lab.js``) recomputes what model/ computed
(softmax of q·k over the office, the colour task's map from the trained weights, the √d
curve's draws, the shuffle, the temperature) from the numbers given here, and trains the
colour task again with TensorFlow.js. Every number here is read from the data file, as
the lecture's language reads it (its own walkthrough sentence in place); every word is the
locale's (``[lab]``, the office's names, the quiz's questions). Imports no torch and no Manim.
"""

from __future__ import annotations

from typing import Any

from common.formatting import format_number
from model.datafile import in_language
from model.parts import RULE_MATCH
from model.sentences import MAX_WORDS, names_in
from syllabus.locale import (
    Words,
    colour_label,
    colour_name,
    language,
    locale_path,
    parse_choices,
)
from syllabus.themes import TASK_PALETTE, THEMES

LAB_FILE = "lab.js"  # beside index.html
PAGE_THEME = THEMES["dark"]  # the page is dark: its Q, K and V are the dark theme's
PATTERN_BUTTONS = ("all_same", "halves")  # the two patterns the colour demo has a button for
# Each demo, and the chapters it belongs to: the first of them in the lecture is the one its
# "watch" button seeks to, and their entries in the chapter list open it.
DEMO_CHAPTERS = {  # in the lecture's order: the tabs are shown so
    "office": ("office",),
    "sentence": ("qkv", "scoring"),
    "it_cat": ("softmax", "weighted_sum"),
    "colours": ("colour_task", "training", "attention_map", "patterns"),
    "projection": ("projection",),
    "sqrt_d": ("sqrt_d",),
    "shuffle": ("shuffle",),
    "heads": ("causal", "multihead"),
    "quiz": ("quiz",),
}


def _quiz(data: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """The quiz chapter's three questions, each with its choices, the right one and the
    measured answer, filled with the numbers the chapter shows."""
    words = Words("quiz", lang)
    sqrt_d = data["pitfalls"]["sqrt_d"]["dims"][-1]
    diff = data["pitfalls"]["shuffle"]["without_positions"]["max_abs_diff"]
    numbers = {
        2: {"diff": format_number(diff, 1, "scientific")},
        3: {
            "d": format_number(sqrt_d["d"], 0),
            "unscaled": format_number(sqrt_d["mean_max_unscaled"], 2),
            "scaled": format_number(sqrt_d["mean_max_scaled"], 2),
        },
    }
    questions = []
    for k in (1, 2, 3):
        where = f"{locale_path(lang)}: [quiz] choices_{k}"
        choices, right = parse_choices(words[f"choices_{k}"], where)
        questions.append(
            {
                "question": words[f"q{k}"],
                "choices": choices,
                "right": right,
                "answer": words.format(f"a{k}", **numbers.get(k, {})),
            }
        )
    return questions


def _sentence(walk: dict[str, Any], shown: list[str], dims: list[str], lang: str) -> dict[str, Any]:
    """The walkthrough sentence as the own-sentence demo starts it: its words as the language
    shows them, their vectors, the lecture's W_Q, W_K and W_V, and the table of more words."""
    opening = shown[: walk["short"]]  # the words the video follows: it opens on its numbers
    return {
        "tokens": shown,
        "text": (" " if language(lang).spaces else "").join(opening),
        "spaces": language(lang).spaces,
        "dims": dims,
        "x": walk["x"],
        "w_q": walk["w_q"],
        "w_k": walk["w_k"],
        "w_v": walk["w_v"],
        "vocabulary": walk["vocabulary"],
        "max_words": MAX_WORDS,
    }


def _heads(data: dict[str, Any], lang: str) -> dict[str, Any]:
    """The multihead chapter's trained runs (two and four heads) and the causal chapter's
    masked run: each map on its example, with the rule each head learned (the overlap of its
    map with each rule's ideal map, named where it reaches :data:`RULE_MATCH`)."""
    words = Words("multihead", lang)

    def run(part: dict[str, Any]) -> dict[str, Any]:
        heads = []
        for h, map_ in enumerate(part["maps"]):
            colour, previous = part["colour_match"][h], part["previous_match"][h]
            rules = [
                words[key]
                for key, match in (("rule_colour", colour), ("rule_previous", previous))
                if match >= RULE_MATCH
            ]
            heads.append(
                {
                    "name": words.format("head", h=h + 1),
                    "rules": rules,
                    "colour_match": colour,
                    "previous_match": previous,
                    "map": map_,
                }
            )
        return {
            "colours": part["colours"],
            "heads": heads,
            "d_head": part["d_head"],
            "val_mse": part["val_mse"],
            "baseline_mse": part["baseline_mse"],
        }

    causal = data["causal"]
    return {
        "two": run(data["multihead"]["two"]),
        "four": run(data["multihead"]["four"]),
        "causal": {
            "colours": causal["colours"],
            "map": causal["attention"],
            "val_mse": causal["val_mse"],
            "baseline_mse": causal["baseline_mse"],
        },
        "rule_match": RULE_MATCH,
    }


def lab_data(raw: dict[str, Any], lang: str) -> dict[str, Any]:
    """What the lab's demos read (``window.LECTURE.lab``), from the data file's JSON."""
    data = in_language(raw, lang)
    config = data["config"]
    office = data["office"]
    names = Words("office", lang)
    examples = data["examples"]
    it_cat = data["tokens"]["it_cat"]
    walk = data["tokens"]["eat_apple"]
    shown = walk["gloss"] if Words("eat_apple", lang)["show"] == "gloss" else walk["tokens"]
    dims = names_in(walk["dims"], lang) or names_in(walk["dims"], "en")  # named in the language
    words_of_lab = Words("lab", lang)
    projection = data["pitfalls"]["projection"]
    return {
        "chapters": DEMO_CHAPTERS,
        "office": {
            "people": [names[person] for person in office["people"]],
            "keys": office["keys"],
            "values": office["values"],
            "scale": office["scale"],
            "start": office["sweep"][0]["query"],
        },
        "colours": {
            "names": [colour_name(c, lang) for c in config["colours"]],
            "labels": [colour_label(c, lang) for c in config["colours"]],
            "fills": [TASK_PALETTE[c][0] for c in config["colours"]],
            "positions": config["positions"],
            "d": config["d"],
            "steps": config["steps"],
            "lr": config["lr"],
            "batch_size": config["batch_size"],
            "val_size": config["val_size"],
            "seed": config["seed"],
            "weights": data["weights"],
            "example": {k: examples["mixed"][k] for k in ("colours", "values")},
            "patterns": {name: examples[name]["colours"] for name in PATTERN_BUTTONS},
        },
        "projection": {
            **{k: projection[k] for k in ("positions", "width", "draws", "uniform_share")},
            **{k: {"mean": projection[k]["mean"]} for k in ("plain", "projected")},
        },
        "sqrt_d": data["pitfalls"]["sqrt_d"],
        "shuffle": {
            "tokens": shown,
            "dims": dims,
            "x": walk["x"],
            "w_q": walk["w_q"],
            "w_k": walk["w_k"],
            "w_v": walk["w_v"],
            "table": data["positional"]["table"],
            "permutation": data["pitfalls"]["shuffle"]["permutation"],
        },
        "it_cat": {
            "tokens": it_cat["tokens"],
            "q": it_cat["q"],
            "k": it_cat["k"],
            "query": it_cat["query_index"],
        },
        "quiz": _quiz(data, lang),
        "sentence": _sentence(walk, shown, dims, lang),
        "heads": _heads(data, lang),
        "roles": {"query": PAGE_THEME.query, "key": PAGE_THEME.key, "value": PAGE_THEME.value},
        "words": {
            key: words_of_lab.format(key, hue=colour_name(PAGE_THEME.query_hue, lang))
            if key == "office_hint"
            else words_of_lab[key]
            for key in words_of_lab
        },
    }
