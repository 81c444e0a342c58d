"""Next time (seed 000's open question): how does it generate, one word after another, and
when does it stop? The causal map learned earlier is the one piece already in hand.

Render alone with ``manim -ql scenes/chapters/next_time.py NextTime``.
"""

from __future__ import annotations

import math

from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    Add,
    AnimationGroup,
    ApplyMethod,
    Create,
    DashedVMobject,
    FadeIn,
    FadeOut,
    LaggedStart,
    Line,
    MathTex,
    Polygon,
    Rectangle,
    ReplacementTransform,
    ShowPassingFlash,
    Square,
    Succession,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
    Wait,
)

from scenes.chapters.quiz import answered_saturation
from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.devices import ModelBox
from scenes.kit.diagrams import BrowserWindow
from scenes.kit.emphasis import outline
from scenes.kit.labels import TokenStrip
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import phrase
from scenes.kit.seams import seam

IT_CAT = "tokens.it_cat"
STRIP_WIDTH = 6.8  # the causal run's sequence, and the model box as wide as it
WORD_SIZE = 40  # the prompt's words
SLOT = 0.6  # side of the empty slot the next word goes into
MAP_CELL = 0.52  # the causal map's cells, beside the model
PROMPT_CELL = 1.0  # the mask drawn on the prompt's words
DEMO_CELL = 0.35  # the page's it/cat map, inside the browser window
TRAIN_CELL = 0.4  # the page's colour-task map, as it trains
LOOP_ARC = -1.4  # radians: the written word's path from the output back into the input
WINDOW_WIDTH = 5.8  # the page's window: its map's words readable
KEPT_SCALE = 0.45  # the prompt's mask, stepped aside beside the learned map
CLOSING_HOLD = 2.0  # seconds the lecture's closing frame stays after the last word
STAGE_GROW = 1.5  # the strip and the box, centred and enlarged while they are the picture
BAR_UNIT = 1.0  # scene units per 1.0 of an output, before the stage is scaled
BAR_WIDTH = 0.3  # an output's bar, under its marker
TICK_WIDTH = 0.5  # the target's tick across its bar
DIMMED = 0.7  # how far the stage fades while the learned map is the picture
BLINKS = 2  # the slot blinks like a text cursor this many times
SNAPSHOT = 0.55  # seconds the page's map holds each step training watched
OUTRO_GROW = 1.3  # the open questions and the model, enlarged into their room at the end
STOP = 0.3  # seconds the slider's knob takes from one temperature to the next


def recolour(grid: AttentionGrid, like: AttentionGrid) -> None:
    """Give ``grid``'s cells the colours of ``like``'s (the same map at another step):
    redrawn in place, its structure untouched (so an animation running on it still can)."""
    for cell, other in zip(grid.cells, like.cells, strict=True):
        cell.set_fill(other.get_fill_color())


