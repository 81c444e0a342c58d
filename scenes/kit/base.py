"""What every lecture scene shares: the data, the words, the style and narration."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    Create,
    FadeOut,
    ManimColor,
    Mobject,
    Scene,
    Text,
    VGroup,
    config,
)

from common.files import LinesFile, NarratedLine
from common.settings import settings
from common.timers import timed
from model.datafile import PART_BY_NAME, DataFileError, LectureData
from model.parts import RULE_MATCH, EatApple, Example, HeadsRun, ItCat
from model.sentences import Names, names_in
from scenes import patches
from scenes.kit import style
from scenes.kit.devices import ModelBox
from scenes.kit.labels import ColourMarker, ContentsList, vertical_label
from scenes.kit.maps import AttentionGrid, score_table
from scenes.kit.numbers import (
    Measured,
    Notation,
    Ordinal,
    Ref,
    ShownNumber,
    Spoken,
    phrase,
    sum_sign,
)
from scenes.kit.planner import (
    MarkedLine,
    mark_beats,
    paced,
    say_plan,
    silent_durations,
    timing,
    voiced_durations,
)
from scenes.kit.plots import SlopePlot
from scenes.kit.vectors import LookingArrows
from syllabus.declarations import expand_reads
from syllabus.locale import (
    LocaleError,
    Words,
    all_of,
    colour_label,
    colour_name,
    current_language,
    locale_path,
    one_of,
    parse_choices,
)
from syllabus.plan import chapter_of
from syllabus.themes import THEMES
from voice.clips import (
    LINE_PAUSE,
    VoiceError,
    find_recording,
    recorded,
    recording_name,
    wav_seconds,
)
from voice.engines import engine_for

Sentence = EatApple | ItCat  # a hand-made sentence of the data file
APPLE_ROW = "tokens.eat_apple.last_row.weights[0]"  # the query word's weights, short sentence


SETTLE = 0.65  # seconds a chapter's last picture stays after its last line has ended


def data_path() -> Path:
    """The data file scenes read: the settings' ``data`` (``out/data.json`` by default)."""
    return settings().data


def lecture_data(lang: str) -> LectureData:
    """The validated data file at :func:`data_path` as ``lang``'s chapters read it (its own
    walkthrough sentence in place, :meth:`LectureData.in_language`); read once per process."""
    return _load(data_path().resolve()).in_language(lang)


@cache
def _load(path: Path) -> LectureData:
    return LectureData.from_file(path)


class _KeepMissing(dict):
    """Format fields: a name it does not hold stays a placeholder."""

    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


def top_index(values: Sequence[float]) -> int:
    """The position of the largest value (the first, on a tie)."""
    return max(range(len(values)), key=values.__getitem__)


def declared_reads(cls: type) -> tuple[str, ...]:
    """The data-file paths a scene class reads: its ``reads``, expanded."""
    attributes = {name: getattr(cls, name) for name in dir(cls) if not name.startswith("_")}
    return expand_reads(tuple(cls.reads), attributes)


class ScopedData:
    """The data file as one scene may see it: only the parts its class declares.

    render.py re-renders a scene when a part it declares (its class's ``reads``) changes;
    reading any other part would let a stale segment through, so it is an error that names
    the scene and the part.
    """

    def __init__(self, data: LectureData, reads: tuple[str, ...], scene: str) -> None:
        self._data, self._reads, self._scene = data, reads, scene

    def _check(self, path: str) -> None:
        if not any(path == r or path.startswith((r + ".", r + "[")) for r in self._reads):
            raise DataFileError(
                f"scene {self._scene} reads '{path}', but its class declares only "
                f"reads = {self._reads}: add it to 'reads'"
            )

    @property
    def colour_names(self) -> tuple[str, ...]:
        return self._data.colour_names  # config.colours: every scene may read it

    def example(self, name: str) -> Example:
        self._check(f"examples.{name}")
        return self._data.example(name)

    def part(self, path: str) -> object:
        self._check(path)
        return self._data.part(path)

    def value(self, source: Measured) -> float:
        """What ``source`` (a :class:`Ref`, :class:`Sum`...) computes from the data file."""
        self._check(source.path)
        return source.value(self._data.raw)

    def __getattr__(self, name: str) -> object:
        if name not in PART_BY_NAME:
            raise AttributeError(name)
        self._check(PART_BY_NAME[name].path)
        return getattr(self._data, name)


