"""Multi-head attention (seeds 000, 002, 003): heads a real run made specialise, then W_O.

Two heads trained together on a task with two kinds of "related" (the mean of my colour,
the number just before me) split the work; each head's map times its V is its output, the
outputs are joined and mixed by W_O. Four heads: one per rule, two alike, one with no
nameable rule. Then seed 003's bookkeeping, drawn as bars and matrices to proportion.
Render alone with ``manim -ql scenes/chapters/multihead.py MultiHead``.
"""

from __future__ import annotations

from types import SimpleNamespace

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
    Animation,
    AnimationGroup,
    ApplyMethod,
    ArcBetweenPoints,
    Arrow,
    Brace,
    Create,
    Cross,
    CurvedArrow,
    FadeIn,
    FadeOut,
    FadeTransform,
    GrowArrow,
    GrowFromCenter,
    GrowFromEdge,
    LaggedStart,
    LaggedStartMap,
    Line,
    MathTex,
    Mobject,
    Rectangle,
    ReplacementTransform,
    Square,
    Succession,
    SurroundingRectangle,
    Swap,
    Transform,
    TransformFromCopy,
    VGroup,
)

from scenes.chapters.causal import masked_head
from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.diagrams import LossPlot
from scenes.kit.emphasis import outline
from scenes.kit.labels import TokenStrip
from scenes.kit.maps import AttentionGrid
from scenes.kit.numbers import Ordinal, ShownNumber, phrase
from scenes.kit.seams import seam_builder
from scenes.kit.turns import InTurn


def _touch(a: VGroup, b: VGroup) -> bool:
    """Whether two labels' boxes overlap."""
    return (
        a.get_left()[0] < b.get_right()[0]
        and b.get_left()[0] < a.get_right()[0]
        and a.get_bottom()[1] < b.get_top()[1]
        and b.get_bottom()[1] < a.get_top()[1]
    )


def _from_copy(source: Mobject, target: Mobject) -> ReplacementTransform:
    """A copy of ``source`` becoming ``target``: TransformFromCopy's picture, safe inside a
    Succession (TransformFromCopy animates the target itself, so a later step's target would
    stand on screen, finished, from the Succession's first frame)."""
    return ReplacementTransform(source.copy(), target)


def _rows(grid) -> list[VGroup]:
    """A map's cells, row by row (a map fills in this order)."""
    return [VGroup(*(grid.get_cell(i, j) for j in range(grid.n_cols))) for i in range(grid.n_rows)]


def _apart(mobjects: list[Mobject], kept: list[Mobject]) -> list[Mobject]:
    """``mobjects`` as pieces that hold none of ``kept``: a group holding one is split
    into its parts (so the rest can leave while ``kept`` stays)."""
    pieces = []
    for m in mobjects:
        if m in kept:
            continue
        family = m.get_family()
        if any(k in family for k in kept):
            pieces += _apart(m.submobjects, kept)
        else:
            pieces.append(m)
    return pieces


def _sink(going: Mobject, like: Mobject, slot: Mobject) -> FadeOut:
    """A lifted copy (``going``) back into ``slot``, shrinking as its part ``like`` shrinks to
    the slot's width: it lands where the object it was copied from stands."""
    return FadeOut(going, target_position=slot.get_center(), scale=slot.width / like.width)


def _in_place(rows: list[list[tuple[Mobject, Mobject]]]) -> LaggedStart:
    """A product's remaining rows filled where they stand, one row after another: each
    (source, cells) pair of a row lights its source row with a frame as its cells fade in.
    Its cells are brought, so it belongs in an :class:`InTurn`, not a Succession."""
    return LaggedStart(
        *(
            AnimationGroup(
                *(AnimationGroup(outline(source), FadeIn(cells)) for source, cells in row)
            )
            for row in rows
        ),
        lag_ratio=0.35,
        run_time=CASCADE_SECONDS,
    )


OUTPUT_CELL = 0.46  # a cell of the joined outputs, W_O and the layer's output, for 8 positions
SMALL_CELL = 0.28  # a map, V or output read by brightness in the map x V lines
INPUT_CELL = 0.6  # one number of a position's input
SHOWN = 2  # the position whose input is opened (the third: it has a number before it)
BAR_LENGTH = 7.0  # a 4096-wide vector, drawn
BAR_HEIGHT = 0.4
VALUE_CELL = 0.22  # a cell of a four-head run's V (8 x 2), under its map
ONE_WAY_CELL = 0.24  # causal's learned map under the sentence: read by its brightness
ONE_WAY_MARKER = 0.18  # its markers: shapes, too small for their letters
HEAD_CELL = 0.39  # a cell of a trained head's map, for 8 positions
CELLS_BY_HAND = 3  # output cells made one at a time from their row and column, before the rest
CELL_SECONDS = (1.5, 0.7, 0.7)  # how long each of those takes: the first slow, then quicker
CASCADE_SECONDS = 1.5  # the rest of a product, filling in after them
SLOT = 1.1  # a head's empty slot in the task's model box
OUTPUT_FILL = 0.5  # the layer's output bar, filled: the sum of every head's product
FIRST_ALONE = 2  # the products seen one by one before the rest cascade
PRODUCT_SECONDS = (1.2, 1.0, 1.0)  # slice 1 x block 1, slice 2 x block 2, then the rest (shares)
ABLATION_HEIGHT = 0.36  # a validation-MSE bar: large, in the lower third
LAYER_SCALE = 0.4  # the four heads' maps, shrunk into one layer box handed on to x
STRIP_SCALE = 0.5  # the four heads' row, stepped aside under the title while one is lifted out
ASIDE_NAME = 0.7  # its names, as small as can still be read
NEAR_SCALE = 1.3  # a two-head map lifted into the right third while its rule is named
OPENING = 0.75  # x and Q, alone at first: this share of the content's width
HALF = 0.5  # opacity of a map slid onto another: both are seen where they coincide


