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
    CurvedArrow,
    DashedVMobject,
    FadeIn,
    FadeOut,
    GrowFromCenter,
    ReplacementTransform,
    Square,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.diagrams import AttentionFormula
from scenes.kit.emphasis import outline
from scenes.kit.labels import TokenStrip
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import Count, phrase
from scenes.kit.seams import seam_builder

PREDICTED_CELL = 0.5  # the predicted map's cells, beside the sequence
PREDICTED_GROW = 1.6  # the predicted map: enlarged to fill the height, by up to this


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
        same = [j for j, c in enumerate(ex.colours) if c == ex.colours[self.focus]]
        frames = VGroup(
            *(SurroundingRectangle(strip.get_column(j), buff=style.HUG_BUFF) for j in same)
        )
        count = self.number(Count(f"{src}.colours", ex.colours[self.focus]), 0)
        answer = self.number(f"{src}.targets[{self.focus}]", 2)
        worked = phrase(self.words["worked"], style.BODY_SIZE, k=count, answer=answer)
        worked.next_to(strip, DOWN, buff=style.GROUP_BUFF)
        box = self.model_box(strip.width)
        box.next_to(strip, DOWN, buff=style.GROUP_BUFF)
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
        arcs = self._links(strip, ex.colours)
        # the whole worked example, grown to fill the frame: it is the only picture for 50 s
        style.place(VGroup(arcs, strip, frames, worked, box, answers, label, answer_box), grow=1.4)
        # until the answers come, the sequence and its worked answer hold the middle of the
        # frame; they rise to their place over the model when every answer is written
        held = VGroup(strip, frames, worked)
        _, bottom, _, top = style.content_area()
        lift = held.get_center()[1] - (bottom + top) / 2
        held.shift(DOWN * lift)
        count_brace = Brace(strip, DOWN, buff=style.TIGHT_BUFF)
        here = frames[same.index(self.focus)].get_bottom()
        looks = VGroup(  # the position looks at every other of its colour (and at itself)
            *(
                CurvedArrow(here, frame.get_bottom(), angle=PI / 3, color=style.HIGHLIGHT)
                for j, frame in zip(same, frames, strict=True)
                if j != self.focus
            )
        )
        rest = [strip.get_column(j) for j in range(ex.n) if j not in same]
        undimmed = [column.copy() for column in rest]  # as they stand, to come back to

        self.add(title)  # the title at once: no frame is only a title being written
        formula = AttentionFormula()
        style.place(formula)
        slots = VGroup(
            *(
                DashedVMobject(
                    Square(column[1].height).set_stroke(style.MUTED, 2), num_dashes=12
                ).move_to(column[1])
                for column in strip.columns
            )
        )
        small = formula.copy().scale(0.6).next_to(slots, DOWN, buff=style.SECTION_BUFF)
        # the formula alone proves nothing; what a task must test is its weights: whom to look at
        self.say(
            "intro",
            FadeIn(formula),
            beats={
                "task": [Transform(formula, small), Create(slots, lag_ratio=0.1)],
                "who": [outline(formula.attention[0:7])],
            },
        )
        first = strip.get_column(self.focus)
        self.say(
            "strip",
            FadeOut(formula, shift=UP * 0.3),
            ReplacementTransform(slots, VGroup(*(c[1] for c in strip.columns))),
            FadeIn(VGroup(*(VGroup(c[0], c[2]) for c in strip.columns)), lag_ratio=0.1),
            beats={
                "colour": [outline(first[1])],
                "number": [outline(first[2])],
                "count": [
                    GrowFromCenter(count_brace),
                    outline(strip.columns[-1][0]),
                ],  # the last index: n
            },
            n=ex.n,
            colours=self.colour_list(),
        )
        colour = self.colour_name(ex.colours[self.focus])
        self.say(
            "rule",
            FadeOut(count_brace),
            FadeIn(frames, lag_ratio=0.3),
            then=[[Create(looks, lag_ratio=0.3)]],
            beats={  # the others recede: position 1's answer is its colour's business
                "pos": [outline(first), *(c.animate.set_opacity(style.DIMMED) for c in rest)]
            },
            colour=colour,
            pos=self.focus + 1,
        )
        # the group's numbers travel into their mean: the answer
        gather = [
            FadeOut(strip.get_column(j)[2].copy(), target_position=answer, scale=0.6) for j in same
        ]
        self.say(
            "worked_say",
            FadeOut(looks),
            FadeIn(worked),
            then=[gather, [outline(answer)]],
            k=count,
            answer=answer,
        )
        others = VGroup(*(a for j, a in enumerate(answers) if j != self.focus))
        self.say(
            "all_answers",
            TransformFromCopy(answer, answers[self.focus]),
            *(Transform(c, back) for c, back in zip(rest, undimmed, strict=True)),
            FadeOut(worked),
            FadeOut(frames),
            then=[
                [ApplyMethod(strip.shift, UP * lift)],  # built when it starts: undimmed by then,
                [FadeIn(others, lag_ratio=0.1), FadeIn(label), FadeIn(answer_box)],
            ],
        )
        self.say(
            "only_way",
            FadeIn(box),
            outline(box.head),
            beats={
                "readout": [outline(box.readout)],
                "must": [outline(answer_box)],
                "same": [Create(arcs, lag_ratio=0.2)],
                "only": [outline(arcs)],
            },
        )
        self._prediction(ex.colours, VGroup(arcs, strip), VGroup(box, answers, label, answer_box))

    def _prediction(self, colours: list[int], sequence: VGroup, model: VGroup) -> None:
        """The prediction drawn: the strip's markers become the headers of an empty map, and
        the arcs fold into dashed frames on its same-colour cells (a claim, not data yet)."""
        arcs, strip = sequence
        grid, blocks, line = predicted_map(self)
        sort, unsort = self._sorted_by_colour(grid, blocks, colours)
        self.say(
            "prediction",
            FadeOut(model),
            FadeOut(VGroup(*(VGroup(c[0], c[2]) for c in strip.columns))),
            ReplacementTransform(VGroup(*(c[1] for c in strip.columns)), grid.col_headers),
            FadeIn(VGroup(grid.cells, grid.row_headers)),
            then=[
                [FadeOut(arcs), Create(blocks, lag_ratio=0.02), FadeIn(line)],
                sort,  # rows and columns grouped by colour: the frames close into blocks
            ],
            beats={  # back in the sequence's order, where the trained map will be read
                "refutable": [Succession(AnimationGroup(*unsort), outline(blocks))]
            },
        )

    @staticmethod
    def _sorted_by_colour(
        grid: AttentionGrid, blocks: VGroup, colours: list[int]
    ) -> tuple[list[Animation], list[Animation]]:
        """Animations that move the map's rows and columns (cells, headers, and the frames
        on the same-colour cells) into colour order, so the same-colour cells gather into
        blocks on the diagonal; and the ones that move them back."""
        n = len(colours)
        order = sorted(range(n), key=lambda j: (colours[j], j))
        rank = {j: r for r, j in enumerate(order)}  # where position j stands once sorted
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
        """An arc over the strip between every two positions of one colour, in that colour."""
        arcs = VGroup()
        for a in range(len(colours)):
            for b in range(a + 1, len(colours)):
                if colours[a] == colours[b]:
                    fill = style.task_colour(self.data.colour_names[colours[a]]).fill
                    arcs.add(
                        ArcBetweenPoints(
                            strip.get_column(b).get_top() + UP * style.HUG_BUFF,
                            strip.get_column(a).get_top() + UP * style.HUG_BUFF,
                            angle=PI / 2 * (1 + (b - a) / len(colours)) / 2,
                            color=fill,
                            stroke_width=4,
                        )
                    )
        return arcs


@seam_builder
def predicted_map(scene: LectureScene) -> VGroup:
    """colour_task's last picture, training's first: the prediction, an empty map of the
    colour task's example (``ColourTask.example_name``) with its markers as headers and a
    dashed frame on every same-colour cell (a claim, not data yet), filling the height, and
    the claim's line beside it (in colour_task's words)."""
    colours = scene.data.example(ColourTask.example_name).colours
    grid = scene.colour_map(colours, [[None] * len(colours) for _ in colours], "", PREDICTED_CELL)
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
