"""Quiz (seed 000): three questions on what the lecture showed, each with a visible "pause
and think" countdown, then the answer drawn in the picture the question was asked over.

The frame has two parts: a band across the top (the question, its choices and the
countdown ring at its right end) and the stage under it, where each question puts the
picture it is about: the office the office chapter ended on (Q1), the walkthrough
sentence's outputs (Q2), the softmax of one draw of scores at the widest d (Q3). The answer
is shown in that picture. The chapter opens on summary's last picture (the seam ``flow_map``),
folded into the three questions' badges, and ends on question 3's answered frame (the seam
:func:`answered_saturation`, next_time's first).

Render alone with ``manim -ql scenes/chapters/quiz.py Quiz``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import SimpleNamespace

import numpy as np
from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UL,
    UP,
    UR,
    Animation,
    AnimationGroup,
    ApplyMethod,
    Arrow,
    Brace,
    Circle,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromEdge,
    LaggedStart,
    LaggedStartMap,
    Line,
    Mobject,
    ReplacementTransform,
    RoundedRectangle,
    Succession,
    TransformFromCopy,
    Uncreate,
    UpdateFromAlphaFunc,
    ValueTracker,
    VGroup,
    Write,
    always_redraw,
    linear,
)

from scenes.chapters.summary import flow_map
from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.diagrams import QUERY_UNIT, OfficeRoom
from scenes.kit.emphasis import outline
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import Ref, phrase
from scenes.kit.seams import seam, seam_builder
from scenes.kit.sums import TipToTail
from scenes.kit.vectors import WeightBars

SQRT_D = "pitfalls.sqrt_d.dims"
SHUFFLE = "pitfalls.shuffle"
DIFF = "pitfalls.shuffle.without_positions.max_abs_diff"
RING = 0.55  # the countdown ring's radius
STAGE_GROW = 1.4  # a question's picture grows to fill the stage under the band by up to this
CHOICE_PAD = 0.2  # between a choice and its box
FLOOR_UNIT = 1.25  # the office's floor, as the office chapter draws it
DAYS_LINE = (4.5, 1.2)  # the number line of days the office's weighted sum is laid along
LANE = 0.2  # the terms run just above the days line, the sum above them
DAYS_GROW = 1.3  # the room is drawn smaller than in the office chapter; its days are not
SWAP_ARC = PI / 3  # shuffled columns pass over one another
PILE = 0.04  # weights closer than this pile up on the w axis
STEM = 8  # one weight's slope drawn as a height
STRIP_CELL = 0.5  # a cell of an output strip: one number of a word's output
DOT = 0.06  # a weight dropped onto the slope plot's w axis
BAR = (2.4, 0.16)  # a softmax bar of weight 1 at the widest d: length and height
RECAP_SHRINK = 0.15  # summary's last picture, folded into the badges: to this size


class Quiz(LectureScene):
    """Question, countdown, answer in the picture; three times.

    Variants override :attr:`pause` (seconds of the countdown).
    """

    scene_key = "quiz"
    reads = ("pitfalls.shuffle", "pitfalls.sqrt_d", "office", "examples.mixed")
    # the colleagues' names and their days, as the office says them; the caveat's labels in
    # summary's last picture, this chapter's first
    tables = ("office", "caveat")
    opens_on = flow_map.__name__
    ends_on = "answered_saturation"  # its last picture, next_time's first (at the module's end)
    pause = 5

    def construct(self) -> None:
        self.title = self.make_title()
        # summary's last picture at once, under this title: it shrinks aside as the badges come
        recap = seam(self, self.opens_on)
        self.add(self.title, recap)
        badges = VGroup(
            *(
                VGroup(
                    Circle(radius=0.6).set_stroke(style.MUTED, 4),
                    style.name_text(str(k), style.TITLE_SIZE),
                )
                for k in (1, 2, 3)
            )
        ).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5)
        (ring, seconds), _ = _countdown(self.pause, radius=0.9)
        style.place(VGroup(badges, ring).arrange(RIGHT, buff=style.WIDE_BUFF * 2), grow=1.6)
        seconds.update()
        # what the questions ask about folds into them: summary's picture shrinks into the
        # badges as they come in; three questions, then the pause each one gets: the ring the
        # questions will count down
        self.say(
            "intro",
            FadeOut(recap, target_position=badges, scale=RECAP_SHRINK),
            LaggedStartMap(FadeIn, badges, lag_ratio=0.3),
            then=[[Create(ring), FadeIn(seconds)]],
        )
        seconds.clear_updaters()
        self.leaving = [badges, ring, seconds]  # they fade as question 1 comes in
        self._office()
        self._shuffle()
        self._saturation()

    # --- the band: question, choices, countdown ------------------------------------------
    def _band(self, k: int) -> VGroup:
        """Question ``k``'s band (:func:`_question_band`), in this chapter's words."""
        return _question_band(self, k, self.pause)

    def _ask(self, k: int, band: VGroup, shown: list, beats: dict, choices_at: str | None) -> None:
        """Ask question ``k`` while ``shown`` draws its picture; ``beats`` answer the line's
        markers, and the choices come in on the marker ``choices_at`` (after the picture when
        None); then the countdown."""
        gone = [FadeOut(m) for m in self.leaving]  # the last question's picture, crossfaded
        self.leaving = []
        ask = [*gone, FadeIn(band.heading), Write(band.question), *shown]
        choices = LaggedStartMap(FadeIn, band.choices, lag_ratio=0.3)
        if choices_at is None:
            self.say(f"ask_{k}", *ask, then=[[choices]])
        else:
            beats = {**beats, choices_at: [*beats.get(choices_at, []), choices]}
            self.say(f"ask_{k}", *ask, beats=beats)
        self.say("pause", Create(band.ring), FadeIn(band.seconds))
        self.play(
            band.left.animate.set_value(0),
            Uncreate(band.ring),
            run_time=self.pause,
            rate_func=linear,
        )
        band.seconds.clear_updaters()

    def _mark(self, band: VGroup) -> list:
        """The right choice lit, the others dimmed, the countdown's last second gone."""
        return [FadeOut(band.seconds), *_marked(band, lambda m: m.animate)]

    def _clear(self) -> None:
        """What is on screen fades as the next question comes in."""
        self.leaving = [m for m in self.mobjects if m is not self.title]

    # --- Q1: the office, its days averaged ------------------------------------------------
    def _office(self) -> None:
        office, words = self.data.office, self.shared("office")
        last = len(office.grow) - 1
        stop = office.grow[last]  # where the office chapter left its Query
        source = f"office.grow[{last}]"
        band = self._band(1)
        for choice, colour in zip(band.choices, (style.QUERY, style.KEY, style.VALUE), strict=True):
            choice[1].set_color(colour)  # Q, K and V in the colours they have in the room
        names = [words[p] for p in office.people]
        room = OfficeRoom(names, office.keys, office.values, words["days"], unit=FLOOR_UNIT)
        bars = WeightBars(
            [style.text(n, style.LABEL_SIZE, style.KEY) for n in names],
            stop.weights,
            f"{source}.weights",
            length=4.0,
            bar_height=0.3,
        )
        plane = style.muted_axes([0, 10, 5], [-1, 1, 1], *DAYS_LINE)
        ticks = VGroup(
            *(
                style.tick_label(f"{x}", style.LABEL_SIZE).next_to(plane.c2p(x, 0), DOWN)
                for x in (0, 5, 10)
            )
        )
        line = VGroup(plane.x_axis, ticks)
        out = phrase(
            words["output_line"],
            style.BODY_SIZE,
            style.RESULT,
            out=self.number(f"{source}.output", 2),
        )
        out.next_to(ticks, DOWN, buff=style.ITEM_BUFF).align_to(plane.x_axis, LEFT)
        side = VGroup(bars, VGroup(line, plane, out)).arrange(RIGHT, buff=style.WIDE_BUFF)
        picture = VGroup(room, side).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5)
        _stage(band, picture)
        for person in room.people:  # the days stay legible in the smaller room
            person[2].scale(DAYS_GROW, about_edge=UP)
        for row in bars.rows:  # and so do the weights
            row[3].scale(DAYS_GROW, about_edge=LEFT)
        # the terms and the sum are made on the placed line
        values = [[v, 0.0] for v in office.values]
        sums = TipToTail(plane, values, stop.weights, f"{source}.weights", names)
        sums.chain.shift(UP * LANE)
        sums.total.shift(UP * LANE * 3)
        arrow = _query_arrow(room, stop.query)
        days = [p[2] for p in room.people]
        frame = VGroup(*(VGroup(r[0], r[1]) for r in bars.rows))  # names and tracks
        shown = [FadeIn(room), GrowArrow(arrow), FadeIn(frame)]
        # "averaged with the weights": the Query's weights grow along their tracks
        grow = [
            LaggedStart(*(GrowFromEdge(r[2], LEFT) for r in bars.rows), lag_ratio=0.15),
            FadeIn(VGroup(*(r[3] for r in bars.rows))),
        ]
        self._ask(1, band, shown, {"avg": grow}, "avg")
        chain = [a for a in sums.chain]
        self.say(
            "answer_1",
            *self._mark(band),
            outline(*days, colour=style.VALUE),
            beats={
                # the Keys are what the Query is compared with: they set the weights
                # (the days dimmed meanwhile: one focal point)
                "why": [
                    outline(*(p[0] for p in room.people), colour=style.KEY),
                    *(d.animate.set_opacity(style.DIMMED) for d in days),
                ],
                # the days are what is used: each shrinks by its weight onto the line
                "used": [
                    *(d.animate.set_opacity(1) for d in days),
                    FadeIn(line),
                    LaggedStart(
                        *(
                            TransformFromCopy(days[j], a)
                            for j, a in zip(sums.on_plane, chain, strict=True)
                        ),
                        lag_ratio=0.25,
                    ),
                ],
                "days": [sums.draw_sum(), FadeIn(out, shift=UP * 0.2)],
            },
        )
        self._clear()

    # --- Q2: the shuffle, shown -----------------------------------------------------------
    def _column(self, word: str, run: str, kind: str, k: int) -> VGroup:
        """A word over the output at place ``k`` of ``run``'s ``kind`` (``out``...), drawn as
        a strip of cells coloured by value on one scale per run (the run's outputs, shuffled
        or not, all share it), so that equal outputs show as equal colours."""
        shown = getattr(self.data.shuffle, run)
        values = getattr(shown, kind)[k]
        every = [v for m in (shown.out, shown.out_of_shuffled) for row in m for v in row]
        strip = AttentionGrid(
            [[v] for v in values],
            f"{SHUFFLE}.{run}.{kind}[{k}]",
            cell_size=STRIP_CELL,
            show_numbers=False,
            value_range=(min(every), max(every)),
        ).cells
        head = style.text(word, style.BODY_SIZE).next_to(strip, UP, buff=style.ITEM_BUFF)
        return VGroup(head, strip)

    def _shuffle(self) -> None:
        s = self.data.shuffle
        n, order = len(s.tokens), list(s.permutation)
        band = self._band(2)
        plain = "without_positions"
        # row A: the outputs in the sentence's order (they move when the input is shuffled);
        # row B: the shuffled sentence computed again
        above = [self._column(s.tokens[j], plain, "out", j) for j in range(n)]
        below = [self._column(s.tokens[order[k]], plain, "out_of_shuffled", k) for k in range(n)]
        pe = "with_positions"
        above_pe = [self._column(s.tokens[order[k]], pe, "shuffled_out", k) for k in range(n)]
        below_pe = [self._column(s.tokens[order[k]], pe, "out_of_shuffled", k) for k in range(n)]
        pitch = max(c.width for c in above + below + above_pe + below_pe) + 2 * style.WIDE_BUFF
        for row in (above, below, above_pe, below_pe):
            for k, column in enumerate(row):
                column.move_to(RIGHT * k * pitch)
        rows = VGroup(VGroup(*above), VGroup(*below)).arrange(DOWN, buff=style.GROUP_BUFF)
        names = VGroup(
            *(
                style.text(self.words[key], style.LABEL_SIZE, style.MUTED).next_to(
                    row, LEFT, buff=style.GROUP_BUFF
                )
                for key, row in zip(("after", "before"), rows, strict=True)
            )
        )
        rows_pe = VGroup(VGroup(*above_pe), VGroup(*below_pe)).arrange(DOWN, buff=style.GROUP_BUFF)
        rows_pe.move_to(rows)
        brace = Brace(rows, RIGHT, color=style.MUTED)
        diff = self.number(DIFF, 1, notation="scientific")
        caption = self._gap(diff)
        caption_pe = self._gap(
            self.number(f"{SHUFFLE}.with_positions.max_abs_diff", 2),
            style.text(self.words["with_pe"], style.BODY_SIZE),
        )
        for line in (caption, caption_pe):
            line.next_to(brace, RIGHT, buff=style.ITEM_BUFF)
        picture = VGroup(names, rows, rows_pe, brace, caption, caption_pe)
        _stage(band, picture)
        for k in range(n):  # the with-positions outputs at the places their rows have
            above_pe[k].move_to(above[k])
            below_pe[k].move_to(below[k])
        places = [c.get_center() for c in above]
        self._ask(2, band, [LaggedStartMap(FadeIn, VGroup(*above), lag_ratio=0.15)], {}, "shuffle")
        exact = self.data.value(Ref(DIFF)) == 0  # summed in the same order
        ghosts = VGroup(*(c[1].copy().set_stroke(style.HIGHLIGHT, 3) for c in below))
        moves = [above[order[k]].animate(path_arc=SWAP_ARC).move_to(places[k]) for k in range(n)]
        self.say(
            "answer_2_exact" if exact else "answer_2",
            *self._mark(band),
            *moves,
            FadeIn(names[0]),
            beats={
                # the shuffled sentence, computed again: the same outputs, to the last bits
                "why": [
                    *(TransformFromCopy(above[order[k]][0], below[k][0]) for k in range(n)),
                    FadeIn(VGroup(*(c[1] for c in below))),
                    FadeIn(names[1]),
                    FadeIn(brace),
                    FadeIn(caption),
                ],
                # a copy of each recomputed strip lifts onto the one above it: they coincide
                "round": [
                    Succession(
                        ghosts.animate.shift(UP * (above[0][1].get_y() - below[0][1].get_y())),
                        FadeOut(ghosts),
                    )
                ],
                # positions added: the same shuffle no longer gives the same outputs
                "pos": [
                    *(ReplacementTransform(above[order[k]][1], above_pe[k][1]) for k in range(n)),
                    *(ReplacementTransform(below[k][1], below_pe[k][1]) for k in range(n)),
                    ReplacementTransform(caption, caption_pe),
                ],
            },
            diff=self.spoken(DIFF, 1, notation="scientific"),
        )
        self._clear()

    def _gap(self, number: Mobject, *above: Mobject) -> VGroup:
        """The largest difference between the two rows: its words, the number under them."""
        words = phrase(self.words["gap_line"], style.BODY_SIZE, diff=number)
        words[-1].next_to(words[:-1], DOWN, buff=style.ITEM_BUFF, aligned_edge=LEFT)
        return VGroup(*above, words).arrange(DOWN, buff=style.ITEM_BUFF, aligned_edge=LEFT)

    # --- Q3: saturation, and its slope ----------------------------------------------------
    def _saturation(self) -> None:
        last = len(self.data.sqrt_d.dims) - 1
        dims = self.data.sqrt_d.dims[last]
        q3 = _question_3(self, self.pause)
        band, without, with_, d_line, plot = q3.band, q3.without, q3.with_, q3.d_line, q3.plot
        # while asked, the two panels stand in the middle; the slope plot makes room later
        pair = q3.pair
        home = pair.get_center()
        left, _, right, _ = style.content_area()
        pair.move_to([(left + right) / 2, home[1], 0])
        # the mean largest weight as a line across each panel's tracks
        marks = [
            _mean_mark(p, dims.mean_max_scaled, c)
            for p, c in ((without, style.WITHOUT), (with_, style.WITH))
        ]
        empty = [VGroup(r[0], r[1]) for r in without.bars.rows]  # labels and tracks: to fill
        self._ask(
            3,
            band,
            [
                FadeIn(d_line),
                FadeIn(with_.head),
                FadeIn(with_.bars, lag_ratio=0.1),
                FadeIn(without.head),
                FadeIn(VGroup(*empty)),
            ],
            {},
            None,
        )
        # the undivided bars start as copies of the divided ones; the scale then turns from
        # ÷√d to ×1: softmax(λ s) for λ from 1/√d to 1 is w_s^(1−t) w_u^t, renormalised
        rows = without.bars.rows
        scaled, unscaled = dims.example_scaled, dims.example_unscaled
        _lengths(rows, scaled)
        tracks = VGroup(*(r[1] for r in rows))
        mean_x = tracks.get_left()[0] + dims.mean_max_unscaled * tracks.width
        # each weight dropped as a dot onto the slope plot's w axis, piled where they fall
        shift = home - pair.get_center()
        axes, fallen, starts = plot.frame[1], VGroup(), []
        on_curve, stems = q3.on_curve, q3.stems  # where each weight rises to, and its slope
        weights = [*unscaled, *scaled]
        colours = [style.WITHOUT] * len(unscaled) + [style.WITH] * len(scaled)
        tracks = [r[1] for r in (*rows, *with_.bars.rows)]
        for at, up, colour, track in zip(weights, _piles(weights), colours, tracks, strict=True):
            end = track.get_left() + RIGHT * at * track.width + shift
            starts.append(Dot(end, color=colour, radius=DOT))
            fallen.add(Dot(axes.c2p(at, 0) + UP * DOT * (2 * up + 1), color=colour, radius=DOT))
        self.say(
            "answer_3",
            *self._mark(band),
            # the same scores: the divided bars copied into the undivided panel
            *(TransformFromCopy(w[2], f[2]) for w, f in zip(with_.bars.rows, rows, strict=True)),
            Create(marks[0]),
            beats={
                # ×1 instead of ÷√d: the bars morph, the mean largest weight slides to 0.94
                # ×1 instead of ÷√d: the same scores, the bars morph as the scale turns
                "why": [_turning(rows, scaled, unscaled)],
                # the mean largest weight over all draws: its mark slides from 0.37 to 0.94
                "mean": [
                    ApplyMethod(marks[0].set_x, mean_x),
                    FadeIn(VGroup(*(r[3] for r in rows))),
                    FadeIn(without.mean, shift=UP * 0.2),
                ],
                "scaled": [
                    TransformFromCopy(marks[0], marks[1]),
                    FadeIn(with_.mean, shift=UP * 0.2),
                ],
                # near 0 or 1: every weight falls onto the w axis, and they pile at the ends
                "near": [
                    Succession(
                        AnimationGroup(
                            ApplyMethod(VGroup(pair, *marks).shift, shift), FadeIn(plot.frame)
                        ),
                        LaggedStart(
                            *(
                                ReplacementTransform(s, f)
                                for s, f in zip(starts, fallen, strict=True)
                            ),
                            lag_ratio=0.05,
                        ),
                    )
                ],
                # the curve drawn under them; each weight rises to its own slope on it
                "slope": [
                    Create(plot.curve),
                    *(ReplacementTransform(f, c) for f, c in zip(fallen, on_curve, strict=True)),
                ],
                # each weight's slope as a height: those near 0 or 1 have almost none
                "grad": [LaggedStart(*(GrowFromEdge(h, DOWN) for h in stems), lag_ratio=0.05)],
                # over all draws: the mean slope at the mean largest weight, 0.04 against 0.22
                "learn": [
                    VGroup(on_curve, stems).animate.set_opacity(style.DIMMED),
                    Create(plot.heights, lag_ratio=0.5),
                    FadeIn(plot.dots, lag_ratio=0.5),
                ],
            },
            d=self.spoken(f"{SQRT_D}[{last}].d", 0),
            unscaled=self.spoken(f"{SQRT_D}[{last}].mean_max_unscaled", 2),
            scaled=self.spoken(f"{SQRT_D}[{last}].mean_max_scaled", 2),
        )
        # the chapter ends on this answered frame, the seam answered_saturation


