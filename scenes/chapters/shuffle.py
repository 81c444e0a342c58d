"""Pitfall 3 (seed 000): shuffle the input, the output is only shuffled; then positions.

The walkthrough sentence's attention outputs (its own W_Q, W_K and W_V; every word's output
differs) travel with their words, measured to the last bits of a float64; adding the
positional table (the very one drawn) breaks that symmetry, which is what positions can do
for a model, not yet a model that uses word order.
Render alone with ``manim -ql scenes/chapters/shuffle.py Shuffle``.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    PI,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    ApplyMethod,
    ArcBetweenPoints,
    Arrow,
    Brace,
    Circle,
    Create,
    CurvedArrow,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    LaggedStartMap,
    Line,
    MathTex,
    Rectangle,
    ReplacementTransform,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    UpdateFromAlphaFunc,
    VGroup,
    Write,
    there_and_back,
)

from scenes.chapters.colour_task import ColourTask
from scenes.chapters.sqrt_d import COMING, GOING, scale_knob, travel
from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.diagrams import AttentionFormula
from scenes.kit.emphasis import outline
from scenes.kit.maps import AttentionGrid, LabelledMatrix, WideTable
from scenes.kit.numbers import Ordinal, ShownNumber, phrase
from scenes.kit.turns import InTurn

SRC = "pitfalls.shuffle"
APPLE = "tokens.eat_apple"
PE_CELL = 0.62  # a cell of the positional table, for 8 positions (larger for fewer)
PE_CELL_MAX = 0.9
ROW_MARGIN = 2.0  # beside a row of words: its name and "output" on the left
W_CELL = 0.4  # a cell of the small W_Q, W_K, W_V beside the rows
SLOT = (1.2, 1.1)  # an output not yet computed, under a word of 貓 追 狗
CLOCK_RADIUS = 1.4  # the clock whose hands are two column pairs of the wide table
MASK_CELL = 0.55  # a cell of the causal mask's preview
SENTENCE_GROW = 1.6  # 貓 追 狗 may be drawn up to this much larger, to fill the room
ALONE_GROW = 1.5  # and, alone before 狗 追 貓 comes, this much larger again
STEP = 1.0  # seconds of one half of a two-step beat (a row appears, then its shuffle)
SWAP_ARC = PI / 2  # words trading places pass over and under each other
SLOT_SHADES = (0.25, 0.55, 0.85)  # the fills telling the outputs of 貓 追 狗 apart
BAR = (0.09, 0.02)  # a bar of an output's glyph: its width, and the gap between two bars
CASE_GROW = 1.6  # a case of the law may be drawn up to this much larger


class Shuffle(LectureScene):
    """Permutation equivariance measured to the last decimals, and positional encoding."""

    scene_key = "shuffle"
    reads = (
        "pitfalls.shuffle",
        "positional",
        "tokens.eat_apple",
        "pitfalls.sqrt_d",  # with it_cat: sqrt_d's last picture, this chapter's first
        "tokens.it_cat",
        "examples.mixed",  # ColourTask.example_name: the colour average, harmless to shuffle
    )
    tables = ("sqrt_d",)  # that picture's words
    opens_on = scale_knob.__name__
    fingerprint = 3  # the position whose row of the table is pointed at

    def construct(self) -> None:
        self.s = self.data.shuffle
        self.title = self.make_title()
        self._sentences()
        self._measure()
        self._positions()

    # --- the formula has no position in it ------------------------------------------------
    def _sentences(self) -> None:
        """The formula walked term by term over 貓 追 狗: every word compared with every
        word, each output a mix of all three; then 狗 追 貓 beside it, each word carrying its
        filled output along, and the two 貓 outputs set side by side."""
        formula = AttentionFormula(projection_size=44, attention_size=60)
        formula[0].arrange(RIGHT, buff=style.WIDE_BUFF * 1.5)  # one line across the top
        first_row = self._chase()
        pairs, out = first_row
        words, slots = VGroup(*(p[0] for p in pairs)), VGroup(*(p[1] for p in pairs))
        second_row = first_row.copy()
        same = VGroup()
        for k in (0, -1):
            equal = VGroup(
                slots[k].copy(), MathTex("=", font_size=style.SYMBOL_SIZE), slots[k].copy()
            ).arrange(RIGHT, buff=style.ITEM_BUFF)
            name = words[k].copy().scale(0.6).next_to(equal, UP, buff=style.HUG_BUFF)
            same.add(VGroup(*equal, name))
        rows = VGroup(first_row, second_row).arrange(RIGHT, buff=style.WIDE_BUFF)
        sentences = VGroup(rows, same).arrange(DOWN, buff=style.GROUP_BUFF)
        # The formula along the top; the sentences grown to fill the room under it, centred
        # there (at mid-height, not hanging under the formula).
        style.place(formula, aligned=UP, grow=2)
        left, bottom, right, _ = style.content_area()
        room = formula.get_bottom()[1] - style.SECTION_BUFF - bottom
        sentences.scale(
            min(SENTENCE_GROW, (right - left) / sentences.width, room / sentences.height)
        )
        sentences.move_to([(left + right) / 2, bottom + room / 2, 0])
        for pair, row in zip(same, rows, strict=True):  # each comparison under its sentence
            pair.match_x(row[0])
        places = VGroup(
            *(
                ShownNumber(k + 1, 0, Ordinal(), style.LABEL_SIZE, style.MUTED).next_to(
                    w, UP, buff=style.HUG_BUFF
                )
                for k, w in enumerate(words)
            )
        )
        compares = VGroup(
            *(
                ArcBetweenPoints(
                    slots[a].get_bottom() + DOWN * style.HUG_BUFF,
                    slots[b].get_bottom() + DOWN * style.HUG_BUFF,
                    angle=PI / 2.5,  # shallow: the arcs stay in the room under the row
                )
                for a in range(len(words))
                for b in range(a + 1, len(words))
            )
        ).set_stroke(style.HIGHLIGHT, width=4)
        # sqrt_d's last picture at once: the knob back at ÷ √d, it → every word there with
        # the divisor of q·k under the bars, the slope w (1 − w) over the way back to W_Q and
        # W_K. "Back to the formula": the score divided by √d goes into the formula as
        # QKᵀ/√d, W_Q and W_K into the projections they make, the rest leaves.
        knob, (bars, divisor), slope, chain = scale_knob(self)
        boxes, score, weight, forward, grads = chain
        matrices = [box[1] for box in boxes]  # W_Q, W_K
        leaving = [knob, bars, slope, *(box[0] for box in boxes), score, weight, forward, grads]
        self.add(self.title, *leaving, divisor, *matrices)  # each leaves on its own
        made = [formula.projections[1][2:4], formula.projections[3][2:4]]  # where they go
        kept = VGroup(*made).get_family()
        new = VGroup(  # the rest of the two lines
            *(m for m in formula.projections.family_members_with_points() if m not in kept),
            formula.get_softmax(),
            formula.get_values(),
        )
        letters = formula.projections[::2]  # Q, K and V, where a place would have to go
        empty = VGroup(*(s.copy().set_fill(opacity=0) for s in slots))
        # Alone, 貓 追 狗 stands larger in the middle of the room under the formula; it goes
        # to its place (up, left, its size) when 狗 追 貓 comes out of it.
        final = first_row.copy()
        alone = VGroup(first_row, places, compares, empty)
        grow = min(ALONE_GROW, (right - left) / alone.width, room / alone.height)
        alone.scale(grow).move_to(sentences)
        self.say(
            "intro",
            *(FadeOut(m, rate_func=GOING) for m in leaving),
            # the score, q·k ÷ √d, shrinks into the formula's QKᵀ/√d
            travel(divisor, formula.attention[2:6]),
            *(ReplacementTransform(m, p) for m, p in zip(matrices, made, strict=True)),
            FadeIn(new, rate_func=COMING),
            then=[[FadeIn(words, lag_ratio=0.2), Create(empty), FadeIn(out)]],
            beats={
                # every position against every position: an arc for each pair of words
                "compare": [outline(formula.get_scores()), Create(compares, lag_ratio=0.3)],
                # each output a mix of all the words: copies of all three fly into each slot
                "average": [
                    outline(formula.get_values()),
                    FadeOut(compares),
                    *(TransformFromCopy(words, s) for s in slots),
                    FadeOut(empty),
                ],
            },
        )
        # The places 1 2 3, side by side, under each term in turn: Q, K, V (each computed
        # alike from its word's row of X) and the second line.
        terms = [*(letter[-1] for letter in letters), formula.attention]
        visits = [
            places.copy()
            .arrange(RIGHT, buff=style.ITEM_BUFF)
            .next_to(term, DOWN, buff=style.HUG_BUFF)
            for term in terms
        ]
        for visit in visits:  # Q stands at the left edge: the group kept inside the frame
            visit.shift(RIGHT * max(0.0, left - visit.get_left()[0]))
        self.say(
            "no_position",
            FadeIn(places, shift=DOWN * style.ITEM_BUFF),
            beats={
                # the whole group of places leaves the words for the formula: under Q, then
                # (copies) under K, under V and under the second line, looking for a slot
                "which": [
                    LaggedStart(
                        ReplacementTransform(places, visits[0], path_arc=-SWAP_ARC / 2),
                        *(
                            TransformFromCopy(places, visit, path_arc=-SWAP_ARC / 2)
                            for visit in visits[1:]
                        ),
                        lag_ratio=0.3,
                    )
                ],
                # none of the terms has a slot for a place: the group falls out of each, gone
                "none": [
                    LaggedStart(
                        *(FadeOut(visit, shift=DOWN * style.GROUP_BUFF) for visit in visits),
                        lag_ratio=0.3,
                    )
                ],
            },
        )
        moved = second_row[0]
        first, last = moved[0], moved[-1]
        self.say(
            "same_to_it",
            TransformFromCopy(first_row, second_row),
            Transform(first_row, final),
            beats={
                "swap": [
                    first.animate(path_arc=SWAP_ARC).move_to(last),
                    last.animate(path_arc=SWAP_ARC).move_to(first),
                ],
                # the cat's output in each sentence, side by side: the same
                "same": [
                    TransformFromCopy(slots[0], same[0][0]),
                    TransformFromCopy(first[1], same[0][2]),
                    FadeIn(same[0][1]),
                    TransformFromCopy(words[0], same[0][3]),
                ],
                "dog": [
                    TransformFromCopy(slots[-1], same[1][0]),
                    TransformFromCopy(last[1], same[1][2]),
                    FadeIn(same[1][1]),
                    TransformFromCopy(words[-1], same[1][3]),
                ],
            },
        )
        self.clear_below_title(self.title)

    def _chase(self) -> VGroup:
        """貓 追 狗, each word over its output drawn as a filled slot (a shade of its own: a
        glyph, not a measurement), "output" on the left."""
        words = VGroup(*(style.text(w, style.TITLE_SIZE * 1.4) for w in self.words["a"].split()))
        words.arrange(RIGHT, buff=style.WIDE_BUFF)
        slots = VGroup(
            *(
                Rectangle(width=SLOT[0], height=SLOT[1], color=style.RESULT)
                .next_to(w, DOWN, buff=style.ITEM_BUFF)
                .set_fill(style.RESULT, opacity=SLOT_SHADES[k % len(SLOT_SHADES)])
                for k, w in enumerate(words)
            )
        )
        out = style.text(self.words["output"], style.LABEL_SIZE, style.RESULT)
        out.next_to(slots, LEFT, buff=style.ITEM_BUFF)
        return VGroup(VGroup(*(VGroup(w, s) for w, s in zip(words, slots, strict=True))), out)

    # --- the measurement ---------------------------------------------------------------
    def _row(
        self, order: list[int], outputs: list[list[float]], out_path: str, gap: float, span: tuple
    ) -> VGroup:
        """One column per word, in ``order``: its place, the word, and its attention output
        (boxed): its numbers and, beside them, the same numbers as a glyph of bars (on the
        scale ``span``, the lowest and highest value of every output drawn); ``outputs[k]``
        is the output of the word at place k. ``gap``: between columns."""
        columns = VGroup()
        for k, j in enumerate(order):
            numbers = VGroup(
                *(
                    self.number(f"{out_path}[{k}][{c}]", 2, style.LABEL_SIZE)
                    for c in range(len(outputs[k]))
                )
            ).arrange(DOWN, buff=style.TIGHT_BUFF)
            glyph = self._bars(outputs[k], span, numbers.height)
            vector = VGroup(numbers, glyph.next_to(numbers, RIGHT, buff=style.HUG_BUFF))
            word = style.text(self.apple_words()[j], style.BODY_SIZE)
            word.next_to(vector, UP, buff=style.ITEM_BUFF)  # clear of the box around the vector
            place = ShownNumber(k + 1, 0, Ordinal(), color=style.MUTED)
            columns.add(VGroup(place.next_to(word, UP, buff=style.HUG_BUFF), word, vector))
        columns.arrange(RIGHT, buff=gap, aligned_edge=DOWN)
        boxes = VGroup(*(SurroundingRectangle(c[2], buff=style.HUG_BUFF) for c in columns))
        return VGroup(columns, boxes.set_color(style.RESULT))

    @staticmethod
    def _bars(values: list[float], span: tuple, height: float) -> VGroup:
        """An output as a glyph: a bar per entry, up from a zero line (down when negative),
        on the scale where ``span`` (lowest, highest) fills ``height``."""
        low, high = min(span[0], 0.0), max(span[1], 0.0)
        unit = height / (high - low)
        bars = VGroup(
            *(
                Rectangle(width=BAR[0], height=max(abs(v) * unit, 0.01))
                .set_stroke(width=0)
                .set_fill(style.RESULT, opacity=0.85)
                for v in values
            )
        ).arrange(RIGHT, buff=BAR[1])
        room = Rectangle(width=bars.width, height=height).set_stroke(width=0)  # the glyph's place
        zero = Line(ORIGIN, RIGHT * bars.width).set_stroke(style.MUTED, 2)
        zero.move_to(room).set_y(room.get_top()[1] - high * unit)
        for bar, v in zip(bars, values, strict=True):
            x = bar.get_x()
            bar.next_to(zero, UP if v >= 0 else DOWN, buff=0).set_x(x)
        return VGroup(room, zero, bars)

    def _rows(self, run: str, width: float, height: float) -> VGroup:
        """The sentence's outputs in its order and shuffled (``run``: ``without_positions``
        or ``with_positions``), named on the left, in ``width``; the shuffled row as far
        below the first as ``height`` allows, so the permutation's lines between them are
        long and the pair spans the content area."""
        n, order = len(self.s.tokens), list(self.s.permutation)
        runs = getattr(self.s, run)
        every = [v for out in (runs.out, runs.out_of_shuffled) for row in out for v in row]
        span = (min(every), max(every))
        probe = self._row(list(range(n)), runs.out, f"{SRC}.{run}.out", 0, span)
        room = width - ROW_MARGIN - probe.width
        gap = max(style.GROUP_BUFF, min(style.WIDE_BUFF, room / max(n - 1, 1)))
        original = self._row(list(range(n)), runs.out, f"{SRC}.{run}.out", gap, span)
        shuffled = self._row(order, runs.out_of_shuffled, f"{SRC}.{run}.out_of_shuffled", gap, span)
        rows = VGroup(original, shuffled).arrange(DOWN, buff=style.GROUP_BUFF)
        shuffled.shift(DOWN * max(0.0, height - rows.height))
        names = VGroup(
            *(
                style.text(self.words[key], style.BODY_SIZE).next_to(row, LEFT, buff=0.6)
                for key, row in zip(("input", "shuffled"), rows, strict=True)
            )
        )
        out = style.text(self.words["output"], style.LABEL_SIZE, style.RESULT)
        out.next_to(original[1], LEFT, buff=style.ITEM_BUFF)  # under the row's name
        names[0].next_to(out, UP, buff=style.ITEM_BUFF)
        names.align_to(out, RIGHT)
        return VGroup(rows, names.add(out))

    @staticmethod
    def _room(line: VGroup) -> float:
        """The height left to the two rows of outputs above ``line`` (written under them)."""
        _, bottom, _, top = style.content_area()
        return top - bottom - line.height - style.ITEM_BUFF

    def _weights(self) -> VGroup:
        """The walkthrough's own W_Q, W_K and W_V, small: the same three matrices for every
        order of the words."""
        ex = self.data.eat_apple
        parts = VGroup(
            *(
                LabelledMatrix(getattr(ex, key), f"{APPLE}.{key}", name, colour, cell_size=W_CELL)
                for key, name, colour in (
                    ("w_q", "W_Q", style.QUERY),
                    ("w_k", "W_K", style.KEY),
                    ("w_v", "W_V", style.VALUE),
                )
            )
        )
        parts[:2].arrange(RIGHT, buff=style.GROUP_BUFF)
        head = VGroup(parts[:2], parts[2]).arrange(DOWN, buff=style.GROUP_BUFF)
        return VGroup(head, SurroundingRectangle(head, buff=style.ITEM_BUFF, color=style.MUTED))

    @staticmethod
    def _through(words: VGroup, outputs: VGroup, head: VGroup) -> InTurn:
        """Copies of ``words`` travel into the head box and are gone; then ``outputs`` come
        out of it, each into its place."""
        centre = head.get_center()
        return InTurn(
            LaggedStart(
                *(FadeOut(w.copy(), target_position=centre, scale=0.4) for w in words),
                lag_ratio=0.1,
            ),
            LaggedStart(
                *(FadeIn(o, target_position=centre, scale=0.4) for o in outputs), lag_ratio=0.1
            ),
        )

    def _square(self) -> VGroup:
        """The law as a square of arrows: f then P along the top and right, P then f along
        the left and bottom, meeting at the same place."""
        size = 52
        x = MathTex("X", font_size=size)
        fx = MathTex("f(X)", font_size=size)
        px = MathTex("P\\,X", font_size=size)
        meet = MathTex(r"f(P\,X)", "=", r"P\,f(X)", font_size=size)
        # The bottom row first, then each top corner right over its bottom one.
        meet.next_to(px, RIGHT, buff=style.WIDE_BUFF * 1.5)
        x.next_to(px, UP, buff=style.WIDE_BUFF * 1.3)
        fx.move_to(meet[2]).set_y(x.get_y())  # f(X) right over P f(X)
        arrows = VGroup(
            Arrow(x.get_right(), fx.get_left(), buff=style.HUG_BUFF),
            Arrow(fx.get_bottom(), meet[2].get_top(), buff=style.HUG_BUFF),
            Arrow(x.get_bottom(), px.get_top(), buff=style.HUG_BUFF),
            Arrow(px.get_right(), meet[0].get_left(), buff=style.HUG_BUFF),
        ).set_color(style.MUTED)
        names = VGroup(
            *(
                MathTex(name, font_size=size * 0.8).next_to(arrow, side, buff=style.HUG_BUFF)
                for name, arrow, side in zip("fPPf", arrows, (UP, RIGHT, LEFT, DOWN), strict=True)
            )
        )
        return VGroup(VGroup(x, fx, px, meet), arrows, names)

    def _mask(self) -> AttentionGrid:
        """A preview of the causal mask, drawn as the causal chapter's maps are: each row sees
        itself and the rows above it, the masked cells left empty."""
        n = len(self.s.tokens)
        seen = [[1.0 if j <= i else None for j in range(n)] for i in range(n)]
        return AttentionGrid(seen, cell_size=MASK_CELL, show_numbers=False)

    def _measure(self) -> None:
        n, order = len(self.s.tokens), list(self.s.permutation)
        short = self.data.eat_apple.short
        left, _, right, _ = style.content_area()
        weights = self._weights()
        panel = weights.width + style.WIDE_BUFF
        gap = self.number(f"{SRC}.without_positions.max_abs_diff", 1, notation="scientific")
        diff = phrase(self.words["diff_line"], style.BODY_SIZE, d=gap)
        rows, names = self._rows("without_positions", right - left - panel, self._room(diff))
        original, shuffled = rows
        diff.next_to(rows, DOWN, buff=style.ITEM_BUFF)
        whole = VGroup(VGroup(rows, names, diff), weights).arrange(RIGHT, buff=style.WIDE_BUFF)
        style.place(whole)
        heads = [VGroup(c[0], c[1]) for c in original[0]]  # place and word
        outputs = VGroup(*(c[2] for c in original[0]))
        empty = original[1]  # the boxes, drawn before their outputs come
        self.say(
            "test",
            FadeIn(VGroup(*heads[:short]), lag_ratio=0.2),
            Create(empty[:short]),
            FadeIn(names[0]),
            beats={
                # the three W's slide in from the right as one head box
                "ws": [FadeIn(weights, shift=LEFT * style.WIDE_BUFF)],
                # the rest of the sentence slides in from the right, its boxes with it
                "longer": [
                    FadeIn(VGroup(*heads[short:], empty[short:]), shift=LEFT * style.WIDE_BUFF)
                ],
                # the words go into the head box; their outputs come out of it
                "boxes": [
                    self._through(VGroup(*(h[1] for h in heads)), outputs, weights),
                    FadeIn(names[2]),
                ],
            },
        )
        moved = [original[0][j][1].copy() for j in range(n)]
        self.say(
            "shuffle",
            *(
                ReplacementTransform(moved[j], shuffled[0][k][1], path_arc=SWAP_ARC / 2)
                for k, j in enumerate(order)
            ),
            FadeIn(VGroup(*(c[0] for c in shuffled[0]))),
            Create(shuffled[1]),
            FadeIn(names[1]),
            beats={
                # the shuffled words go through the same head box, their outputs come out
                "again": [
                    self._through(
                        VGroup(*(c[1] for c in shuffled[0])),
                        VGroup(*(c[2] for c in shuffled[0])),
                        weights,
                    )
                ]
            },
        )
        travellers = VGroup(*(original[0][j][2].copy() for j in range(n)))
        asker = self.data.eat_apple.query_index
        pair = self._pair(rows, asker)
        lines = self._moves(rows)
        self.say(
            "follow",
            # the order changed: a line from each word to its place in the shuffled row
            Create(lines, lag_ratio=0.2),
            beats={
                # each output slides down its word's line onto its twin, in turn; as it lands
                # the measured twin is outlined (equal to the decimals shown) and the
                # traveller is gone: the shuffled row stays the measured f(P X)
                "carry": [
                    LaggedStart(
                        *(
                            InTurn(
                                ApplyMethod(travellers[j].move_to, shuffled[0][k][2]),
                                AnimationGroup(FadeOut(travellers[j]), outline(shuffled[0][k][2])),
                            )
                            for k, j in enumerate(order)
                        ),
                        lag_ratio=0.3,
                    )
                ],
                "own": [Create(pair)],
            },
        )
        exact = self.s.without_positions.max_abs_diff == 0  # summed in the same order after all
        terms = self._terms(original, weights, list(range(n)))
        reordered = self._terms(original, weights, order)
        beats = (
            {}
            if exact
            else {
                "sum": [
                    FadeOut(weights),
                    *(TransformFromCopy(original[0][j][1], terms[0][j]) for j in range(n)),
                    FadeIn(terms[1]),
                ],
                "order": [
                    *(
                        terms[0][j].animate(path_arc=SWAP_ARC / 2).move_to(reordered[0][j])
                        for j in range(n)
                    ),
                    Transform(terms[1], reordered[1]),
                ],
            }
        )
        self.say("diff_exact" if exact else "diff", FadeIn(diff), beats=beats, d=gap)
        mask = self._mask().move_to(weights)
        # The square takes the whole room right of the rows, not only the W's width.
        room_left = VGroup(rows, names).get_right()[0] + style.GROUP_BUFF
        square = self._square()
        square.scale(min(1.0, (right - room_left) / square.width))
        centre = (room_left + right) / 2
        term = VGroup(
            *(style.text(line, style.BODY_SIZE) for line in self.words["term"].split("\n"))
        ).arrange(DOWN, buff=style.HUG_BUFF)
        term.scale_to_fit_width(min(term.width, right - room_left))
        term.move_to(weights).align_to(weights, UP).set_x(centre)
        square.next_to(term, DOWN, buff=style.GROUP_BUFF).set_x(centre)
        # Each case takes the whole width once what was before it has left, under the term.
        harmless, harmful = cases = self._harm()
        room = term.get_bottom()[1] - style.GROUP_BUFF - style.content_area()[1]
        middle = (left + right) / 2
        for case in cases:
            case.scale(min(CASE_GROW, (right - left) / case.width, room / case.height))
            case.next_to(term, DOWN, buff=style.GROUP_BUFF).set_x(middle)
        mask.next_to(term, DOWN, buff=style.GROUP_BUFF).set_x(centre)
        self.say(
            "equivariant",
            FadeOut(pair),
            *([FadeOut(weights)] if exact else [FadeOut(terms)]),
            FadeIn(term[0], shift=DOWN * style.ITEM_BUFF),
            beats={
                "term": [*(FadeIn(t, shift=DOWN * style.ITEM_BUFF) for t in term[1:])],
                "mask": [
                    FadeIn(
                        VGroup(*(mask.cells[i * n + j] for i in range(n) for j in range(i + 1, n))),
                        lag_ratio=0.05,
                    )
                ],
                "own": [
                    LaggedStart(
                        *(
                            FadeIn(VGroup(*(mask.cells[i * n + j] for j in range(i + 1))))
                            for i in range(n)
                        ),
                        lag_ratio=0.4,
                    )
                ],
                # no positions, no mask: the mask leaves, the word lines stay
                "neither": [FadeOut(mask, shift=DOWN * style.GROUP_BUFF)],
                # the square built from the rows: its corners are the rows' words and outputs
                # shrunk into X, f(X), P X and f(P X) = P f(X), its P arrows the lines
                "law": [self._build_square(rows, lines, square, order)],
                "moved": [
                    TransformFromCopy(original[0][j][2], shuffled[0][k][2], path_arc=SWAP_ARC / 2)
                    for k, j in enumerate(order)
                ],
                # a colour average: each marker carries its answer, still right after the shuffle
                # (the rows and the square leave: the two cases need the width)
                "harm": [
                    ApplyMethod(term.set_x, middle),
                    InTurn(
                        FadeOut(VGroup(rows, names, diff, lines, square), run_time=STEP / 2),
                        FadeIn(harmless[0], run_time=STEP / 2),
                        self._swap_in(harmless, harmless[2], run_time=3 * STEP),
                    ),
                ],
                # a sentence: 貓 and 狗 trade places, their outputs with them; who chases
                # whom changed (≠), the outputs did not (=)
                "ruin": [
                    InTurn(
                        FadeOut(harmless, run_time=STEP / 2),
                        FadeIn(harmful[0], run_time=STEP / 2),
                        self._swap_in(harmful, run_time=STEP),
                        LaggedStart(
                            *(Create(a) for a in harmful[2][0]),
                            *(FadeIn(m, scale=1.5) for m in harmful[2][1]),
                            lag_ratio=0.4,
                            run_time=2 * STEP,
                        ),
                    )
                ],
            },
        )
        self.clear_below_title(self.title)

    @staticmethod
    def _build_square(rows: VGroup, lines: VGroup, square: VGroup, order: list[int]) -> LaggedStart:
        """P then f (X, P X, f(P X)), then f then P (f(X), P f(X)): each corner of the square
        a copy of what it names in the two rows, shrinking into it: 原本's words into X,
        打亂's into P X, the measured outputs of the shuffled input into f(P X), 原本's
        outputs into f(X), and copies of 原本's outputs carried down the lines (P applied to
        f(X)) into P f(X); each P arrow a copy of the permutation's lines; the f arrows drawn."""
        (x, fx, px, meet), arrows, names = square
        words, outputs = ([VGroup(*(c[part] for c in row[0])) for row in rows] for part in (1, 2))
        original, shuffled = rows
        carried = VGroup(*(original[0][j][2].copy() for j in order))  # f(X), to be permuted
        landed = VGroup(*(c.copy().move_to(shuffled[0][k][2]) for k, c in enumerate(carried)))

        def arrow(k: int, drawn: Animation) -> AnimationGroup:
            return AnimationGroup(drawn, FadeIn(names[k]))

        return LaggedStart(
            TransformFromCopy(words[0], x),
            arrow(2, TransformFromCopy(lines, arrows[2])),
            TransformFromCopy(words[1], px),
            arrow(3, Create(arrows[3])),
            TransformFromCopy(outputs[1], meet[0]),
            arrow(0, Create(arrows[0])),
            TransformFromCopy(outputs[0], fx),
            arrow(1, TransformFromCopy(lines, arrows[1])),
            InTurn(  # f(X) down the lines onto f(P X), then into P f(X): f(P X) = P f(X)
                Transform(carried, landed),
                AnimationGroup(
                    FadeOut(
                        carried, target_position=meet[2], scale=meet[2].height / carried.height
                    ),
                    FadeIn(meet[2]),
                ),
            ),
            FadeIn(meet[1]),
            lag_ratio=0.4,
        )

    def _harm(self) -> VGroup:
        """The two cases of the law, each a row, its shuffled copy (``[1]``, each of its
        columns at its place after the shuffle) and its marks (``[2]``): the colour task's
        markers with their answers (the mean of a colour) over their reversal, a check under
        each answer; 貓 追 狗 with its output slots beside 狗 追 貓 (貓 and 狗 swapped), a
        chase arrow over each, "≠" between the meanings and "=" between the outputs, captioned:
        the same outputs, each moved with its word."""
        ex = self.data.example(ColourTask.example_name)
        src = f"examples.{ColourTask.example_name}"
        strip = VGroup(
            *(
                VGroup(
                    self.colour_marker(c),
                    self.number(f"{src}.targets[{j}]", 2, style.SMALL_SIZE, style.RESULT),
                ).arrange(DOWN, buff=style.ITEM_BUFF)
                for j, c in enumerate(ex.colours)
            )
        ).arrange(RIGHT, buff=style.ITEM_BUFF, aligned_edge=DOWN)
        chase = self._chase()[0]
        cases = []
        for row, order, side in (
            (strip, list(range(len(strip)))[::-1], DOWN),
            (chase, [2, 1, 0], RIGHT),
        ):
            shuffled = row.copy()
            spots = [c.get_x() for c in row]
            for k, j in enumerate(order):  # the column of place j goes to place k
                shuffled[j].set_x(spots[k])
            buff = style.GROUP_BUFF if side is DOWN else style.WIDE_BUFF * 2
            cases.append(VGroup(row, shuffled).arrange(side, buff=buff))
        harmless, harmful = cases
        harmless.add(
            VGroup(
                *(
                    MathTex(r"\checkmark", font_size=style.SYMBOL_SIZE * 0.5).next_to(
                        c, DOWN, buff=style.ITEM_BUFF
                    )
                    for c in harmless[1]
                )
            )
        )
        row, swapped = harmful
        first, last = len(row) - 1, 0  # who chases whom: the first word the last
        arrows = VGroup(
            *(
                CurvedArrow(
                    r[a][0].get_top() + UP * style.HUG_BUFF,
                    r[b][0].get_top() + UP * style.HUG_BUFF,
                    angle=-PI / 2,
                    color=style.HIGHLIGHT,
                )
                for r, a, b in ((row, 0, first), (swapped, first, last))
            )
        )
        words = VGroup(*(VGroup(*(c[0] for c in r)) for r in harmful[:2]))
        slots = VGroup(*(VGroup(*(c[1] for c in r)) for r in harmful[:2]))
        signs = VGroup(
            *(
                MathTex(sign, font_size=style.SYMBOL_SIZE).move_to(
                    (parts[0].get_right() + parts[1].get_left()) / 2
                )
                for sign, parts in ((r"\neq", words), ("=", slots))
            )
        )
        # "=" between outputs in two orders: the same outputs, each moved with its word
        moved = style.text(self.words["moved"], style.LABEL_SIZE, style.RESULT)
        signs.add(moved.next_to(VGroup(row, swapped), DOWN, buff=style.ITEM_BUFF))
        harmful.add(VGroup(arrows, signs))
        return VGroup(harmless, harmful)

    @staticmethod
    def _swap_in(case: VGroup, checks: VGroup | None = None, **kwargs: float) -> Animation:
        """A copy of the row travels to the shuffled one, each column along an arc to its
        shuffled place (and its check, if given, appears under it as it lands)."""
        row, shuffled = case[:2]
        moves = [
            TransformFromCopy(a, b, path_arc=SWAP_ARC / 2)
            for a, b in zip(row, shuffled, strict=True)
        ]
        if checks is not None:
            moves = [
                InTurn(move, FadeIn(check, run_time=0.3))
                for move, check in zip(moves, checks, strict=True)
            ]
        return LaggedStart(*moves, lag_ratio=0.1 if checks is None else 0.25, **kwargs)

    def _moves(self, rows: VGroup) -> VGroup:
        """P drawn as the very permutation: a line from each word's column in the first row
        to its place in the shuffled row."""
        original, shuffled = rows
        return VGroup(
            *(
                Line(
                    original[0][j].get_bottom() + DOWN * style.HUG_BUFF,
                    shuffled[0][k].get_top() + UP * style.HUG_BUFF,
                )
                for k, j in enumerate(self.s.permutation)
            )
        ).set_stroke(style.HIGHLIGHT, width=4)

    def _terms(self, original: VGroup, spot: VGroup, order: list[int]) -> VGroup:
        """The terms of a sum, one per word, written down as a column at ``spot`` and added
        in ``order``: the words (``[0][j]`` is word j wherever it stands) and the plus signs
        before every term but the first."""
        words = VGroup(*(c[1].copy() for c in original[0]))
        column = VGroup(*(words[j] for j in order)).arrange(
            DOWN, buff=style.ITEM_BUFF, aligned_edge=LEFT
        )
        column.move_to(spot)
        pluses = VGroup(
            *(
                MathTex("+", font_size=style.SYMBOL_SIZE * 0.6).next_to(
                    w, LEFT, buff=style.ITEM_BUFF
                )
                for w in column[1:]
            )
        )
        return VGroup(words, pluses)

    def _pair(self, rows: VGroup, word: int) -> VGroup:
        """Frames around one word's column in both rows: where it was, where it went."""
        at = list(self.s.permutation).index(word)
        original, shuffled = rows
        return VGroup(
            SurroundingRectangle(original[0][word], buff=style.ITEM_BUFF),
            SurroundingRectangle(shuffled[0][at], buff=style.ITEM_BUFF),
        ).set_color(style.HIGHLIGHT)

    # --- positional encoding -----------------------------------------------------------
    def _positions(self) -> None:
        pe, ex = self.data.positional, self.data.eat_apple
        # More than 8 positions: smaller cells, read by brightness (-1 dark, 1 bright).
        written = pe.positions <= style.REFERENCE_POSITIONS
        cell = min(PE_CELL * style.REFERENCE_POSITIONS / pe.positions, PE_CELL_MAX)
        table = AttentionGrid(
            pe.table,
            "positional.table",
            row_headers=[
                ShownNumber(p + 1, 0, Ordinal(), color=style.MUTED) for p in range(pe.positions)
            ],
            cell_size=cell,
            decimals=2,  # the slow columns change in the second decimal
            heat=not written,
            show_numbers=written,
            value_range=(-1.0, 1.0),
            text_size=style.LABEL_SIZE,
        )
        pe_name = MathTex("PE", font_size=style.SYMBOL_SIZE * 0.7).next_to(
            table, UP, buff=style.ITEM_BUFF
        )
        x = LabelledMatrix(
            ex.x,
            f"{APPLE}.x",
            "X",
            style.FOREGROUND,
            [style.text(d, style.SMALL_SIZE, style.MUTED) for d in self.dim_names(ex)],
            [style.text(w, style.SMALL_SIZE) for w in self.apple_words()],
            cell_size=cell,
        )
        plus = MathTex("+", font_size=style.SYMBOL_SIZE)
        pe_part = VGroup(pe_name, table)
        adding = VGroup(x, plus, pe_part).arrange(RIGHT, buff=style.GROUP_BUFF)
        pe_part.align_to(x.grid.cells, DOWN).shift(
            (x.grid.cells.get_bottom() - table.cells.get_bottom()) * UP
        )
        plus.move_to((x.get_right() + pe_part.get_left()) / 2).set_y(x.grid.cells.get_y())
        asker = ex.query_index
        moved_to = list(self.s.permutation).index(asker)
        # 蘋果's row of X over a row of PE: its input at its own place and at its shuffled
        # one, each sum the row the probe fed the head (measured, not added here)
        run = self.s.with_positions
        fed = (
            (f"inputs[{asker}]", run.inputs[asker]),
            (f"inputs_of_shuffled[{moved_to}]", run.inputs_of_shuffled[moved_to]),
        )
        done = [v for _, row in fed for v in row]
        span = (min(done), max(done))  # the two sums' glyphs on one scale
        inputs = VGroup(
            *(
                self._stack(
                    x.grid.get_row(asker), table.get_row(p), f"{SRC}.with_positions.{path}", p, span
                )
                for p, (path, _) in zip((asker, moved_to), fed, strict=True)
            )
        )
        unequal = MathTex(r"\neq", font_size=style.SYMBOL_SIZE * 0.7)
        sums = VGroup(inputs[0], unequal, inputs[1]).arrange(DOWN, buff=style.ITEM_BUFF)
        style.place(VGroup(adding, sums).arrange(RIGHT, buff=style.WIDE_BUFF))
        wide = self._wide_table()
        table_spot = table.copy()
        style.place(VGroup(table_spot, wide).arrange(RIGHT, buff=style.WIDE_BUFF))
        clock = self._clock(pe.wide)
        clock.move_to(table_spot)
        word_row = SurroundingRectangle(x.grid.get_row(asker), buff=style.TIGHT_BUFF)
        pe_row = SurroundingRectangle(table.get_row(asker), buff=style.TIGHT_BUFF)
        pe_moved = SurroundingRectangle(table.get_row(moved_to), buff=style.TIGHT_BUFF)
        VGroup(word_row, pe_row, pe_moved).set_color(style.HIGHLIGHT)
        same_width = VGroup(
            SurroundingRectangle(x.grid.cells, buff=style.TIGHT_BUFF),
            SurroundingRectangle(table.cells, buff=style.TIGHT_BUFF),
        ).set_color(style.HIGHLIGHT)
        columns = [
            VGroup(*(table.cells[i * pe.width + j] for i in range(pe.positions)))
            for j in range(pe.width)
        ]
        bands = VGroup(
            *(
                SurroundingRectangle(
                    col, buff=style.HUG_BUFF, color=(style.HIGHLIGHT, style.RESULT)[j % 2]
                ).set_fill(opacity=0.18)
                for j, col in enumerate(columns)
            )
        )
        waves = VGroup(
            *(
                MathTex(("\\sin", "\\cos")[j % 2], font_size=style.SYMBOL_SIZE * 0.5).next_to(
                    band, UP, buff=style.TIGHT_BUFF
                )
                for j, band in enumerate(bands)
            )
        )
        x_rows = [VGroup(x.grid.get_row(i), x.grid.row_headers[i]) for i in range(len(ex.x))]
        heights = [r.get_y() for r in x_rows]
        order = list(self.s.permutation)
        self.say(
            "fix",
            FadeIn(x),
            beats={
                # blind to places: X's rows shuffled are the same rows to it
                "blind": [
                    # ApplyMethod, not .animate: a row's target is made when it plays
                    ApplyMethod(x_rows[j].set_y, heights[k], path_arc=SWAP_ARC / 2)
                    for k, j in enumerate(order)
                ],
                # a place added to each row: the rows go back, PE beside them
                "add": [
                    *(ApplyMethod(x_rows[j].set_y, heights[j]) for j in range(len(x_rows))),
                    Write(plus),
                    FadeIn(pe_name),
                ],
            },
        )
        self.say(
            "table",
            FadeIn(table.row_headers),
            LaggedStartMap(FadeIn, VGroup(*(table.get_row(i) for i in range(pe.positions)))),
            beats={
                "sincos": [
                    FadeOut(pe_name),  # the columns' names take its place above the table
                    FadeIn(bands, lag_ratio=0.3),
                    FadeIn(waves, lag_ratio=0.3),
                ],
                "wide": [FadeOut(VGroup(bands, waves)), FadeIn(pe_name), Create(same_width)],
                "two": [
                    FadeOut(same_width),
                    Create(word_row),
                    Create(pe_row),
                    *self._into_stack(x.grid.get_row(asker), table.get_row(asker), inputs[0]),
                ],
                # the same word at a second place; then both sums done, cell by cell: two
                # different input vectors
                "second": [
                    InTurn(
                        AnimationGroup(
                            ReplacementTransform(pe_row, pe_moved),
                            *self._into_stack(
                                x.grid.get_row(asker), table.get_row(moved_to), inputs[1]
                            ),
                            FadeIn(unequal),
                        ),
                        AnimationGroup(*(self._collapse(stack) for stack in inputs)),
                    )
                ],
                "this": [
                    FadeOut(VGroup(word_row, pe_moved)),
                    outline(table),
                ],
                # A learned table has no formula behind its numbers: they fade to blanks to be
                # filled by training (the fingerprint's move below brings them back).
                "learned": [table.numbers.animate.set_opacity(0.15)],
            },
        )
        self.say(
            "fingerprint",
            FadeOut(VGroup(x, plus, pe_name, unequal, *(self._done(s) for s in inputs))),
            Transform(table, table_spot),
            FadeIn(wide.label),
            FadeIn(wide.image),
            Create(wide.axes),
            FadeIn(wide.axis),
            FadeIn(wide.row, wide.curve),
            beats={
                # the table steps aside for a clock whose two hands are two column pairs
                # of the wide table: they turn with the row scanned, position by position
                "rows": [
                    InTurn(
                        AnimationGroup(
                            FadeOut(table, shift=LEFT * style.GROUP_BUFF), FadeIn(clock)
                        ),
                        AnimationGroup(wide.scan(), self._tick(clock, pe.wide)),
                    )
                ],
                "shape": [wide.scan(), self._tick(clock, pe.wide)],
                "fast": [Create(wide.fast), FadeIn(wide.speeds[0]), outline(clock[1][0])],
                "slow": [Create(wide.slow), FadeIn(wide.speeds[1]), outline(clock[1][1])],
                "clock": [self._tick(clock, pe.wide)],
            },
            n=self.spoken("positional.wide_positions", 0),
            w=self.spoken("positional.wide_width", 0),
        )
        self._again(clock, wide, table)

    def _again(self, clock: VGroup, wide: WideTable, table: AttentionGrid) -> None:
        """The rows of the measurement come back in their places, computed with positions;
        X + PE turns into its symbols where the W's stood (the clock, whose hands are the
        wide table's, fades; the small table, the one added, comes back in its place and
        turns into PE), and the W's return there."""
        left, _, right, _ = style.content_area()
        weights = self._weights()
        gap = self.number(f"{SRC}.with_positions.max_abs_diff", 2)
        again = phrase(self.words["again_line"], style.BODY_SIZE, d=gap)
        width = right - left - weights.width - style.WIDE_BUFF
        rows, names = self._rows("with_positions", width, self._room(again))
        again.next_to(rows, DOWN, buff=style.ITEM_BUFF)
        symbols = MathTex("X", "+", "PE", font_size=style.SYMBOL_SIZE)
        feed = symbols.copy().scale(0.8)  # what the W's would be trained on
        panel = VGroup(weights, feed).arrange(DOWN, buff=style.GROUP_BUFF)
        whole = VGroup(VGroup(rows, names, again), panel).arrange(RIGHT, buff=style.WIDE_BUFF)
        style.place(whole)
        symbols.move_to(weights)
        original, shuffled = rows
        n, order = len(self.s.tokens), list(self.s.permutation)
        moved = [original[0][j][1].copy() for j in range(n)]
        asker = self.data.eat_apple.query_index
        pair = self._pair(rows, asker)
        ghost, misses = self._ghost(rows, asker)
        self.say(
            "again",
            FadeOut(wide),
            InTurn(  # the clock gives way to the table added, which becomes its PE
                AnimationGroup(FadeOut(clock), FadeIn(table)),
                AnimationGroup(
                    FadeOut(
                        table,
                        target_position=symbols[2],
                        scale=symbols[2].height / table.height,
                    ),
                    FadeIn(symbols),
                ),
            ),
            then=[
                [FadeIn(original[0]), Create(original[1]), FadeIn(names)],
                [
                    *(
                        ReplacementTransform(moved[j], shuffled[0][k][1], path_arc=SWAP_ARC / 2)
                        for k, j in enumerate(order)
                    ),
                    FadeIn(VGroup(*(c[0] for c in shuffled[0]))),
                ],
            ],
            beats={
                "gap": [
                    FadeIn(VGroup(*(c[2] for c in shuffled[0])), lag_ratio=0.1),
                    Create(shuffled[1]),
                    Create(pair),
                    FadeIn(again),
                ],
                # the words moved as before (the lines); 蘋果's output, carried down its line
                # as at the first shuffle, lands on a different output: the bars that miss
                # are outlined in turn
                "moved": [
                    InTurn(
                        Create(self._moves(rows), lag_ratio=0.2),
                        ApplyMethod(ghost.move_to, shuffled[0][order.index(asker)][2][1]),
                        outline(*misses),
                    )
                ],
            },
            d=gap,
        )
        reaches = Arrow(
            symbols.get_left(), pair[1].get_right(), buff=style.ITEM_BUFF, color=style.HIGHLIGHT
        )
        into = Arrow(feed.get_top(), weights.get_bottom(), buff=style.HUG_BUFF, color=style.MUTED)
        loop, shimmer = self._training(weights)
        self.say(
            "order_aware",
            outline(again),
            beats={
                # The position added (PE) reaches the output that moved with 蘋果 and changed.
                "depends": [GrowArrow(reaches)],
                "hand": [
                    FadeOut(VGroup(symbols, reaches, ghost)),
                    FadeIn(weights, lag_ratio=0.2),
                ],
                # Positions are in the input now, but nothing trained the W's on them yet.
                # The W's were picked with X alone under them: no positions in sight.
                "design": [FadeIn(feed[0], shift=UP * style.GROUP_BUFF)],
                "unused": [FadeIn(feed[1:], shift=LEFT * style.GROUP_BUFF)],
                # the input with positions flows into the head; training loops back into the
                # head, and W_Q's, W_K's and W_V's cells would all change (a schematic: no
                # trained values shown)
                "train": [
                    InTurn(
                        AnimationGroup(
                            GrowArrow(into),
                            FadeOut(feed.copy(), target_position=weights, scale=0.4),
                            run_time=STEP / 2,
                        ),
                        AnimationGroup(Create(loop[0]), FadeIn(loop[1]), run_time=STEP / 2),
                        shimmer,
                    )
                ],
            },
        )

    def _training(self, weights: VGroup) -> tuple[VGroup, Animation]:
        """Training drawn as a loop (a schematic): an arrow out of the head box's left edge
        (where its outputs leave) at its foot, round just outside the box and back in at its
        top, named "training" under the loop's foot, outside the box (no W is pointed at:
        training changes all three); and W_Q's, W_K's, then W_V's cells shimmering in their
        colours, as training would change them (no values)."""
        (pair, w_v), box = weights
        inset = style.ITEM_BUFF  # the loop's ends, just inside the box's corners
        low, high = (
            box.get_corner(corner) + UP * side * inset
            for corner, side in ((DOWN + LEFT, 1), (UP + LEFT, -1))
        )
        # shallow: the loop stays in the gap between the rows and the box
        arrow = CurvedArrow(low, high, angle=-PI / 4, color=style.HIGHLIGHT)
        name = style.text(self.words["training"], style.LABEL_SIZE)
        name.next_to(box.get_corner(DOWN + LEFT), DOWN, buff=style.HUG_BUFF)
        name.align_to(arrow, LEFT)
        shimmer = LaggedStart(
            *(
                LaggedStart(
                    *(
                        cell.animate(rate_func=there_and_back).set_fill(colour, opacity=0.6)
                        for cell in part.grid.cells
                    ),
                    lag_ratio=0.05,
                    run_time=STEP,
                )
                for part, colour in zip(
                    (*pair, w_v), (style.QUERY, style.KEY, style.VALUE), strict=True
                )
            ),
            lag_ratio=0.5,
        )
        return VGroup(arrow, name), shimmer

    def _ghost(self, rows: VGroup, word: int) -> tuple[VGroup, list[Rectangle]]:
        """A copy of ``word``'s output glyph in the first row, its bars drawn as frames (to be
        carried onto the same word's output in the shuffled row), and the bars there that it
        does not match to the decimals shown (outlined where they stand: an outline is
        drawn where its part is when it is made)."""
        original, shuffled = rows
        at = list(self.s.permutation).index(word)
        ghost = original[0][word][2][1].copy()
        ghost[2].set_fill(opacity=0).set_stroke(style.HIGHLIGHT, 2)
        shown = [[n.text for n in row[0][k][2][0]] for row, k in ((original, word), (shuffled, at))]
        there = shuffled[0][at][2][1][2]
        misses = [there[c] for c, (a, b) in enumerate(zip(*shown, strict=True)) if a != b]
        return ghost, misses

    def _stack(self, x_row: VGroup, pe_row: VGroup, fed: str, place: int, span: tuple) -> VGroup:
        """A word's input at a place, written as a sum to be done: its row of X over the row
        of PE for ``place``, a plus before the second, the place named by a brace; then
        (``[5:]``, for :meth:`_collapse`, not drawn with it) the sum done: one row between
        the two, each cell the row the probe fed the head (``fed``, a data-file path: the X
        cell plus the PE cell, as measured), a bar glyph of it where the plus was (on the
        scale ``span``, one for both places, as tall as the two rows), and the brace and
        place closed round the one row."""
        top, bottom = x_row.copy(), pe_row.copy()
        rows = VGroup(top, bottom).arrange(DOWN, buff=style.TIGHT_BUFF)
        plus = MathTex("+", font_size=style.SYMBOL_SIZE * 0.6).next_to(
            bottom, LEFT, buff=style.ITEM_BUFF
        )
        brace = Brace(rows, RIGHT, buff=style.HUG_BUFF)
        where = ShownNumber(place + 1, 0, Ordinal(), color=style.MUTED)
        where.next_to(brace, RIGHT, buff=style.HUG_BUFF)
        width = self.data.positional.width
        cells = VGroup(*(cell.copy() for cell in top[:width])).move_to(rows)
        numbers = VGroup(
            *(
                self.number(f"{fed}[{c}]", 2, style.LABEL_SIZE)
                .match_height(bottom[width + c])
                .move_to(cells[c])
                for c in range(width)
            )
        )
        total = VGroup(*cells, *numbers)
        values = [n.value for n in numbers]
        glyph = self._bars(values, span, rows.height)
        glyph.next_to(cells, LEFT, buff=style.ITEM_BUFF)
        closed = Brace(cells, RIGHT, buff=style.HUG_BUFF)
        return VGroup(
            top,
            bottom,
            plus,
            brace,
            where,
            total,
            glyph,
            closed,
            where.copy().next_to(closed, RIGHT, buff=style.HUG_BUFF),
        )

    @staticmethod
    def _into_stack(x_row: VGroup, pe_row: VGroup, stack: VGroup) -> list[Animation]:
        """Copies of the two rows travel into ``stack`` (made by ``_stack``)."""
        return [
            TransformFromCopy(x_row, stack[0], path_arc=-SWAP_ARC / 3),
            TransformFromCopy(pe_row, stack[1], path_arc=-SWAP_ARC / 3),
            FadeIn(stack[2:5]),
        ]

    @staticmethod
    def _collapse(stack: VGroup) -> AnimationGroup:
        """The sum done, cell by cell: the X row comes down into the sum row, the PE row up
        into it and gone, the plus turns into the sum's glyph, the brace closes."""
        top, bottom, plus, brace, where, total, glyph, closed, where_then = stack
        return AnimationGroup(
            *(FadeOut(row, target_position=total, lag_ratio=0.15) for row in (top, bottom)),
            FadeIn(total, lag_ratio=0.15),
            ReplacementTransform(plus, glyph),
            Transform(brace, closed),
            Transform(where, where_then),
        )

    @staticmethod
    def _done(stack: VGroup) -> VGroup:
        """What stays on screen of a stack after :meth:`_collapse`."""
        return VGroup(*stack[3:7])

    @staticmethod
    def _hands(wide: list[list[float]]) -> tuple[int, int]:
        """The first column of the clock's fast hand and of its slow hand: the fastest
        sin/cos pair, and the first pair of the table's slow (right) half."""
        pairs = len(wide[0]) // 2
        return 0, 2 * (pairs // 2)

    def _clock(self, wide: list[list[float]]) -> VGroup:
        """A clock face with two hands; a hand at position p points along (sin, cos) of its
        pair of columns: the fast pair a second hand, a slow pair an hour hand."""
        face = Circle(radius=CLOCK_RADIUS).set_stroke(style.MUTED, 3)
        hands = VGroup(
            Line(ORIGIN, UP * CLOCK_RADIUS * 0.9).set_stroke(style.HIGHLIGHT, 4),
            Line(ORIGIN, UP * CLOCK_RADIUS * 0.6).set_stroke(style.FOREGROUND, 8),
        )
        clock = VGroup(face, hands)
        self._set_hands(clock, wide, 0)
        return clock

    def _set_hands(self, clock: VGroup, wide: list[list[float]], position: int) -> None:
        face, hands = clock
        row = wide[position]
        for hand, first in zip(hands, self._hands(wide), strict=True):
            tip = np.array([row[first], row[first + 1], 0.0])  # (sin, cos): clockwise from 12
            length = CLOCK_RADIUS * (0.9 if hand is hands[0] else 0.6)
            hand.put_start_and_end_on(face.get_center(), face.get_center() + tip * length)

    def _tick(self, clock: VGroup, wide: list[list[float]]) -> Animation:
        """The hands stepping through every position of the wide table, one row a tick."""
        rows = len(wide)

        def step(group: VGroup, alpha: float) -> None:
            self._set_hands(clock, wide, min(int(alpha * rows), rows - 1))

        return UpdateFromAlphaFunc(clock, step)

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
