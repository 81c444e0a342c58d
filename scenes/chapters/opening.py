"""The opening (seed 000): the title, the one-line idea, the trained map as a promise, and
the contents of the lecture, each part named as the list is read.

Render alone with ``manim -ql scenes/chapters/opening.py Opening``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    DR,
    LEFT,
    PI,
    RIGHT,
    UL,
    UP,
    Animation,
    AnimationGroup,
    Arrow,
    Circle,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromPoint,
    LaggedStart,
    MathTex,
    Mobject,
    ReplacementTransform,
    RoundedRectangle,
    SingleStringMathTex,
    Succession,
    SurroundingRectangle,
    Text,
    Transform,
    TransformFromCopy,
    UpdateFromAlphaFunc,
    VGroup,
    linear,
)

from scenes.kit import style
from scenes.kit.base import APPLE_ROW, LectureScene, top_index
from scenes.kit.devices import RandomWalks
from scenes.kit.diagrams import (
    QUERY_UNIT,
    BrowserWindow,
    LossPlot,
    OfficeRoom,
    TransformerLayers,
)
from scenes.kit.emphasis import outline
from scenes.kit.labels import TokenStrip
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import Ordinal, ShownNumber, phrase
from scenes.kit.vectors import FixedInputNetwork, LookingArrows, NumberVector

EAT = "tokens.eat_apple"
IDEA_GROW = 1.3  # the idea and 我 吃 蘋果, enlarged to use the frame
SWAP_ARC = PI / 2  # words trading places pass over and under each other
SHOW_SHARE = 0.25  # of a cue: the words coming in before they trade places over the rest
GROW_LAG = 0.02  # a map's cells growing out of one point, one after another
PLOT_SIZE = (4.0, 3.2)  # a small loss plot, as built (the panel may enlarge it)
STRIP_ROW = 4  # positions a row of the sequence shown in the page (two rows of the eight)
MODEL_GROW = 1.6  # the small model (sequence over head and readout), enlarged to use the frame
PANEL_GROW = 3.0  # the most a part's picture is enlarged to fill the stage above the slots
WORDS_GROW = 1.5  # a row of words on the stage: large, not edge to edge
SLOT_RATIO = 0.42  # a part's slot, height to width (its picture fitted inside)
BADGE_RADIUS = 0.6  # the quiz card's numbered badges, as the quiz opens with them
QUIZ_MOST = 9  # the quiz's questions are counted from its words, q1, q2, ... up to this
BLOCK_WIDTH = 5.5  # the attention sublayer holding 我 吃 蘋果, as built (then placed)
LAYER_WIDTH = 2.4  # the sublayers of the layer a part's picture shows, as built (then fitted)
WORDS = (Text, MathTex, SingleStringMathTex)  # too small to read once a picture is an icon

# A part's picture: the whole (None: no picture), what plays as the part is named, and the
# beats of the line's markers.
Thumb = tuple[VGroup | None, list[Animation], dict[str, list[Animation]]]


def _take_words(picture: Mobject) -> VGroup:
    """Take the words out of ``picture`` (what is left, cells, arrows, walls, is its icon)
    and return them, to be faded out."""
    words = VGroup()
    for sub in list(picture.submobjects):
        if isinstance(sub, WORDS):
            picture.remove(sub)
            words.add(sub)
        else:
            words.add(*_take_words(sub))
    return words


class Opening(LectureScene):
    """Title and idea; 蘋果 choosing what to look at; the learned map; the parts of the day.

    Variants override :attr:`teaser` (the example whose learned map is promised).
    """

    scene_key = "opening"
    reads = (
        "tokens.eat_apple",
        "training",
        "examples.{teaser}",
        "office",
        "pitfalls.sqrt_d",
        "multihead.two",
    )
    tables = ("office", "shuffle", "zoom_out", "training", "quiz")  # words of the parts' pictures
    teaser = "mixed"

    def construct(self) -> None:
        self.title = self.make_title()
        self._idea()
        self._promise()
        self._contents()

    def _idea(self) -> None:
        """我 吃 蘋果: each position outlined, 蘋果's arrows to where it looks, how much on
        each; then the block it is, carried into a Transformer layer's attention sublayer."""
        ex = self.data.eat_apple
        words, arrows = self.apple_choice()
        idea = style.text(self.words["idea"], style.TITLE_SIZE)
        picture = VGroup(idea, VGroup(arrows, words)).arrange(DOWN, buff=style.SECTION_BUFF)
        style.place(picture, grow=IDEA_GROW)
        # the title at once, the words dimmed, so that no frame is only a title or near-empty
        self.add(self.title, words.set_opacity(style.DIMMED))
        # self-attention before any weight is known: every word looking at every word, faint
        n, asker = len(words), ex.query_index
        everyone = VGroup(
            *(LookingArrows(words, i, [1 / n] * n, APPLE_ROW).arrows for i in range(n))
        )
        for arrow in (a for looker in everyone for a in looker):
            arrow.set_stroke(opacity=style.DIMMED)
            arrow.get_tips().set_fill(opacity=style.DIMMED)
        self.say(
            "intro",
            words.animate.set_opacity(1),
            beats={
                "topic": [
                    outline(self.title),
                    LaggedStart(*(Create(a) for g in everyone for a in g), lag_ratio=0.15),
                ]
            },
        )
        self.say(
            "idea_say",
            beats={
                "idea": [FadeIn(idea, run_time=0.5), outline(*words)],
                # each word decides for itself: 蘋果's faint arrows become its own weights
                "which": [
                    FadeOut(VGroup(*(g for i, g in enumerate(everyone) if i != asker))),
                    ReplacementTransform(everyone[asker], arrows.arrows),
                ],
                "much": [FadeIn(arrows.numbers, lag_ratio=0.3)],
            },
        )
        weights = ex.last_row.weights[0]
        target = top_index(weights)
        frame = SurroundingRectangle(words[target], color=style.HIGHLIGHT, buff=style.HUG_BUFF)
        self.say(
            "look",
            outline(*arrows.numbers),
            beats={"target": [Create(frame), outline(arrows.numbers[target])]},
            token=self.apple_words()[ex.query_index],
            target=self.apple_words()[target],
            w=self.spoken(f"{APPLE_ROW}[{target}]", 2),
        )
        # the weights too small to read in the sublayer: they go with the sentence
        self._block(VGroup(words, arrows.arrows, frame), VGroup(idea, arrows.numbers))

    def _block(self, block: VGroup, idea: Mobject) -> None:
        """The block goes into the attention sublayer of a stack of Transformer layers; the
        models built on it name the stack."""
        zoom = self.shared("zoom_out")
        attention = RoundedRectangle(
            corner_radius=0.1, width=BLOCK_WIDTH, height=BLOCK_WIDTH * block.height / block.width
        ).set_stroke(style.MUTED, 2)
        inside = block.copy().scale_to_fit_width(BLOCK_WIDTH - 2 * style.GROUP_BUFF)
        ffn = RoundedRectangle(corner_radius=0.1, width=BLOCK_WIDTH, height=0.6)
        ffn.set_stroke(style.MUTED, 2)
        ffn = VGroup(ffn, style.text(zoom["ffn"], style.LABEL_SIZE).move_to(ffn))
        norms = [style.text(zoom["add_norm"], style.LABEL_SIZE, style.MUTED) for _ in "ab"]
        name = style.text(self.words["sublayer"], style.LABEL_SIZE)
        layers = TransformerLayers(attention, ffn, norms, name)
        names = VGroup(*(style.text(n, style.BODY_SIZE) for n in self.words["blocks"].split(",")))
        names.arrange(DOWN, aligned_edge=LEFT, buff=style.SECTION_BUFF)
        stack = VGroup(layers, inside)
        style.place(VGroup(stack, names).arrange(RIGHT, buff=style.WIDE_BUFF * 2))
        inside.move_to(attention)
        pointers = VGroup(
            *(
                Arrow(
                    n.get_left(), layers.card.get_right(), buff=style.ITEM_BUFF, color=style.MUTED
                )
                for n in names
            )
        )
        self.say(
            "block",
            FadeOut(idea),
            FadeIn(layers),
            Transform(block, inside),
            beats={
                "names": [
                    LaggedStart(
                        *(
                            AnimationGroup(FadeIn(n), GrowArrow(p))
                            for n, p in zip(names, pointers, strict=True)
                        ),
                        lag_ratio=0.5,
                    )
                ],
                "tf": [outline(VGroup(layers.card, layers.cards_behind))],
                "core": [outline(attention)],
            },
        )

    def _leftover(self) -> FadeOut:
        """Everything on screen but the title, faded out as the next picture comes in (a cut
        through an empty frame would leave it near-empty)."""
        return FadeOut(*(m for m in self.mobjects if m is not self.title))

    def _promise(self) -> None:
        """A sequence through the small model; the map it learned grows out of its head; its
        loss falls by decades; the page where it trains again."""
        example = self.data.example(self.teaser)
        source = f"examples.{self.teaser}"
        strip = TokenStrip(
            [self.colour_marker(c) for c in example.colours], example.values, f"{source}.values"
        )
        box = self.model_box(strip.width)
        model = VGroup(strip, box).arrange(DOWN, buff=style.TIGHT_BUFF)
        grid = self.colour_map(example.colours, example.attention, f"{source}.attention", 0.55)
        style.place(model, grow=MODEL_GROW)  # the model alone: centred, enlarged
        style.place(grid)  # the map takes its place, out of its head
        steps = self.number("training.steps", 0)
        plot = self._loss_plot(200)
        label = phrase(self.words["trained"], style.LABEL_SIZE, steps=steps)
        taught = VGroup(plot, label).arrange(DOWN, buff=style.ITEM_BUFF)
        shown = grid.copy()
        style.place(VGroup(shown, taught).arrange(RIGHT, buff=style.WIDE_BUFF))
        self.say(
            "not_hard",
            self._leftover(),
            FadeIn(strip, lag_ratio=0.1),
            FadeIn(box),
            beats={
                # the tokens drop into the head one by one
                "see": [
                    Succession(
                        LaggedStart(
                            *(
                                FadeOut(c.copy(), target_position=box.head[0], scale=0.3)
                                for c in strip.columns
                            ),
                            lag_ratio=0.3,
                        ),
                        outline(box.head),
                    )
                ],
                "learn": [
                    FadeOut(strip),
                    FadeOut(box),
                    TransformFromCopy(box.head, grid.cells),
                    FadeIn(VGroup(grid.numbers, grid.row_headers, grid.col_headers)),
                ],
            },
        )
        row = grid.n_rows - 1  # one row of the map, then the cell it gives the most
        most = top_index(example.attention[row])
        self.say(
            "teaser",
            grid.animate.move_to(shown),
            FadeIn(plot.frame),
            beats={
                "trained": [Create(plot.curve), FadeIn(label)],
                "numbers": [outline(grid.get_row(row), grid.get_cell(row, most))],
            },
            steps=steps,
        )
        # The page beside the video trains the same model again: map and loss go into a browser
        # (the map read by its brightness there; the sequence shows the colours on "try").
        page = VGroup(grid.cells, plot)
        window = BrowserWindow(page, self.words["page"], width=page.width + 2 * style.GROUP_BUFF)
        # What the window replays is the run made for this video, not the page's own (the
        # page trains on its own draws): said under the window while it plays.
        recorded = style.text(self.words["recorded_run"], style.SMALL_SIZE, style.MUTED)
        style.place(VGroup(window, recorded).arrange(DOWN, buff=style.ITEM_BUFF))
        inner = window.get_content()
        relearn, settle = self._relearn(inner[0], inner[1])
        markers = TokenStrip(
            [self.colour_marker(c) for c in example.colours],
            example.values,
            f"{source}.values",
            per_row=STRIP_ROW,
        )
        markers.move_to(inner[1])
        self.say(
            "lab",
            FadeOut(VGroup(label, grid.numbers, grid.row_headers, grid.col_headers)),
            ReplacementTransform(page, inner),
            FadeIn(VGroup(*window[:4])),
            beats={
                "same": [outline(inner[0])],
                "again": [FadeIn(recorded), relearn],
                "live": [settle],
                "try": [
                    FadeOut(recorded),
                    FadeOut(inner[1]),
                    FadeIn(markers),
                    Succession(outline(markers.get_column(0)), self._pick(inner[0], markers)),
                ],
            },
        )

    def _relearn(self, cells: VGroup, plot: LossPlot) -> tuple[Animation, Animation]:
        """The page's model training again: the map (``cells``) back to the untrained head's,
        the curve gone; then, as the curve is drawn again from step 0, the map at each step
        it was watched (``examples.<teaser>.settling``, ``training.settling_steps``), the
        curve's tip at that step (its points are evenly spaced in steps); then the rest of
        the run, the map ending as learned."""
        example, run = self.data.example(self.teaser), self.data.training
        maps = [
            self.colour_map(
                example.colours, m, f"examples.{self.teaser}.settling[{k}]", 0.55
            ).cells.replace(cells)
            for k, m in enumerate(example.settling)
        ]
        learned = cells.copy()
        line = plot.get_path()
        full = line.copy()
        shares = [step / run.steps for step in run.settling_steps]

        def draw(start: float, end: float) -> Animation:
            """The curve drawn from step share ``start`` to ``end`` (linear in steps)."""
            return UpdateFromAlphaFunc(
                line,
                lambda m, a: m.pointwise_become_partial(full, 0, start + (end - start) * a),
                rate_func=linear,
                run_time=end - start,
            )

        stepping = Succession(
            *(
                Transform(cells, target, rate_func=linear, run_time=b - a)
                for target, a, b in zip(maps[1:], shares[:-1], shares[1:], strict=True)
            )
        )
        relearn = Succession(
            AnimationGroup(Transform(cells, maps[0]), draw(0, 0), run_time=shares[-1] / 2),
            AnimationGroup(draw(0, shares[-1]), stepping),
        )
        settle = AnimationGroup(draw(shares[-1], 1), Transform(cells, learned, rate_func=linear))
        return relearn, settle

    def _pick(self, cells: VGroup, markers: TokenStrip) -> Animation:
        """A pointer on the sequence's first token, as if clicked (on the page a click changes
        that token's colour and the whole map is worked out again: no row is picked out)."""
        first = markers.get_column(0)
        pointer = Arrow(  # from the left, in the room between the map and the sequence
            first.get_left() + LEFT * style.GROUP_BUFF,
            first.get_left(),
            buff=0,
            color=style.HIGHLIGHT,
        )
        return GrowArrow(pointer)

    def _contents(self) -> None:
        """The parts as a row of slots along the bottom, each numbered and named under it;
        each part's picture, rebuilt from its chapter's kit component, takes the stage above
        the row as the part is named, and when the next part is named travels (its shapes;
        words that small could not be read) into its own slot, so that the row ends
        illustrated. The close gathers the five again and adds the quiz and the question."""
        parts = self.chapter.parts if self.chapter else ()
        if not parts:
            return
        slots = self._slots(len(parts))
        left, _, right, top = style.content_area()
        self.panel = (left, slots.get_top()[1] + 2 * style.HUG_BUFF, right, top)
        self.say(
            "parts",
            self._leftover(),
            LaggedStart(*map(FadeIn, slots), lag_ratio=0.2),
            n=str(len(parts)),
        )
        pictures = {
            "why": self._why_thumb,
            "mechanism": self._mechanism_thumb,
            "learned": self._learned_thumb,
            "pitfalls": self._pitfalls_thumb,
            "beyond": self._beyond_thumb,
        }
        frame = self._slot_frame(slots[0])
        shown: VGroup | None = None
        icons = VGroup()
        heading: Mobject = self.title
        for k, part in enumerate(parts):
            move = [Create(frame) if k == 0 else frame.animate.become(self._slot_frame(slots[k]))]
            if shown is not None:  # the last part's picture goes into its own slot
                travel, icon = self._into_slot(shown, slots[k - 1])
                move += travel
                icons.add(icon)
            build = pictures.get(part)
            if build:
                shown, first, beats = build()
            else:  # the close: the parts' pictures once more, the quiz and the question
                shown, first, beats = None, [], self._close(icons, slots[k])
            then = [first] if first else ()
            # the breadcrumb: the part's number and heading in the title's place, at once
            self.remove(heading)
            heading = self._heading(k, part)
            self.add(heading)
            self.say(f"{part}_say", *move, then=then, table="contents", beats=beats)

    def _heading(self, k: int, part: str) -> VGroup:
        """Part ``k``'s number and heading, set as a title (the contents, one line at a time)."""
        heading = VGroup(
            ShownNumber(k + 1, 0, Ordinal(), style.TITLE_SIZE, style.MUTED),
            style.text(self.shared("contents")[part], style.TITLE_SIZE),
        ).arrange(RIGHT, buff=style.GROUP_BUFF)
        heading.move_to(self.title)
        heading.gate_title = True  # measured as a title, as the one it stands in for
        return heading

    def _slots(self, n: int) -> VGroup:
        """``n`` empty slots in a row along the bottom of the content area, each numbered in
        its corner: where the parts' pictures will go, in order."""
        left, _, right, _ = style.content_area()
        width = (right - left - (n - 1) * style.ITEM_BUFF) / n
        slots = VGroup()
        for k in range(n):
            box = RoundedRectangle(corner_radius=0.1, width=width, height=width * SLOT_RATIO)
            box.set_stroke(style.MUTED, 2)
            number = ShownNumber(k + 1, 0, Ordinal(), style.LABEL_SIZE, style.MUTED)
            slots.add(VGroup(box, number.move_to(box, UL).shift(DR * style.HUG_BUFF)))
        slots.arrange(RIGHT, buff=style.ITEM_BUFF)
        style.place(VGroup(slots, self._slot_frame(slots)), aligned=DOWN)
        return slots

    @staticmethod
    def _slot_frame(slot: VGroup) -> SurroundingRectangle:
        """The highlight round a slot: the part being named."""
        return SurroundingRectangle(slot, color=style.HIGHLIGHT, buff=style.HUG_BUFF)

    @staticmethod
    def _into_slot(picture: VGroup, slot: VGroup) -> tuple[list[Animation], VGroup]:
        """``picture``'s words fade; its shapes travel into ``slot``'s box, fitted inside
        (returned: the shapes as they will be there)."""
        words = _take_words(picture)
        icon = Opening._slot_fit(picture.copy(), slot)
        return [FadeOut(words), Transform(picture, icon)], icon

    @staticmethod
    def _slot_fit(icon: VGroup, slot: VGroup) -> VGroup:
        """``icon`` scaled to fit inside ``slot``'s box, clear of its number, and put there."""
        box, number = slot
        margin = number.width + 2 * style.HUG_BUFF  # clear of the number in the corner
        icon.scale(
            min(
                (box.width - 2 * margin) / icon.width,
                (box.height - 2 * style.HUG_BUFF) / icon.height,
            )
        )
        return icon.move_to(box)

    def _close(self, icons: VGroup, slot: VGroup) -> dict[str, list[Animation]]:
        """The summary: copies of the five pictures rise out of their slots into a row on the
        stage, each outlined in turn; the quiz, a card of its numbered questions; the question
        for next time, a "？" card; the two cards go into the last slot."""
        gathered = icons.copy()
        row = icons.copy().arrange(RIGHT, buff=style.GROUP_BUFF)
        self._fit(row, grow=None)
        quiz = self.shared("quiz")
        asked = next(k for k in range(1, QUIZ_MOST + 2) if f"q{k}" not in quiz) - 1
        badges = VGroup(
            *(
                VGroup(
                    Circle(radius=BADGE_RADIUS).set_stroke(style.MUTED, 4),
                    ShownNumber(k + 1, 0, Ordinal(), style.TITLE_SIZE),
                )
                for k in range(asked)
            )
        ).arrange(RIGHT, buff=style.GROUP_BUFF)
        side = badges.height + 2 * style.GROUP_BUFF
        card = RoundedRectangle(
            corner_radius=0.15, width=badges.width + 2 * style.GROUP_BUFF, height=side
        ).set_stroke(style.MUTED, 3)
        test = VGroup(card.move_to(badges), badges)
        mark = RoundedRectangle(corner_radius=0.15, width=side, height=side)
        mark = VGroup(mark.set_stroke(style.MUTED, 3), style.text("？", style.TITLE_SIZE))
        cards = VGroup(test, mark).arrange(RIGHT, buff=style.WIDE_BUFF * 2)
        self._fit(cards)
        # each part added on its own, so that each fades on its own: in the slot, the shapes
        # only (words that small could not be read)
        rings, numbers = VGroup(*(b[0] for b in badges)), VGroup(*(b[1] for b in badges))
        box, sign = mark
        shapes = VGroup(card, rings, box)
        shelved = self._slot_fit(shapes.copy(), slot)
        drop = DOWN * style.GROUP_BUFF
        return {
            "sum": [
                Succession(
                    LaggedStart(
                        *(Transform(g, r) for g, r in zip(gathered, row, strict=True)),
                        lag_ratio=0.2,
                    ),
                    outline(*row),  # where the copies will be (an outline is built at once)
                )
            ],
            "quiz": [FadeOut(gathered), *(FadeIn(m, shift=drop) for m in (card, rings, numbers))],
            "next": [
                Succession(
                    AnimationGroup(FadeIn(box, shift=drop), FadeIn(sign, shift=drop)),
                    AnimationGroup(FadeOut(numbers), FadeOut(sign), Transform(shapes, shelved)),
                )
            ],
        }

    def _fit(self, picture: VGroup, grow: float | None = PANEL_GROW) -> VGroup:
        """Scale ``picture`` to fill the stage above the slots (up to ``grow`` times its
        size; ``None``: as far as the stage allows), and centre it there."""
        left, bottom, right, top = self.panel
        room = min((right - left) / picture.width, (top - bottom) / picture.height)
        picture.scale(room if grow is None else min(room, grow))
        return picture.move_to([(left + right) / 2, (bottom + top) / 2, 0])

    def _why_thumb(self) -> Thumb:
        """Two 蘋果 taking one and the same vector; an ordinary network's fixed input."""
        ex = self.data.eat_apple
        i = ex.query_index
        asker = self.apple_words()[i]
        twins = VGroup(*(style.text(asker, style.TITLE_SIZE) for _ in "ab"))
        twins.arrange(RIGHT, buff=style.WIDE_BUFF * 1.5)
        vector = NumberVector(ex.x[i], f"{EAT}.x[{i}]", "x", decimals=1)
        vector.next_to(twins, DOWN, buff=style.WIDE_BUFF * 1.5)
        arrows = VGroup(
            *(
                Arrow(t.get_bottom(), vector.get_top(), buff=style.ITEM_BUFF, color=style.MUTED)
                for t in twins
            )
        )
        same = self._fit(VGroup(twins, arrows, vector))
        network = self._fit(FixedInputNetwork(len(ex.x[i]) + 2, ""))
        return (
            network,
            [FadeIn(twins[0]), FadeIn(twins[1])],
            {
                "two": [GrowArrow(arrows[0]), GrowArrow(arrows[1]), FadeIn(vector)],
                "dead": [FadeOut(same), FadeIn(network, shift=UP * style.ITEM_BUFF)],
            },
        )

    def _mechanism_thumb(self) -> Thumb:
        """The office with its Query arrow; then the short sentence's map of weights."""
        office, ex = self.data.office, self.data.eat_apple
        words = self.shared("office")
        floor = OfficeRoom(
            [words[p] for p in office.people], office.keys, office.values, words["days"]
        )
        self._fit(floor)
        centre = floor.room.get_center()
        query = Arrow(
            centre,
            centre + floor.offset(office.sweep[0].query, QUERY_UNIT),
            buff=0,
            color=style.QUERY,
        )
        names = self.apple_words()[: ex.short]
        grid = AttentionGrid(
            ex.short_full.weights,
            f"{EAT}.short_full.weights",
            row_headers=[style.text(w, style.LABEL_SIZE, style.QUERY) for w in names],
            col_headers=[style.text(w, style.LABEL_SIZE, style.KEY) for w in names],
        )
        self._fit(grid)
        return (
            grid,
            [],
            {
                "office": [Create(floor.room), FadeIn(floor.people, lag_ratio=0.2)],
                "qkv": [GrowArrow(query)],
                "steps": [
                    FadeOut(VGroup(floor, query)),
                    FadeIn(VGroup(grid.row_headers, grid.col_headers)),
                    LaggedStart(*(FadeIn(c) for c in grid.cells), lag_ratio=0.1),
                ],
                "weights": [FadeIn(grid.numbers, lag_ratio=0.1)],
                "average": [outline(grid.get_row(ex.query_index))],
            },
        )

    def _loss_plot(self, points: int) -> LossPlot:
        """The training run's loss curve, drawn with ``points`` points, at the chapter's size."""
        axis = self.shared("training")["x_axis"]
        curve = self.data.training.loss_curve
        return LossPlot(
            curve, "training.steps", axis, points, width=PLOT_SIZE[0], height=PLOT_SIZE[1]
        )

    def _learned_thumb(self) -> Thumb:
        """The run's loss falling by decades; the map the model learned, out of its end."""
        example = self.data.example(self.teaser)
        plot = self._loss_plot(100)
        self._fit(plot)
        grid = self.colour_map(
            example.colours, example.attention, f"examples.{self.teaser}.attention", 0.55
        )
        self._fit(grid)
        return (
            grid,
            [FadeIn(plot.frame), Create(plot.curve)],
            {
                # the curve goes; the map's cells grow out of where the run ended
                "map": [
                    FadeOut(plot),
                    LaggedStart(
                        *(GrowFromPoint(c, plot.get_end()) for c in grid.cells),
                        lag_ratio=GROW_LAG,
                    ),
                    FadeIn(VGroup(grid.numbers, grid.row_headers, grid.col_headers)),
                ]
            },
        )

    def _pitfalls_thumb(self) -> Thumb:
        """One x made into q, k and v; sums of products spreading like √d; words swapped."""
        colours = (("q", style.QUERY), ("k", style.KEY), ("v", style.VALUE))
        roles = VGroup(*(MathTex(r, color=c) for r, c in colours))
        roles.arrange(DOWN, buff=style.GROUP_BUFF)
        x = MathTex("x").next_to(roles, LEFT, buff=style.WIDE_BUFF * 1.5)
        project = VGroup(
            *(
                Arrow(x.get_right(), r.get_left(), buff=style.ITEM_BUFF, color=r.get_color())
                for r in roles
            )
        )
        projection = self._fit(VGroup(x, project, roles))
        probe = self.data.sqrt_d
        walks = RandomWalks(
            probe.walks, f"pitfalls.sqrt_d.dims[{len(probe.dims) - 1}].d", width=3.6, height=2.8
        )
        band = walks.band()
        self._fit(VGroup(walks, band))
        words = VGroup(
            *(
                VGroup(t, SurroundingRectangle(t, color=style.MUTED, buff=style.ITEM_BUFF))
                for t in (
                    style.text(w, style.TITLE_SIZE) for w in self.shared("shuffle")["a"].split()
                )
            )
        ).arrange(RIGHT, buff=style.GROUP_BUFF)
        self._fit(words, grow=WORDS_GROW)
        first, last = words[0], words[-1]
        return (
            words,
            [],
            {
                "proj": [FadeIn(x), *map(GrowArrow, project), FadeIn(roles, lag_ratio=0.3)],
                "sqrt": [FadeOut(projection), FadeIn(walks), Create(band)],
                "order": [
                    FadeOut(VGroup(walks, band)),
                    # the words in, then the swap over the rest of the cue
                    Succession(
                        FadeIn(words, run_time=SHOW_SHARE),
                        AnimationGroup(
                            first.animate(path_arc=SWAP_ARC).move_to(last),
                            last.animate(path_arc=SWAP_ARC).move_to(first),
                            run_time=1 - SHOW_SHARE,
                        ),
                    ),
                ],
            },
        )

    def _beyond_thumb(self) -> Thumb:
        """The causal map, its later cells empty; two heads' maps; the Transformer's layer,
        the heads moving into its attention sublayer."""
        ex, heads = self.data.eat_apple, self.data.two_heads
        masked = [
            [w if j <= i else None for j, w in enumerate(row)]
            for i, row in enumerate(ex.causal.weights)
        ]
        mask = AttentionGrid(masked, f"{EAT}.causal.weights", show_numbers=False)
        self._fit(mask)
        maps = VGroup(
            *(
                AttentionGrid(m, f"multihead.two.maps[{h}]", show_numbers=False)
                for h, m in enumerate(heads.maps)
            )
        ).arrange(RIGHT, buff=style.GROUP_BUFF)
        self._fit(maps)
        zoom = self.shared("zoom_out")
        inside = maps.copy().scale_to_fit_width(LAYER_WIDTH - 2 * style.GROUP_BUFF)
        attention = RoundedRectangle(
            corner_radius=0.1, width=LAYER_WIDTH, height=inside.height + 2 * style.ITEM_BUFF
        ).set_stroke(style.MUTED, 2)
        ffn = RoundedRectangle(corner_radius=0.1, width=LAYER_WIDTH, height=0.6)
        ffn.set_stroke(style.MUTED, 2)
        ffn = VGroup(ffn, style.text(zoom["ffn"], style.LABEL_SIZE).move_to(ffn))
        norms = [style.text(zoom["add_norm"], style.LABEL_SIZE, style.MUTED) for _ in "ab"]
        multi = style.text(zoom["multi"], style.LABEL_SIZE)
        layers = TransformerLayers(attention, ffn, norms, multi)
        self._fit(VGroup(layers, inside))
        inside.move_to(attention)
        return (
            VGroup(layers, inside),
            [],
            {
                "mask": [FadeIn(mask.cells, lag_ratio=0.03)],
                "heads": [FadeOut(mask.cells), FadeIn(maps, lag_ratio=0.02)],
                "layer": [FadeIn(layers), ReplacementTransform(maps, inside)],
            },
        )
