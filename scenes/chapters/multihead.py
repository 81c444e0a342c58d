"""Multi-head attention (seeds 000, 002, 003): heads a real run made specialise, then W_O.

Two heads trained together on a task with two kinds of "related" (the mean of my colour,
the number just before me) split the work; their outputs are joined and mixed by W_O. Four
heads: one per rule, one redundant, one with no nameable rule. Then seed 003's bookkeeping.
Render alone with ``manim -ql scenes/chapters/multihead.py MultiHead``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    ArcBetweenPoints,
    Brace,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    GrowFromCenter,
    LaggedStartMap,
    MathTex,
    Rectangle,
    Square,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.emphasis import outline
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import Ordinal, ShownNumber, phrase


def _touch(a: VGroup, b: VGroup) -> bool:
    """Whether two labels' boxes overlap."""
    return (
        a.get_left()[0] < b.get_right()[0]
        and b.get_left()[0] < a.get_right()[0]
        and a.get_bottom()[1] < b.get_top()[1]
        and b.get_bottom()[1] < a.get_top()[1]
    )


SHARED_KV = 4  # heads drawn sharing one K and V, for grouped-query attention (an example)
OUTPUT_CELL = 0.62  # a cell of the heads' outputs, for 8 positions
INPUT_CELL = 0.6  # one number of a position's input