def _lengths(rows: VGroup, weights) -> None:
    """Each bar of ``rows`` (WeightBars rows) as long as its weight, from its track's left."""
    for row, w in zip(rows, weights, strict=True):
        row[2].stretch_to_fit_width(max(w * row[1].width, 1e-3)).align_to(row[1], LEFT)


def _turning(rows: VGroup, scaled, unscaled) -> Animation:
    """The scale on the scores turned from ÷√d to ×1: softmax(λ s) for λ between them is
    scaled^(1−t) · unscaled^t renormalised, so the bars morph exactly."""
    a, b = np.asarray(scaled, float), np.asarray(unscaled, float)

    def turn(_, t: float) -> None:
        w = a ** (1 - t) * b**t
        _lengths(rows, w / w.sum())

    return UpdateFromAlphaFunc(VGroup(*(r[2] for r in rows)), turn)


def _piles(weights) -> list[int]:
    """How many earlier weights fall within a pile's width of each: its height in the pile."""
    return [sum(abs(w - v) < PILE for v in weights[:k]) for k, w in enumerate(weights)]


def _query_arrow(room: OfficeRoom, query) -> Mobject:
    """The office's Query arrow, from the room's centre, as the office chapter draws it."""
    start, end = room.room.get_center(), room.point(query, QUERY_UNIT)
    return Arrow(start, end, buff=0, color=style.QUERY, stroke_width=6)


