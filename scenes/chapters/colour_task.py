"""The task (seed 000, 動手玩 ②): eight coloured positions; each must output its colour's mean.

Render alone with ``manim -ql scenes/chapters/colour_task.py ColourTask``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    ApplyMethod,
    ArcBetweenPoints,
    Brace,
    Create,
    Cross,
    CurvedArrow,
    DashedVMobject,
    FadeIn,
    FadeOut,
    GrowFromCenter,
    GrowFromEdge,
    GrowFromPoint,
    LaggedStart,
    Rectangle,
    ReplacementTransform,
    Square,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
    Wait,
    interpolate_color,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.diagrams import AttentionFormula
from scenes.kit.emphasis import outline
from scenes.kit.labels import TokenStrip
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import Count, ShownNumber, phrase
from scenes.kit.seams import seam_builder
from scenes.kit.turns import InTurn

PREDICTED_CELL = 0.5  # the predicted map's cells, beside the sequence
ASKED_CELL = 0.35  # the empty map beside the formula, at the start: what it is to learn
WORK_GROW = 2.0  # the sequence, the work and the answers: enlarged to fill the frame, by up to this
WORKED_GROW = 1.3  # the worked sum, the focus while it is worked: larger than the strip
UNDER_ARC = -PI / 6  # the worked answer's copies travel to their slots on arcs under the row
ARC_BEND = PI / 6  # the same-colour arcs: the nearest two bend this much, the farthest twice
PREDICTED_GROW = 1.6  # the predicted map: enlarged to fill the height, by up to this
PREDICTED_TINT = 0.5  # a predicted cell's light: how far its fill goes from the plain cell's
# towards the muted colour (opaque: a translucent muted fill blends back to the plain grey)


class ColourTask(LectureScene):
    """The rule, worked for one position, then every answer; the prediction to check.

    Variants override :attr:`example_name` and :attr:`focus` (the position worked out).
    """

    scene_key = "colour_task"
    reads = ("examples.{example_name}",)
    tables = ("training",)  # the model box's two parts, named as training names them
    example_name = "mixed"
    ends_on = "predicted_map"
    focus = 0

    def construct(self) -> None:
        ex = self.data.example(self.example_name)
        src = f"examples.{self.example_name}"
        title = self.make_title()
        markers = [self.colour_marker(c) for c in ex.colours]
        strip = TokenStrip(markers, ex.values, f"{src}.values").scale(1.6)
        # spread out: the model and the answers under it then use the frame's width
        strip.columns.arrange(RIGHT, buff=style.SECTION_BUFF, aligned_edge=UP)
        same = [j for j, c in enumerate(ex.colours) if c == ex.colours[self.focus]]
        count = self.number(Count(f"{src}.colours", ex.colours[self.focus]), 0)
        answer = self.number(f"{src}.targets[{self.focus}]", 2)
        worked = self._worked_sum(strip, same, count, answer)
        box = self.model_box(strip.width)
        box.next_to(strip, DOWN, buff=style.GROUP_BUFF)
        worked.scale(WORKED_GROW).move_to(box)  # the work row: the sum, later the model there
        answers = VGroup(
            *(
                self.number(f"{src}.targets[{j}]", 2, style.BODY_SIZE, style.RESULT)
                for j in range(ex.n)
            )
        ).next_to(box, DOWN, buff=style.GROUP_BUFF)
        for number, column in zip(answers, strip.columns, strict=True):
            number.match_x(column)
        label = style.text(self.words["answers"], style.BODY_SIZE, style.RESULT)
        label.next_to(answers, LEFT, buff=style.GROUP_BUFF)
        answer_box = SurroundingRectangle(answers, buff=style.ITEM_BUFF, color=style.RESULT)
        # what the head's bars are: the attention it must learn (shown with them, later)
        must = style.text(self.words["must_be"], style.BODY_SIZE, style.WEIGHT)
        must.next_to(box, LEFT, buff=style.GROUP_BUFF)
        arcs = self._links(strip, ex.colours)
        # three rows fill the frame: the sequence, the work (the sum, then the model), the answers
        style.place(
            VGroup(arcs, strip, worked, box, answers, label, answer_box, must), grow=WORK_GROW
        )
        frames = self._frames(strip, same)
        slots = VGroup(  # every position's answer, still to be worked out
            *(
                DashedVMobject(
                    Rectangle(
                        width=column.width, height=answers.height + 2 * style.HUG_BUFF
                    ).set_stroke(style.MUTED, 2),
                    num_dashes=16,
                ).move_to(number)
                for column, number in zip(strip.columns, answers, strict=True)
            )
        )
        here = frames[same.index(self.focus)].get_bottom()
        looks = VGroup(  # the position looks at every other of its colour, and at itself
            *(
                CurvedArrow(here, frame.get_bottom(), angle=PI / 3, color=style.HIGHLIGHT)
                for j, frame in zip(same, frames, strict=True)
                if j != self.focus
            ),
            CurvedArrow(
                here + LEFT * frames[0].width / 4,
                here + RIGHT * frames[0].width / 4,
                angle=1.5 * PI,
                color=style.HIGHLIGHT,
            ),
        )
        rest = [strip.get_column(j) for j in range(ex.n) if j not in same]
        undimmed = [column.copy() for column in rest]  # as they stand, to come back to
        settled = strip.copy()  # where the strip stands once it has risen
        # until the rule, the sequence alone holds the middle of the frame
        _, bottom, _, top = style.content_area()
        lift = strip.get_center()[1] - (bottom + top) / 2
        strip.shift(DOWN * lift)
        formula = AttentionFormula()
        style.place(formula)
        blanks = VGroup(
            *(
                DashedVMobject(
                    Square(column[1].height).set_stroke(style.MUTED, 2), num_dashes=12
                ).move_to(column[1])
                for column in strip.columns
            )
        )
        small = formula.copy().scale(0.6).next_to(blanks, DOWN, buff=style.SECTION_BUFF)
        clear = max(bottom - small.get_bottom()[1], 0)  # the task's slots and the formula fit
        VGroup(strip, blanks, small).shift(UP * clear)
        lift -= clear
        asked = self._asked_map(ex.n)  # what softmax(QKᵀ/√d) is to learn: an empty map
        style.place(VGroup(formula, asked).arrange(RIGHT, buff=style.WIDE_BUFF))
        grid, unknown = asked
        count_brace = Brace(strip, DOWN, buff=style.TIGHT_BUFF)

        self.add(title)  # the title at once: no frame is only a title being written
        # the formula alone proves nothing; what a task must test is its weights: whom to look at
        self.say(  # the map unfolds out of the weights' formula: whom each position looks at
            "intro",
            FadeIn(formula),
            then=[
                [  # its cells come out of softmax(QKᵀ/√d)
                    LaggedStart(
                        *(GrowFromPoint(c, formula.attention[0:7]) for c in grid.cells),
                        lag_ratio=0.02,
                    )
                ],
                [FadeIn(VGroup(grid.row_headers, grid.col_headers)), FadeIn(unknown, scale=1.5)],
            ],
            beats={  # the task is made of the map's question: its positions drop into the row
                "task": [
                    Transform(formula, small),
                    ReplacementTransform(grid.col_headers, blanks),
                    FadeOut(VGroup(grid.cells, grid.row_headers, unknown)),
                ],
                "who": [outline(small.attention[0:7])],
            },
        )
        first = strip.get_column(self.focus)
        others = [j for j in range(ex.n) if j != self.focus]
        self.say(  # position 1 first: its colour, then its number; then the others land
            "strip",
            FadeOut(formula, shift=UP * 0.3),
            ReplacementTransform(blanks[self.focus], first[1]),
            FadeIn(first[0]),
            beats={
                "colour": [self._colour_cycle(first[1])],
                "number": [FadeIn(first[2], shift=DOWN * first[2].height)],
                "count": [  # the rest land one by one, their indices counting up to n
                    InTurn(
                        LaggedStart(
                            *(self._land(blanks[j], strip.get_column(j)) for j in others),
                            lag_ratio=0.4,
                        ),
                        AnimationGroup(GrowFromCenter(count_brace), outline(strip.columns[-1][0])),
                    )
                ],  # the last index: n
            },
            n=ex.n,
            colours=self.colour_list(),
            run_time=2.0,
        )
        self.say(
            "rule",
            FadeOut(count_brace),
            ApplyMethod(strip.shift, UP * lift),
            Create(slots, lag_ratio=0.1),  # one answer under every position
            then=[[FadeIn(frames, lag_ratio=0.3)], [Create(looks, lag_ratio=0.3)]],
            beats={  # the others recede: position 1's answer is its colour's business
                "pos": [
                    outline(settled.get_column(self.focus)),
                    *(ApplyMethod(c.set_opacity, style.DIMMED) for c in rest),
                ]
            },
            colour=self.colour_name(ex.colours[self.focus]),
            pos=self.focus + 1,
        )
        terms, symbols, total = worked
        self.say(  # the group's numbers travel down into their mean: the answer
            "worked_say",
            FadeOut(looks),
            *(
                TransformFromCopy(strip.get_column(j)[2], t)
                for j, t in zip(same, terms, strict=True)
            ),
            FadeIn(symbols[:-1]),
            beats={
                "mean": [FadeIn(symbols[-1]), TransformFromCopy(terms, total)],
                "its": [
                    TransformFromCopy(answer, answers[self.focus]),
                    FadeOut(slots[self.focus]),
                ],
            },
            k=count,
            answer=answer,
        )
        first, *steps = self._fill_answers(
            strip, ex.colours, frames, answers, slots, [FadeIn(label), Create(answer_box)]
        )
        self.say(
            "all_answers",
            *(Transform(c, back) for c, back in zip(rest, undimmed, strict=True)),
            FadeOut(worked),
            *first,
            then=steps,
            run_time=2.0,  # the groups share the line: each colour's answers in turn
        )
        self._only_way(
            strip,
            same,
            box,
            (answers[self.focus], must),
            arcs,
            list(zip(rest, undimmed, strict=True)),
        )
        self._prediction(ex.colours, VGroup(arcs, strip), VGroup(box, answers, label, answer_box))

    @staticmethod
    def _asked_map(n: int) -> VGroup:
        """An empty n x n map, its positions dashed squares, and a question mark on it: the
        weights the formula will have to learn, not yet known."""
        side = ASKED_CELL * min(1.0, style.REFERENCE_POSITIONS / n)
        dashed = lambda: DashedVMobject(  # noqa: E731
            Square(side * 0.8).set_stroke(style.MUTED, 2), num_dashes=8
        )
        grid = AttentionGrid(
            [[None] * n for _ in range(n)],
            row_headers=[dashed() for _ in range(n)],
            col_headers=[dashed() for _ in range(n)],
            cell_size=side,
            show_numbers=False,
        )
        unknown = style.text("?", style.TITLE_SIZE).move_to(grid.cells)
        return VGroup(grid, unknown)

    @staticmethod
    def _land(blank: VGroup, column: VGroup) -> AnimationGroup:
        """A column landing on its dashed blank: its marker in the blank's place, its index
        and number dropping in."""
        index, marker, number = column
        return AnimationGroup(
            ReplacementTransform(blank, marker),
            FadeIn(VGroup(index, number), shift=DOWN * number.height),
        )

    def _colour_cycle(self, marker: VGroup) -> InTurn:
        """The marker turning into each of the lecture's colours in turn (from the one after
        its own), back to its own: a position's colour is one of these."""
        own = self.data.example(self.example_name).colours[self.focus]
        n = len(self.data.colour_names)
        looks = [
            self.colour_marker((own + k) % n).match_height(marker).move_to(marker)
            for k in range(1, n + 1)
        ]
        return InTurn(*(Transform(marker, look) for look in looks))

    def _frames(self, strip: TokenStrip, group: list[int]) -> VGroup:
        """A frame round each column of one colour group."""
        return VGroup(
            *(SurroundingRectangle(strip.get_column(j), buff=style.HUG_BUFF) for j in group)
        )

    def _worked_sum(
        self, strip: TokenStrip, group: list[int], count: ShownNumber, answer: ShownNumber
    ) -> VGroup:
        """(a + b + c) / k = mean, its terms copies of the group's numbers in the strip (a
        negative one in brackets): the terms, the symbols, and the mean."""
        numbers = [strip.get_column(j)[2] for j in group]
        size = numbers[0].font_size
        terms = VGroup(*(n.copy() for n in numbers))
        shown = [_as_float(n.text) for n in numbers]
        worked_out = round(sum(shown) / len(shown), 2)  # from the numbers as shown
        sign = "=" if worked_out == _as_float(answer.text) else "\u2248"
        symbol = lambda s: style.text(s, size)  # noqa: E731
        row, symbols = VGroup(symbol("(")), VGroup()
        symbols.add(row[0])
        for k, term in enumerate(terms):
            if k:
                symbols.add(symbol("+"))
                row.add(symbols[-1])
            if shown[k] < 0:
                symbols.add(symbol("("), symbol(")"))
                row.add(symbols[-2], term, symbols[-1])
            else:
                row.add(term)
        symbols.add(symbol(")"), symbol("/"), count.set(font_size=size))
        row.add(*symbols[-3:])
        equals = VGroup(symbol(sign), answer.set(font_size=size).set_color(style.RESULT))
        row.add(*equals)
        row.arrange(RIGHT, buff=style.ITEM_BUFF)
        symbols.add(equals[0])
        return VGroup(terms, symbols, answer)

    def _fill_answers(
        self,
        strip: TokenStrip,
        colours: list[int],
        frames: VGroup,
        answers: VGroup,
        slots: VGroup,
        finish: list[Animation],
    ) -> list[list[Animation]]:
        """Every answer written, colour group by colour group, each group framed as it fills:
        the worked group's answer copied to the rest of its colour on arcs under the answers
        (same colour, same answer), then each other group's numbers travelling down into each
        of its slots, where they give way to its mean (the last group with ``finish``)."""
        steps, framed = [], frames
        groups = sorted({c: [j for j, d in enumerate(colours) if d == c] for c in colours}.values())
        for group in groups:
            if self.focus in group:
                step = [
                    TransformFromCopy(answers[self.focus], answers[j], path_arc=UNDER_ARC)
                    for j in group
                    if j != self.focus
                ]
            else:
                shown = self._frames(strip, group)
                step = [
                    *(
                        FadeOut(strip.get_column(k)[2].copy(), target_position=answers[j])
                        for j in group
                        for k in group
                    ),
                    *(FadeIn(answers[j], scale=0.5) for j in group),
                    FadeOut(framed),
                    FadeIn(shown),
                ]
                framed = shown
            steps.append([*step, *(FadeOut(slots[j]) for j in group if j != self.focus)])
        steps[-1] += [*finish, FadeOut(framed)]
        return steps

    def _only_way(
        self,
        strip: TokenStrip,
        group: list[int],
        box: VGroup,
        shown: tuple[ShownNumber, VGroup],
        arcs: VGroup,
        dimmed: list[tuple[VGroup, VGroup]],
    ) -> None:
        """The model, and the one thing it must learn: position 1 run through it (its
        attention bars grow in the head, captioned "must be": 1/k tall on its colour's k
        columns, 1/k written over each, flat elsewhere; its colour's numbers travel down over
        their bars, the others sink into theirs; the model's output goes on through the
        readout into its slot);
        the same-colour arcs colour by colour, the bars standing; an arc across colours struck
        out as the bars go."""
        answer, must = shown
        src = f"examples.{self.example_name}"
        colour = self.data.example(self.example_name).colours[self.focus]
        head, bars = box.head, self._attention_bars(box.head[0], group, len(strip.columns))
        shares = VGroup(  # 1/k over each of its colour's bars, k counted in the data
            *(
                phrase(
                    self.words["share"],
                    style.SMALL_SIZE,
                    style.WEIGHT,
                    k=self.number(Count(f"{src}.colours", colour), 0),
                ).next_to(bars[j], UP, buff=style.TIGHT_BUFF)
                for j in group
            )
        )
        kept = VGroup(  # its colour's numbers, shrunk, on the head's edge over their shares
            *(
                strip.get_column(j)[2]
                .copy()
                .scale(0.6)
                .next_to(head[0], UP, buff=style.TIGHT_BUFF)
                .match_x(bars[j])
                for j in group
            )
        )
        # what comes out: the trained model's output for position 1 (not the target)
        mix = self.number(f"{src}.predictions[{self.focus}]", 2, style.BODY_SIZE, style.RESULT)
        mix.match_height(answer).move_to(head[0])  # clear of the shares: the head's top right
        mix.align_to(head[0], UP + RIGHT).shift((DOWN + LEFT) * style.HUG_BUFF)
        run = InTurn(
            AnimationGroup(
                *(ApplyMethod(c.set_opacity, style.DIMMED) for c, _ in dimmed),
                ApplyMethod(head[1].set_opacity, 0),  # its name makes way for the bars
                LaggedStart(*(GrowFromEdge(b, DOWN) for b in bars), lag_ratio=0.1),
                FadeIn(shares),
                FadeIn(must),
            ),
            AnimationGroup(  # every position goes in; attention keeps its colour's numbers
                *(
                    TransformFromCopy(strip.get_column(j)[2], k)
                    for j, k in zip(group, kept, strict=True)
                ),
                *(
                    FadeOut(strip.get_column(j)[2].copy(), target_position=bars[j], scale=0.2)
                    for j in range(len(strip.columns))
                    if j not in group
                ),
            ),
            AnimationGroup(  # one by one: each was added on its own
                *(FadeOut(k, target_position=mix) for k in kept), FadeIn(mix, scale=0.5)
            ),
            AnimationGroup(  # through the readout, its name making way
                ApplyMethod(mix.move_to, box.readout[0]),
                ApplyMethod(box.readout[1].set_opacity, style.DIMMED),
            ),
            AnimationGroup(
                FadeOut(mix, target_position=answer, scale=0.5),
                ApplyMethod(box.readout[1].set_opacity, 1),
                outline(answer),
            ),
        )
        other = next(j for j in range(len(strip.columns)) if j not in group)
        ends = [  # under the strip, clear of the same-colour arcs over it
            strip.get_column(j).get_bottom() + DOWN * style.HUG_BUFF
            for j in sorted((other, self.focus))
        ]
        across = DashedVMobject(
            ArcBetweenPoints(*ends, angle=PI / 2).set_stroke(style.MUTED, 4), num_dashes=10
        )
        struck = Cross(
            Square(strip.get_column(other).width / 3).move_to(across.get_bottom()),
            stroke_color=style.HIGHLIGHT,
        )
        self.say(
            "only_way",
            FadeIn(box),
            outline(box.head),
            beats={
                "readout": [outline(box.readout)],
                "must": [run],
                "same": [
                    LaggedStart(*(Create(a) for a in arcs), lag_ratio=1),
                    *(Transform(c, back) for c, back in dimmed),
                ],
                "only": [
                    InTurn(Create(across), Create(struck)),
                    FadeOut(VGroup(bars, shares, must)),
                    ApplyMethod(head[1].set_opacity, 1),
                ],
            },
            run_time=2.5,  # the run: the bars, the numbers in, the mix on through the readout
        )
        arcs.add(across, struck)  # they go with the arcs

    @staticmethod
    def _attention_bars(inside: Rectangle, group: list[int], n: int) -> VGroup:
        """One position's attention as it must be, drawn as brightness bars inside ``inside``
        (one per position, left to right), their lengths the weights (the box's height less
        its margins standing for 1): 1/k on each of its colour's k positions, flat on the rest."""
        room = inside.height * 0.9  # a weight of 1
        width = inside.width / (6 * n)  # narrow: a bar, not a block
        bars = VGroup(
            *(
                Rectangle(width=width, height=room / len(group) if j in group else 0.02)
                .set_fill(style.WEIGHT, 0.85)
                .set_stroke(width=0)
                for j in range(n)
            )
        ).arrange(RIGHT, buff=inside.width / n - width, aligned_edge=DOWN)
        return bars.move_to(inside).align_to(inside, DOWN).shift(UP * inside.height * 0.05)

    def _prediction(self, colours: list[int], sequence: VGroup, model: VGroup) -> None:
        """The prediction drawn: the strip's markers become the headers of an empty map, and
        the arcs fold into dashed frames on its same-colour cells (a claim, not data yet)."""
        arcs, strip = sequence
        grid, blocks, line = predicted_map(self)
        sort, unsort = self._sorted_by_colour(grid, blocks, colours)
        self.say(
            "prediction",
            FadeOut(model),
            FadeOut(arcs),  # the arcs (the struck one with them) go before the map comes
            FadeOut(VGroup(*(VGroup(c[0], c[2]) for c in strip.columns))),
            then=[
                [
                    ReplacementTransform(VGroup(*(c[1] for c in strip.columns)), grid.col_headers),
                    FadeIn(VGroup(grid.cells, grid.row_headers)),
                ]
            ],
            beats={
                # the claim's frames on the same-colour cells; rows and columns grouped by
                # colour, the frames closing into blocks, held while the words name them
                "blocks": [
                    InTurn(
                        AnimationGroup(Create(blocks, lag_ratio=0.02), FadeIn(line)),
                        AnimationGroup(*sort, run_time=1.5),
                        Wait(),
                    )
                ],
                # the result that would refute it, off the blocks, and the prediction struck;
                # then back in the sequence's order, where the trained map will be read
                "refutable": [
                    InTurn(
                        *self._refuted(grid, colours, line), AnimationGroup(*unsort, run_time=0.8)
                    )
                ],
            },
            run_time=2.5,
        )

    def _refuted(self, grid: AttentionGrid, colours: list[int], line: VGroup) -> list[Animation]:
        """The map the prediction rules out, shown on one cell of the sorted map, off the
        blocks: the worked position's row lit in the weight colour at a position of another
        colour, outlined and held, lit still as the prediction's line is crossed out and the
        condition written under it (lit, and the model learned); then all gone (the predicted
        map is what the chapter ends on)."""
        other = next(j for j, c in enumerate(colours) if c != colours[self.focus])
        rank = _ranks(colours)
        cell = grid.get_cell(self.focus, other)
        at = grid.get_cell(rank[self.focus], rank[other]).get_center()  # once sorted
        lit = cell.copy().set_fill(style.WEIGHT, opacity=1).move_to(at).set_z_index(3)
        cross = Cross(line, stroke_color=style.HIGHLIGHT).set_z_index(4)
        caption = style.text(self.words["refuted"], style.LABEL_SIZE, style.HIGHLIGHT)
        if caption.width > line.width:
            caption.scale_to_fit_width(line.width)
        caption.next_to(line, DOWN, buff=style.ITEM_BUFF, aligned_edge=LEFT)
        return [
            AnimationGroup(FadeIn(lit), outline(lit), run_time=2),  # held: the refuting map
            AnimationGroup(Create(cross), FadeIn(caption), run_time=0.7),
            Wait(1.0),  # the struck prediction and its condition, read
            FadeOut(VGroup(lit, cross, caption), run_time=0.4),
        ]

    @staticmethod
    def _sorted_by_colour(
        grid: AttentionGrid, blocks: VGroup, colours: list[int]
    ) -> tuple[list[Animation], list[Animation]]:
        """Animations that move the map's rows and columns (cells, headers, and the frames
        on the same-colour cells) into colour order, so the same-colour cells gather into
        blocks on the diagonal; and the ones that move them back."""
        n = len(colours)
        rank = _ranks(colours)  # where position j stands once sorted
        same = [(i, j) for i in range(n) for j in range(n) if colours[i] == colours[j]]
        framed = dict(zip(same, blocks, strict=True))  # block_frames' order: row by row
        moves = []  # (mobject, its place now, its place sorted)
        for i in range(n):
            for j in range(n):
                target = grid.get_cell(rank[i], rank[j]).get_center()
                moves.append((grid.get_cell(i, j), grid.get_cell(i, j).get_center(), target))
                if (i, j) in framed:
                    moves.append((framed[i, j], framed[i, j].get_center(), target))
            for headers in (grid.row_headers, grid.col_headers):
                moves.append((headers[i], headers[i].get_center(), headers[rank[i]].get_center()))
        sort = [ApplyMethod(m.move_to, to) for m, _, to in moves]
        unsort = [ApplyMethod(m.move_to, back) for m, back, _ in moves]
        return sort, unsort

    def _links(self, strip: TokenStrip, colours: list[int]) -> VGroup:
        """Arcs over the strip between every two positions of one colour, in that colour:
        one group of arcs per colour."""
        arcs = VGroup()
        for colour in sorted(set(colours)):
            fill = style.task_colour(self.data.colour_names[colour]).fill
            group = [j for j, c in enumerate(colours) if c == colour]
            arcs.add(
                VGroup(
                    *(
                        ArcBetweenPoints(
                            strip.get_column(b).get_top() + UP * style.HUG_BUFF,
                            strip.get_column(a).get_top() + UP * style.HUG_BUFF,
                            angle=ARC_BEND * (1 + (b - a) / len(colours)),
                            color=fill,
                            stroke_width=4,
                        )
                        for k, a in enumerate(group)
                        for b in group[k + 1 :]
                    )
                )
            )
        return arcs


