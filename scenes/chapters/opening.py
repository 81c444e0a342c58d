"""The opening (seed 000): the title, the one-line idea, the trained map as a promise, and
the contents of the lecture, each part named as the list is read.

Render alone with ``manim -ql scenes/chapters/opening.py Opening``.
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
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
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
    VGroup,
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
from scenes.kit.numbers import phrase
from scenes.kit.vectors import FixedInputNetwork, LookingArrows, NumberVector

EAT = "tokens.eat_apple"
IDEA_GROW = 1.3  # the idea and 我 吃 蘋果, enlarged to use the frame
ICON_HEIGHT = 0.5  # a part's picture, shrunk beside its item once the next part is named
ICON_WIDTH = 0.9
LIST_SCALE = 0.8  # the contents list, set smaller: the parts' pictures need the room
SWAP_ARC = PI / 2  # words trading places pass over and under each other
PLOT_SIZE = (4.0, 3.2)  # a small loss plot, as built (the panel may enlarge it)
STRIP_ROW = 4  # positions a row of the sequence shown in the page (two rows of the eight)
PANEL_GROW = 1.5  # the most a part's picture is enlarged to fill the panel
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
    tables = ("office", "shuffle", "zoom_out", "training")  # words of the parts' pictures
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
        style.place(VGroup(model, grid).arrange(RIGHT, buff=style.WIDE_BUFF))
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
                "see": [
                    FadeOut(strip.copy(), target_position=box.head[0], scale=0.3),
                    outline(box.head),
                ],
                "learn": [
                    TransformFromCopy(box.head, grid.cells),
                    FadeIn(VGroup(grid.numbers, grid.row_headers, grid.col_headers)),
                ],
            },
        )
        row = grid.n_rows - 1  # one row of the map, then the cell it gives the most
        most = top_index(example.attention[row])
        self.say(
            "teaser",
            FadeOut(VGroup(strip, box)),
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
        style.place(window)
        inner = window.get_content()
        again = inner[1].curve
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
                "again": [Create(again)],
                "try": [FadeOut(inner[1]), FadeIn(markers), outline(markers.get_column(0))],
            },
        )

    def _contents(self) -> None:
        """The parts, each with its picture, rebuilt from its chapter's kit component, in the
        panel right of the list as the part is named; when the next part is named, the picture
        (its shapes; words that small could not be read) shrinks beside its own item, so that
        the list ends illustrated."""
        parts = self.chapter.parts if self.chapter else ()
        if not parts:
            return
        contents = self.contents().scale(LIST_SCALE)
        style.place(
            VGroup(contents, contents.frame(0), contents.frame(len(parts) - 1)), aligned=LEFT
        )
        _, bottom, right, top = style.content_area()
        icon_x = contents.get_right()[0] + style.GROUP_BUFF
        self.panel = (icon_x + ICON_WIDTH + style.GROUP_BUFF, bottom, right, top)
        self.say("parts", self._leftover(), FadeIn(contents, lag_ratio=0.1), n=str(len(parts)))
        frame = contents.frame(0)
        pictures = {
            "why": self._why_thumb,
            "mechanism": self._mechanism_thumb,
            "learned": self._learned_thumb,
            "pitfalls": self._pitfalls_thumb,
            "beyond": self._beyond_thumb,
        }
        shown: VGroup | None = None
        icons = VGroup()
        for k, part in enumerate(parts):
            move = [Create(frame) if k == 0 else frame.animate.move_to(contents.frame(k))]
            if shown is not None:  # the last part's picture goes to sit beside its item
                words = _take_words(shown)
                shapes = shown
                icon = shapes.copy().scale_to_fit_height(ICON_HEIGHT)
                if icon.width > ICON_WIDTH:
                    icon.scale_to_fit_width(ICON_WIDTH)
                icon.move_to(contents.items[k - 1]).set_x(icon_x + icon.width / 2)
                move += [FadeOut(words), Transform(shapes, icon)]
                icons.add(shapes)
            build = pictures.get(part)
            if build:
                shown, first, beats = build()
            else:  # the close: the parts' pictures gone over once more, in order
                shown, first, beats = None, [outline(*icons)] if len(icons) else [], {}
            then = [first] if first else ()
            self.say(f"{part}_say", *move, then=then, table="contents", beats=beats)

    def _fit(self, picture: VGroup) -> VGroup:
        """Scale ``picture`` to fill the panel right of the list (up to :data:`PANEL_GROW`
        times its size), and centre it there."""
        left, bottom, right, top = self.panel
        room = min((right - left) / picture.width, (top - bottom) / picture.height)
        picture.scale(min(room, PANEL_GROW))
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
            {"map": [FadeOut(plot.frame), ReplacementTransform(plot.curve, grid)]},
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
        self._fit(words)
        first, last = words[0], words[-1]
        return (
            words,
            [],
            {
                "proj": [FadeIn(x), *map(GrowArrow, project), FadeIn(roles, lag_ratio=0.3)],
                "sqrt": [FadeOut(projection), FadeIn(walks), Create(band)],
                "order": [
                    FadeOut(VGroup(walks, band)),
                    Succession(
                        FadeIn(words),
                        AnimationGroup(
                            first.animate(path_arc=SWAP_ARC).move_to(last),
                            last.animate(path_arc=SWAP_ARC).move_to(first),
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