class MultiHead(LectureScene):
    """Several kinds of related; two trained heads, map x V, W_O; four heads; 4096 = 32 x 128."""

    scene_key = "multihead"
    reads = ("multihead.two", "multihead.four", "multihead.bookkeeping", "causal")
    tables = ("causal",)  # its last picture's words
    opens_on = masked_head.__name__
    ends_on = "slice_strip"  # its last picture, zoom_out's first (built at the module's end)

    def construct(self) -> None:
        self.title = self.make_title()
        self._relations()
        self._task()
        self._two_heads()
        self._join()
        self._four_heads()
        self._bookkeeping()

    def _map(self, run, path: str, h: int, cell: float, numbers: bool = False) -> VGroup:
        """Head ``h``'s map under its name; ``cell`` is for 8 positions, and shrinks for more."""
        cell *= min(1.0, style.REFERENCE_POSITIONS / len(run.colours))
        grid = AttentionGrid(
            run.maps[h],
            f"{path}.maps[{h}]",
            row_headers=[self.colour_marker(c, cell * 0.7) for c in run.colours],
            col_headers=[self.colour_marker(c, cell * 0.7) for c in run.colours],
            cell_size=cell,
            show_numbers=numbers,
        )
        name = phrase(self.words["head"], style.BODY_SIZE, h=ShownNumber(h + 1, 0, Ordinal()))
        return VGroup(name.next_to(grid, UP, buff=style.ITEM_BUFF), grid)

    def _clear(self) -> list:
        """Everything on screen but the title fading out, played with the next part's
        first line (no silent gap between two parts)."""
        return [FadeOut(m) for m in self.mobjects if m is not self.title]

    def _grid(self, values, path: str, cell: float, numbers: bool = False) -> AttentionGrid:
        """A matrix of the run (V, an output, W_O) as a heat grid on its own value range."""
        flat = [v for row in values for v in row]
        low, high = min(flat), max(flat)
        return AttentionGrid(
            values,
            path,
            cell_size=cell,
            heat=not numbers,  # written out: plain cells, every number readable
            show_numbers=numbers,
            value_range=(low, max(high, low + 1e-9)),
            decimals=1,
            text_size=style.CELL_TEXT_SIZE,
        )

    def _relations(self) -> None:
        """From causal's last picture, its learned map shrunk under the sentence (one head,
        one way of relating); the sentence's relations as arcs, and the word with two
        relations: the map's row becomes its one row of weights, split between both, then
        one row per head, each on one relation."""
        words = VGroup(*(style.text(w, style.TITLE_SIZE) for w in self.words["sentence"].split()))
        words.arrange(RIGHT, buff=style.WIDE_BUFF)
        arcs, names, pairs, ends = VGroup(), VGroup(), [], []
        kinds = self.words["relations"].split(",")
        for pair, kind in zip(self.words["pairs"].split(","), kinds, strict=True):
            a, b = sorted(int(i) for i in pair.split("-"))
            ends.append((a, b))
            pairs.append(VGroup(words[a], words[b]))
            arc = ArcBetweenPoints(
                words[b].get_top() + UP * style.HUG_BUFF,
                words[a].get_top() + UP * style.HUG_BUFF,
                angle=1.2,
                color=style.FOREGROUND,
                stroke_width=10,
            )
            arcs.add(arc)
            name = style.text(kind, style.LABEL_SIZE, style.MUTED).next_to(arc, UP, buff=0.1)
            while any(_touch(name, other) for other in names):  # stack, never overlap
                name.shift(UP * (name.height + style.HUG_BUFF))
            names.add(name)
        # "Related in many ways": every pair of words linked, under the sentence.
        links = VGroup(
            *(
                ArcBetweenPoints(
                    words[a].get_bottom() + DOWN * style.HUG_BUFF,
                    words[b].get_bottom() + DOWN * style.HUG_BUFF,
                    angle=0.9,
                    color=style.MUTED,
                    stroke_width=3,
                )
                for a in range(len(words))
                for b in range(a + 1, len(words))
            )
        )
        # The word in two relations, and its row of weights: one set of Q, K splits its
        # total between both partners; two heads each put it all on one (a schematic of
        # the split, no measured numbers).
        both = [r for r in range(len(ends)) if ends[r][0] in ends[-1] or ends[r][1] in ends[-1]]
        hub = next(w for w in ends[both[0]] if w in ends[both[1]])
        partners = [ends[r][0] if ends[r][1] == hub else ends[r][1] for r in both]

        thin = min(w.width for w in words)

        def row(weights: dict[int, float], label: VGroup, tall: float) -> VGroup:
            tracks = VGroup(
                *(
                    Rectangle(width=thin, height=tall).set_stroke(style.MUTED, 1.5).match_x(w)
                    for w in words
                )
            )
            bars = VGroup(
                *(
                    Rectangle(width=tracks[k].width, height=tall * weights.get(k, 0.0) + 1e-3)
                    .set_stroke(width=0)
                    .set_fill(style.WEIGHT, 1 if k in weights else 0)
                    .move_to(tracks[k], DOWN)
                    for k in range(len(words))
                )
            )
            return VGroup(tracks, bars, label.next_to(tracks, LEFT, buff=style.GROUP_BUFF))

        one = row({p: 0.5 for p in partners}, MathTex(r"Q,\,K", font_size=40), 1.6)
        one[:2].align_to(words, DOWN).shift(DOWN * (one[0].height + style.SECTION_BUFF))
        one[2].next_to(one[0], LEFT, buff=style.GROUP_BUFF)
        heads = VGroup(
            *(
                row(
                    {p: 1.0},
                    phrase(self.words["head"], style.BODY_SIZE, h=ShownNumber(h + 1, 0, Ordinal())),
                    1.0,
                )
                for h, p in enumerate(partners)
            )
        )
        for h, line in enumerate(heads):  # the same columns, under the same words
            above = heads[h - 1][0] if h else words
            line[:2].align_to(above, DOWN).shift(DOWN * (line[0].height + style.SECTION_BUFF))
            line[2].next_to(line[0], LEFT, buff=style.GROUP_BUFF)
        style.place(VGroup(words, arcs, names, links, one, heads), grow=1.5)
        # causal's last picture at once: the masked head's loss and the map it learned. That
        # map is one head's one way of relating positions: on the first words it shrinks
        # under the sentence, named by what it learned, while the loss, the mask's edge and
        # the frames leave; on "一組 Q、K…" it becomes the row of weights one set of Q, K gives.
        picture = masked_head(self)
        result, (head, cut, blocks) = picture
        one_way = self._one_way(links)
        self.add(self.title, *picture)
        self.say(
            "intro",
            LaggedStart(  # the sentence comes as the loss leaves the place it takes
                AnimationGroup(
                    FadeOut(result, shift=LEFT * style.GROUP_BUFF),
                    *self._shrink(head, cut, blocks, one_way),
                ),
                FadeIn(words, shift=UP * style.GROUP_BUFF, lag_ratio=0.2),
                lag_ratio=0.6,
            ),
            run_time=1.5,  # the map's shrink is seen, not a dissolve
            beats={"many": [LaggedStartMap(Create, links, lag_ratio=0.05)]},
        )
        # each relation lights its two words as it is named (the last pair goes back)
        beats = {}
        for k in range(len(arcs)):
            light = [Create(arcs[k]), FadeIn(names[k]), pairs[k].animate.set_color(style.HIGHLIGHT)]
            if k:
                back = [w for w in pairs[k - 1] if w not in pairs[k]]
                light += [w.animate.set_color(style.FOREGROUND) for w in back]
            else:
                light.append(FadeOut(links))
            beats[f"r{k}"] = light
        self.say("kinds", beats=beats)
        others = [r for r in range(len(arcs)) if r not in both]
        grid = one_way[1]
        one_row = VGroup(*(grid.get_cell(grid.n_rows - 1, j) for j in range(grid.n_cols)))
        rest = VGroup(*(c for c in grid.cells if c not in one_row), grid.row_headers)
        rest.add(grid.col_headers)
        self.say(
            "more_sets",
            # one row of the one head's map (one word's weights) becomes the row one set of
            # Q, K gives a word; the rest of the map leaves, and its name becomes the set's
            ReplacementTransform(one_row, one[0]),
            FadeOut(rest),
            FadeTransform(one_way[0], one[2]),
            then=[
                [  # built when they start, not now as .animate would be
                    ApplyMethod(pairs[-1].set_color, style.FOREGROUND),
                    ApplyMethod(words[hub].set_color, style.HIGHLIGHT),
                    *(ApplyMethod(arcs[r].set_stroke, None, None, style.DIMMED) for r in others),
                    *(ApplyMethod(names[r].set_opacity, style.DIMMED) for r in others),
                ]
            ],
            beats={
                "mixed": [
                    *(
                        ReplacementTransform(arcs[r].copy(), one[1][p])
                        for r, p in zip(both, partners, strict=True)
                    )
                ],
                "heads": [
                    *(ReplacementTransform(one[0].copy(), h[0]) for h in heads),
                    FadeOut(one),
                    *(FadeIn(h[2]) for h in heads),
                ],
                # each head's weight grows out of its own relation's arc
                "own": [
                    TransformFromCopy(arcs[r], heads[h][1][p])
                    for h, (r, p) in enumerate(zip(both, partners, strict=True))
                ],
            },
        )

    def _one_way(self, links: VGroup) -> VGroup:
        """The map causal's masked head learned, small, with no numbers, named by the one
        relation it learned (same colour), centred under ``links`` (the sentence's); returns
        the name and the map."""
        run = self.data.causal
        grid = self.colour_map(
            run.colours, run.attention, "causal.attention", ONE_WAY_CELL, ONE_WAY_MARKER
        )
        name = style.text(self.words["rule_colour"], style.LABEL_SIZE)
        bottom = style.content_area()[1]
        room = links.get_bottom()[1] - style.GROUP_BUFF - bottom
        if grid.height > room:
            grid.scale_to_fit_height(room)
        one_way = VGroup(name, grid).arrange(RIGHT, buff=style.GROUP_BUFF)
        return one_way.match_x(links).set_y(bottom + room / 2)

    def _shrink(self, head: VGroup, cut: Mobject, blocks: VGroup, one_way: VGroup) -> list:
        """The learned map (``head``: its name and grid) shrinking into ``one_way``: cells and
        markers travel, the numbers, the mask's edge and the frames go with them as they
        fade, and the name becomes the relation it learned."""
        grid, small = head[1], one_way[1]
        k = small.cells.width / grid.cells.width
        big, little = grid.cells.get_center(), small.cells.get_center()

        def along(m: Mobject) -> FadeOut:  # fades as it goes where the cells go
            return FadeOut(m, target_position=little + k * (m.get_center() - big), scale=k)

        return [
            ReplacementTransform(grid.cells, small.cells),
            ReplacementTransform(
                VGroup(grid.row_headers, grid.col_headers),
                VGroup(small.row_headers, small.col_headers),
            ),
            along(grid.numbers),
            along(cut),
            along(blocks),
            FadeTransform(head[0], one_way[0]),
        ]

    def _task(self) -> None:
        """The task as a sequence: the strip, its two rows of answers, one input opened."""
        run = self.data.two_heads
        n = len(run.colours)
        strip = TokenStrip(
            [self.colour_marker(c) for c in run.colours], run.values, "multihead.two.values"
        ).scale(1.3)
        rows = VGroup()
        for a, key in enumerate(("answer_1", "answer_2")):
            numbers = VGroup(
                *(
                    self.number(f"multihead.two.targets[{k}][{a}]", 2, style.LABEL_SIZE)
                    for k in range(n)
                )
            )
            for k, number in enumerate(numbers):
                number.match_x(strip.get_column(k))
            rows.add(VGroup(numbers, style.text(self.words[key], style.LABEL_SIZE, style.MUTED)))
        rows[0][0].next_to(strip, DOWN, buff=style.GROUP_BUFF).match_x(strip)
        rows[1][0].next_to(rows[0][0], DOWN, buff=style.ROW_BUFF)
        for k, number in enumerate(rows[0][0]):
            number.match_x(strip.get_column(k))
            rows[1][0][k].match_x(strip.get_column(k))
        for numbers, name in rows:
            name.next_to(rows[0][0], LEFT, buff=style.GROUP_BUFF).match_y(numbers)
        names = VGroup(*(row[1] for row in rows))
        names.align_to(names[0] if names[0].width > names[1].width else names[1], LEFT)
        inputs = self._inputs(run, SHOWN)
        # the model, two empty heads, beside the input: it opens into the heads' picture
        self._heads_layout()
        model = self._small_box()
        # the input opened under the answers and the model beside it, in the lower half; the
        # task grown to use the width
        VGroup(inputs, model).arrange(RIGHT, buff=style.WIDE_BUFF).next_to(
            rows, DOWN, buff=style.SECTION_BUFF
        )
        style.place(VGroup(strip, rows, inputs, model), grow=1.5)
        self.model = model
        # The second answer is the number one to the left: each travels from the strip.
        before = [
            TransformFromCopy(strip.get_column(k - 1)[2], rows[1][0][k], path_arc=-0.6)
            for k in range(1, n)
        ]
        self.say(
            "task",
            *self._clear(),
            FadeIn(strip, lag_ratio=0.1),
            beats={
                "one": [FadeIn(rows[0][1]), FadeIn(rows[0][0], lag_ratio=0.15)],
                "two": [
                    FadeIn(rows[1][1]),
                    FadeIn(rows[1][0][0]),
                    LaggedStart(*before, lag_ratio=0.1),
                ],
                "heads": [
                    Create(model[0]),
                    LaggedStartMap(Create, model[1], lag_ratio=0.3),
                    FadeIn(model[2], lag_ratio=0.3),
                ],
            },
        )
        column = strip.get_column(SHOWN)
        frame = SurroundingRectangle(column, color=style.HIGHLIGHT, buff=style.HUG_BUFF)
        indices = VGroup(*(strip.get_column(k)[0] for k in range(n)))
        colour_cells, number_cell, table_cells = (part[0] for part in inputs)
        # No positions, no left and right: two columns' contents trade places, and back.
        a, b = (VGroup(*strip.get_column(k)[1:]) for k in (SHOWN - 1, SHOWN))
        self.say(
            "positions",
            rows.animate.set_opacity(style.DIMMED),
            Swap(a, b),
            beats={
                "given": [Swap(a, b), outline(indices)],
                "colour": [
                    Create(frame),
                    FadeIn(VGroup(colour_cells[0], *inputs[0][1:])),
                    TransformFromCopy(column[1], colour_cells[1]),
                ],
                "number": [
                    FadeIn(VGroup(number_cell[0], *inputs[1][1:])),
                    TransformFromCopy(column[2], number_cell[1]),
                ],
                "table": [
                    FadeIn(VGroup(table_cells[0], *inputs[2][1:])),
                    FadeIn(table_cells[1], lag_ratio=0.15),
                ],
            },
            p=self.spoken("multihead.two.position_width", 0),
        )
        self.task_group = VGroup(strip, rows, inputs, frame)

    def _inputs(self, run, k: int) -> VGroup:
        """Position ``k``'s input, as the heads get it: its colour (one-hot: the cell of its
        colour lit with its marker), its number and its row of the sin/cos table, side by
        side; each part braced and named. Each part is (cells, brace, name); its cells are
        (empty squares, what fills them)."""
        parts = VGroup()
        colour = run.colours[k]
        one_hot = VGroup(
            *(Square(INPUT_CELL).set_stroke(style.MUTED, 2) for _ in self.data.colour_names)
        ).arrange(RIGHT, buff=0)
        lit = self.colour_marker(colour, INPUT_CELL * 0.7).move_to(one_hot[colour])
        number = Square(INPUT_CELL).set_stroke(style.MUTED, 2)
        value = self.number(f"multihead.two.values[{k}]", 2, style.CELL_TEXT_SIZE)
        value.scale_to_fit_width(min(value.width, INPUT_CELL * 0.85)).move_to(number)
        table = VGroup(
            *(Square(INPUT_CELL).set_stroke(style.MUTED, 2) for _ in range(run.position_width))
        ).arrange(RIGHT, buff=0)
        entries = VGroup(
            *(
                self.number(f"multihead.two.position_table[{k}][{j}]", 2, style.CELL_TEXT_SIZE)
                for j in range(run.position_width)
            )
        )
        widest = max(e.width for e in entries)
        for e, cell in zip(entries, table, strict=True):
            e.scale(min(1.0, INPUT_CELL * 0.85 / widest)).move_to(cell)
        cells = (VGroup(one_hot, lit), VGroup(number, value), VGroup(table, entries))
        for group, key in zip(
            cells, ("input_colour", "input_number", "input_position"), strict=True
        ):
            brace = Brace(group[0], DOWN, buff=style.HUG_BUFF, color=style.MUTED)
            label = phrase(
                self.words[key], style.LABEL_SIZE, p=self.number("multihead.two.position_width", 0)
            )
            parts.add(VGroup(group, brace, label.next_to(brace, DOWN, buff=style.HUG_BUFF)))
        return parts.arrange(RIGHT, buff=style.GROUP_BUFF, aligned_edge=UP)

    def _heads_layout(self) -> None:
        """The two trained heads' picture, laid out before the task is (the task's model box
        grows into it): the model's box round two slots, one per head, each the size of the
        head's map; the rules and overlaps under them; the loss plot in the right third."""
        run = self.data.two_heads
        colour = max(range(2), key=lambda h: run.colour_match[h])
        maps = VGroup(*(self._map(run, "multihead.two", h, HEAD_CELL) for h in range(2)))
        maps.arrange(RIGHT, buff=style.WIDE_BUFF)
        rules = VGroup(
            style.text(self.words["rule_colour"], style.LABEL_SIZE),
            style.text(self.words["rule_previous"], style.LABEL_SIZE),
        )
        rules[0].next_to(maps[colour], DOWN, buff=style.ITEM_BUFF)
        rules[1].next_to(maps[1 - colour], DOWN, buff=style.ITEM_BUFF)
        matches = VGroup(
            *(
                phrase(
                    self.words["match_line"],
                    style.LABEL_SIZE,
                    style.HIGHLIGHT,
                    m=self.number(f"multihead.two.{key}[{h}]", 3),
                ).next_to(rule, DOWN, buff=style.HUG_BUFF)
                for key, h, rule in (
                    ("colour_match", colour, rules[0]),
                    ("previous_match", 1 - colour, rules[1]),
                )
            )
        )
        box = SurroundingRectangle(
            VGroup(maps, rules, matches),
            color=style.MUTED,
            buff=style.HUG_BUFF,
            corner_radius=0.12,
        )
        slots = VGroup(
            *(
                SurroundingRectangle(m[1].cells, color=style.MUTED, buff=0, stroke_width=2)
                for m in maps
            )
        )
        n = {
            "val": self.number("multihead.two.val_mse", 5),
            "base": self.number("multihead.two.baseline_mse", 2),
        }
        plot = LossPlot(
            run.loss_curve,
            "multihead.two.steps",
            self.words["step_axis"],
            width=3.6,
            height=3.4,
            also=(run.val_mse, run.baseline_mse),
            room=1,
        )
        val = plot.mark(run.val_mse, phrase(self.words["val_mark"], style.SMALL_SIZE, mse=n["val"]))
        base = plot.mark(
            run.baseline_mse,
            phrase(self.words["base_mark"], style.SMALL_SIZE, style.MUTED, mse=n["base"]),
            style.MUTED,
        )
        val[1].next_to(val[0], DOWN, buff=style.ITEM_BUFF).align_to(val[0], RIGHT)
        training = VGroup(plot, val, base)
        style.place(
            VGroup(VGroup(box, maps, rules, matches, slots), training).arrange(
                RIGHT, buff=style.GROUP_BUFF
            )
        )
        self.maps, self.slots, self.box, self.training = maps, slots, box, training
        self.rules = VGroup(rules, matches, box)

    def _small_box(self) -> VGroup:
        """The model as the task first shows it: a box round two empty slots, each named by
        its head (it grows into :meth:`_heads_layout`'s box on "打開來看"); returns the box,
        the slots and their names."""
        names = VGroup(
            *(
                phrase(self.words["head"], style.LABEL_SIZE, h=ShownNumber(h + 1, 0, Ordinal()))
                for h in range(len(self.maps))
            )
        )
        # the slots far enough apart that their names never meet
        apart = max(style.WIDE_BUFF, max(n.width for n in names) - SLOT + style.GROUP_BUFF)
        slots = VGroup(*(Square(SLOT).set_stroke(style.MUTED, 2) for _ in names))
        slots.arrange(RIGHT, buff=apart)
        for name, slot in zip(names, slots, strict=True):
            name.next_to(slot, UP, buff=style.ITEM_BUFF)
        box = SurroundingRectangle(
            VGroup(slots, names), color=style.MUTED, buff=style.ITEM_BUFF, corner_radius=0.12
        )
        return VGroup(box, slots, names)

    def _two_heads(self) -> None:
        run = self.data.two_heads
        colour = max(range(2), key=lambda h: run.colour_match[h])
        previous = 1 - colour
        maps, slots, training = self.maps, self.slots, self.training
        plot, val, base = training
        rules, matches, _ = self.rules
        n_pos = len(run.colours)
        # the head a line names, large in the right third (the loss is drawn there only once
        # the words come to training): a copy of its map, its rule drawn on the copy
        near = [self._beside(m, training) for m in maps]
        # the colour head's overlap comes with its copy, under it (the blocks are framed there)
        said = matches[0].copy()
        _, bottom, _, top = style.content_area()
        room = top - bottom - said.height - style.ITEM_BUFF
        near[colour].scale(min(1.0, room / near[colour].height))
        said.next_to(near[colour], DOWN, buff=style.ITEM_BUFF)
        VGroup(near[colour], said).set_y((top + bottom) / 2)
        blocks = near[colour][1].block_frames(run.colours)
        diagonal = VGroup(
            *(
                SurroundingRectangle(near[previous][1].get_cell(i, i - 1), buff=0, stroke_width=3)
                for i in range(1, n_pos)
            )
        ).set_color(style.HIGHLIGHT)

        slant = self._slant(near[previous][1])

        def grow(h: int) -> list:
            """Head ``h``'s map filled row by row in its slot (its name is there already)."""
            grid = maps[h][1]
            return [
                FadeOut(slots[h]),
                FadeIn(VGroup(grid.row_headers, grid.col_headers)),
                LaggedStart(*(FadeIn(r) for r in _rows(grid)), lag_ratio=0.15),
            ]

        # the task's strip sinks into the model's box, which opens to the heads' size
        strip, answers, inputs, frame = self.task_group
        small, small_slots, small_names = self.model
        # every column of the strip drops through the box's top into both slots: each
        # head reads the whole sequence
        n = len(self.data.two_heads.colours)

        def drop(k: int, slot: Mobject) -> FadeOut:  # column k, to its place in the slot
            share = RIGHT * slot.width * (k + 0.5) / n + UP * slot.height / 2
            column = VGroup(*strip.get_column(k)[1:]).copy()
            return FadeOut(
                column, target_position=slot.get_corner(DL) + share, scale=slot.width / strip.width
            )

        drops = [AnimationGroup(*(drop(k, slot) for slot in small_slots)) for k in range(n)]
        self.say(
            "colour_head",
            # the way down cleared, then the columns drop (one group: the drop gets the time)
            LaggedStart(
                FadeOut(VGroup(answers, inputs, frame)),
                AnimationGroup(LaggedStart(*drops, lag_ratio=0.15), FadeOut(strip)),
                lag_ratio=0.25,
            ),
            then=[
                [
                    ReplacementTransform(small, self.box),
                    ReplacementTransform(small_slots, slots),
                    *(ReplacementTransform(small_names[h], maps[h][0]) for h in range(2)),
                ],
                [*grow(colour), FadeIn(rules[0])],
            ],
            beats={
                "match": [
                    InTurn(
                        TransformFromCopy(maps[colour], near[colour]),
                        AnimationGroup(
                            LaggedStartMap(Create, blocks, lag_ratio=0.02),
                            FadeIn(matches[0]),
                            TransformFromCopy(matches[0], said),
                        ),
                    )
                ]
            },
            run_time=2.0,  # the strip's columns seen dropping into both slots
            h=colour + 1,
            m=self.spoken(f"multihead.two.colour_match[{colour}]", 3),
        )
        self.say(
            "previous_head",
            _sink(VGroup(near[colour], blocks, said), near[colour], maps[colour]),
            *grow(previous),
            FadeIn(rules[1]),
            then=[[TransformFromCopy(maps[previous], near[previous])]],
            beats={
                "diag": [LaggedStartMap(Create, diagonal, lag_ratio=0.1), FadeIn(matches[1])],
                "line": [FadeOut(diagonal), Create(slant)],
            },
            h=previous + 1,
        )
        self.say(
            "nobody",
            _sink(VGroup(near[previous], slant), near[previous], maps[previous]),
            outline(maps[0], maps[1]),
            then=[[Create(plot.frame)]],  # the loss's axes only now: training is named next
            beats={"training": [Create(plot.curve), FadeIn(base), FadeIn(val)]},
        )

    def _join(self) -> None:
        """Each head's map x its V = its output; the outputs joined; x W_O = the layer's."""
        run = self.data.two_heads
        heads = len(run.maps)
        # Heat, not written numbers: the two heads' halves and W_O read as pictures.
        cell = OUTPUT_CELL * min(1.0, style.REFERENCE_POSITIONS / len(run.colours))
        lines = VGroup()
        for h in range(heads):
            small_map = self._grid(run.maps[h], f"multihead.two.maps[{h}]", SMALL_CELL)
            v = self._grid(run.v[h], f"multihead.two.v[{h}]", SMALL_CELL)
            out = self._grid(run.head_outputs[h], f"multihead.two.head_outputs[{h}]", SMALL_CELL)
            v_name = MathTex(f"V_{h + 1}", font_size=36, color=style.VALUE).next_to(
                v, UP, buff=style.HUG_BUFF
            )
            name = phrase(self.words["head"], style.LABEL_SIZE, h=ShownNumber(h + 1, 0, Ordinal()))
            line = VGroup(
                small_map,
                MathTex(r"\times", font_size=40),
                VGroup(v, v_name),
                MathTex("=", font_size=40),
                out,
            ).arrange(RIGHT, buff=style.ITEM_BUFF)
            v_name.next_to(v, UP, buff=style.HUG_BUFF)
            name.next_to(small_map, LEFT, buff=style.GROUP_BUFF)
            lines.add(VGroup(name, line))
        lines.arrange(DOWN, buff=style.GROUP_BUFF, aligned_edge=LEFT)
        # The joined outputs, W_O and the layer's output, as heat maps.
        joined = VGroup(
            *(
                self._grid(run.head_outputs[h], f"multihead.two.head_outputs[{h}]", cell)
                for h in range(heads)
            )
        ).arrange(RIGHT, buff=0)
        w_o = self._grid(run.w_o, "multihead.two.w_o", cell)
        w_name = MathTex("W_O", font_size=44).next_to(w_o, UP, buff=style.ITEM_BUFF)
        width = self.number("multihead.two.width", 0)
        shape = phrase(self.words["w_o_shape"], style.LABEL_SIZE, a=width, b=width.copy())
        layer = self._grid(run.layer_out, "multihead.two.layer_out", cell)
        times, equals = MathTex(r"\times", font_size=48), MathTex("=", font_size=48)
        product = VGroup(joined, times, VGroup(w_o, w_name, shape), equals, layer).arrange(
            RIGHT, buff=style.ITEM_BUFF * 2
        )
        w_name.next_to(w_o, UP, buff=style.ITEM_BUFF)
        # Each head's half of the joined outputs braced and named (the names travel there).
        parts = VGroup(
            *(
                Brace(joined[h].cells, DOWN, buff=style.HUG_BUFF, color=style.MUTED)
                for h in range(heads)
            )
        )
        part_names = VGroup(
            *(
                phrase(
                    self.words["head"], style.SMALL_SIZE, h=ShownNumber(h + 1, 0, Ordinal())
                ).next_to(parts[h], DOWN, buff=style.HUG_BUFF)
                for h in range(heads)
            )
        )
        w_brace = Brace(w_o.cells, DOWN, buff=style.HUG_BUFF, color=style.MUTED)
        shape.next_to(w_brace, DOWN, buff=style.HUG_BUFF)
        style.place(VGroup(product, parts, part_names, w_brace))
        style.place(lines)
        self.joined, self.part_names = joined, part_names  # carried into the four heads' box
        d_head = self.number("multihead.two.d_head", 0)
        # Head 1's first output cells, each from its map's row and its V's column; then the
        # rest of both heads' outputs from copies of their maps and Vs.
        done = [(0, c) for c in range(CELLS_BY_HAND)]
        small_map, v, out = lines[0][1][0], lines[0][1][2][0], lines[0][1][4]
        first = [
            self._product_cell(small_map, v, out, i, c, seconds)
            for (i, c), seconds in zip(done, CELL_SECONDS, strict=True)
        ]
        # the rest fill in place, row by row, both heads together, each row under a light
        # on the map's row it comes from (no copies flying)
        rest_cells = _in_place(
            [
                [
                    (
                        VGroup(*(ln[1][0].get_cell(i, k) for k in range(ln[1][0].n_cols))),
                        VGroup(
                            *(
                                ln[1][4].get_cell(i, c)
                                for c in range(ln[1][4].n_cols)
                                if h or (i, c) not in done
                            )
                        ),
                    )
                    for h, ln in enumerate(lines)
                ]
                for i in range(len(run.colours))
            ]
        )
        v_frames = VGroup(
            *(SurroundingRectangle(ln[1][2][0], buff=style.TIGHT_BUFF) for ln in lines)
        )
        self.say(
            "outputs",
            FadeOut(self.rules),
            FadeOut(self.training),
            *(
                ReplacementTransform(self.maps[h][1].cells, lines[h][1][0].cells)
                for h in range(heads)
            ),
            *(ReplacementTransform(self.maps[h][0], lines[h][0]) for h in range(heads)),
            *(
                FadeOut(VGroup(self.maps[h][1].row_headers, self.maps[h][1].col_headers))
                for h in range(heads)
            ),
            then=[[FadeIn(VGroup(*(VGroup(ln[1][1], ln[1][2], ln[1][3]) for ln in lines)))]],
            # each head's V stays framed while its rows fill: every output row reads V whole
            beats={"cells": [InTurn(*first, AnimationGroup(Create(v_frames), rest_cells))]},
            run_time=sum(CELL_SECONDS) + CASCADE_SECONDS,  # the cells' own pace, not 1 s
            n=len(run.colours),
            d=d_head,
        )
        # Row i of the joined outputs, turned upright beside W_O's column j: head 1's numbers
        # meet the rows of W_O that head 1's columns multiply, head 2's the rest; together
        # they make the layer's output at (i, j).
        i = j = 0
        d = run.d_head
        n_pos = len(run.colours)
        row = VGroup(*(joined[h].get_cell(i, k) for h in range(heads) for k in range(d)))
        upright = row.copy().rotate(-PI / 2)
        w_column = VGroup(*(w_o.get_cell(k, j) for k in range(heads * d)))
        upright.next_to(w_column, LEFT, buff=style.ITEM_BUFF)
        row_frame = SurroundingRectangle(row, buff=style.TIGHT_BUFF)
        upright_frame = SurroundingRectangle(upright, buff=style.TIGHT_BUFF)
        # the layer's output, still empty: where the products will land
        empty = layer.cells.copy().set_fill(opacity=0).set_stroke(style.MUTED, 1)
        halves = [
            VGroup(upright[h * d : (h + 1) * d], w_column[h * d : (h + 1) * d])
            for h in range(heads)
        ]
        cell_ij = layer.get_cell(i, j)
        n_out = len(run.w_o[0])
        columns = [VGroup(*(w_o.get_cell(k, c) for k in range(heads * d))) for c in range(n_out)]
        column_frame = SurroundingRectangle(columns[j], buff=style.TIGHT_BUFF)
        layer_row = [layer.get_cell(i, c) for c in range(n_out)]
        layer_rows = [VGroup(*(layer.get_cell(a, c) for c in range(n_out))) for a in range(n_pos)]
        joined_rows = [
            VGroup(*(joined[h].get_cell(a, k) for h in range(heads) for k in range(d)))
            for a in range(n_pos)
        ]
        # The outputs land a gap apart, then close up: one position's row is 8 numbers.
        second = VGroup(*joined[1:], *parts[1:], *part_names[1:])
        second.shift(RIGHT * style.GROUP_BUFF)
        # alone, the joined outputs stand mid-frame; W_O's arrival moves them to their place
        outputs = VGroup(joined, parts, part_names)
        mid = RIGHT * -outputs.get_center()[0]
        VGroup(outputs, row_frame).shift(mid)
        self.say(
            "concat",
            FadeOut(VGroup(*(VGroup(*ln[1][:4]) for ln in lines), v_frames)),
            # a fade between the two grids, not a point-by-point morph of 64 cells
            *(FadeTransform(lines[h][1][4], joined[h]) for h in range(heads)),
            *(ReplacementTransform(lines[h][0], part_names[h]) for h in range(heads)),
            *(GrowFromCenter(p) for p in parts),
            beats={"eight": [second.animate.shift(LEFT * style.GROUP_BUFF), Create(row_frame)]},
            w=width,
        )
        self.say(
            "w_o",
            FadeOut(row_frame),
            outputs.animate.shift(-mid),
            FadeIn(times),
            FadeIn(VGroup(w_o, w_name), lag_ratio=0.02),
            FadeIn(equals),
            FadeIn(empty),
            beats={"shape": [GrowFromCenter(w_brace), FadeIn(shape)]},
            a=width,
        )
        row_frame.shift(-mid)  # off screen since w_o: back round the row it frames
        self.say(
            "w_o_job",
            Create(row_frame),
            FadeOut(times),
            Succession(
                AnimationGroup(
                    TransformFromCopy(row, upright, path_arc=-0.8),
                    TransformFromCopy(row_frame, upright_frame, path_arc=-0.8),
                ),
                outline(*halves),
            ),
            run_time=CELL_SECONDS[-1] * 2 + 1.0 + CASCADE_SECONDS,  # the layer beat's own pace
            then=[  # the row against W_O's first column: the layer's first number
                [TransformFromCopy(VGroup(upright, w_column), cell_ij), Create(column_frame)]
            ],
            beats={
                # the row runs along W_O's other columns, one number each, then every
                # other row of the joined outputs gives its row of the layer's output
                "layer": [
                    InTurn(
                        *(  # the frame stops on the next columns, one number each
                            AnimationGroup(
                                ApplyMethod(column_frame.move_to, columns[c]),
                                _from_copy(VGroup(upright, columns[c]), layer_row[c]),
                                run_time=CELL_SECONDS[-1],
                            )
                            for c in range(1, CELLS_BY_HAND)
                        ),
                        AnimationGroup(  # then sweeps the rest
                            ApplyMethod(column_frame.move_to, columns[-1]),
                            LaggedStart(
                                *(
                                    _from_copy(VGroup(upright, columns[c]), layer_row[c])
                                    for c in range(CELLS_BY_HAND, len(columns))
                                ),
                                lag_ratio=0.3,
                            ),
                            run_time=1.0,
                        ),
                        AnimationGroup(
                            FadeOut(VGroup(row_frame, upright_frame, upright, column_frame, empty)),
                            FadeIn(times),
                            run_time=0.5,  # the rows get the time
                        ),
                        # every other row fills in place under a light on its joined row
                        _in_place([[(joined_rows[a], layer_rows[a])] for a in range(1, n_pos)]),
                    )
                ]
            },
        )

    def _product_cell(self, left, right, out, i: int, j: int, seconds: float) -> Succession:
        """Cell (i, j) of ``out`` = ``left`` x ``right`` made where it is seen: row i of
        ``left`` and column j of ``right`` framed, their copies fused into the cell (half of
        ``seconds`` each)."""
        row = VGroup(*(left.get_cell(i, k) for k in range(left.n_cols)))
        column = VGroup(*(right.get_cell(k, j) for k in range(right.n_rows)))
        frames = VGroup(*(SurroundingRectangle(m, buff=style.TIGHT_BUFF) for m in (row, column)))
        return Succession(
            Create(frames, run_time=seconds / 2),
            AnimationGroup(
                _from_copy(VGroup(row, column), out.get_cell(i, j)),
                FadeOut(frames),
                run_time=seconds / 2,
            ),
        )

    def _four_heads(self) -> None:
        run = self.data.four_heads
        heads = range(run.heads)  # the data's head count, not a typed 4
        maps = VGroup(*(self._map(run, "multihead.four", h, 0.36)[1] for h in heads))
        maps.arrange(RIGHT, buff=style.GROUP_BUFF)
        names, rules = self.head_captions(run)
        for m, name, rule in zip(maps, names, rules, strict=True):
            name.next_to(m, DOWN, buff=style.ITEM_BUFF)
            rule.next_to(name, DOWN, buff=style.HUG_BUFF)
        colour = max(heads, key=lambda h: run.colour_match[h])
        previous = max(heads, key=lambda h: run.previous_match[h])
        pair = max(
            ((a, b) for a in heads for b in range(a + 1, run.heads)),
            key=lambda p: run.similarity[p[0]][p[1]],
        )
        unnamed = min(heads, key=lambda h: max(run.colour_match[h], run.previous_match[h]))
        # the model's box round the four maps, one slot each: it grows out of the two-head box
        box = SurroundingRectangle(
            VGroup(maps, names, rules), color=style.MUTED, buff=style.HUG_BUFF, corner_radius=0.12
        )
        slots = VGroup(
            *(
                SurroundingRectangle(m.cells, color=style.MUTED, buff=0, stroke_width=2)
                for m in maps
            )
        )
        # Under the two most alike heads: their V, transposed so that each position's V
        # stands under that position's column of the map (the map's weights carry it away).
        values = VGroup()
        for h in pair:
            grid = self._grid(list(zip(*run.v[h], strict=True)), f"multihead.four.v[{h}]", 0.36)
            grid.match_width(maps[h].cells).next_to(box, DOWN, buff=style.ITEM_BUFF)
            grid.match_x(maps[h].cells)
            name = MathTex(f"V_{h + 1}^\\top", font_size=32, color=style.VALUE)
            values.add(VGroup(grid, name.next_to(grid, LEFT, buff=style.HUG_BUFF)))
        overlap = phrase(
            self.words["match_line"],
            style.LABEL_SIZE,
            style.HIGHLIGHT,
            m=self.number(f"multihead.four.similarity[{pair[0]}][{pair[1]}]", 2),
        )
        bridge = ArcBetweenPoints(
            maps[pair[1]].get_top() + UP * style.ITEM_BUFF,
            maps[pair[0]].get_top() + UP * style.ITEM_BUFF,
            angle=0.6,
            color=style.HIGHLIGHT,
        )
        overlap.next_to(bridge, UP, buff=style.HUG_BUFF)
        # where the Vs were, the loss with every head and with one taken away (it comes
        # after them, so it decides how low the picture reaches)
        bars = self._ablation(run, pair[1])
        bars.next_to(box, DOWN, buff=style.HUG_BUFF).match_x(maps)
        # the four-head model is a run of its own, trained anew at the same width
        anew = phrase(
            self.words["four_anew"],
            style.LABEL_SIZE,
            style.MUTED,
            heads=self.number("multihead.four.heads", 0),
            d=self.number("multihead.four.d_head", 0),
            w=self.number("multihead.four.width", 0),
        ).next_to(box, UP, buff=style.ITEM_BUFF)
        style.place(VGroup(maps, names, rules, box, slots, values, bars, bridge, overlap, anew))
        frames = [SurroundingRectangle(m, color=style.HIGHLIGHT) for m in maps]
        # built on the full row (the row is a strip while the heads are lifted out of it)
        pair_frames = VGroup(frames[pair[0]], frames[pair[1]]).copy()
        cross = Cross(
            VGroup(maps[pair[1]], values[1]), stroke_color=style.HIGHLIGHT, stroke_width=5
        )
        # when its V leaves, the cross stays on the head's map alone
        map_cross = Cross(maps[pair[1]], stroke_color=style.HIGHLIGHT, stroke_width=5)
        # The two-head model is carried in: its two outputs shrink into the slots of its box
        # at the left; as the box grows to four slots those two empty (the four heads are
        # trained anew, not two kept and two added) and each head's map fills its own.
        small, small_slots, small_names = self._small_box()
        VGroup(small, small_slots, small_names).match_y(box).align_to(box, LEFT)
        carried = [*self.joined, *self.part_names]
        leaving = list(
            dict.fromkeys(_apart([m for m in self.mobjects if m is not self.title], carried))
        )
        self.remove(*(m for m in self.mobjects if m is not self.title))
        self.add(*leaving, *carried)
        self.say(
            "four",
            *(FadeOut(m) for m in leaving),
            Create(small),
            *(ReplacementTransform(self.joined[h], small_slots[h]) for h in range(2)),
            *(ReplacementTransform(self.part_names[h], small_names[h]) for h in range(2)),
            then=[
                [
                    ReplacementTransform(small, box),
                    FadeOut(small_slots),
                    *(GrowFromCenter(slot) for slot in slots),
                    FadeOut(small_names),
                    FadeIn(names),
                    FadeIn(anew),
                ],
            ],
        )
        # The row steps aside as a two-by-two block at the left, under the title; the head a
        # clause names is lifted out of it, large, into the rest of the frame, its name and
        # rule under it and its rule drawn on it; it sinks back into its slot when the next is
        # named, and the block becomes the row again before the heads' V come in.
        aside, room, corner = self._aside(maps, names)
        row = [(m.copy(), n.copy()) for m, n in zip(maps, names, strict=True)]
        solo = {h: self._lifted(maps[h], names[h], rules[h], room) for h in (previous, colour)}
        duo = VGroup(*(self._lifted(maps[h], names[h], rules[h], room) for h in pair))
        duo.arrange(RIGHT, buff=style.WIDE_BUFF, aligned_edge=UP)
        duo.scale(min(1.0, room.width / duo.width)).move_to(room)
        duo = dict(zip(pair, duo, strict=True))
        slant = self._slant(solo[previous][0])
        blocks = solo[colour][0].block_frames(run.colours)

        def sink(view: VGroup, slot: Mobject, *drawn: Mobject) -> FadeOut:
            """A lifted copy (its name and rule too) back into ``slot``, where its map is as
            the copy lands."""
            return _sink(VGroup(*view, *drawn), view[0], slot)

        def rise(h: int, view: VGroup) -> list:  # head h's copy out of its slot (play time)
            return [
                TransformFromCopy(maps[h], view[0]),
                TransformFromCopy(names[h], view[1]),
                FadeIn(view[2], shift=UP * style.ITEM_BUFF),
            ]

        def move(places: list) -> list:  # every head's map and name to its place
            return [
                Transform(m, place)
                for h in heads
                for m, place in zip((maps[h], names[h]), places[h], strict=True)
            ]

        fill = [  # each head's map fills its slot, row by row, as the first of them is named
            FadeOut(slots),
            *(FadeIn(VGroup(m.row_headers, m.col_headers)) for m in maps),
            *(LaggedStart(*(FadeIn(r) for r in _rows(m)), lag_ratio=0.15) for m in maps),
        ]
        block = box.copy()
        first = [*move(aside), Transform(box, corner), *rise(previous, solo[previous])]
        second = [
            sink(solo[previous], aside[previous][0], slant),
            *rise(colour, solo[colour]),
        ]
        second = [InTurn(AnimationGroup(*second), LaggedStartMap(Create, blocks, lag_ratio=0.02))]
        self.say(
            "four_colour",
            *fill,
            FadeOut(anew),
            then=[first, [Create(slant)]],
            beats={"second": second},
            h=colour + 1,
            p=previous + 1,
        )
        self.add(maps)  # the grids whole (their rows came one by one)
        # Say what the most alike pair shares: looking left, or looking at the colour.
        left = sum(run.previous_match[h] - run.colour_match[h] for h in pair) > 0
        # the first bar's copy on the second bar's row, where it starts to grow
        sliver = bars[0][0].copy().align_to(bars[1][0], LEFT).match_y(bars[1][0])
        # the pair side by side, large: the lifted head moves over (or sinks back), the
        # other rises; then one slides, half seen, onto the other, where their overlap is
        # written; both sink back as the block becomes the row again, the rules under it
        together = [FadeOut(blocks)]
        if colour in pair:
            together.append(ReplacementTransform(solo[colour], duo[colour]))
        else:
            together.append(sink(solo[colour], aside[colour][0]))
        together += [step for h in pair if h != colour for step in rise(h, duo[h])]
        a, b = (duo[h] for h in pair)
        over = b[0].copy().move_to(a[0])  # its cells half seen, its markers on a's: hidden
        over.cells.set_opacity(HALF)
        VGroup(over.row_headers, over.col_headers).set_opacity(0)
        home = overlap.copy()
        overlap.scale(1 / STRIP_SCALE).move_to(b[0])  # written where the slid map was
        home_again = [
            *move(row),
            Transform(box, block),
            Transform(overlap, home),  # to its place over the pair, clear of head 4
            *(sink(VGroup(*duo[h][:2]), row[h][0]) for h in pair),
            *(ReplacementTransform(duo[h][2], rules[h]) for h in pair),
            *(FadeIn(rules[h]) for h in heads if h not in pair and len(rules[h])),
        ]
        self.say(
            "four_pair" if left else "four_pair_colour",
            *together,
            beats={
                "overlap": [AnimationGroup(Transform(b[0], over), FadeIn(overlap))],
                "v": [
                    InTurn(
                        AnimationGroup(*home_again),
                        AnimationGroup(Create(bridge), FadeIn(pair_frames)),
                        FadeIn(values, lag_ratio=0.3),
                    )
                ],
                "remove": [
                    Create(cross),
                    ApplyMethod(VGroup(maps[pair[1]], values[1]).set_opacity, style.DIMMED),
                ],
                # its V emptied: map x V is then 0, the output set to 0 (each cell the
                # colour 0 has on that grid's own range, not its darkest); the map keeps its
                # weights
                "rise": [ApplyMethod(values[1][0].cells.set_fill, values[1][0].colour_of(0.0), 1)],
                # the loss measured with every head as its words are said, then a copy of its
                # bar growing to the loss measured without the crossed head, the first number
                # riding to the longer bar's end and becoming the second
                "mse": [
                    InTurn(
                        AnimationGroup(FadeOut(values), ReplacementTransform(cross, map_cross)),
                        AnimationGroup(
                            GrowFromEdge(bars[0][0], LEFT), FadeIn(bars[0][1]), FadeIn(bars[0][2])
                        ),
                        # the copy drops to its own row first, then grows (never across
                        # the first number)
                        AnimationGroup(FadeIn(bars[1][1]), TransformFromCopy(bars[0][0], sliver)),
                        AnimationGroup(
                            Transform(sliver, bars[1][0]),  # it stays as that bar
                            TransformFromCopy(bars[0][2], bars[1][2]),
                            run_time=2.0,
                        ),
                    )
                ],
            },
            run_time=4.0,
            a=pair[0] + 1,
            b=pair[1] + 1,
            s=self.spoken(f"multihead.four.similarity[{pair[0]}][{pair[1]}]", 2),
            full=self.spoken("multihead.four.val_mse", 4),
            without=self.spoken(f"multihead.four.ablated_mse[{pair[1]}]", 4),
        )
        self.say(
            "four_unnamed",
            FadeOut(VGroup(pair_frames, map_cross, bridge, overlap, bars[0], bars[1][1:], sliver)),
            maps[pair[1]].animate.set_opacity(1),
            Create(frames[unnamed]),
            h=unnamed + 1,
        )
        unknown = style.text("?", style.TITLE_SIZE * 3, style.HIGHLIGHT).move_to(maps[unnamed])
        # the four heads handed on: the maps (the "?" with them) shrink to the left into one
        # small layer box, the four-head box itself shrinking round them, with the layer's
        # bookkeeping under it (width = heads x dims, from this run); that line becomes the
        # large model's. Built as they will be once head {unnamed} is dimmed.
        heads = VGroup(maps, unknown)
        small = heads.copy()
        small[0][unnamed].set_opacity(style.DIMMED)
        for grid in small[0]:  # markers too small for their letters: shapes alone
            for marker in (*grid.row_headers, *grid.col_headers):
                marker.remove(marker.letter)
        small.scale(LAYER_SCALE).match_y(maps).to_edge(LEFT, buff=style.EDGE_BUFF + style.HUG_BUFF)
        layer = SurroundingRectangle(
            small, color=style.MUTED, buff=style.HUG_BUFF, corner_radius=0.12
        )
        split = phrase(
            self.words["split_line"],
            style.LABEL_SIZE,
            style.MUTED,
            width=self.number("multihead.four.width", 0),
            heads=self.number("multihead.four.heads", 0),
            d_head=self.number("multihead.four.d_head", 0),
        ).next_to(layer, DOWN, buff=style.ITEM_BUFF)
        split.align_to(layer, LEFT)
        self.say(
            "caveat",
            FadeOut(frames[unnamed]),
            FadeIn(pair_frames),
            Create(bridge),
            FadeIn(overlap),
            beats={
                "unnamed": [
                    FadeIn(frames[unnamed]),
                    ApplyMethod(maps[unnamed].set_opacity, style.DIMMED),
                    GrowFromCenter(unknown),
                ]
            },
        )
        # the hand-off, played as the next line begins (the small box is seen a moment, not
        # held over the rest of this one)
        self.handoff = [
            InTurn(
                AnimationGroup(
                    FadeOut(VGroup(names, rules, pair_frames, bridge, overlap)),
                    FadeOut(frames[unnamed]),
                    Transform(heads, small),
                    ReplacementTransform(box, layer),
                ),
                FadeIn(split),
            )
        ]
        self.layer = VGroup(heads, layer)
        self.split = split  # the same bookkeeping at another width: it becomes the large model's

    def _aside(self, maps: VGroup, names: VGroup) -> tuple:
        """The four heads' row stepped aside into a two-by-two block at the content's top
        left: for each head its map (``STRIP_SCALE`` of its size, its markers' letters hidden:
        too small) and its name (large enough to read) there, as targets; the room the block
        leaves at the right (a Rectangle, never drawn) and the box's outline round the block."""
        _, bottom, right, top = style.content_area()
        places = []
        for grid, name in zip(maps, names, strict=True):
            small = grid.copy().scale(STRIP_SCALE)
            for marker in (*small.row_headers, *small.col_headers):
                marker.letter.set_opacity(0)
            label = name.copy().scale(ASIDE_NAME).next_to(small, DOWN, buff=style.HUG_BUFF)
            places.append(VGroup(small, label))
        block = VGroup(*places).arrange_in_grid(rows=2, buff=(style.GROUP_BUFF, style.ITEM_BUFF))
        inset = style.HUG_BUFF + style.TIGHT_BUFF
        block.to_edge(LEFT, buff=style.EDGE_BUFF + inset).align_to(top * UP + DOWN * inset, UP)
        corner = SurroundingRectangle(
            block, color=style.MUTED, buff=style.HUG_BUFF, corner_radius=0.12 * STRIP_SCALE
        )
        start = corner.get_right()[0] + style.GROUP_BUFF
        room = Rectangle(width=right - start, height=top - bottom)
        room.move_to(((start + right) / 2) * RIGHT + ((top + bottom) / 2) * UP)
        return places, room, corner

    def _lifted(self, grid: Mobject, name: Mobject, rule: VGroup, room: Rectangle) -> VGroup:
        """A copy of a head's map, large, its name and rule under it, as tall as ``room`` and
        centred in it (not yet on screen): map, name, rule."""
        view = VGroup(grid.copy(), name.copy(), rule.copy())
        texts = VGroup(view[1], *([view[2]] if len(rule) else []))
        texts.arrange(DOWN, buff=style.HUG_BUFF)
        view[0].scale_to_fit_height(room.height - texts.height - style.ITEM_BUFF)
        texts.next_to(view[0], DOWN, buff=style.ITEM_BUFF)
        return view.move_to(room)

    @staticmethod
    def _beside(head: VGroup, region: Mobject) -> VGroup:
        """A copy of a head (its name over its map), ``NEAR_SCALE`` of its size or as large
        as fits from ``region``'s left edge to the content's right, centred there."""
        _, bottom, right, top = style.content_area()
        start = region.get_left()[0]
        copy = head.copy()
        copy.scale(min(NEAR_SCALE, (right - start) / copy.width, (top - bottom) / copy.height))
        return copy.move_to((start + right) / 2 * RIGHT + (top + bottom) / 2 * UP)

    @staticmethod
    def _slant(grid: AttentionGrid) -> Line:
        """The line just below a map's diagonal, drawn through the cells (i, i - 1): the
        map of a head that looks one to the left."""
        n = grid.n_rows
        return Line(
            grid.get_cell(1, 0).get_center(),
            grid.get_cell(n - 1, n - 2).get_center(),
            color=style.HIGHLIGHT,
            stroke_width=8,
        )

    def _ablation(self, run, h: int) -> VGroup:
        """Two bars of validation MSE, to one scale from 0: the model with every head, and
        with head ``h``'s output set to 0; each is (bar, name, number)."""
        rows = VGroup()
        sources = ("multihead.four.val_mse", f"multihead.four.ablated_mse[{h}]")
        values = (run.val_mse, run.ablated_mse[h])
        names = (
            phrase(
                self.words["mse_all"], style.BODY_SIZE, n=self.number("multihead.four.heads", 0)
            ),
            phrase(self.words["mse_without"], style.BODY_SIZE, h=ShownNumber(h + 1, 0, Ordinal())),
        )
        numbers = [self.number(source, 4, style.TITLE_SIZE) for source in sources]
        left, _, right, _ = style.content_area()
        # the longer bar spans what the names and the numbers leave of the width
        room = right - left - max(n.width for n in names) - max(n.width for n in numbers)
        length = room - 2 * style.ITEM_BUFF - style.GROUP_BUFF
        for value, name, number in zip(values, names, numbers, strict=True):
            bar = Rectangle(width=max(length * value / max(values), 0.05), height=ABLATION_HEIGHT)
            bar.set_stroke(width=0).set_fill(style.FOREGROUND, 0.7)
            rows.add(VGroup(bar, name, number))
        names = VGroup(*(name for _, name, _ in rows))
        names.arrange(DOWN, buff=style.ITEM_BUFF, aligned_edge=RIGHT)
        for bar, name, number in rows:  # the bars start at one edge: one scale from 0
            bar.next_to(names, RIGHT, buff=style.ITEM_BUFF).match_y(name)
            number.next_to(bar, RIGHT, buff=style.ITEM_BUFF)
        return rows

    def _products(self, column: VGroup, w_o: VGroup, out: Rectangle) -> list:
        """The joined vector (``column``, upright) times W_O's blocks of rows: slice k and
        block k framed, copies of both drop into ``out`` (their product is a whole output
        row), which pulses with each (a signed sum has no level to fill to); slices 1 and 2
        alone, then the rest in a cascade, and the output is whole at the end. Under the
        output the heads are counted as they are added ("+ head 1", "+ head 2", then "32
        heads added"): no values, which this model does not have. Returns the steps, one
        after another."""
        frame = SurroundingRectangle(VGroup(column[0], w_o[0]), buff=style.TIGHT_BUFF)
        frame.set_color(style.HIGHLIGHT)
        counts = [
            phrase(self.words["plus_head"], style.LABEL_SIZE, h=ShownNumber(k + 1, 0, Ordinal()))
            for k in range(FIRST_ALONE)
        ]
        counts.append(
            phrase(
                self.words["heads_added"],
                style.LABEL_SIZE,
                heads=self.number("multihead.bookkeeping.heads", 0),
            )
        )
        for count in counts:
            count.next_to(out, DOWN, buff=style.HUG_BUFF)
        # each count in as the one before goes (no Transform chain: inside a Succession a
        # replaced count would stay on screen)
        counted = [FadeIn(counts[0], shift=UP * style.HUG_BUFF)]
        counted += [
            AnimationGroup(
                FadeOut(counts[k - 1], shift=UP * style.HUG_BUFF),
                FadeIn(counts[k], shift=UP * style.HUG_BUFF),
            )
            for k in range(1, len(counts))
        ]

        def drop(k: int) -> AnimationGroup:  # seen only from its step (InTurn's)
            def lands() -> Rectangle:
                return out.copy().set_fill(style.HIGHLIGHT, 0).set_stroke(width=0)

            return AnimationGroup(
                TransformFromCopy(column[k], lands()), TransformFromCopy(w_o[k], lands())
            )

        def pulse() -> Animation:  # a frame run round the output: a product added
            return outline(out)

        heads = len(column)
        steps = [
            AnimationGroup(Create(frame), drop(0), pulse(), counted[0], run_time=PRODUCT_SECONDS[0])
        ]
        steps += [
            AnimationGroup(
                ApplyMethod(frame.move_to, VGroup(column[k], w_o[k])),
                drop(k),
                pulse(),
                counted[k],
                run_time=PRODUCT_SECONDS[k],
            )
            for k in range(1, FIRST_ALONE)
        ]
        rest = range(FIRST_ALONE, heads)
        steps.append(
            AnimationGroup(
                ApplyMethod(frame.move_to, VGroup(column[-1], w_o[-1])),
                LaggedStart(*(drop(k) for k in rest), lag_ratio=0.1),
                ApplyMethod(out.set_fill, style.FOREGROUND, OUTPUT_FILL),
                counted[-1],
                run_time=PRODUCT_SECONDS[-1],
            )
        )
        steps.append(FadeOut(frame, run_time=0.3))
        return steps

    def _bookkeeping(self) -> None:
        """4096 = 32 x 128 as geometry: the input, its projection cut into slices, one head's
        W_Q to proportion inside the whole W_Q, the join, and K, V shared by groups."""
        st = bookkeeping_stage(self)
        b = self.data.bookkeeping
        heads = b.heads
        all_brace = st.all_brace
        all_n = st.all_n
        arrow = st.arrow
        aside = st.aside
        cols_brace = st.cols_brace
        cols_n = st.cols_n
        column = st.column
        cuts = st.cuts
        edges = st.edges
        fan = st.fan
        gap = st.gap
        group = st.group
        head_row = st.head_row
        joined_name = st.joined_name
        k_bar = st.k_bar
        k_full = st.k_full
        k_name = st.k_name
        kv_line = st.kv_line
        links = st.links
        numbers = st.numbers
        one = st.one
        out = st.out
        pointers = st.pointers
        product = st.product
        projections = st.projections
        q = st.q
        q_name = st.q_name
        q_whole = st.q_whole
        ranges = st.ranges
        rows_brace = st.rows_brace
        rows_n = st.rows_n
        shared = st.shared
        slice_brace = st.slice_brace
        slice_width = st.slice_width
        sum_line = st.sum_line
        upright = st.upright
        v_bar = st.v_bar
        v_full = st.v_full
        v_name = st.v_name
        w_name = st.w_name
        w_o = st.w_o
        w_o_name = st.w_o_name
        w_q_name = st.w_q_name
        whole = st.whole
        x = st.x
        x_brace = st.x_brace
        x_name = st.x_name
        x_width = st.x_width
        # x and Q come first large, across the middle of the frame; they move to their places
        # in the picture as the next line brings W_Q, K and V
        opening = [x, x_name, x_brace, x_width, q, q_name, slice_brace, slice_width]
        placed = [m.copy() for m in opening]
        left_edge, bottom, right_edge, top = style.content_area()
        wide = OPENING * (right_edge - left_edge) / VGroup(x_name, x).width
        opening_arrow = [arrow.copy(), w_q_name.copy()]
        VGroup(*opening, *opening_arrow, q_whole, cuts).scale(wide)
        VGroup(*opening, *opening_arrow, q_whole, cuts).move_to((top + bottom) / 2 * UP)
        risen = x.copy()  # the copy of x that becomes Q whole
        self.say(
            "bookkeeping",
            # the four heads shrink into one small layer box, "8 = 4 x 2" under it; the
            # layer leaves (a layer is not a vector); its line becomes the large model's
            # "4096 = 32 x 128", and the large model's x grows
            *self.handoff,
            then=[
                [
                    FadeOut(self.layer),
                    ReplacementTransform(self.split, sum_line),
                    GrowFromEdge(x, LEFT),
                    FadeIn(x_name),
                    GrowFromCenter(x_brace),
                    FadeIn(x_width),
                ]
            ],
            beats={
                "heads": [
                    InTurn(
                        AnimationGroup(
                            GrowArrow(opening_arrow[0]),
                            FadeIn(opening_arrow[1]),
                            ReplacementTransform(risen, q_whole),
                            FadeIn(q_name),
                            run_time=0.8,
                        ),
                        LaggedStart(*(Create(c) for c in cuts), lag_ratio=0.1, run_time=1.5),
                        AnimationGroup(
                            FadeIn(q),
                            FadeOut(VGroup(q_whole, cuts)),
                            GrowFromCenter(slice_brace),
                            FadeIn(slice_width),
                            run_time=0.5,
                        ),
                    )
                ]
            },
            run_time=1.5,  # Q's slices seen cut one after another
            **numbers,
        )
        # the uncut Q and its cuts, faded inside the InTurn, are taken off the stage for good
        # (the InTurn's group would otherwise keep them, restored, behind Q)
        self.remove(risen, q_whole, cuts)
        # x goes through W_Q whole and comes out as Q: the cut is made there, after it
        through = placed[0].copy().set_fill(style.QUERY, 0.4).set_stroke(style.QUERY)
        self.say(
            "per_head",
            *(Transform(m, there) for m, there in zip(opening, placed, strict=True)),
            # W_Q's arrow and name, in since Q came, go to their places with x and Q
            *(
                ReplacementTransform(m, there)
                for m, there in zip(opening_arrow, (arrow, w_q_name), strict=True)
            ),
            then=[
                [
                    Succession(through.animate.move_to(placed[4]), FadeOut(through)),
                    # K and V are projected from the same x and cut the same way
                    *(TransformFromCopy(x, bar, path_arc=0.5) for bar in (k_full, v_full)),
                    FadeIn(VGroup(k_name, v_name)),
                    *(Create(p[0]) for p in projections),
                    FadeIn(VGroup(*(p[1] for p in projections))),
                ]
            ],
            beats={
                "whole": [
                    Create(fan),
                    # slice 1 of K and V is head 1's (Q's is lit when its product lands)
                    *(bar[0].animate.set_fill(style.HIGHLIGHT, 0.6) for bar in (k_full, v_full)),
                ],
                # the column, x stood up against it, and their product filling Q's slice 1
                "shape": [
                    InTurn(
                        AnimationGroup(
                            GrowFromEdge(one, UP),
                            GrowFromCenter(rows_brace),
                            FadeIn(rows_n),
                            GrowFromCenter(cols_brace),
                            FadeIn(cols_n),
                            run_time=0.5,
                        ),
                        TransformFromCopy(x, upright, path_arc=-PI / 2, run_time=0.7),
                        ApplyMethod(upright.shift, gap * RIGHT, run_time=0.6),
                        # the product gets the most of the line's time: the row grown, then sent
                        GrowFromEdge(head_row, LEFT, run_time=0.7),
                        ReplacementTransform(head_row, product, path_arc=PI / 3, run_time=0.8),
                        # used: it leaves before the other slices arrive, the brace back to W_Q
                        AnimationGroup(
                            FadeOut(upright),
                            VGroup(rows_brace, rows_n).animate.shift(-aside),
                            run_time=0.3,
                        ),
                    )
                ],
            },
            run_time=2.5,  # x stood up and its product seen, not in 1 s
            width=self.spoken("multihead.bookkeeping.width", 0),
            a=self.spoken("multihead.bookkeeping.per_head_shape[0]", 0),
            b=self.spoken("multihead.bookkeeping.per_head_shape[1]", 0),
        )
        self.say(
            "slices",
            FadeOut(fan),
            FadeOut(VGroup(cols_brace, cols_n)),
            # the whole W_Q: the one head's column, repeated once per head
            LaggedStart(*(TransformFromCopy(one, s) for s in whole), lag_ratio=0.05),
            GrowFromCenter(all_brace),
            FadeIn(all_n),
            FadeIn(w_name),
            beats={
                "cut": [
                    q[0].animate.set_fill(opacity=0),
                    FadeOut(product),
                    LaggedStart(
                        *(s.animate.set_fill(style.QUERY, 0.25) for s in whole), lag_ratio=0.05
                    ),
                ],
                # each slice of W_Q makes the same slice of Q: the colour runs from one to
                # the other, slice 1, slice 2, then all the rest in turn
                "first": [
                    whole[0].animate.set_fill(style.HIGHLIGHT, 0.7),
                    TransformFromCopy(whole[0], q[0].copy().set_fill(style.HIGHLIGHT, 0.7)),
                    FadeIn(edges, lag_ratio=0.3),
                ],
                "next": [
                    Create(pointers[1]),
                    FadeIn(ranges[1]),
                    whole[1].animate.set_fill(style.HIGHLIGHT, 0.7),
                    TransformFromCopy(whole[1], q[1].copy().set_fill(style.HIGHLIGHT, 0.7)),
                    LaggedStart(
                        *(
                            AnimationGroup(
                                whole[k].animate.set_fill(style.QUERY, 0.7),
                                q[k].animate.set_fill(style.QUERY, 0.7),
                            )
                            for k in range(2, heads)
                        ),
                        lag_ratio=0.15,
                    ),
                ],
                # the joined vector (a copy of V's slices: each head's A_h·V_h, cut the same
                # way) stands up beside W_O's blocks of rows, where W_Q was; slice k times
                # block k is a whole row of outputs, and the output under W_O is their sum:
                # it pulses with each product, the first two seen one by one, then the rest
                "join": [
                    InTurn(
                        AnimationGroup(
                            FadeOut(
                                VGroup(edges, ranges[1], pointers[1], slice_brace, slice_width)
                            ),
                            FadeOut(VGroup(rows_brace, rows_n, all_brace, all_n)),
                            FadeOut(VGroup(whole, one, w_name)),
                            LaggedStartMap(FadeIn, w_o, lag_ratio=0.03),
                            run_time=0.6,  # the products get the line's time
                        ),
                        AnimationGroup(  # named once W_Q's numbers above it have gone
                            FadeIn(w_o_name),
                            TransformFromCopy(v_full, column, path_arc=-PI / 2),
                            FadeIn(joined_name),
                            FadeIn(out),
                            run_time=0.8,
                        ),
                        *self._products(column, w_o, out),
                    ),
                ],
                # of each group of heads' K (and V) slices one is kept as the K/V head they
                # share (GQA has fewer K/V heads, not a mean of them), the other three go; then
                # the groups of Q's slices braced, each linked to its K and V
                "share": [
                    InTurn(
                        AnimationGroup(
                            *(
                                AnimationGroup(
                                    FadeOut(full[g + 1 : g + group]),
                                    ReplacementTransform(full[g], bar[i]),
                                )
                                for full, bar in ((k_full, k_bar), (v_full, v_bar))
                                for i, g in enumerate(range(0, heads, group))
                            )
                        ),
                        LaggedStartMap(GrowFromCenter, shared, lag_ratio=0.1),
                        AnimationGroup(Create(links), FadeIn(kv_line)),
                    )
                ],
            },
            run_time=4.0,  # the join's products at their own pace, not in 2 s
            width=self.spoken("multihead.bookkeeping.projection_shape[0]", 0),
            a0=self.spoken("multihead.bookkeeping.slices[0][0]", 0),
            z0=self.spoken("multihead.bookkeeping.slices[0][1]", 0),
        )