# --- the parts every question's band and question 3's picture are made of, also built by the
# seam next_time opens on (so in the quiz's words, whichever scene builds them) --------------
def _countdown(pause: float, radius: float = RING) -> tuple[VGroup, ValueTracker]:
    """The countdown ring with its seconds left (from ``pause``), and what they count."""
    ring = Circle(radius=radius).set_stroke(style.HIGHLIGHT, 6)
    left = ValueTracker(pause)

    def seconds() -> VGroup:
        shown = max(1, math.ceil(left.get_value() - 1e-9))
        return style.name_text(str(shown), style.TITLE_SIZE).move_to(ring)

    return VGroup(ring, always_redraw(seconds)), left


def _question_band(scene: LectureScene, k: int, pause: float) -> VGroup:
    """Question ``k`` across the top: its number and words, the choices under them, the
    countdown ring at the right end; placed. ``band.right`` is the right choice."""
    words = scene.shared("quiz")
    heading = style.text(words.format("question", k=k), style.BODY_SIZE, style.MUTED)
    question = style.text(words[f"q{k}"], style.TITLE_SIZE)
    asked = VGroup(heading, question).arrange(RIGHT, buff=style.GROUP_BUFF, aligned_edge=DOWN)
    said, right = scene.choices(f"choices_{k}", "quiz")
    choices = VGroup()
    for choice in said:
        label = style.text(choice, style.BODY_SIZE)
        frame = RoundedRectangle(
            corner_radius=0.1,
            width=label.width + 2 * CHOICE_PAD,
            height=label.height + 2 * CHOICE_PAD,
        ).set_stroke(style.MUTED, 3)
        choices.add(VGroup(frame, label.move_to(frame)))
    choices.arrange(RIGHT, buff=style.WIDE_BUFF)
    lines = VGroup(asked, choices).arrange(DOWN, aligned_edge=LEFT, buff=style.ITEM_BUFF)
    style.place(lines, aligned=UL)
    (ring, seconds), left = _countdown(pause)
    style.place(ring, aligned=UR)
    ring.align_to(choices, DOWN)
    room = ring.get_left()[0] - style.GROUP_BUFF - choices.get_left()[0]
    if choices.width > room:  # long choices (English) keep clear of the ring
        choices.scale(room / choices.width, about_edge=LEFT)
    seconds.update()
    band = VGroup(heading, question, choices)
    band.heading, band.question, band.choices, band.right = heading, question, choices, right
    band.ring, band.seconds, band.left = ring, seconds, left
    return band


