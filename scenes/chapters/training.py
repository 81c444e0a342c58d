"""Training (seed 000): the model a sequence flows through, its loss falling by decades, and
its validation error drawn against always guessing 0. Storyboard: docs/storyboards/training.md.

Render alone with ``manim -ql scenes/chapters/training.py Training``.
"""

from __future__ import annotations

import itertools
import math

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    UR,
    AnimationGroup,
    Circumscribe,
    Create,
    DashedLine,
    Dot,
    DoubleArrow,
    FadeIn,
    FadeOut,
    Flash,
    GrowFromEdge,
    GrowFromPoint,
    Line,
    MathTex,
    Mobject,
    MoveAlongPath,
    ReplacementTransform,
    Square,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
    VMobject,
    Wiggle,
    always_redraw,
)

from scenes.chapters.colour_task import predicted_map
from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.devices import ModelBox, output_row
from scenes.kit.diagrams import LossPlot
from scenes.kit.emphasis import outline
from scenes.kit.labels import TokenStrip
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import phrase
from scenes.kit.seams import seam_builder

CURVE_POINTS = 250  # points drawn of the loss curve (every k-th step)
FED = "mixed"  # the sequence standing over the model: colour_task's example
FRESH = ("random_1", "random_2")  # fresh draws, as every training step sees
UNSEEN = "random_3"  # a sequence it never trained on, as the validation's are
STRIP_WIDTH = 6.3  # the sequence, the box and the rows under it share this width
GAP_SCALE = 0.45  # side of a squared gap's square per unit of |ŷ - y|
LOWER = 2  # of the watched steps, this many go with "Adam nudges"; the rest with "lower"
STREAM = ("random_1", "halves", "random_2", "one_two_rest", "pairs_and_rest", FED)
# sequences flowing through in turn, none like the one before: nothing to memorise; the
# last is colour_task's example again, the one attention_map opens on
TAIL = 200  # the last steps, magnified against the validation level
TAIL_STRETCH = 4.0  # the magnified tail's height per decade, against the plot's


