"""Pitfall 3 (seed 000): shuffle the input, the output is only shuffled; then positions.

The walkthrough sentence's attention outputs (its own W_Q, W_K and W_V; every word's output
differs) travel with their words, measured to the last bits of a float64; adding the
positional table (the very one drawn) breaks that symmetry, which is what positions can do
for a model, not yet a model that uses word order.
Render alone with ``manim -ql scenes/chapters/shuffle.py Shuffle``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStartMap,
    Line,
    MathTex,
    SurroundingRectangle,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.maps import AttentionGrid, WideTable
from scenes.kit.numbers import Ordinal, ShownNumber, phrase

SRC = "pitfalls.shuffle"
PE_CELL = 0.62  # a cell of the positional table, for 8 positions (larger for fewer)
PE_CELL_MAX = 0.9
ROW_MARGIN = 3.2  # beside a row of words: its name on the left, "output" on the right


class Shuffle(LectureScene):
    """Permutation equivariance measured to the last decimals, and positional encoding."""

    scene_key = "shuffle"
    reads = ("pitfalls.shuffle", "positional", "tokens.eat_apple")
    fingerprint = 3  # the position whose row of the table is pointed at

    def construct(self) -> None:
        self.s = self.data.shuffle
        self.title = self.make_title()
        self._sentences()
        self._measure()
        self._positions()

    def _sentences(self) -> None:
        """貓 追 狗 becomes 狗 追 貓: the same words, only moved."""
        words = VGroup(*(style.text(w, style.TITLE_SIZE * 1.4) for w in self.words["a"].split()))
        words.arrange(RIGHT, buff=style.WIDE_BUFF)
        formula = MathTex(r"\mathrm{softmax}\Big(\frac{QK^\top}{\sqrt{d}}\Big)V", font_size=56)
        style.place(VGroup(formula, words).arrange(DOWN, buff=style.WIDE_BUFF * 1.5))
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.say("intro", FadeIn(formula))
        self.say("no_position", FadeIn(words, lag_ratio=0.3))
        first, last = words[0].get_center(), words[-1].get_center()
        self.say(
            "same_to_it",
            Indicate(words, color=style.HIGHLIGHT),
            beats={
                "swap": [words[0].animate.move_to(last), words[-1].animate.move_to(first)],
                "same": [
                    Indicate(words[0], color=style.HIGHLIGHT),
                    Indicate(words[-1], color=style.HIGHLIGHT),
                ],
            },
        )
        self.play(FadeOut(VGroup(formula, words)))

    # --- the measurement ---------------------------------------------------------------
    def _row(
        self, order: list[int], outputs: list[list[float]], out_path: str, gap: float
    ) -> VGroup:
        """One column per word, in ``order``: its place, the word, and its attention output
        (boxed); ``outputs[k]`` is the output of the word at place k. ``gap``: between
        columns."""
        columns = VGroup()
        for k, j in enumerate(order):
            vector = VGroup(
                *(
                    self.number(f"{out_path}[{k}][{c}]", 2, style.LABEL_SIZE)
                    for c in range(len(outputs[k]))
                )
            ).arrange(DOWN, buff=style.TIGHT_BUFF)
            word = style.text(self.apple_words()[j], style.BODY_SIZE)
            word.next_to(vector, UP, buff=style.ITEM_BUFF)  # clear of the box around the vector
            place = ShownNumber(k + 1, 0, Ordinal(), color=style.MUTED)
            columns.add(VGroup(place.next_to(word, UP, buff=style.HUG_BUFF), word, vector))
        columns.arrange(RIGHT, buff=gap, aligned_edge=DOWN)
        boxes = VGroup(*(SurroundingRectangle(c[2], buff=style.HUG_BUFF) for c in columns))
        return VGroup(columns, boxes.set_color(style.RESULT))

    def _measure(self) -> None:
        n, run = len(self.s.tokens), self.s.without_positions
        order = list(self.s.permutation)
        # The columns' gap shrinks for a long sentence, so that the row fits at full size.
        left, _, right, _ = style.content_area()
        probe = self._row(list(range(n)), run.out, f"{SRC}.without_positions.out", 0)
        room = right - left - ROW_MARGIN - probe.width
        gap = max(style.ITEM_BUFF, min(style.WIDE_BUFF, room / max(n - 1, 1)))
        original = self._row(list(range(n)), run.out, f"{SRC}.without_positions.out", gap)
        shuffled = self._row(
            order, run.out_of_shuffled, f"{SRC}.without_positions.out_of_shuffled", gap
        )
        rows = VGroup(original, shuffled).arrange(DOWN, buff=style.GROUP_BUFF)
        names = VGroup(
            *(
                style.text(self.words[key], style.BODY_SIZE).next_to(row, LEFT, buff=0.6)
                for key, row in zip(("input", "shuffled"), rows, strict=True)
            )
        )
        out = style.text(self.words["output"], style.LABEL_SIZE, style.RESULT)
        names.add(out.next_to(original[1], RIGHT, buff=style.ITEM_BUFF))
        gap = self.number(f"{SRC}.without_positions.max_abs_diff", 1, notation="scientific")
        diff = phrase(self.words["diff_line"], style.BODY_SIZE, d=gap)
        diff.next_to(rows, DOWN, buff=style.GROUP_BUFF)
        style.place(VGroup(rows, names, diff))
        links = VGroup(
            *(
                Line(
                    original[0][j][2].get_bottom() + DOWN * style.HUG_BUFF,
                    shuffled[0][order.index(j)][0].get_top(),  # to its new place number
                    color=style.MUTED,
                    stroke_width=2,
                )
                for j in range(n)
            )
        )
        self.say(
            "test",
            FadeIn(original[0]),
            FadeIn(names[0]),
            beats={"boxes": [Create(original[1]), FadeIn(names[2])]},
        )
        self.say("shuffle", FadeIn(shuffled), FadeIn(names[1]))
        self.say("follow", FadeIn(links, lag_ratio=0.15), run_time=2)
        exact = self.s.without_positions.max_abs_diff == 0  # summed in the same order after all
        self.say("diff_exact" if exact else "diff", FadeIn(diff), FadeOut(links), d=gap)
        law = MathTex(r"f(P\,x) = P\,f(x)", font_size=48).next_to(diff, DOWN, buff=style.ITEM_BUFF)
        self.say(
            "equivariant",
            FadeOut(diff),
            beats={
                "law": [Write(law.move_to(diff).align_to(diff, DOWN))],
                "harm": [Circumscribe(law, color=style.HIGHLIGHT)],
            },
        )
        self.clear_below_title(self.title)

    # --- positional encoding -----------------------------------------------------------
    def _positions(self) -> None:
        pe = self.data.positional
        # More than 8 positions: smaller cells, read by brightness (-1 dark, 1 bright).
        written = pe.positions <= style.REFERENCE_POSITIONS
        table = AttentionGrid(
            pe.table,
            "positional.table",
            row_headers=[
                ShownNumber(p + 1, 0, Ordinal(), color=style.MUTED) for p in range(pe.positions)
            ],
            cell_size=min(PE_CELL * style.REFERENCE_POSITIONS / pe.positions, PE_CELL_MAX),
            decimals=2,  # the slow columns change in the second decimal
            heat=not written,
            show_numbers=written,
            value_range=(-1.0, 1.0),
            text_size=style.LABEL_SIZE,
        )
        add = MathTex(r"X + PE", font_size=64)
        left = VGroup(add, table).arrange(DOWN, buff=style.SECTION_BUFF)
        wide = self._wide_table()
        style.place(VGroup(left, wide).arrange(RIGHT, buff=style.WIDE_BUFF))
        gap = self.number(f"{SRC}.with_positions.max_abs_diff", 2)
        again = phrase(self.words["again_line"], style.BODY_SIZE, d=gap)
        again.scale(min(1.0, wide.width / again.width)).move_to(wide)  # in the wide table's place
        self.say("fix", Write(add))
        self.say(
            "table",
            FadeIn(table.row_headers),
            LaggedStartMap(FadeIn, VGroup(*(table.get_row(i) for i in range(pe.positions)))),
            beats={"this": [Circumscribe(table, color=style.HIGHLIGHT)]},
        )
        self.say(
            "fingerprint",
            FadeIn(wide.label),
            FadeIn(wide.image),
            Create(wide.axes),
            FadeIn(wide.axis),
            FadeIn(wide.row, wide.curve),
            beats={
                "rows": [wide.scan()],
                "fast": [Create(wide.fast), FadeIn(wide.speeds[0])],
                "slow": [Create(wide.slow), FadeIn(wide.speeds[1])],
            },
            n=self.spoken("positional.wide_positions", 0),
            w=self.spoken("positional.wide_width", 0),
        )
        self.say(
            "again",
            Indicate(add, color=style.HIGHLIGHT),
            FadeOut(wide),
            beats={"gap": [FadeIn(again)]},
            d=gap,
        )
        self.say(
            "order_aware",
            Circumscribe(again, color=style.HIGHLIGHT),
            beats={"hand": [Indicate(add, color=style.HIGHLIGHT)]},
        )

    def _wide_table(self) -> WideTable:
        pe = self.data.positional
        label = phrase(
            self.words["wide_line"],
            style.LABEL_SIZE,
            n=self.number("positional.wide_positions", 0),
            w=self.number("positional.wide_width", 0),
        )
        speeds = (self.words["fast"], self.words["slow"])
        axis = style.text(self.words["dims_axis"], style.SMALL_SIZE, style.MUTED)
        return WideTable(pe.wide, label, speeds, axis, self.fingerprint)
