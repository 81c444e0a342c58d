"""The causal mask (seed 003): no looking ahead, step by step, then learned for real.

"我 吃 蘋果 很 開心": scores after the query become −∞, exp gives 0, each row still sums to 1.
Then the colour task with the mask on, trained: the same blocks, cut to a triangle.
Render alone with ``manim -ql scenes/chapters/causal.py CausalMask``.
"""

from __future__ import annotations

from manim import (
    DL,
    DOWN,
    DR,
    LEFT,
    PI,
    RIGHT,
    UL,
    UP,
    UR,
    Create,
    CurvedArrow,
    DashedVMobject,
    Dot,
    DoubleArrow,
    FadeIn,
    FadeOut,
    GrowFromCenter,
    LaggedStart,
    MathTex,
    Mobject,
    Polygon,
    Rectangle,
    ReplacementTransform,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    UpdateFromAlphaFunc,
    VGroup,
    rate_functions,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.devices import ExpCurve, output_row
from scenes.kit.diagrams import LossPlot
from scenes.kit.emphasis import outline
from scenes.kit.labels import TokenStrip
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import Sum, phrase
from scenes.kit.seams import seam_builder

EAT = "tokens.eat_apple"
CELL = 0.8
SIDE_BY_SIDE = 6  # the longest sentence whose scores and weights fit side by side
ONE_GRID_HEIGHT = 4.5  # a longer sentence's one table fits in this height
ALONE_GROWTH = 1.5  # the score table, alone at first, enlarged at most this much
LOOK_TIP = 0.15  # the tip of an arrow from a word to a word it looks at
EXP_FLOOR = -3  # the exp curve's axis starts here: e^-3 already lies on the axis
EXP_MARGIN = 1.2  # room right of the exp curve for its formula
CURVE_POINTS = 150  # points drawn of the masked head's loss curve
LEARNED = 0.52  # a cell of the two maps side by side, the two-way one and the learned one


def staircase(grid: AttentionGrid, below: bool = False) -> Polygon:
    """The cells of an n x n ``grid`` above its diagonal as one staircase shape: the mask;
    ``below``, the cells on and under the diagonal instead: what each row may look at."""
    n = grid.n_rows

    def corner(i: int, j: int, side) -> object:
        return grid.get_cell(i, j).get_corner(side)

    if below:
        points = [corner(0, 0, UL)]
        for i in range(n):
            points += [corner(i, i, UR), corner(i, i, DR)]
        return Polygon(*points, corner(n - 1, 0, DL))
    points = [corner(0, 1, UL), corner(0, n - 1, UR), corner(n - 2, n - 1, DR)]
    for i in range(n - 2, -1, -1):
        points += [corner(i, i + 1, DL), corner(i, i + 1, UL)]
    return Polygon(*points[:-1])


class CausalMask(LectureScene):
    """−∞ above the diagonal, weight 0, rows still 1; the learned triangle of colour blocks."""

    scene_key = "causal"
    reads = ("tokens.eat_apple", "causal", "examples.mixed")
    ends_on = "masked_head"

    def construct(self) -> None:
        self.ex = self.data.eat_apple
        self.title = self.make_title()
        words, back = self._sentence()
        self._step_by_step(words, back)
        self._learned()

    def _grid(self, values, name: str, heat: bool) -> AttentionGrid:
        """The causal block's ``name`` table, words looking in rows, words looked at above."""
        words = self.apple_words()
        side_by_side = len(words) <= SIDE_BY_SIDE
        return AttentionGrid(
            values,
            f"{EAT}.causal.{name}",
            row_headers=[style.text(t, style.LABEL_SIZE, style.QUERY) for t in words],
            col_headers=[style.text(t, style.LABEL_SIZE, style.KEY) for t in words],
            cell_size=CELL if side_by_side else min(CELL, ONE_GRID_HEIGHT / len(words)),
            heat=heat,
        )

    def _sentence(self) -> tuple[VGroup, VGroup]:
        """Generation word by word, then training with every word looking at every word, then
        each word's looks ahead cut. Returns the words and the looks back (carried on)."""
        words = VGroup(*(style.text(t, style.TITLE_SIZE) for t in self.apple_words()))
        words.arrange(RIGHT, buff=style.WIDE_BUFF)
        short = self.ex.short
        n = len(words)

        def look(i: int, j: int) -> CurvedArrow:  # word i looks at word j: ahead above, back below
            edge, step = (UP, RIGHT) if j > i else (DOWN, LEFT)
            start = words[i].get_edge_center(edge) + step * style.HUG_BUFF
            end = words[j].get_edge_center(edge) - step * style.HUG_BUFF
            arrow = CurvedArrow(start, end, angle=-PI / 2, tip_length=LOOK_TIP)
            return arrow.set_stroke(style.MUTED, width=2).set_fill(style.MUTED)

        ahead = [VGroup(*(look(i, j) for j in range(i + 1, n))) for i in range(n)]
        back_from = [VGroup(*(look(i, j) for j in range(i))) for i in range(n)]
        back = VGroup(*back_from)
        style.place(VGroup(words, *ahead, back), grow=1.3)
        slots = VGroup(  # the words not yet generated: empty places
            *(
                DashedVMobject(
                    Rectangle(width=w.width + 0.3, height=words.height + 0.3), num_dashes=24
                )
                .set_stroke(style.MUTED, width=2)
                .move_to(w)
                for w in words[short:]
            )
        )
        slot = VGroup(slots[0], style.text("?", style.TITLE_SIZE, style.MUTED).move_to(slots[0]))
        later = words[short:]
        self.add(self.title)  # the title at once: no frame is only a title being written
        self.say(
            "intro",
            LaggedStart(*(FadeIn(w, shift=RIGHT * 0.2) for w in words[:short]), lag_ratio=0.5),
            then=[[Create(slot[0]), FadeIn(slot[1])]],
        )
        self.say(
            "no_peeking",
            outline(words[short - 1]),
            FadeOut(slot[1]),
            Create(slots[1:], lag_ratio=0.3),
            beats={
                "whole": [
                    FadeOut(slots),
                    FadeIn(later, shift=DOWN * 0.3, lag_ratio=0.3),
                    Create(VGroup(*ahead, back)),
                ],
                "mask": [LaggedStart(*(FadeOut(a) for a in ahead if len(a)), lag_ratio=0.5)],
                "same": [outline(VGroup(words[:short], back_from[short - 1]))],
            },
        )
        return words, back

    def _step_by_step(self, words: VGroup, back: VGroup) -> None:
        c = self.ex.causal
        n = len(self.ex.tokens)
        grid = self._grid(c.scores, "scores", heat=False)
        later = [(i, j) for i in range(n) for j in range(n) if j > i]
        weights = self._grid(c.weights, "weights", heat=True)
        sums = VGroup(
            *(
                self.number(Sum(f"{EAT}.causal.weights[{i}]"), 2, style.LABEL_SIZE).next_to(
                    weights.get_cell(i, n - 1), RIGHT, buff=style.GROUP_BUFF
                )
                for i, row in enumerate(c.weights)
            )
        )
        i = self.ex.query_index
        short = self.ex.short
        # The short sentence's row of weights, as weighted_sum computed it, under the map.
        short_row = AttentionGrid(
            self.ex.last_row.weights,
            f"{EAT}.last_row.weights",
            cell_size=weights.get_cell(0, 0).width,
        )
        short_name = style.text(
            self.sentence_fields()["sentence"], style.LABEL_SIZE, style.MUTED
        ).next_to(short_row, DOWN, buff=style.ITEM_BUFF)
        short_group = VGroup(short_row, short_name)
        # A short sentence shows scores and weights side by side; a long one turns the
        # scores into the weights in place, so that the numbers stay legible.
        side_by_side = n <= SIDE_BY_SIDE
        if side_by_side:
            short_group.next_to(weights.cells, DOWN, buff=style.GROUP_BUFF)
            short_group.align_to(weights.cells, LEFT)
            style.place(VGroup(grid, VGroup(weights, sums, short_group)).arrange(RIGHT, buff=1.2))
        else:
            style.place(VGroup(weights, sums))
            grid.shift(weights.cells.get_center() - grid.cells.get_center())
            short_group.next_to(weights.cells, DOWN, buff=style.ITEM_BUFF)
        minus = VGroup(
            *(
                MathTex(r"-\infty", font_size=30 * grid.get_cell(0, 0).width / CELL).move_to(
                    grid.get_cell(i, j)
                )
                for i, j in later
            )
        )
        upper = VGroup(  # the blank cells, about to be masked, outlined as the words name them
            *(
                SurroundingRectangle(grid.get_cell(i, j), buff=0, color=style.HIGHLIGHT)
                for i, j in later
            )
        ).set_stroke(width=2)
        mask = staircase(grid).set_stroke(style.FOREGROUND, width=3)
        mask.set_fill(style.MUTED, opacity=0.35)
        # Over the cells, even when the table moves (a moved table is drawn anew, on top).
        mask.set_z_index(1)
        minus.set_z_index(2)
        # Side by side, the score table stands alone in the middle first, large, and makes
        # room for the weights as they are computed.
        home = (grid.copy(), minus.copy(), mask.copy())  # where they end, beside the weights
        if side_by_side:
            style.place(VGroup(grid, upper, minus, mask), grow=ALONE_GROWTH)
        # The sentence's words travel into the table: each one's row and its column.
        self.say(
            "scores",
            FadeOut(back),
            *(TransformFromCopy(w, h) for w, h in zip(words, grid.row_headers, strict=True)),
            *(ReplacementTransform(w, h) for w, h in zip(words, grid.col_headers, strict=True)),
            FadeIn(VGroup(grid.cells, grid.numbers)),
            beats={
                "rows": [outline(VGroup(grid.row_headers[i], grid.get_row(i)))],
                "upper": [Create(upper, lag_ratio=0.1)],
                "cover": [FadeOut(upper), FadeIn(mask, shift=LEFT * 0.3 + DOWN * 0.3)],
            },
        )
        self.say(
            "minus",
            outline(mask),
            beats={"force": [mask.animate.set_fill(opacity=0.7), FadeIn(minus, lag_ratio=0.1)]},
        )
        if side_by_side:
            self.play(Transform(grid, home[0]), Transform(minus, home[1]), Transform(mask, home[2]))
        zeros = VGroup(*(weights.get_number(i, j) for i, j in later))

        def seen(g: AttentionGrid) -> VGroup:  # the numbers at or before the diagonal
            return VGroup(*(g.get_number(i, j) for i in range(n) for j in range(i + 1)))

        if side_by_side:
            curve, landed, slide = self._exp_slide(
                minus[later.index((i, i + 1))], VGroup(weights, sums)
            )
            self.say(
                "zero",
                FadeIn(curve),
                then=[slide, [outline(curve[0].zero)]],
                beats={
                    "vanish": [
                        FadeOut(VGroup(curve, landed)),
                        FadeIn(weights.cells),
                        FadeIn(VGroup(weights.row_headers, weights.col_headers)),
                        ReplacementTransform(minus.copy(), zeros),
                    ],
                    "rest": [TransformFromCopy(seen(grid), seen(weights))],
                },
            )
        else:
            self.say(
                "zero",
                FadeOut(mask),
                ReplacementTransform(grid.cells, weights.cells),
                ReplacementTransform(
                    VGroup(grid.row_headers, grid.col_headers),
                    VGroup(weights.row_headers, weights.col_headers),
                ),
                beats={
                    "vanish": [ReplacementTransform(minus, zeros)],
                    "rest": [ReplacementTransform(seen(grid), seen(weights))],
                },
            )
        self.say(
            "sums",
            LaggedStart(
                *(
                    TransformFromCopy(VGroup(*(weights.get_number(r, j) for j in range(r + 1))), s)
                    for r, s in enumerate(sums)
                ),
                lag_ratio=0.2,
            ),
            beats={"only": [outline(staircase(weights, below=True))]},
        )
        first = SurroundingRectangle(weights.get_row(0), color=style.HIGHLIGHT, buff=0)
        landing = sums[0].copy().move_to(weights.get_number(0, 0))  # the whole 1, to itself
        self.say(
            "first",
            Create(first),
            beats={
                "all": [
                    Succession(TransformFromCopy(sums[0], landing), FadeOut(landing)),
                    outline(weights.get_number(0, 0)),
                ]
            },
            token=self.apple_words()[0],
        )
        apple = SurroundingRectangle(weights.get_row(i), color=style.HIGHLIGHT, buff=0)
        onto = short_row.copy().move_to(
            VGroup(*(weights.get_cell(i, j) for j in range(short))).get_center()
        )
        self.say(
            "apple",
            ReplacementTransform(first, apple),
            FadeIn(short_group, shift=UP * 0.2),
            then=[[Succession(TransformFromCopy(short_row, onto), FadeOut(onto))]],
            beats={"gone": [outline(*(weights.get_number(i, j) for j in range(short, n)))]},
            token=self.apple_words()[i],
        )
        self.masked = weights  # carried into the retraining: the mask the new head learns under

    def _exp_slide(self, masked: Mobject, room: Mobject) -> tuple[VGroup, Mobject, list]:
        """exp over 蘋果's row, in ``room``: one masked score sliding left along the x axis
        while its height on the curve sinks to the axis, and its −∞ (``masked``, from the
        table) landing where it ends. Returns the curve with the sliding point, the landed
        −∞, and the slide's animations."""
        c, i = self.ex.causal, self.ex.query_index
        seen = c.scores[i][: i + 1]
        curve = ExpCurve(
            seen,
            c.exps[i][: i + 1],
            f"{EAT}.causal.scores[{i}]",
            f"{EAT}.causal.exps[{i}]",
            x_range=(EXP_FLOOR, max(seen) + 0.5),
            width=style.content_area()[2] - room.get_left()[0] - EXP_MARGIN,
            height=room.height * 0.8,
        )
        curve.align_to(room, LEFT).match_y(room)
        by_value = sorted(range(len(seen)), key=lambda k: seen[k])
        for k in by_value[1::2]:  # every other score's number over the axis, not on the next
            score, number = curve.get_score(k)
            number.next_to(score, UP, buff=style.ITEM_BUFF)
        hi = max(seen) + 0.3
        dot = Dot(curve.axes.c2p(hi, 0), radius=0.08, color=style.KEY)
        rise = curve.rise_from(hi).set_color(style.KEY)
        landed = masked.copy().set_color(style.KEY)
        landed.next_to(curve.axes.c2p(EXP_FLOOR, 0), DOWN, buff=style.ITEM_BUFF)

        def at(alpha: float) -> float:
            return hi + (EXP_FLOOR - hi) * rate_functions.smooth(alpha)

        slide = [
            UpdateFromAlphaFunc(
                rise, lambda m, a: m.become(curve.rise_from(at(a)).set_color(style.KEY))
            ),
            UpdateFromAlphaFunc(dot, lambda m, a: m.move_to(curve.axes.c2p(at(a), 0))),
            TransformFromCopy(masked, landed),
        ]
        return VGroup(curve, dot, rise), landed, slide

    def _learned(self) -> None:
        run, mixed = self.data.causal, self.data.example("mixed")
        place, result, learned = learned_stage(self)
        plot, val_mark, base_mark, gap = result
        head, cut, blocks = learned
        # the two-way map in the left place (the learned map's size, so the same place)
        both = self.colour_map(run.colours, mixed.attention, "examples.mixed.attention", LEARNED)
        label = style.text(self.words["both_ways"], style.BODY_SIZE)
        label.next_to(both, UP, buff=style.ITEM_BUFF)
        maps = VGroup(VGroup(label, both).move_to(place), head)
        slot = maps[0][1]  # the left map's place: the task, then the training, stand there
        right = maps[1][1]
        n = len(run.colours)
        # The task: the sequence, its targets (each the mean of its colour so far).
        markers = [self.colour_marker(c) for c in run.colours]
        strip = TokenStrip(markers, run.values, "causal.values")
        targets = output_row(run.targets, "causal.targets", list(strip.columns), "y")
        task = VGroup(strip, targets.next_to(strip, DOWN, buff=style.ITEM_BUFF))
        for number, column in zip(targets[1], strip.columns, strict=True):
            number.match_x(column)
        task.next_to(right, LEFT, buff=style.WIDE_BUFF).match_y(slot)
        if task.get_left()[0] < style.content_area()[0]:  # wider than the room left of the map
            task.scale_to_fit_width(task.get_right()[0] - style.content_area()[0])
            task.next_to(right, LEFT, buff=style.WIDE_BUFF)
        row = n - 2
        same = [j for j in range(row + 1) if run.colours[j] == run.colours[row]]
        # The masked map stays and moves to where the masked head's map will be; the rest
        # (scores, sums, frames) makes way.
        masked = self.masked
        kept = set(masked.get_family())
        rest = [m for m in self.mobjects if m is not self.title and not set(m.get_family()) <= kept]
        there = masked.copy().scale(right.cells.height / masked.cells.height)
        there.shift(right.cells.get_center() - there.cells.get_center())  # cells on cells
        self.say(
            "retrain",
            *(FadeOut(m) for m in rest),
            Transform(masked, there),
            beats={
                "task": [
                    Succession(
                        FadeIn(task, lag_ratio=0.05),
                        outline(*(strip.get_column(j) for j in same), targets[1][row]),
                    )
                ],
                "train": [
                    FadeOut(task),
                    Succession(FadeIn(plot.frame), Create(plot.curve)),
                ],
                "left": [FadeOut(plot), FadeIn(maps[0])],
            },
        )
        self.say(
            "triangle",
            TransformFromCopy(maps[0], maps[1]),
            FadeOut(masked),
            beats={"cut": [Create(cut)]},
        )
        k = len(same)
        frame = SurroundingRectangle(right.get_row(row), color=style.HIGHLIGHT, buff=0)
        share = self.spoken(f"causal.attention[{row}][{row}]", 2)
        self.say(
            "row",
            Create(frame),
            beats={"share": [outline(*(right.get_number(row, j) for j in same))]},
            row=row + 1,
            k=k,
            w=share,
        )
        self.say(
            "result_say",
            FadeOut(maps[0]),
            FadeIn(plot),
            then=[[Create(val_mark[0]), FadeIn(val_mark[1])]],
            beats={
                "base": [Create(base_mark[0]), FadeIn(base_mark[1]), GrowFromCenter(gap)],
                "pe": [outline(cut)],
            },
            val=self.spoken("causal.val_mse", 3, notation="auto"),  # as its mark shows it
            base=self.spoken("causal.baseline_mse", 3),
        )
        self.say("outro", FadeOut(frame), outline(cut), beats={"learned": [Create(blocks)]})


def learned_stage(scene: LectureScene) -> tuple[VGroup, VGroup, VGroup]:
    """causal's last part, placed (in causal's words, whichever scene builds it): at the left
    the place where the two-way map, the task and the loss plot stand in turn (the two-way
    map's name over a grid of the learned map's size); at the right the learned map under its
    name, with the mask's staircase edge and a frame on each same-colour cell on or below the
    diagonal; and in the left place the masked head's loss plot with the validation and the
    always-0 levels marked and the gap between them. Returns the place, the plot with its
    marks and gap, and the learned map with its edge and frames."""
    run = scene.data.causal
    words = scene.shared(CausalMask.scene_key)
    grid = scene.colour_map(run.colours, run.attention, "causal.attention", LEARNED)
    head = VGroup(style.text(words["causal_map"], style.BODY_SIZE), grid)
    place = VGroup(style.text(words["both_ways"], style.BODY_SIZE), grid.copy())
    for name, map_ in (head, place):
        name.next_to(map_, UP, buff=style.ITEM_BUFF)
    style.place(VGroup(place, head).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5, aligned_edge=DOWN))
    slot = place[1]
    plot = LossPlot(
        run.loss_curve,
        "causal.steps",
        words["steps_label"],
        CURVE_POINTS,
        width=slot.width * 0.8,
        height=slot.height * 0.8,
        also=(run.val_mse, run.baseline_mse),
        room=1,
    )
    plot.move_to(slot).align_to(slot, DOWN)
    val = scene.number("causal.val_mse", 3, notation="auto")
    base = scene.number("causal.baseline_mse", 3)
    val_mark = plot.mark(run.val_mse, phrase(words["val_line"], style.SMALL_SIZE, mse=val))
    val_mark[1].next_to(val_mark[0], DOWN, buff=style.ITEM_BUFF).align_to(val_mark[0], RIGHT)
    base_mark = plot.mark(
        run.baseline_mse,
        phrase(words["base_line"], style.SMALL_SIZE, style.MUTED, mse=base),
        style.MUTED,
    )
    gap_x = plot.axes.c2p(run.steps * 0.5, 0)[0]  # the distance between the two levels
    gap = DoubleArrow(
        [gap_x, plot.level(run.baseline_mse), 0],
        [gap_x, plot.level(run.val_mse), 0],
        buff=0,
        color=style.HIGHLIGHT,
    )
    n = len(run.colours)
    cut = staircase(grid).set_stroke(style.FOREGROUND, width=3).set_fill(opacity=0)
    blocks = VGroup(
        *(
            SurroundingRectangle(grid.get_cell(a, b), buff=0, stroke_width=2)
            for a in range(n)
            for b in range(a + 1)
            if run.colours[a] == run.colours[b]
        )
    ).set_color(style.HIGHLIGHT)
    return place, VGroup(plot, val_mark, base_mark, gap), VGroup(head, cut, blocks)


@seam_builder
def masked_head(scene: LectureScene) -> VGroup:
    """causal's last picture, multihead's first: at the left the masked head's loss plot with
    its validation and always-0 levels and the gap between them; at the right the map it
    learned under its name, the mask's staircase edge over it and its same-colour cells on or
    below the diagonal framed (:func:`learned_stage`). Two parts: the plot with its marks and
    gap, and the map with its edge and frames."""
    _, result, learned = learned_stage(scene)
    return VGroup(result, learned)