class Training(LectureScene):
    """The run that produced the data file, measured and drawn."""

    scene_key = "training"
    reads = (
        "training",
        "examples.mixed",
        "examples.random_1",
        "examples.random_2",
        "examples.random_3",
        "examples.halves",
        "examples.one_two_rest",
        "examples.pairs_and_rest",
    )  # FED, FRESH, the unseen one and the STREAM
    tables = ("colour_task",)  # its last picture's claim
    opens_on = predicted_map.__name__
    ends_on = "trained_model"

    def construct(self) -> None:
        tr = self.data.training
        title = self.make_title()
        n = {  # every number of the chapter, shown and said
            "steps": self.number("training.steps", 0),
            "ms": self.number("training.train_ms", 0),
            "first": self.number("training.loss_curve[0]", 3),
            "last": self.number(f"training.loss_curve[{tr.steps - 1}]", 3, notation="auto"),
            "val_size": self.number("training.val_size", 0),
            "val": self.number("training.val_mse", 3, notation="auto"),
            "base": self.number("training.baseline_mse", 3),
        }
        strip, box, rows, formula, plot = stage(self)

        first = phrase(self.words["first_line"], style.LABEL_SIZE, loss=n["first"])
        first.next_to(plot.get_start(), UR, buff=style.ITEM_BUFF)
        run = phrase(
            self.words["run_line"], style.LABEL_SIZE, style.MUTED, steps=n["steps"], ms=n["ms"]
        )
        run.next_to(plot, DOWN, buff=style.ITEM_BUFF).align_to(plot.axes, RIGHT)
        val = plot.mark(
            tr.val_mse,
            phrase(self.words["val_line"], style.SMALL_SIZE, n=n["val_size"], mse=n["val"]),
        )
        base = plot.mark(
            tr.baseline_mse,
            phrase(self.words["base_line"], style.LABEL_SIZE, style.MUTED, mse=n["base"]),
            style.MUTED,
        )
        base[1].next_to(base[0], DOWN, buff=style.ITEM_BUFF).align_to(base[0], RIGHT)
        val[1].next_to(val[0], DOWN, buff=style.ITEM_BUFF).align_to(val[0], LEFT)
        val[1].shift(RIGHT * style.ITEM_BUFF)
        last = phrase(self.words["last_line"], style.SMALL_SIZE, loss=n["last"])
        last.next_to(val[1], DOWN, buff=style.TIGHT_BUFF).align_to(plot.axes, RIGHT)
        gap_x = plot.axes.c2p(tr.steps * 0.2, 0)[0]
        gap = DoubleArrow(
            [gap_x, plot.level(tr.baseline_mse), 0],
            [gap_x, plot.level(tr.val_mse), 0],
            buff=0,
            color=style.HIGHLIGHT,
        )
        ticks = plot.ticks
        watched = tr.settling_steps  # the steps at which the outputs were watched
        early, rest = plot.pieces(watched[-1] / tr.steps)
        # drawn one by one from watched step to watched step: early itself is never shown
        nudged = self._split(early, [k / watched[-1] for k in watched])

        # colour_task's last picture, at once: the prediction, an empty map with dashed
        # same-colour blocks. It goes into the model's head as the model comes in (what the
        # head will have to learn; the chapter ends with the learned map growing out of it).
        claim = predicted_map(self)
        self.add(title, claim)
        self.say(
            "intro",
            FadeOut(claim[2]),
            FadeOut(claim[:2], target_position=box.head, scale=0.1),
            FadeIn(strip, box),
            then=[[box.feed(strip, rows)]],
            beats={
                "axis": [
                    Succession(
                        FadeIn(plot.frame),
                        AnimationGroup(*(outline(t) for t in ticks), lag_ratio=0.3),
                    )
                ]
            },
        )
        # the fed sequence as the untrained head answers it (step 0), each gap squared; its
        # step-0 answers are what the first fresh sequence sweeps away
        fed_rows = rows
        fed, fed_gaps = self._watched(FED, fed_rows, 0)
        rows = VGroup(VGroup(fed_rows[0][0], fed[1]), fed_rows[1])
        feeds = []
        for name in FRESH:  # each fresh sequence takes the place of the one before it
            feeds.append(self._fresh(name, strip, rows, box))
            strip, rows = feeds[-1][1]
        walker = Dot(plot.get_start(), radius=0.08, color=style.HIGHLIGHT)
        floor = plot.axes.c2p(0, 0)[1]
        cursor = always_redraw(  # the step reached, from the step axis up to the loss
            lambda: Line([walker.get_x(), floor, 0], walker.get_center(), color=style.HIGHLIGHT)
        )
        # the step reached, written by the walker
        step = self.number("training.settling_steps[0]", 0, style.SMALL_SIZE)
        step.next_to(walker, UR, buff=style.HUG_BUFF)
        watched_rows = feeds[-1][1][1]  # the last fresh sequence's rows, watched step by step
        seen = [self._watched(FRESH[-1], watched_rows, k) for k in range(len(watched))]
        shown = (watched_rows[0], seen[0][1], step)
        trained = watched_rows[0].copy()
        self.say(
            "loss",
            FadeIn(VGroup(formula[0], formula[2], formula[4]), shift=UP * 0.2),
            FadeOut(fed_rows[0][1]),  # the trained answers give way to step 0's
            FadeIn(fed[1]),
            GrowFromEdge(fed_gaps, UP),
            # the outputs and the answers it compares fly down into their places in it
            TransformFromCopy(fed[1], formula[1]),
            TransformFromCopy(fed_rows[1], formula[3]),
            FadeIn(cursor),
            FadeIn(step),
            run_time=2.5,
            beats={
                "batch": [FadeOut(fed_gaps), Succession(*(feed for feed, _ in feeds))],
                # step after step, every part nudged: the watched outputs close in on the
                # answers, their squared gaps shrink, the walker rides the curve down
                "adam": [
                    Succession(
                        AnimationGroup(
                            Transform(watched_rows[0], seen[0][0]), GrowFromEdge(seen[0][1], UP)
                        ),
                        self._nudges(box, nudged[:LOWER], walker, shown, seen, 1),
                    )
                ],
                "lower": [self._nudges(box, nudged[LOWER:], walker, shown, seen, LOWER + 1)],
            },
        )
        self.say(
            "curve",
            Create(rest),
            Transform(watched_rows[0], trained),  # the trained head's answers again
            FadeOut(seen[0][1]),
            FadeOut(walker, cursor, step),
            FadeIn(first),
            then=[[FadeIn(last)]],
            run_time=3,
            first=n["first"],
            last=n["last"],
        )
        walker.move_to(plot.get_start())
        self.say(
            "run",
            FadeIn(cursor),
            # the steps Adam took, one after another, for as long as they are named
            MoveAlongPath(walker, plot.get_path()),
            run_time=2.5,
            beats={
                "time": [
                    FadeOut(walker, cursor),
                    Succession(FadeIn(run, shift=UP * 0.2), Circumscribe(run)),
                ]
            },
            steps=n["steps"],
        )  # a time is shown, never said: it varies
        unseen, (strip, rows) = self._fresh(
            UNSEEN, strip, rows, box
        )  # never trained on, like these
        self.say(
            "val",
            unseen,
            beats={"mse": [Create(val[0]), FadeIn(val[1])]},
            n=n["val_size"],
            mse=n["val"],
        )
        self.say(
            "base",
            Create(base[0]),
            FadeIn(base[1]),
            then=[[GrowFromPoint(gap, gap.get_start())]],
            mse=n["base"],
        )
        region, zoom = self._tail(plot, tr.loss_curve, tr.val_mse)
        zoom.next_to(base[1], DOWN, buff=style.ITEM_BUFF).align_to(plot.axes, RIGHT)
        stream = []
        for name in STREAM:  # a new sequence at every step: none is seen twice in a row
            feed, (strip, rows) = self._fresh(name, strip, rows, box)
            stream.append(feed)
        self.say(
            "meaning",
            Succession(*stream),
            run_time=0.7 * len(STREAM),
            beats={  # the tail magnified: it runs along the validation level
                "unseen": [
                    Create(region),
                    ReplacementTransform(region.copy(), zoom),
                ]
            },
        )
        grown = head_map(self, plot)  # colour_task's example over the box now: its map
        self.say(
            "outro",
            FadeOut(region, zoom),
            Flash(box.head, color=style.HIGHLIGHT, flash_radius=0.5),
            then=[  # the map grows out of the head as the plot makes way for it
                [
                    FadeOut(VGroup(plot, *nudged, rest, first, last, run, val, base, gap)),
                    GrowFromPoint(grown, box.head.get_center()),
                ]
            ],
        )

    def _watched(self, name: str, rows: VGroup, k: int) -> tuple[VGroup, VGroup]:
        """Example ``name``'s outputs at the k-th watched step, in place of ``rows``' ŷ, and
        a square under each column as wide as its gap to y: the squared differences the loss
        averages."""
        ex = self.data.example(name)
        outputs = ex.settling_predictions[k]
        row = output_row(
            outputs,
            f"examples.{name}.settling_predictions[{k}]",
            list(rows[0][1]),
            r"\hat{y}",
        )
        row.scale(rows[0][0].height / row[0].height)  # as the layout scaled the rows
        for new, old in zip([row[0], *row[1]], [rows[0][0], *rows[0][1]], strict=True):
            new.move_to(old)
        squares = VGroup(
            *(
                Square(side_length=max(abs(p - y) * GAP_SCALE, 1e-3))
                .set_stroke(width=0)
                .set_fill(style.HIGHLIGHT, opacity=0.8)
                .match_x(number)
                .align_to(rows[1], DOWN)
                .shift(DOWN * (rows[1].height / 2 + style.ITEM_BUFF))
                for p, y, number in zip(outputs, ex.targets, rows[1][1], strict=True)
            )
        )
        for square in squares:  # hanging from one line under the answers
            square.align_to(rows[1].get_bottom() + DOWN * style.ITEM_BUFF, UP)
        return row, squares

    def _nudges(
        self,
        box: ModelBox,
        pieces: list[VMobject],
        walker: Dot,
        shown: tuple[VGroup, VGroup, Mobject],
        seen: list[tuple[VGroup, VGroup]],
        first: int,
    ) -> Succession:
        """Adam's steps one after another, from watched step to watched step (the ``first``
        of them onward): the parameters nudged, the ``shown`` outputs, squared gaps and step
        number as they were at that step, the curve a piece further and the walker down it."""
        outputs, gaps, step = shown
        return Succession(
            *(
                AnimationGroup(
                    *(Wiggle(p, scale_value=1.15) for p in box.get_parameters()),
                    Create(piece),
                    MoveAlongPath(walker, piece),
                    Transform(outputs, row),
                    Transform(gaps, squares),
                    Transform(
                        step,
                        self.number(f"training.settling_steps[{k}]", 0, style.SMALL_SIZE).next_to(
                            piece.get_end(), UR, buff=style.HUG_BUFF
                        ),
                    ),
                    run_time=1.2,
                )
                for k, (piece, (row, squares)) in enumerate(
                    zip(pieces, seen[first : first + len(pieces)], strict=True), start=first
                )
            )
        )

    @staticmethod
    def _split(line: VMobject, cuts: list[float]) -> list[VMobject]:
        """``line`` cut at ``cuts`` (shares of it, rising from 0 to 1) into consecutive
        pieces (drawn one by one)."""
        return [
            line.copy().pointwise_become_partial(line, a, b) for a, b in itertools.pairwise(cuts)
        ]

    @staticmethod
    def _tail(plot: LossPlot, losses: list[float], val: float) -> tuple[VGroup, VGroup]:
        """The curve's last :data:`TAIL` steps (every step) with the validation level: a frame
        round them on the plot, and the same magnified (taller per decade, and wider), framed."""
        steps = len(losses)
        xs = list(range(steps - TAIL, steps))
        tail = plot.axes.plot_line_graph(
            xs,
            [math.log10(losses[x]) - plot.low for x in xs],
            add_vertex_dots=False,
            line_color=style.MUTED,  # under the level: the level stays seen through it
            stroke_width=1.5,
        )["line_graph"]
        y = plot.level(val)
        level = DashedLine([plot.axes.c2p(xs[0], 0)[0], y, 0], [plot.axes.c2p(xs[-1], 0)[0], y, 0])
        region = SurroundingRectangle(
            VGroup(tail, level), buff=style.HUG_BUFF, color=style.HIGHLIGHT
        )
        inner = VGroup(tail.copy(), level.copy())
        inner.stretch(TAIL_STRETCH, 1, about_point=level.get_center())
        inner.stretch(TAIL_STRETCH * 0.6, 0)
        zoom = VGroup(
            SurroundingRectangle(inner, buff=style.HUG_BUFF, color=style.HIGHLIGHT), inner
        )
        return region, zoom

    def _fresh(
        self, name: str, strip: TokenStrip, rows: VGroup, box: ModelBox
    ) -> tuple[AnimationGroup, tuple[TokenStrip, VGroup]]:
        """A freshly drawn sequence taking the place of ``strip`` and flowing through the
        box: its animation, and the new strip and rows (for the next fresh one)."""
        new_strip, new_rows = sequence(self, name)
        scale = strip.width / new_strip.width  # the layout may have scaled the picture
        new_strip.scale(scale).move_to(strip)
        new_rows.scale(scale)
        align_rows(new_rows, new_strip)
        new_rows.match_y(rows)
        swap = AnimationGroup(
            FadeOut(strip, shift=RIGHT * 0.6),
            FadeOut(rows),
            FadeIn(new_strip, shift=RIGHT * 0.6),
        )
        return AnimationGroup(swap, box.feed(new_strip, new_rows), lag_ratio=1.0), (
            new_strip,
            new_rows,
        )