def bookkeeping_stage(scene: LectureScene) -> SimpleNamespace:
    """multihead's bookkeeping picture, laid out and placed (in multihead's words, whichever
    scene builds it): x, Q cut into one slice per head, K and V, one head's W_Q to proportion
    in the whole W_Q, W_O's blocks of rows with the joined vector beside them and the layer's
    output, K and V shared by groups of heads; nothing is on screen yet. Each part is an
    attribute of the namespace returned, named as in :meth:`MultiHead._bookkeeping`."""
    words = scene.shared(MultiHead.scene_key)
    b = scene.data.bookkeeping
    heads = b.heads
    numbers = {
        "width": scene.number("multihead.bookkeeping.width", 0),
        "heads": scene.number("multihead.bookkeeping.heads", 0),
        "d_head": scene.number("multihead.bookkeeping.d_head", 0),
    }
    sum_line = phrase(words["split_line"], style.BODY_SIZE, **numbers)
    x = Rectangle(width=BAR_LENGTH, height=BAR_HEIGHT).set_stroke(style.FOREGROUND, 2)
    x.set_fill(style.FOREGROUND, 0.15)
    x_name = MathTex("x", font_size=44).next_to(x, LEFT, buff=style.ITEM_BUFF)
    x_brace = Brace(x, UP, buff=style.HUG_BUFF, color=style.MUTED)
    x_width = scene.number("multihead.bookkeeping.width", 0, style.LABEL_SIZE)
    x_width.next_to(x_brace, UP, buff=style.HUG_BUFF)
    q = _bar(heads, style.QUERY).next_to(x, DOWN, buff=1.3)
    q_name = MathTex("Q", font_size=44, color=style.QUERY).next_to(q, LEFT, buff=style.ITEM_BUFF)
    arrow = Arrow(x.get_bottom(), q.get_top(), buff=style.HUG_BUFF, color=style.MUTED)
    w_q_name = MathTex("W_Q", font_size=36, color=style.QUERY).next_to(
        arrow, RIGHT, buff=style.ITEM_BUFF
    )
    slice_brace = Brace(q[0], DOWN, buff=style.HUG_BUFF, color=style.MUTED)
    slice_width = scene.number("multihead.bookkeeping.d_head", 0, style.SMALL_SIZE)
    slice_width.next_to(slice_brace, DOWN, buff=style.HUG_BUFF)
    fan = VGroup(
        Line(x.get_corner(DL), q[0].get_corner(UL), color=style.HIGHLIGHT),
        Line(x.get_corner(DR), q[0].get_corner(UR), color=style.HIGHLIGHT),
    )
    # The slices' ranges, under the first two slices.
    ranges = VGroup(
        *(
            phrase(
                words["slice_line"],
                style.SMALL_SIZE,
                k=ShownNumber(k + 1, 0, Ordinal()),
                a=scene.number(f"multihead.bookkeeping.slices[{k}][0]", 0),
                z=scene.number(f"multihead.bookkeeping.slices[{k}][1]", 0),
            )
            for k in (0, 1)
        )
    ).arrange(DOWN, buff=style.ITEM_BUFF, aligned_edge=LEFT)
    ranges.next_to(slice_width, DOWN, buff=style.ITEM_BUFF).align_to(q, LEFT).shift(RIGHT * 1.2)
    pointers = VGroup(
        *(
            Line(r.get_corner(UL), q[k].get_bottom(), color=style.MUTED, stroke_width=2)
            for k, r in enumerate(ranges)
        )
    )
    # Q's siblings K and V, each cut the same way (slice 1 is head 1's), under the ranges
    k_full = _bar(heads, style.KEY).next_to(ranges, DOWN, buff=style.GROUP_BUFF)
    v_full = _bar(heads, style.VALUE).next_to(k_full, DOWN, buff=style.ITEM_BUFF)
    VGroup(k_full, v_full).align_to(q, LEFT)
    # One head's W_Q (4096 x 128) to proportion, and the whole W_Q (4096 x 4096) around it.
    # the left column's full height, less the output bar that will stand under it
    side = x.get_top()[1] - v_full.get_bottom()[1] - BAR_HEIGHT - style.ITEM_BUFF
    whole = _bar(heads, style.QUERY, side).stretch_to_fit_height(side)
    one = whole[0].copy().set_stroke(style.HIGHLIGHT, 3)
    rows_brace = Brace(whole, LEFT, buff=style.HUG_BUFF, color=style.MUTED)
    rows_n = scene.number("multihead.bookkeeping.per_head_shape[0]", 0, style.SMALL_SIZE)
    rows_n.next_to(rows_brace, LEFT, buff=style.HUG_BUFF)
    cols_brace = Brace(whole[0], UP, buff=style.HUG_BUFF, color=style.MUTED)
    cols_n = scene.number("multihead.bookkeeping.per_head_shape[1]", 0, style.SMALL_SIZE)
    cols_n.next_to(cols_brace, UP, buff=style.HUG_BUFF)
    all_brace = Brace(whole, UP, buff=style.HUG_BUFF, color=style.MUTED)
    all_n = scene.number("multihead.bookkeeping.projection_shape[1]", 0, style.SMALL_SIZE)
    all_n.next_to(all_brace, UP, buff=style.HUG_BUFF)
    w_name = MathTex("W_Q", font_size=44, color=style.QUERY).next_to(
        whole, DOWN, buff=style.ITEM_BUFF
    )
    # the layer's output, under W_O where W_Q's name is: laid out with the picture
    out = Rectangle(width=whole.width, height=BAR_HEIGHT).set_stroke(style.FOREGROUND, 2)
    out.set_fill(style.FOREGROUND, 0).next_to(whole, DOWN, buff=style.ITEM_BUFF)
    right = VGroup(whole, one, rows_brace, rows_n, cols_brace, cols_n, all_brace, all_n, w_name)
    right.add(out)  # not yet on screen: it comes with the join
    left = VGroup(x, x_name, x_brace, x_width, q, q_name, arrow, w_q_name, slice_brace, slice_width)
    # Grouped-query K and V: a slice per group of heads, where K's and V's slices were.
    group = b.kv_group
    k_bar, v_bar = VGroup(), VGroup()
    for bar, colour in ((k_bar, style.KEY), (v_bar, style.VALUE)):
        for g in range(0, heads, group):
            piece = Rectangle(width=q[0].width, height=BAR_HEIGHT).set_stroke(colour, 1.5)
            bar.add(piece.set_fill(colour, 0.5).match_x(q[g : g + group]))
    k_bar.match_y(k_full)
    v_bar.match_y(v_full)
    k_name = (
        MathTex("K", font_size=40, color=style.KEY)
        .next_to(k_bar, LEFT, buff=style.ITEM_BUFF)
        .align_to(q_name, RIGHT)
    )
    v_name = (
        MathTex("V", font_size=40, color=style.VALUE)
        .next_to(v_bar, LEFT, buff=style.ITEM_BUFF)
        .align_to(q_name, RIGHT)
    )
    # K and V are x through W_K and W_V, as Q is x through W_Q: an arc from x, round the
    # left, to each of K and V, named by its matrix
    projections = VGroup()
    pairs = ((k_name, "K", style.KEY), (v_name, "V", style.VALUE))
    for n, (name, letter, colour) in enumerate(pairs):
        arc = CurvedArrow(
            x_name.get_left() + LEFT * style.HUG_BUFF,
            name.get_left() + LEFT * style.HUG_BUFF,
            angle=0.6 + 0.8 * n,  # V's round K's
            color=colour,
            stroke_width=2,
            tip_length=0.15,
        )
        label = MathTex(f"W_{letter}", font_size=36, color=colour)
        # W_K on K's arc high up, W_V on V's low down: one over the other
        label.next_to(arc.point_from_proportion(0.35 + 0.3 * n), LEFT, buff=style.HUG_BUFF)
        projections.add(VGroup(arc, label))
    # how many K/V heads the query heads share, from the data
    kv_line = phrase(
        words["kv_line"],
        style.SMALL_SIZE,
        style.MUTED,
        kv=scene.number("multihead.bookkeeping.kv_heads", 0),
        heads=scene.number("multihead.bookkeeping.heads", 0),
    )
    kv_line.next_to(v_full, DOWN, buff=style.ITEM_BUFF).align_to(v_full, LEFT)
    shared = VGroup(
        *(
            Brace(q[g : g + group], DOWN, buff=style.HUG_BUFF, color=style.MUTED)
            for g in range(0, heads, group)
        )
    )
    links = VGroup(
        *(
            Line(k_bar[i].get_top(), shared[i].get_bottom(), color=style.MUTED, stroke_width=2)
            for i in range(len(k_bar))
        )
    )
    sum_line.next_to(VGroup(left, right), UP, buff=style.GROUP_BUFF)
    picture = VGroup(
        sum_line,
        VGroup(
            VGroup(
                left,
                ranges,
                pointers,
                fan,
                k_full,
                v_full,
                k_bar,
                v_bar,
                k_name,
                v_name,
                shared,
                links,
                kv_line,
                projections,
            ),
            right,
        ).arrange(RIGHT, buff=style.WIDE_BUFF * 1.2, aligned_edge=UP),
    ).arrange(DOWN, buff=style.GROUP_BUFF)
    style.place(picture)
    # Anything placed relative to bars is moved with the picture; what is made later follows.
    # W_O as rows: the joined vector times W_O pairs the k-th head's slice with the k-th
    # block of W_O's rows, and every one of the layer's outputs reads all the blocks
    w_o = _bar(heads, style.FOREGROUND, whole.height).rotate(-PI / 2)
    w_o.stretch_to_fit_width(whole.width).move_to(whole)
    for k, stripe in enumerate(w_o):
        stripe.set_fill(style.FOREGROUND, 0.12 if k % 2 else 0.28)
    w_o_name = MathTex("W_O", font_size=44).next_to(w_o, UP, buff=style.ITEM_BUFF)
    # the joined vector stood up beside W_O's rows, and the layer's output under W_O
    column = _bar(heads, style.VALUE, whole.height).rotate(-PI / 2)
    column.next_to(w_o, LEFT, buff=style.ITEM_BUFF)
    joined_name = MathTex(r"\mathrm{concat}", font_size=32).next_to(
        column, UP, buff=style.ITEM_BUFF
    )
    for stripe in column:
        stripe.set_fill(style.VALUE, 0.5)
    # x stood up against one head's column of W_Q, on its left as a row times a matrix
    # (its 4096 numbers meet the column's 4096 rows), and their product: Q's slice 1,
    # head 1's query. The rows' brace stands left of it while it is there.
    # It stands one bar-width from the column, at its full height, then slides against
    # it; their product, the 1 x 128 row (x dotted with each of the column's columns), grows
    # under the column across its width and flies to Q's slice 1, unlit till then.
    upright = x.copy().rotate(-PI / 2).stretch_to_fit_height(one.height)
    gap = upright.width
    upright.next_to(one, LEFT, buff=gap)
    aside = (upright.width + gap + style.TIGHT_BUFF) * LEFT
    rows_brace.shift(aside)
    rows_n.shift(aside)
    product = q[0].copy().set_fill(style.HIGHLIGHT, 0.6)
    head_row = Rectangle(width=one.width, height=BAR_HEIGHT).set_stroke(style.HIGHLIGHT, 2)
    head_row.set_fill(style.HIGHLIGHT, 0.9).next_to(one, DOWN, buff=style.HUG_BUFF)
    # Q is x through W_Q, not x cut: it comes whole out of x along W_Q's arrow, and is cut
    # where it stands, one cut after another; x is not cut
    q_whole = Rectangle(width=q.width, height=BAR_HEIGHT).move_to(q)
    q_whole.set_stroke(style.QUERY, 1.5).set_fill(style.QUERY, 0)
    cuts = VGroup(
        *(
            Line(q[k].get_corner(UL), q[k].get_corner(DL), color=style.QUERY, stroke_width=1.5)
            for k in range(1, heads)
        )
    )
    # head 1's indices written on the edges of its slice of Q (above) and of W_Q (below)
    edges = VGroup(
        *(
            VGroup(
                scene.number("multihead.bookkeeping.slices[0][0]", 0, style.SMALL_SIZE),
                scene.number("multihead.bookkeeping.slices[0][1]", 0, style.SMALL_SIZE),
            )
            for _ in range(2)
        )
    )
    # each inside the slice: the first index from its left edge, the last ending at its
    # right edge (so neither reads as slice 2's), the last a line further out; a short
    # tick runs from each edge out to its number
    for pair, piece, side in ((edges[0], q[0], UP), (edges[1], whole[0], DOWN)):
        first, last = pair
        first.next_to(piece, side, buff=style.HUG_BUFF).align_to(piece, LEFT)
        last.next_to(piece, side, buff=style.HUG_BUFF).align_to(piece, RIGHT)
        last.shift(side * (first.height + style.HUG_BUFF))
        for corner, label in ((LEFT, first), (RIGHT, last)):
            start = piece.get_corner(side + corner)
            end = start + side * abs(label.get_edge_center(-side)[1] - start[1])
            pair.add(Line(start, end, color=style.MUTED, stroke_width=2))
    return SimpleNamespace(
        all_brace=all_brace,
        all_n=all_n,
        arrow=arrow,
        aside=aside,
        cols_brace=cols_brace,
        cols_n=cols_n,
        column=column,
        cuts=cuts,
        edges=edges,
        fan=fan,
        gap=gap,
        group=group,
        head_row=head_row,
        heads=heads,
        joined_name=joined_name,
        k_bar=k_bar,
        k_full=k_full,
        k_name=k_name,
        kv_line=kv_line,
        links=links,
        numbers=numbers,
        one=one,
        out=out,
        pointers=pointers,
        product=product,
        projections=projections,
        q=q,
        q_name=q_name,
        q_whole=q_whole,
        ranges=ranges,
        rows_brace=rows_brace,
        rows_n=rows_n,
        shared=shared,
        slice_brace=slice_brace,
        slice_width=slice_width,
        sum_line=sum_line,
        upright=upright,
        v_bar=v_bar,
        v_full=v_full,
        v_name=v_name,
        w_name=w_name,
        w_o=w_o,
        w_o_name=w_o_name,
        w_q_name=w_q_name,
        whole=whole,
        x=x,
        x_brace=x_brace,
        x_name=x_name,
        x_width=x_width,
    )