class MultiHead(LectureScene):
    """Several kinds of related; two trained heads, W_O; four heads; 4096 = 32 x 128."""

    scene_key = "multihead"
    reads = ("multihead.two", "multihead.four", "multihead.bookkeeping")

    def construct(self) -> None:
        self.title = self.make_title()
        self._relations()
        self._two_heads()
        self._join()
        self._four_heads()
        self._bookkeeping()

    def _map(self, run, path: str, h: int, cell: float) -> VGroup:
        """Head ``h``'s map; ``cell`` is for 8 positions, and shrinks for more."""
        cell *= min(1.0, style.REFERENCE_POSITIONS / len(run.colours))
        markers = [self.colour_marker(c, cell * 0.7) for c in run.colours]
        grid = AttentionGrid(
            run.maps[h],
            f"{path}.maps[{h}]",
            row_headers=markers,
            col_headers=[self.colour_marker(c, cell * 0.7) for c in run.colours],
            cell_size=cell,
            show_numbers=False,
        )
        name = phrase(self.words["head"], style.BODY_SIZE, h=ShownNumber(h + 1, 0, Ordinal()))
        return VGroup(name.next_to(grid, UP, buff=style.ITEM_BUFF), grid)

    def _relations(self) -> None:
        words = VGroup(*(style.text(w, style.TITLE_SIZE) for w in self.words["sentence"].split()))
        words.arrange(RIGHT, buff=style.GROUP_BUFF)
        style.place(words)
        arcs, names = VGroup(), VGroup()
        kinds = self.words["relations"].split(",")
        for pair, kind in zip(self.words["pairs"].split(","), kinds, strict=True):
            a, b = sorted(int(i) for i in pair.split("-"))
            arc = ArcBetweenPoints(
                words[b].get_top() + UP * style.HUG_BUFF,
                words[a].get_top() + UP * style.HUG_BUFF,
                angle=1.2,
                color=style.FOREGROUND,
            )
            arcs.add(arc)
            name = style.text(kind, style.LABEL_SIZE, style.MUTED).next_to(arc, UP, buff=0.1)
            while any(_touch(name, other) for other in names):  # stack, never overlap
                name.shift(UP * (name.height + style.HUG_BUFF))
            names.add(name)
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.say("intro", FadeIn(words, lag_ratio=0.2))
        self.say(
            "kinds",
            beats={f"r{k}": [Create(arcs[k]), FadeIn(names[k])] for k in range(len(arcs))},
        )
        formula = MathTex(
            r"\mathrm{head}_h = \mathrm{softmax}\Big(\frac{Q_h K_h^\top}{\sqrt{d_h}}\Big) V_h",
            font_size=48,
        ).next_to(words, DOWN, buff=style.SECTION_BUFF)
        self.say(
            "more_sets",
            outline(arcs),
            beats={"heads": [Write(formula)]},
        )
        self.play(FadeOut(VGroup(words, arcs, names, formula)))

    def _inputs(self, run) -> VGroup:
        """One position's input, as the heads get it: its colour (one-hot), its number and
        the sin/cos position table, side by side; each part braced and named."""
        parts = VGroup()
        counts = (len(self.data.colour_names), 1, run.position_width)
        for count, key in zip(
            counts, ("input_colour", "input_number", "input_position"), strict=True
        ):
            cells = VGroup(*(Square(INPUT_CELL).set_stroke(style.MUTED, 2) for _ in range(count)))
            cells.arrange(RIGHT, buff=0)
            brace = Brace(cells, DOWN, buff=style.HUG_BUFF, color=style.MUTED)
            label = phrase(
                self.words[key], style.LABEL_SIZE, p=self.number("multihead.two.position_width", 0)
            )
            parts.add(VGroup(cells, brace, label.next_to(brace, DOWN, buff=style.HUG_BUFF)))
        return parts.arrange(RIGHT, buff=style.GROUP_BUFF, aligned_edge=UP)

    def _two_heads(self) -> None:
        run = self.data.two_heads
        colour = max(range(2), key=lambda h: run.colour_match[h])
        maps = VGroup(*(self._map(run, "multihead.two", h, 0.5) for h in range(2)))
        maps.arrange(RIGHT, buff=style.WIDE_BUFF * 2)
        self.maps = maps
        rules = VGroup(
            style.text(self.words["rule_colour"], style.LABEL_SIZE),
            style.text(self.words["rule_previous"], style.LABEL_SIZE),
        )
        rules[0].next_to(maps[colour], DOWN, buff=style.ITEM_BUFF)
        rules[1].next_to(maps[1 - colour], DOWN, buff=style.ITEM_BUFF)
        style.place(VGroup(maps, rules))
        self.rules = rules
        # The two answers every position must give, before any head has learned one.
        answers = VGroup(
            *(style.text(self.words[key], style.LABEL_SIZE) for key in ("answer_1", "answer_2"))
        ).arrange(RIGHT, buff=style.WIDE_BUFF * 2)
        answers.move_to(rules).match_y(rules)
        self.say(
            "task",
            FadeIn(maps[0][0]),
            FadeIn(maps[1][0]),
            beats={"one": [FadeIn(answers[0])], "two": [FadeIn(answers[1])]},
        )
        inputs = style.place(self._inputs(run))
        self.say(
            "positions",
            FadeOut(answers),
            beats={
                "colour": [FadeIn(inputs[0])],
                "number": [FadeIn(inputs[1])],
                "table": [FadeIn(inputs[2])],
            },
            p=self.spoken("multihead.two.position_width", 0),
        )
        self.say(
            "colour_head",
            FadeOut(inputs),
            FadeIn(maps[colour][1]),
            FadeIn(rules[0]),
            h=colour + 1,
            m=self.spoken(f"multihead.two.colour_match[{colour}]", 3),
        )
        self.say("previous_head", FadeIn(maps[1 - colour][1]), FadeIn(rules[1]), h=2 - colour)
        self.say(
            "nobody",
            Circumscribe(maps, color=style.HIGHLIGHT),
            beats={
                "training": [
                    Circumscribe(rules[0], color=style.HIGHLIGHT),
                    Circumscribe(rules[1], color=style.HIGHLIGHT),
                ]
            },
        )

    def _join(self) -> None:
        run = self.data.two_heads
        # More than 8 positions: smaller cells, read by brightness instead of numbers.
        cell = OUTPUT_CELL * min(1.0, style.REFERENCE_POSITIONS / len(run.colours))
        written = cell >= style.MIN_NUMBER_CELL
        values = [v for h in range(2) for row in run.head_outputs[h] for v in row]
        outputs = VGroup(
            *(
                AttentionGrid(
                    run.head_outputs[h],
                    f"multihead.two.head_outputs[{h}]",
                    cell_size=cell,
                    heat=not written,
                    show_numbers=written,
                    value_range=(min(values), max(max(values), min(values) + 1e-9)),
                    decimals=1,
                    text_size=style.LABEL_SIZE,
                )
                for h in range(2)
            )
        ).arrange(RIGHT, buff=0)
        w_o = Rectangle(width=3.0, height=3.0).set_stroke(style.FOREGROUND, 2)
        w_label = MathTex("W_O", font_size=64).move_to(w_o)
        width = self.number("multihead.two.width", 0)
        shape = phrase(self.words["w_o_shape"], style.LABEL_SIZE, a=width, b=width.copy())
        shape.next_to(w_o, DOWN, buff=style.ITEM_BUFF)
        times = MathTex(r"\times", font_size=48)
        line = VGroup(outputs, times, VGroup(w_o, w_label, shape)).arrange(
            RIGHT, buff=style.GROUP_BUFF
        )
        style.place(line)
        d_head = self.number("multihead.two.d_head", 0)
        frame = SurroundingRectangle(outputs, color=style.HIGHLIGHT, buff=style.TIGHT_BUFF)
        joined = [o.get_center() for o in outputs]  # where concat puts them, side by side
        for o, side in zip(outputs, (LEFT, RIGHT), strict=True):
            o.shift(side * style.GROUP_BUFF)  # two separate outputs first
        self.say(
            "outputs",
            FadeOut(self.rules),
            *(TransformFromCopy(self.maps[h][1].cells, outputs[h].cells) for h in range(2)),
            FadeOut(self.maps),
            then=[[FadeIn(VGroup(outputs[0].numbers, outputs[1].numbers))]],
            n=len(run.colours),
            d=d_head,
        )
        self.say(
            "concat",
            *(o.animate.move_to(c) for o, c in zip(outputs, joined, strict=True)),
            then=[[Create(frame)]],
            w=width,
        )
        self.say("w_o", FadeIn(times), FadeIn(VGroup(w_o, w_label)), FadeIn(shape), a=width)
        self.say("w_o_job", outline(VGroup(w_o, w_label)))
        self.clear_below_title(self.title)

    def _four_heads(self) -> None:
        run = self.data.four_heads
        maps = VGroup(*(self._map(run, "multihead.four", h, 0.36) for h in range(4)))
        maps.arrange(RIGHT, buff=style.GROUP_BUFF)
        names, rules = self.head_captions(run)
        for m, name, rule in zip(maps, names, rules, strict=True):
            name.next_to(m, DOWN, buff=style.ITEM_BUFF)
            rule.next_to(name, DOWN, buff=style.HUG_BUFF)
        style.place(VGroup(maps, names, rules))
        colour = max(range(4), key=lambda h: run.colour_match[h])
        previous = max(range(4), key=lambda h: run.previous_match[h])
        pair = max(
            ((a, b) for a in range(4) for b in range(a + 1, 4)),
            key=lambda p: run.similarity[p[0]][p[1]],
        )
        unnamed = min(range(4), key=lambda h: max(run.colour_match[h], run.previous_match[h]))
        overlap = self.spoken(f"multihead.four.similarity[{pair[0]}][{pair[1]}]", 2)
        frames = [SurroundingRectangle(m, color=style.HIGHLIGHT) for m in maps]
        self.say("four", FadeIn(maps, lag_ratio=0.2), FadeIn(names, lag_ratio=0.2))
        named = VGroup(
            *dict.fromkeys([frames[colour], frames[previous]])
        )  # one if one head does both
        self.say("four_colour", FadeIn(named), FadeIn(rules), h=colour + 1, p=previous + 1)
        pair_frames = VGroup(frames[pair[0]], frames[pair[1]]).copy()
        # Say what the most alike pair shares: looking left, or looking at the colour.
        left = sum(run.previous_match[h] - run.colour_match[h] for h in pair) > 0
        self.say(
            "four_pair" if left else "four_pair_colour",
            FadeOut(named),
            FadeIn(pair_frames),
            a=pair[0] + 1,
            b=pair[1] + 1,
            s=overlap,
        )
        self.say("four_unnamed", FadeOut(pair_frames), FadeIn(frames[unnamed]), h=unnamed + 1)
        self.say(
            "caveat",
            FadeOut(frames[unnamed]),
            FadeIn(pair_frames),
            beats={"unnamed": [FadeIn(frames[unnamed])]},
        )
        self.clear_below_title(self.title)

    def _bookkeeping(self) -> None:
        b = self.data.bookkeeping
        slices = VGroup(
            *(Rectangle(width=0.36, height=0.9).set_stroke(style.MUTED, 1) for _ in b.slices)
        ).arrange(RIGHT, buff=0)
        slices[0].set_fill(style.FOREGROUND, 0.7)
        slices[1].set_fill(style.FOREGROUND, 0.35)
        numbers = {
            "width": self.number("multihead.bookkeeping.width", 0),
            "heads": self.number("multihead.bookkeeping.heads", 0),
            "d_head": self.number("multihead.bookkeeping.d_head", 0),
        }
        sum_line = phrase(self.words["split_line"], style.BODY_SIZE, **numbers)
        head_shape = phrase(
            self.words["head_shape_line"],
            style.BODY_SIZE,
            a=self.number("multihead.bookkeeping.per_head_shape[0]", 0),
            b=self.number("multihead.bookkeeping.per_head_shape[1]", 0),
        )
        projection = phrase(
            self.words["projection_line"],
            style.LABEL_SIZE,
            style.MUTED,
            a=self.number("multihead.bookkeeping.projection_shape[0]", 0),
            b=self.number("multihead.bookkeeping.projection_shape[1]", 0),
        )
        ranges = VGroup(
            *(
                phrase(
                    self.words["slice_line"],
                    style.LABEL_SIZE,
                    k=ShownNumber(k + 1, 0, Ordinal()),
                    a=self.number(f"multihead.bookkeeping.slices[{k}][0]", 0),
                    z=self.number(f"multihead.bookkeeping.slices[{k}][1]", 0),
                )
                for k in (0, 1)
            )
        ).arrange(DOWN, aligned_edge=RIGHT, buff=style.ITEM_BUFF)
        # Grouped-query attention, drawn: a brace over each group of heads sharing K and V.
        shared = VGroup(
            *(
                Brace(slices[k : k + SHARED_KV], UP, buff=style.HUG_BUFF, color=style.MUTED)
                for k in range(0, len(slices), SHARED_KV)
            )
        )
        picture = VGroup(
            sum_line, VGroup(shared, slices), ranges, VGroup(head_shape, projection).arrange(DOWN)
        )
        style.place(picture.arrange(DOWN, buff=style.GROUP_BUFF))
        self.say("bookkeeping", FadeIn(sum_line), FadeIn(slices, lag_ratio=0.05), **numbers)
        self.say(
            "per_head",
            outline(slices[0]),
            beats={
                "whole": [outline(slices)],
                "shape": [FadeIn(head_shape, shift=UP * style.ITEM_BUFF)],
            },
            width=self.spoken("multihead.bookkeeping.width", 0),
            a=self.spoken("multihead.bookkeeping.per_head_shape[0]", 0),
            b=self.spoken("multihead.bookkeeping.per_head_shape[1]", 0),
        )
        self.say(
            "slices",
            FadeIn(projection),
            beats={
                "first": [
                    FadeIn(ranges, lag_ratio=0.5),
                    outline(slices[:2]),
                ],
                "join": [outline(slices)],
                "share": [LaggedStartMap(GrowFromCenter, shared, lag_ratio=0.1)],
            },
            width=self.spoken("multihead.bookkeeping.projection_shape[0]", 0),
            a0=self.spoken("multihead.bookkeeping.slices[0][0]", 0),
            z0=self.spoken("multihead.bookkeeping.slices[0][1]", 0),
        )