def _marked(band: VGroup, how: Callable[[Mobject], Mobject]) -> list:
    """The right choice lit, the others dimmed: done to each part as ``how`` gives it (its
    ``.animate`` to play it, the part itself to set it)."""
    wrong = [c for j, c in enumerate(band.choices) if j != band.right]
    return [
        how(band.choices[band.right][0]).set_stroke(style.RESULT, 6),
        *(how(c[0]).set_stroke(opacity=style.DIMMED) for c in wrong),
        *(how(c[1]).set_opacity(style.DIMMED) for c in wrong),
    ]


def _stage(band: VGroup, picture: Mobject) -> Mobject:
    """Fit ``picture`` in the stage under ``band`` (the rest of the content area), centred,
    enlarged by up to :data:`STAGE_GROW` to fill it."""
    left, bottom, right, _ = style.content_area()
    top = band.get_bottom()[1] - style.GROUP_BUFF
    fit = min((right - left) / picture.width, (top - bottom) / picture.height)
    picture.scale(min(STAGE_GROW, fit))
    return picture.move_to([(left + right) / 2, (top + bottom) / 2, 0])


def _panel(scene: LectureScene, kind: str, colour) -> VGroup:
    """One draw's softmax at the widest d, ``kind`` ``unscaled`` or ``scaled``: bars
    under their heading, the mean largest weight (over all draws) under them."""
    words = scene.shared("quiz")
    last = len(scene.data.sqrt_d.dims) - 1
    weights = getattr(scene.data.sqrt_d.dims[last], f"example_{kind}")
    labels = [style.tick_label(str(j + 1)) for j in range(len(weights))]
    bars = WeightBars(labels, weights, f"{SQRT_D}[{last}].example_{kind}", BAR[0], colour, BAR[1])
    head = style.text(words[kind], style.BODY_SIZE, colour)
    mean = phrase(
        words["top_mean"],
        style.LABEL_SIZE,
        colour,
        w=scene.number(f"{SQRT_D}[{last}].mean_max_{kind}", 2),
        n=scene.number("pitfalls.sqrt_d.draws", 0),
    )
    panel = VGroup(head, bars, mean).arrange(DOWN, buff=style.ITEM_BUFF * 1.5)
    panel.head, panel.bars, panel.mean = head, bars, mean
    return panel