def _ranks(colours: list[int]) -> dict[int, int]:
    """Where each position stands once the positions are sorted by colour (stable)."""
    order = sorted(range(len(colours)), key=lambda j: (colours[j], j))
    return {j: r for r, j in enumerate(order)}


def _as_float(shown: str) -> float:
    """A number as the screen writes it (a typographic minus), read back."""
    return float(shown.replace("\u2212", "-"))


@seam_builder
def predicted_map(scene: LectureScene) -> VGroup:
    """colour_task's last picture, training's first: the prediction, an empty map of the
    colour task's example (``ColourTask.example_name``) with its markers as headers and a
    dashed frame on every same-colour cell (a claim, not data yet), those cells faintly lit in
    the muted colour (a weight is drawn as brightness, never a task's hue), filling the height, and
    the claim's line beside it (in colour_task's words)."""
    colours = scene.data.example(ColourTask.example_name).colours
    grid = scene.colour_map(colours, [[None] * len(colours) for _ in colours], "", PREDICTED_CELL)
    for i, row in enumerate(colours):  # the predicted cells faintly lit: a weight is never a hue
        for j in (j for j, column in enumerate(colours) if column == row):
            lit = interpolate_color(style.PLAIN_CELL, style.MUTED, PREDICTED_TINT)
            grid.get_cell(i, j).set_fill(lit, opacity=1)
    blocks = VGroup(*(DashedVMobject(f, num_dashes=12) for f in grid.block_frames(colours)))
    blocks.set_stroke(style.HIGHLIGHT, 4).set_z_index(2)  # over the cells, dashed: a claim
    line = style.text(scene.shared(ColourTask.scene_key)["prediction_line"], style.BODY_SIZE)
    left, bottom, right, top = style.content_area()
    drawn = VGroup(grid, blocks)
    drawn.scale(min(PREDICTED_GROW, (top - bottom) / drawn.height))  # the map fills the height
    room = right - left - drawn.width - style.WIDE_BUFF  # the claim beside it
    if line.width > room:
        line.scale_to_fit_width(room)
    style.place(VGroup(drawn, line).arrange(RIGHT, buff=style.WIDE_BUFF))
    return VGroup(grid, blocks, line)