def _bar(slices: int, colour, length: float = BAR_LENGTH) -> VGroup:
    """A wide vector drawn as a bar cut into ``slices`` equal slices."""
    return VGroup(
        *(
            Rectangle(width=length / slices, height=BAR_HEIGHT).set_stroke(colour, 1.5)
            for _ in range(slices)
        )
    ).arrange(RIGHT, buff=0)


@seam_builder
def slice_strip(scene: LectureScene) -> VGroup:
    """multihead's last picture, zoom_out's first (:func:`bookkeeping_stage`, as its last line
    leaves it): 「4096 維 = 32 個 head × 128 維」 over x and Q cut into 32 slices (slices 1 and 2
    lit, the rest in the Query colour) with W_Q's arrow; K and V kept one slice per group of
    heads, each group of Q's slices braced and linked to its K and V, the line saying how many
    K/V heads are shared; W_K's and W_V's arcs; at the right W_O's blocks of rows with the
    joined vector beside them and the layer's output filled, 「32 份相加」 under it.
    ``.q``, ``.q_name`` and ``.lit`` (the two lit slices) name the parts zoom_out carries on."""
    st = bookkeeping_stage(scene)
    words = scene.shared(MultiHead.scene_key)
    q = st.q
    for k in range(len(q)):
        q[k].set_fill(style.QUERY, 0.7 if k >= FIRST_ALONE else 0)
    lit = VGroup(*(q[k].copy().set_fill(style.HIGHLIGHT, 0.7) for k in range(FIRST_ALONE)))
    st.out.set_fill(style.FOREGROUND, OUTPUT_FILL)
    added = phrase(
        words["heads_added"],
        style.LABEL_SIZE,
        heads=scene.number("multihead.bookkeeping.heads", 0),
    ).next_to(st.out, DOWN, buff=style.HUG_BUFF)
    picture = VGroup(
        st.sum_line,
        VGroup(st.x, st.x_name, st.x_brace, st.x_width),
        VGroup(q, lit, st.q_name, st.arrow, st.w_q_name),
        VGroup(st.k_bar, st.v_bar, st.k_name, st.v_name, st.projections),
        VGroup(st.shared, st.links, st.kv_line),
        VGroup(st.w_o, st.w_o_name, st.column, st.joined_name, st.out, added),
    )
    picture.q, picture.q_name, picture.lit = q, st.q_name, lit
    return picture