def _mean_mark(panel: VGroup, w: float, colour) -> Line:
    """A line across ``panel``'s tracks at weight ``w``."""
    tracks = VGroup(*(r[1] for r in panel.bars.rows))
    x = tracks.get_left()[0] + w * tracks.width
    line = Line([x, tracks.get_top()[1], 0], [x, tracks.get_bottom()[1], 0])
    return line.set_stroke(colour, 4)


def _question_3(scene: LectureScene, pause: float) -> SimpleNamespace:
    """Question 3's band and picture where the answer leaves them: d = 512 over the two
    panels of one draw's softmax (``.pair``: without √d, ``.without``, and with it,
    ``.with_``), the slope plot at their right (``.plot``), the mean largest weights marked
    across the panels (``.marks``), and each weight of both draws on the curve (``.on_curve``)
    over its slope drawn as a height (``.stems``)."""
    last = len(scene.data.sqrt_d.dims) - 1
    dims = scene.data.sqrt_d.dims[last]
    band = _question_band(scene, 3, pause)
    without = _panel(scene, "unscaled", style.WITHOUT)
    with_ = _panel(scene, "scaled", style.WITH)
    d_line = phrase(
        scene.shared("quiz")["d_line"], style.BODY_SIZE, d=scene.number(f"{SQRT_D}[{last}].d", 0)
    )
    panels = VGroup(without, with_).arrange(RIGHT, buff=style.WIDE_BUFF, aligned_edge=UP)
    plot = scene.widest_slopes()
    picture = VGroup(VGroup(d_line, panels).arrange(DOWN, buff=style.ITEM_BUFF), plot)
    picture.arrange(RIGHT, buff=style.WIDE_BUFF * 1.2)
    _stage(band, picture)
    marks = [
        _mean_mark(without, dims.mean_max_unscaled, style.WITHOUT),
        _mean_mark(with_, dims.mean_max_scaled, style.WITH),
    ]
    axes, on_curve, stems = plot.frame[1], VGroup(), VGroup()
    weights = [*dims.example_unscaled, *dims.example_scaled]
    colours = [style.WITHOUT] * len(dims.example_unscaled) + [style.WITH] * len(dims.example_scaled)
    for at, colour in zip(weights, colours, strict=True):
        on_curve.add(Dot(axes.c2p(at, at * (1 - at)), color=colour, radius=DOT))
        stem = Line(axes.c2p(at, 0), axes.c2p(at, max(at * (1 - at), 1e-3)))
        stems.add(stem.set_stroke(colour, STEM))
    return SimpleNamespace(
        band=band,
        d_line=d_line,
        without=without,
        with_=with_,
        pair=picture[0],
        plot=plot,
        marks=marks,
        on_curve=on_curve,
        stems=stems,
    )


@seam_builder
def answered_saturation(scene: LectureScene) -> VGroup:
    """quiz's last picture, next_time's first: question 3 answered and settled. The band
    with 「softmax 飽和」 lit and the other choices dimmed; d = 512 over the two panels of
    bars (without and with √d), each with its weights, its mean largest weight and its mark;
    the slope plot with its curve, each weight's dot and height dimmed, and the two mean
    slopes drawn as heights with their values."""
    q3 = _question_3(scene, Quiz.pause)
    _marked(q3.band, lambda m: m)
    VGroup(q3.on_curve, q3.stems).set_opacity(style.DIMMED)
    return VGroup(q3.band, q3.pair, *q3.marks, q3.plot, q3.on_curve, q3.stems)