class NextTime(LectureScene):
    """Today's model, sequence in and sequence out; then a prompt with an empty slot after
    it, the mask already in hand, the loop, the stop; the page; the lecture's closing frame."""

    scene_key = "next_time"
    reads = (
        "causal",
        "tokens.it_cat",
        "tokens.eat_apple",
        "examples.{example_name}",
        "training.settling_steps",
        "training.steps",
        "pitfalls.sqrt_d",  # quiz's last picture, this chapter's first
    )
    # the model box's two parts, named as the training chapter names them; the quiz's words in
    # its last picture, this chapter's first
    tables = ("training", "quiz")
    opens_on = answered_saturation.__name__
    example_name = "mixed"  # the colour task's example the page trains on, watched as it learns

    def construct(self) -> None:
        self.title = self.make_title()
        run = self.data.causal
        markers = [self.colour_marker(c) for c in run.colours]
        strip = TokenStrip(markers, run.values, "causal.values")
        strip.scale_to_fit_width(STRIP_WIDTH)
        box = self.model_box(STRIP_WIDTH)
        rows = self._outputs(run.predictions, run.targets, strip)
        grid = self.colour_map(run.colours, run.attention, "causal.attention", MAP_CELL)
        label = style.text(self.words["causal_label"], style.LABEL_SIZE)
        right = VGroup(label, grid).arrange(DOWN, buff=style.GROUP_BUFF)
        left = VGroup(strip, box, rows).arrange(DOWN, buff=style.TIGHT_BUFF)
        rows.match_x(strip)  # each bar under its marker
        style.place(VGroup(left, right).arrange(RIGHT, buff=style.WIDE_BUFF), grow=1.3)
        # While the sequence and the model are the whole picture they fill the frame, centred;
        # the mask's line sends them back to this place, beside the map.
        home, width = left.get_center(), left.width
        style.place(left, grow=STAGE_GROW)
        self.home = (home, width / left.width, left.get_center())
        # quiz's last picture at once: as the model comes in, it folds into the model's head
        # (where the softmax and its scores are), then the sequence comes down over the model
        answered = seam(self, self.opens_on)
        self.add(self.title, answered)
        into = min(box.head.width / answered.width, box.head.height / answered.height)
        self.say(
            "intro",
            FadeIn(box),
            FadeOut(answered, target_position=box.head, scale=into),
            then=[[FadeIn(strip, shift=DOWN * 0.3, lag_ratio=0.05)]],
        )
        slot = self._slot().next_to(strip, RIGHT, buff=style.ITEM_BUFF)
        self.say(
            "task",
            box.feed(strip, rows),
            beats={"generate": [FadeOut(rows, shift=DOWN * style.GROUP_BUFF), Create(slot)]},
        )
        self._prompt(len(run.colours), strip, box, slot, (label, grid))

    @staticmethod
    def _outputs(predictions: list[float], targets: list[float], strip: TokenStrip) -> VGroup:
        """The model's outputs as it gives them back, one under each marker: a bar (ŷ) up or
        down from a zero line, its target (y) a tick across it; named on the left."""
        zero = Line(strip.get_left(), strip.get_right()).set_stroke(style.MUTED, 2)
        bars, ticks = VGroup(), VGroup()
        for p, t, column in zip(predictions, targets, strip.columns, strict=True):
            bar = Rectangle(width=BAR_WIDTH, height=max(abs(p) * BAR_UNIT, 0.01))
            bar.set_stroke(width=0).set_fill(style.FOREGROUND, 0.75)
            bars.add(bar.next_to(zero, UP if p >= 0 else DOWN, buff=0).match_x(column))
            tick = Line(LEFT * TICK_WIDTH / 2, RIGHT * TICK_WIDTH / 2)
            ticks.add(tick.set_stroke(style.HIGHLIGHT, 5).move_to(zero).shift(UP * t * BAR_UNIT))
            tick.match_x(column)
        names = VGroup(
            MathTex(r"\hat{y}", font_size=36, color=style.FOREGROUND),
            MathTex("y", font_size=36, color=style.HIGHLIGHT),
        ).arrange(DOWN, buff=style.ITEM_BUFF)
        names.next_to(zero, LEFT, buff=style.GROUP_BUFF)
        return VGroup(zero, bars, ticks, names)

    def _stage_aside(self, stage: VGroup) -> VGroup:
        """Where the centred stage goes when the mask's map needs the room: back to its
        place beside the map, at its size there (a copy, moved)."""
        home, scale, centre = self.home
        return stage.copy().scale(scale, about_point=centre).shift(home - centre)

    @staticmethod
    def _blink(slot: VGroup) -> ApplyMethod:
        """The empty slot blinking like a text cursor: waiting for a word."""
        return ApplyMethod(
            slot.set_stroke,
            None,  # the colour and width as they are; the opacity
            None,
            0.1,
            rate_func=lambda t: (1 - math.cos(2 * PI * BLINKS * t)) / 2,
        )

    @staticmethod
    def _slot() -> VGroup:
        """An empty place for the next word, dashed in the highlight."""
        return DashedVMobject(Square(SLOT).set_stroke(style.HIGHLIGHT, 3), num_dashes=16)

    def _prompt(
        self,
        n: int,
        strip: TokenStrip,
        box: ModelBox,
        slot: VGroup,
        right: tuple[VGroup, AttentionGrid],
    ) -> None:
        label, grid = right
        words = VGroup(*(style.text(w, WORD_SIZE) for w in self.words["prompt"].split(",")))
        words.arrange(RIGHT, buff=style.GROUP_BUFF)
        # The prompt, the word it writes and two slots stay within the strip's width.
        written = style.text(self.words["written"], WORD_SIZE, style.HIGHLIGHT)  # the example
        room = strip.width - written.width - slot.width - 2 * style.GROUP_BUFF
        if words.width > room:
            words.scale_to_fit_width(room)
        words.move_to(strip).align_to(strip, LEFT)
        new_slot = self._slot().next_to(words, RIGHT, buff=style.GROUP_BUFF)
        blank = style.text(self.words["next_word"], WORD_SIZE, style.HIGHLIGHT)
        blank.next_to(box, DOWN, buff=style.GROUP_BUFF).match_x(new_slot)
        frame = SurroundingRectangle(blank, color=style.HIGHLIGHT, buff=style.HUG_BUFF)
        self.say(
            "prompt_say",
            FadeOut(strip, shift=UP * 0.3),
            # the words drop into the strip's places, one after another
            LaggedStart(*(FadeIn(w, shift=DOWN * style.GROUP_BUFF) for w in words), lag_ratio=0.6),
            Transform(slot, new_slot),
            beats={
                "write": [self._blink(slot)],
                "next": [box.feed(words, VGroup(blank, frame))],
            },
        )
        # the stage steps back beside the map when the mask's line begins
        stage = VGroup(box, words, slot, blank, frame)
        aside = self._stage_aside(stage)
        dimmed = aside.copy().fade(DIMMED)
        triangle = self._triangle(grid, n)
        # the mask on the prompt itself: each word sees itself and the words before it
        mask = self._prompt_mask(words)
        mask.scale(min(1.0, grid.width / mask.width, grid.height / mask.height)).move_to(grid)
        lit = [mask.get_cell(i, j) for i in range(len(words)) for j in range(i + 1)]
        for cell in lit:
            cell.set_fill(style.PLAIN_CELL)
        staircase = self._triangle(mask, len(words))
        # the prompt's mask, kept small beside the learned map: the same staircase, twice
        kept = VGroup(mask, staircase).copy()
        kept.scale(KEPT_SCALE).next_to(grid, LEFT, buff=style.GROUP_BUFF).align_to(grid, UP)
        for cell in (kept[0].get_cell(i, j) for i in range(len(words)) for j in range(i + 1)):
            cell.set_fill(style.WEIGHT)
        kept[0].row_headers.set_opacity(0)  # too small to read once aside: the shape speaks
        kept[0].col_headers.set_opacity(0)
        self.say(
            "mask",
            Transform(stage, aside),
            then=[[FadeIn(label), FadeIn(mask, target_position=aside[0].head, scale=0.2)]],
            beats={
                # row by row, each word's own cell and the cells of the words before it light,
                # then the staircase they make is outlined
                "own": [
                    Succession(
                        LaggedStart(
                            *(c.animate.set_fill(style.WEIGHT) for c in lit), lag_ratio=0.25
                        ),
                        Create(staircase),
                    )
                ],
                # the same staircase, learned: the prompt's mask steps aside, the colour task's
                # causal map grows in its place and the outline travels onto the learned one
                # the stage dims: the learned map is the one picture
                "triangle": [
                    Transform(VGroup(mask, staircase), kept),
                    Transform(stage, dimmed),
                    FadeIn(grid, scale=0.8),
                    Succession(
                        Wait(0.5),
                        TransformFromCopy(kept[1], triangle),
                        ShowPassingFlash(
                            triangle.copy().set_stroke(style.HIGHLIGHT, 10), time_width=0.4
                        ),
                    ),
                ],
            },
        )
        # The loop: the written word (an example from the words) goes back into the input.
        written.move_to(blank)
        placed = written.copy().next_to(words, RIGHT, buff=style.GROUP_BUFF).match_y(words)
        second_slot = self._slot().next_to(placed, RIGHT, buff=style.GROUP_BUFF)
        second = blank.copy().match_x(second_slot)
        second_frame = frame.copy().move_to(second)
        self.say(
            "loop",
            ReplacementTransform(blank, written),
            FadeOut(frame),
            Transform(VGroup(box, words, slot), aside[:3].copy()),  # the stage back in full
            beats={
                "append": [
                    Transform(written, placed, path_arc=LOOP_ARC),
                    FadeOut(slot),
                    Create(second_slot),
                ],
                "again": [box.feed(VGroup(words, written), VGroup(second, second_frame))],
            },
            written=self.words["written"],  # said as an example: not what our model wrote
        )
        stop = style.text(self.words["stop"], WORD_SIZE, style.HIGHLIGHT)
        stop.next_to(second_frame, LEFT, buff=style.GROUP_BUFF)
        self.say("stop_say", FadeIn(stop, shift=RIGHT * 0.3), then=[[outline(stop)]])
        questions = VGroup(words, written, second_slot, second, second_frame, stop)
        self._outro(questions, VGroup(box, label, grid, triangle, mask, staircase))

    def _prompt_mask(self, words: VGroup) -> AttentionGrid:
        """What the mask lets each of the prompt's words see: itself and the words before it
        (lit), never a later one (dark); the words as the rows' and columns' names."""
        n, tokens = len(words), self.words["prompt"].split(",")
        return AttentionGrid(
            [[1.0 if j <= i else 0.0 for j in range(n)] for i in range(n)],
            row_headers=[style.text(t, style.BODY_SIZE, style.QUERY) for t in tokens],
            col_headers=[style.text(t, style.BODY_SIZE, style.KEY) for t in tokens],
            cell_size=PROMPT_CELL,
            show_numbers=False,
        )

    @staticmethod
    def _triangle(grid: AttentionGrid, n: int) -> Polygon:
        """The edge of what the mask lets through: the diagonal and every cell below it."""
        points = [grid.get_cell(0, 0).get_corner(UP + LEFT)]
        for i in range(n):
            cell = grid.get_cell(i, i)
            points += [cell.get_corner(UP + RIGHT), cell.get_corner(DOWN + RIGHT)]
        points.append(grid.get_cell(n - 1, 0).get_corner(DOWN + LEFT))
        return Polygon(*points, color=style.HIGHLIGHT, stroke_width=5)

    def _demo(self) -> tuple[VGroup, list[AttentionGrid]]:
        """One of the page's demos, drawn small: the it/cat map (its words on the rows and
        columns) above its temperature slider, and the map at each temperature the data file
        holds (the slider's stops)."""
        tokens = self.data.it_cat.tokens
        maps = [
            AttentionGrid(
                t.weights,
                f"{IT_CAT}.temperatures[{k}].weights",
                # each row a word's query, each column a word's key, as the page labels them
                row_headers=[style.text(w, style.LABEL_SIZE, style.QUERY) for w in tokens],
                # upright would not fit over the narrow columns: turned, on one line
                col_headers=[
                    style.text(w, style.LABEL_SIZE, style.KEY).rotate(PI / 2) for w in tokens
                ],
                cell_size=DEMO_CELL,
            )
            for k, t in enumerate(self.data.it_cat.temperatures)
        ]
        for m in maps:
            m.numbers.set_opacity(0)  # read by brightness: the page shows the numbers on hover
        track = Square(1).stretch_to_fit_height(0.06).stretch_to_fit_width(maps[0].width)
        track.set_stroke(style.MUTED, 0).set_fill(style.MUTED, 1)
        knob = Square(0.22).set_stroke(style.HIGHLIGHT, 0).set_fill(style.HIGHLIGHT, 1)
        knob.move_to(track.get_left())
        demo = VGroup(maps[0], VGroup(track, knob)).arrange(DOWN, buff=style.GROUP_BUFF)
        return demo, maps

    def _outro(self, questions: VGroup, model: VGroup) -> None:
        box, rest = model[0], model[1:]
        demo, maps = self._demo()
        window = BrowserWindow(demo, self.words["page"], width=WINDOW_WIDTH)
        # the window at its size against the right edge; the open questions and the model
        # fill the rest
        style.place(window, aligned=RIGHT)
        # the page trains the colour task in the browser: its map, untrained, then as it
        # learns (the steps training watched), in a window against the same edge
        training, shown = self._training_window()
        chrome = training[:-1]  # the window without its content, which the replay redraws
        asked = VGroup(questions, box)
        target = asked.copy()
        left_edge = style.content_area()[0]
        room = min(window.get_left()[0], training.get_left()[0]) - style.WIDE_BUFF - left_edge
        target.scale(min(OUTRO_GROW, room / target.width))  # as large as its room allows
        target.move_to([left_edge + room / 2, window.get_y(), 0])
        inner_map = window.get_content()[0]
        stops = [m.copy().replace(inner_map) for m in maps]
        it_row = self.data.it_cat.query_index
        it_frame = SurroundingRectangle(
            VGroup(inner_map.get_row(it_row), inner_map.row_headers[it_row]),
            color=style.HIGHLIGHT,
            buff=style.TIGHT_BUFF,
        )
        self._walk(window, stops)
        closing, arrows = self._closing()
        self.say(
            "outro",
            FadeOut(rest),
            # the open questions and the model take the room the page's window leaves them
            Transform(asked, target),
            beats={
                "lab": [
                    FadeIn(chrome),
                    Add(shown),
                ],
                # one window goes, the other grows in; the "it" row framed as the knob walks
                "slider": [
                    Succession(
                        AnimationGroup(FadeOut(chrome), FadeOut(shown)),
                        FadeIn(window, scale=0.8),  # its knob starts walking once it is in
                        Create(it_frame),
                    ),
                ],
                "thanks": [
                    FadeOut(VGroup(self.title, asked, window, it_frame)),
                    FadeIn(closing),
                    Succession(Wait(0.3), LaggedStart(*(Create(a) for a in arrows), lag_ratio=0.3)),
                ],
            },
        )
        self.wait(CLOSING_HOLD)

    @staticmethod
    def _walk(window: BrowserWindow, stops: list[AttentionGrid]) -> None:
        """The slider's knob walking right through the temperatures and back, a stop every
        :data:`STOP` seconds, the map recoloured at each: a clock on the window, so that it
        starts once the window is in (an animation holds its updaters) and goes on under
        the words, not squeezed into the beat's animation."""
        shown, (track, knob) = window.get_content()
        last = len(stops) - 1
        left, step = track.get_left(), track.width / last
        clock = [0.0]

        def walk(_: VGroup, dt: float) -> None:
            clock[0] += dt
            x = last - abs(last - min(clock[0] / STOP, 2 * last))  # 0 → last → 0
            knob.move_to(left + RIGHT * step * x)
            recolour(shown, stops[round(x)])

        window.add_updater(walk)

    def _training_window(self) -> tuple[BrowserWindow, VGroup]:
        """The page's colour-task demo against the right edge: the window around the map
        training found at step 0 and the step it is at; and its
        replay through each step training watched into the learned map, a snapshot every
        :data:`SNAPSHOT` seconds under the words (a clock on the window's content)."""
        ex = self.data.example(self.example_name)
        source = f"examples.{self.example_name}"
        maps = [
            self.colour_map(ex.colours, m, f"{source}.settling[{k}]", TRAIN_CELL)
            for k, m in enumerate(ex.settling)
        ]
        maps.append(self.colour_map(ex.colours, ex.attention, f"{source}.attention", TRAIN_CELL))
        steps = [f"training.settling_steps[{k}]" for k in range(len(ex.settling))]
        steps.append("training.steps")  # the learned map: after the last step
        captions = VGroup(
            *(
                phrase(
                    self.words["step"],
                    style.SMALL_SIZE,
                    style.MUTED,
                    step=self.number(at, 0),
                    steps=self.number("training.steps", 0),
                )
                for at in steps
            )
        )
        for caption in captions[1:]:  # one caption at a time, all in one place
            caption.set_opacity(0)
        maps[0].numbers.set_opacity(0)  # read by brightness, as the slider's map is
        content = VGroup(maps[0], captions.next_to(maps[0], DOWN, buff=style.ITEM_BUFF))
        for caption in captions:
            caption.move_to(captions)
        window = BrowserWindow(content, self.words["page"], width=WINDOW_WIDTH)
        style.place(window, aligned=RIGHT)  # where the slider's window will be
        shown = window.get_content()
        clock = [0.0]

        def replay(content: VGroup, dt: float) -> None:
            clock[0] += dt
            k = min(int(clock[0] / SNAPSHOT), len(maps) - 1)
            recolour(content[0], maps[k])
            shown = content[0].cells[0].get_fill_opacity()  # 0 once the window has faded out
            for j, caption in enumerate(content[1]):  # the step's caption, the others hidden
                caption.set_opacity(shown if j == k else 0.0)

        shown.add_updater(replay)
        return window, shown

    def _closing(self) -> tuple[VGroup, VGroup]:
        """The lecture's closing frame: its name over the picture it opened on (蘋果 choosing
        what to look at), and the page to try it on; with the arrows, which grow as the
        opening drew them."""
        name = style.text(self.shared("page")["lecture"], style.TITLE_SIZE * 1.3)
        words, arrows = self.apple_choice()
        page = style.text(self.words["page"], style.BODY_SIZE, style.MUTED)
        card = VGroup(name, VGroup(arrows, words), page).arrange(DOWN, buff=style.SECTION_BUFF)
        style.place(card, grow=1.6)
        return VGroup(name, words, arrows.numbers, page), arrows.arrows