def sequence(scene: LectureScene, name: str) -> tuple[TokenStrip, VGroup]:
    """Example ``name`` as a strip standing over the model, and its outputs ŷ over its
    answers y (not yet placed under the strip's columns)."""
    ex = scene.data.example(name)
    src = f"examples.{name}"
    strip = TokenStrip([scene.colour_marker(c) for c in ex.colours], ex.values, f"{src}.values")
    strip.scale_to_fit_width(STRIP_WIDTH)
    columns = list(strip.columns)
    rows = VGroup(
        output_row(ex.predictions, f"{src}.predictions", columns, r"\hat{y}"),
        output_row(ex.targets, f"{src}.targets", columns, "y"),
    ).arrange(DOWN, buff=style.ITEM_BUFF)
    return strip, rows


def align_rows(rows: VGroup, strip: TokenStrip) -> None:
    """Each number of ``rows`` under its column of ``strip`` (after the picture moved)."""
    for row in rows:
        for number, column in zip(row[1], strip.columns, strict=True):
            number.match_x(column)
        row[0].next_to(row[1], LEFT, buff=style.GROUP_BUFF)


def stage(scene: LectureScene) -> tuple[TokenStrip, ModelBox, VGroup, MathTex, LossPlot]:
    """The chapter's stage, placed: colour_task's example (``FED``) as a strip over the model
    box, its outputs over its answers under the box, the loss formula under them; the loss
    plot at the right (in training's words, whichever scene builds it)."""
    tr = scene.data.training
    strip, rows = sequence(scene, FED)
    box = scene.model_box(STRIP_WIDTH)
    box.next_to(strip, DOWN, buff=style.TIGHT_BUFF)
    rows.next_to(box, DOWN, buff=style.TIGHT_BUFF).align_to(strip, RIGHT)
    formula = MathTex(
        r"\text{loss} = \tfrac{1}{n}\sum_i (", r"\hat{y}_i", "-", "y_i", ")^2", font_size=40
    )
    formula.next_to(rows, DOWN, buff=style.GROUP_BUFF)
    model = VGroup(strip, box, rows, formula)
    plot = LossPlot(
        tr.loss_curve,
        "training.steps",
        scene.shared(Training.scene_key)["x_axis"],
        CURVE_POINTS,
        width=5.6,
        height=4.0,
        also=(tr.val_mse, tr.baseline_mse),
        room=1,  # the validation's label goes under its level, below the curve's tail
    )
    align_rows(rows, strip)  # before the layout: the rows' names count in its width
    style.place(VGroup(model, plot).arrange(RIGHT, buff=style.GROUP_BUFF * 1.5), grow=1.3)
    return strip, box, rows, formula, plot


def head_map(scene: LectureScene, plot: LossPlot) -> AttentionGrid:
    """``FED``'s learned map, where the loss plot's axes were: what grows out of the head."""
    ex = scene.data.example(FED)
    grid = scene.colour_map(
        ex.colours, ex.attention, f"examples.{FED}.attention", style.CELL_SIZE * 0.55
    )
    return grid.set(height=plot.axes.height).move_to(plot.axes)


@seam_builder
def trained_model(scene: LectureScene) -> VGroup:
    """training's last picture, attention_map's first: the model box with colour_task's
    example over it and its outputs over its answers under it, the loss formula, and at the
    right the example's learned map, grown out of the head where the loss plot was."""
    strip, box, rows, formula, plot = stage(scene)
    return VGroup(strip, box, rows, formula, head_map(scene, plot))