class LectureScene(Scene):
    """Base of every chapter: sets the background, loads data and words, narrates.

    Subclasses set :attr:`scene_key` (their table in the locale files) and write
    ``construct`` with :meth:`say`, which shows narration as subtitles and gives each
    cue the time it needs to be read.
    """

    scene_key: str = ""
    reads: tuple[str, ...] = ()  # data-file paths; "{attribute}" is filled from the class
    max_positions: int | None = None  # the most colour-task positions the layout holds
    needs: tuple[str, ...] = ()  # [task] keys the chapter cannot do without
    named: tuple[str, ...] = ()  # [task] lists whose every ``id`` the words table must name
    tables: tuple[str, ...] = ()  # other chapters' words tables it shows (in its record too)
    # lines of its words it reads as whole numbers, (key, least, most): most a number, or the
    # key(s) of comma-separated lines it is a position in (checked with the lecture file)
    word_numbers: tuple[tuple, ...] = ()
    # the seams (scenes.kit.seams) it opens on and ends on, checked by the gates on its frames
    opens_on: str = ""
    ends_on: str = ""

    def setup(self) -> None:
        patches.install(settings())  # once a process: a plain `manim` run's speed-ups too
        style.use_theme(settings().theme)  # the theme of this scene, before anything is made
        self.camera.background_color = style.BACKGROUND
        self.lang = current_language()
        self.data = ScopedData(
            lecture_data(self.lang), declared_reads(type(self)), type(self).__name__
        )
        self.words = Words(self.scene_key, self.lang)
        self.spoken_numbers: list[ShownNumber | Spoken] = []  # checked by the numbers gate
        self.beatless: list[str] = []  # narrated lines without an animation (the beats gate)
        self.unmarked: list[tuple[str, str]] = []  # (table, key) of lines whose beats had no
        # markers (the beats gate asks the project's own lines for them)
        self.sentence_words = self.sentence_fields()
        self.voice = settings().voice  # None: silent, timed for reading
        self.narration_lines: list[dict] = []  # every line said: index, key, text (and clip)
        self.chapter = chapter_of(type(self))
        if self.chapter is not None and self.chapter.part:
            self.enter_part(self.chapter.part)

    def contents(self) -> ContentsList:
        """The plan's parts as a list (headings from the locale's ``[contents]`` table), placed."""
        words = self.shared("contents")
        parts = self.chapter.parts if self.chapter else ()
        contents = ContentsList(words["heading"], [words[p] for p in parts])
        if parts:  # room for the highlight frame on the first and the last part
            style.place(VGroup(contents, contents.frame(0), contents.frame(len(parts) - 1)))
        return contents

    def enter_part(self, part: str) -> None:
        """Show the contents again, this part highlighted, before the chapter's own title."""
        contents = self.contents()
        k = self.chapter.parts.index(part)
        frame = contents.frame(k)
        self.add(contents)  # at once: no chapter opens on black while the voice speaks
        self.say(
            "enter",
            Create(frame),
            contents.dim_except(k).animate.set_opacity(style.DIMMED),
            table="contents",
            k=str(k + 1),
            part=self.shared("contents")[part],
        )
        self.play(FadeOut(contents), FadeOut(frame))

    def number(
        self,
        source: str | Measured,
        decimals: int,
        size: float = style.SMALL_SIZE,
        color: ManimColor | None = None,
        notation: Notation = "fixed",
    ) -> ShownNumber:
        """The number at a data-file path (or computed by a :class:`Sum`, :class:`Count`,
        :class:`Mean` of one), shown: ``self.number("training.steps", 0)``. The value is read
        from the path, so what is shown and where it is said to come from cannot disagree."""
        source = Ref(source) if isinstance(source, str) else source
        return ShownNumber(self.data.value(source), decimals, source, size, color, notation)

    def spoken(self, source: str | Measured, decimals: int, notation: Notation = "fixed") -> Spoken:
        """A number the narration says, read from its data-file path as :meth:`number`."""
        source = Ref(source) if isinstance(source, str) else source
        return Spoken(self.data.value(source), decimals, source, notation)

    def make_title(self) -> Text:
        """The scene's title (its locale key ``title``), at the top of the frame."""
        title = style.text(self.words["title"], style.TITLE_SIZE).to_edge(UP, buff=style.EDGE_BUFF)
        title.gate_title = True  # the frame-use gate measures the picture without it
        return title

    def clear_below_title(self, title: Mobject) -> None:
        """Fade out everything on screen but the title, to start the scene's next part."""
        self.play(*(FadeOut(m) for m in self.mobjects if m is not title))

    def apple_words(self) -> list[str]:
        """The words of the walkthrough (我 吃 蘋果 很 開心) as this language shows them: the
        tokens, or their gloss (``show`` in the locale's shared ``[eat_apple]`` table)."""
        ex = self.data.eat_apple
        return list(ex.gloss if self.shows_gloss() else ex.tokens)

    def shows_gloss(self) -> bool:
        return self.shared("eat_apple")["show"] == "gloss"

    def apple_label(self, role: str, j: int) -> str:
        """A vector's name with its word: ``v（蘋果）``, ``v(apple)``."""
        return self.shared("eat_apple").format("of", role=role, token=self.apple_words()[j])

    def dim_names(self, sentence: Sentence) -> list[str]:
        """What each dimension of a hand-made sentence's vectors means, in this language."""
        return self.names_of(sentence.dims, "dims")

    def names_of(self, table: Names, key: str) -> list[str]:
        """A sentence's names (``dims``, a sense's ``means``) in this language."""
        names = names_in(table, self.lang)
        if names is None:  # the lecture file is checked for this; a data file made elsewhere
            raise DataFileError(f"the sentence's '{key}' have no names in '{self.lang}'")
        return names

    def sentence_fields(self) -> dict[str, str]:
        """Words the narration may name about the sentences this scene reads, all computed.

        The walkthrough: ``{sentence}`` (its short part), ``{whole}``, ``{asker}`` (the word
        that asks), ``{picked}`` (the word it gives the most), ``{later}`` (the words after
        it), ``{meaning}`` (the asker's largest input dimension), ``{wants}`` (where W_Q's row
        of that dimension is largest), ``{seeks}`` (the asker's largest Query dimension),
        ``{brings}`` (the largest dimension of its attention output). The pronoun sentence:
        ``{pronoun_sentence}``, ``{pronoun}``, ``{referent}`` and ``{pronoun_axis}``.
        """
        fields: dict[str, str] = {}
        reads = declared_reads(type(self))
        if "tokens.eat_apple" in reads:
            ex, words = self.data.eat_apple, self.apple_words()
            dims, i = self.dim_names(ex), ex.query_index
            meaning = top_index(ex.x[i])
            fields |= {
                "sentence": " ".join(words[: ex.short]),
                "whole": " ".join(words),
                "asker": words[i],
                "picked": words[ex.target],
                "later": " ".join(words[i + 1 :]),
                "meaning": dims[meaning],
                "wants": dims[top_index(ex.w_q[meaning])],
                "seeks": dims[top_index(ex.q[i])],
                "brings": dims[top_index(ex.last_row.outputs[0])],
            }
        if "tokens.it_cat" in reads:
            c = self.data.it_cat
            fields |= {
                "pronoun_sentence": " ".join(c.tokens),
                "pronoun": c.tokens[c.query_index],
                "referent": c.tokens[c.referent],
                "pronoun_axis": self.dim_names(c)[top_index(c.scaled.outputs[c.query_index])],
            }
        return fields

    def score_board(self) -> tuple[AttentionGrid, Mobject, Mobject]:
        """The short sentence's score table as scoring ends on it and softmax opens on it:
        the shaded scores (:func:`score_table`), the Key axis over the columns and the Query
        axis left of the rows, in scoring's words."""
        ex, words = self.data.eat_apple, self.shared("scoring")
        tokens = self.apple_words()[: ex.short]
        grid = score_table(ex.short_full.scores, "tokens.eat_apple.short_full.scores", tokens, 1.0)
        key_axis = style.text(words["key_axis"], style.SMALL_SIZE, style.KEY)
        key_axis.next_to(grid.col_headers, UP, buff=style.ITEM_BUFF)
        query_axis = vertical_label(words["query_axis"], style.LABEL_SIZE, style.QUERY)
        query_axis.next_to(grid.row_headers, LEFT, buff=style.ITEM_BUFF)
        return grid, key_axis, query_axis

    def apple_choice(self) -> tuple[VGroup, LookingArrows]:
        """The short sentence ("我 吃 蘋果") in a row, and its query word's arrow to each word,
        as thick as the weight it gives."""
        ex = self.data.eat_apple
        words = VGroup(*(style.text(t, style.TITLE_SIZE) for t in self.apple_words()[: ex.short]))
        words.arrange(RIGHT, buff=style.WIDE_BUFF * 2)
        weights = ex.last_row.weights[0]
        return words, LookingArrows(words, ex.query_index, weights, APPLE_ROW)

    def with_sign(
        self, key: str, terms: Sequence[float], total: float, decimals: int, table: str = ""
    ) -> str:
        """The locale line ``key`` (of ``table`` if given) with its ``{sign}`` filled by
        :func:`sum_sign`: "=" when the terms as shown add up to the total as shown, else "≈"."""
        words = self.shared(table) if table else self.words
        return words[key].replace("{sign}", sum_sign(terms, total, decimals))

    def template(self, key: str) -> str:
        """A locale line for :func:`~scenes.kit.numbers.phrase`: the sentences' words filled in
        (``{pronoun}``...), its number placeholders kept."""
        return self.words[key].format_map(_KeepMissing(self.sentence_words))

    def choices(self, key: str, table: str = "") -> tuple[list[str], int]:
        """A multiple choice from the locale line ``key`` (:func:`parse_choices`) of this
        scene's words, or of ``table``'s: the choices, unmarked, and which one is right."""
        words = self.shared(table) if table else self.words
        where = f"{locale_path(self.lang)}: [{table or self.scene_key}] {key}"
        return parse_choices(words[key], where)

    def shared(self, table: str) -> Words:
        """A shared locale table (an example's words, used by several scenes), or another
        chapter's table the class declares in ``tables``. A segment's record hashes exactly
        those, so reading another chapter's words undeclared is an error naming the scene."""
        words = Words(table, self.lang)
        if table != self.scene_key and table not in self.tables and "title" in words:
            raise LocaleError(
                f"scene {type(self).__name__} reads the words of [{table}], another chapter's, "
                f"but its class declares only tables = {tuple(self.tables)}: add it to 'tables'"
            )
        return words

    def colour_name(self, colour_index: int) -> str:
        """A task colour as the narration says it (the locale's ``[colour_names]``, else the
        config's own name)."""
        return colour_name(self.data.colour_names[colour_index], self.lang)

    def query_colour_name(self) -> str:
        """What the narration calls the Query's colour in this theme ("blue"), in this
        language (the theme's ``query_hue``, named by the locale's ``[colour_names]``)."""
        return colour_name(THEMES[style.THEME_NAME].query_hue, self.lang)

    def colour_list(self) -> str:
        """The lecture's task colours as the narration says "one of them" (from the lecture
        file's ``[task] colours``, never a fixed list)."""
        return one_of([colour_name(c, self.lang) for c in self.data.colour_names], self.lang)

    def all_of(self, items: Sequence[str]) -> str:
        """``items`` as the narration says "all of these" (the language's ``[meta]`` joins)."""
        return all_of(items, self.lang)

    def colour_label(self, colour_index: int) -> str:
        return colour_label(self.data.colour_names[colour_index], self.lang)

    def colour_map(
        self,
        colours: Sequence[int],
        weights: Sequence[Sequence[float]],
        source: str,
        cell: float,
        header: float = style.HEADER_MARKER,
    ) -> AttentionGrid:
        """A colour-task map with a marker before each row and above each column.

        ``cell`` is the side for the lecture's 8 positions; with more, the cells shrink so the
        map keeps its size, and once they are too small for legible numbers the map is read
        by its brightness alone.
        """
        cell *= min(1.0, style.REFERENCE_POSITIONS / len(colours))
        marker = min(header, cell * 0.8)  # ``header``: the markers' size, if the cells allow
        return AttentionGrid(
            weights,
            source,
            row_headers=[self.colour_marker(c, marker) for c in colours],
            col_headers=[self.colour_marker(c, marker) for c in colours],
            cell_size=cell,
            show_numbers=cell >= style.MIN_NUMBER_CELL,
        )

    def head_captions(self, run: HeadsRun) -> tuple[VGroup, VGroup]:
        """Under each map of a trained multi-head run: its name ("第 1 個 head"), and the rule
        it learned, for each head whose map overlaps that rule's ideal map by at least
        :data:`RULE_MATCH` (the shared ``[multihead]`` words). Returns names and rules (an
        empty group where a head matches no rule)."""
        words = self.shared("multihead")
        heads = len(run.maps)
        names = VGroup(
            *(
                phrase(words["head"], style.LABEL_SIZE, h=ShownNumber(h + 1, 0, Ordinal()))
                for h in range(heads)
            )
        )
        rules = VGroup()
        for h in range(heads):
            learned = [
                words[key]
                for key, match in (
                    ("rule_colour", run.colour_match),
                    ("rule_previous", run.previous_match),
                )
                if match[h] >= RULE_MATCH
            ]
            rule = VGroup(*(style.text(line, style.SMALL_SIZE, style.MUTED) for line in learned))
            rules.add(rule.arrange(DOWN, buff=style.HUG_BUFF) if learned else rule)
        return names, rules

    def model_box(self, width: float) -> ModelBox:
        """The colour task's model (head + readout), its parts named as the training chapter
        names them (a scene other than training declares ``"training"`` in its ``tables``)."""
        names = self.shared("training")
        return ModelBox(width, names["head_label"], names["readout_label"])

    def widest_slopes(self) -> SlopePlot:
        """w (1 − w) read at the widest d of the √d probe: the mean largest weight and its
        mean slope, without and with √d (``pitfalls.sqrt_d``; a scene reading it declares it)."""
        k = len(self.data.sqrt_d.dims) - 1
        dims = self.data.sqrt_d.dims[k]
        return SlopePlot(
            [
                (
                    getattr(dims, f"mean_max_{kind}"),
                    getattr(dims, f"mean_slope_{kind}"),
                    self.number(f"pitfalls.sqrt_d.dims[{k}].mean_slope_{kind}", 2, color=colour),
                    colour,
                    side,
                )
                for kind, colour, side in (
                    ("unscaled", style.WITHOUT, LEFT),
                    ("scaled", style.WITH, UP),
                )
            ]
        )

    def colour_marker(self, colour_index: int, size: float = style.MARKER_SIZE) -> ColourMarker:
        """The marker of a task colour: its colour, its shape and its letter."""
        name = self.data.colour_names[colour_index]
        return ColourMarker(style.task_colour(name), self.colour_label(colour_index), size)

    def say(
        self,
        key: str,
        *animations: Animation,
        run_time: float = 1.0,
        then: Sequence[Sequence[Animation]] = (),
        table: str | None = None,
        beats: Mapping[str, Sequence[Animation]] | None = None,
        **fields,
    ) -> None:
        """Narrate the locale string ``key`` (formatted with ``fields``) while animating.

        The narration is cut into cues; the animations play first (``run_time`` seconds,
        drawn out when the words would otherwise go on over a picture that has not moved
        for :data:`~scenes.kit.planner.HOLD` seconds, never longer than the narration), then
        the scene holds until the last cue has been on screen long enough to read, or, with
        a voice, has been said.
        Cue times are whole frames, so consecutive cues never overlap. A measured number in
        ``fields`` is passed as the :class:`ShownNumber` the screen shows or as a
        :class:`Spoken`, never as text, so that the numbers gate checks what is said
        against the data file too. ``then`` lists further groups of animations played one
        after another under the same line (each at most ``run_time``; all of them before
        the line's first beat). ``table`` takes the line from a shared locale table
        instead of the scene's own.

        ``beats`` answer the words as they are said: the line marks a place with
        ``<name>`` (in every language, wherever its words fall), a cue begins there, and
        the animations of ``beats[name]`` start on the frame that cue starts: when it is
        read, or, with a voice, when its words are heard (drawn out as the line's own are).
        Every marker needs its beat and every beat its marker.

        The line's plan (cues, beats, times) is :mod:`scenes.kit.planner`'s; this plays it.
        """
        fps = config.frame_rate
        numbers = [v for v in fields.values() if isinstance(v, ShownNumber | Spoken)]
        self.spoken_numbers.extend(numbers)
        texts = {k: v.text if isinstance(v, ShownNumber | Spoken) else v for k, v in fields.items()}
        texts = {**self.sentence_words, **texts}
        words = self.shared(table) if table else self.words
        marked = words.format(key, **texts)
        beats = dict(beats or {})
        plan = mark_beats(marked, beats, self.lang, words.scene_key, key)
        entry = {"index": len(self.narration_lines) + 1, "key": key, "text": plan.line}
        entry["start"] = start = self.renderer.time
        self.narration_lines.append(entry)
        voiced = None
        if self.voice:
            with timed("synthesis"):  # the profile's share (common.timers), if on
                plan, *voiced = self._voice_clip(plan)
        if voiced is None:
            durations = silent_durations(plan.cues, self.lang, fps)
        else:
            clip, said = voiced
            spoken = wav_seconds(clip)
            entry |= {"clip": str(clip), "seconds": spoken}
            durations = voiced_durations(plan.cues, spoken, said, fps)
        clock = timing(durations, plan.beat_cues, fps, None if voiced is None else LINE_PAUSE)
        if voiced is not None:
            entry["cues"] = clock.starts[:-1]
        for cue, at, seconds in zip(plan.cues, clock.starts[:-1], clock.durations, strict=True):
            self.add_subcaption(cue, duration=seconds, offset=at)
        groups = [list(animations), *(list(step) for step in then)]
        groups += [list(beats[name]) for name in plan.unplaced]  # a line without markers
        groups = [group for group in groups if group]
        if plan.unplaced:
            self.unmarked.append((words.scene_key, key))
        for group in groups:
            self.play(*group, run_time=paced(run_time, max(clock.first_beat, 1 / fps), len(groups)))
        for k, (at, name) in enumerate(clock.timeline):
            self.hold_until(start + at)
            window = max(start + clock.until(k) - self.renderer.time, 1 / fps)
            if beats[name]:  # an empty beat: its cue begins there, nothing moves
                self.play(*beats[name], run_time=paced(run_time, window))
        if not groups and not any(beats[name] for _, name in clock.timeline):
            self.beatless.append(key)
        self.hold_until(start + clock.end)
        entry["end"] = self.renderer.time

    def _voice_clip(self, plan: MarkedLine) -> tuple[MarkedLine, Path, list[float] | None]:
        """This line's clip: its recording if there is one (its cues then spread over it),
        else the voice's, each cue said on its own (with each cue's time in the clip, and
        the cues' clips named in the line's entry: a cluster's worker is sent them); and
        the plan said (a cue the voice said for too long is cut in two)."""
        line = plan.line
        entry = self.narration_lines[-1]
        index, key = entry["index"], entry["key"]
        cache = Path(self.voice.cache)
        if self.voice.narration:
            name = recording_name(self.scene_key, index, key)
            found = find_recording(Path(self.voice.narration), name)
            if found is not None:
                return plan, recorded(found, line, cache), None
            if self.voice.engine is None:
                raise VoiceError(
                    f"{self.voice.narration}/{name}.wav: no recording of {line[:50]!r} "
                    "(record it, or render with a voice to say the missing lines)"
                )
        plan, spoken = say_plan(plan, self.lang, engine_for(self.voice), cache)
        entry["parts"] = [part.name for part in spoken.parts]
        return plan, spoken.clip, list(spoken.cue_seconds)

    def tear_down(self) -> None:
        """Write where each line starts and ends (and its clip, with a voice) beside the
        video: render.py mixes the clips into the segment's sound track, and the viewer's
        page pauses at each line's end in presenter mode. The chapter's last picture is
        held :data:`SETTLE` seconds more, so that it ends on a settled frame, not on the last
        syllable."""
        self.wait(SETTLE)
        super().tear_down()
        if not config.dry_run:
            movie = Path(self.renderer.file_writer.movie_file_path)
            lines = [NarratedLine(**entry) for entry in self.narration_lines]
            LinesFile(lines=lines).write(LinesFile.beside(movie))

    def hold_until(self, end: float) -> None:
        """Wait until the scene's clock reaches ``end`` (in whole frames, never short)."""
        remaining = end - self.renderer.time
        if remaining > 1e-6:
            frames = math.ceil(remaining * config.frame_rate - 1e-6)
            self.wait(frames / config.frame_rate)
