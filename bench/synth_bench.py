"""Synthesis speed: our Kokoro path against kokoro-onnx, and what might cut it, side by side.

    .venv/bin/python bench/synth_bench.py [--variant all] [--lines 2] [--rounds 5]
    .venv/bin/python bench/synth_bench.py --whole-lines
    .venv/bin/python bench/synth_bench.py --profile

The feed is what a render gives the model: the first ``--lines`` ``intro`` lines of each
language as scripts/voice_measures.py picks them, cut into cues, each cue said by the
lecture's Kokoro speaker (voice/engines/kokoro.py), whose every call of
:meth:`voice.kokoro.Kokoro.speak` (phonemes, voice or blended style table, speed) is recorded
in a first round. Each variant then says the same calls on one thread, in interleaved
rounds (the order turned each round); its CPU seconds per second of speech are the median
over rounds, with its ratio to ours. Every variant's audio is compared with ours, call by
call: sample arrays equal, or how far apart (length, waveform SNR, spectral distance).

``kokoro-onnx`` is the PyPI package a user would pick (its newest version, installed here
on first use with this venv's pip into ``out/.bench/kokoro-onnx``, never into the project):
the same int8 model file, a session of one intra- and one inter-op thread
(``Kokoro.from_session``), our voice tables written in its voices format, and our phonemes
(``is_phonemes=True``), at its defaults otherwise. The other variants are our path with one
change: onnxruntime session options, the model saved once in ORT format, the int8 weights
dequantised to float32, or the convolutions' uint8 weights stored as int8 (each model made
once with the ``onnx`` package, installed the same way).

``--whole-lines`` compares a cue per call (what the engine does) with the whole line per
call: the CPU time of the same lines. ``--profile`` shares our session's operator time out
by operator type.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from voice_measures import kokoro as lecture_speaker  # noqa: E402
from voice_measures import lines, said_cues  # noqa: E402

from voice import kokoro as model  # noqa: E402
from voice.kokoro import MODEL_RATE, Kokoro  # noqa: E402

BENCH = ROOT / "out" / ".bench"  # the bench's own tools and model files, never the project's
LANGS = ("zh-TW", "en")


class Call(NamedTuple):
    """One call of :meth:`Kokoro.speak`, as the engine made it."""

    phonemes: str
    voice: str | np.ndarray  # a voice's name, or a style table (510, 256) blended from two
    speed: float


Say = Callable[[Call], np.ndarray]
SHARED = Kokoro()  # the voices, read once; each variant its own session


def recorded_calls(count: int) -> list[Call]:
    """The model calls a render makes for the first ``count`` intro lines of each language."""
    engine = model.kokoro()
    real = engine.speak
    calls: list[Call] = []

    def speak(phonemes: str, voice: str | np.ndarray, speed: float) -> np.ndarray:
        calls.append(Call(phonemes, voice, speed))
        return real(phonemes, voice, speed)

    engine.speak = speak  # type: ignore[method-assign]
    try:
        for lang in LANGS:
            speaker = lecture_speaker(lang)
            for line in lines(lang)[:count]:
                for cue in said_cues(line, lang):
                    speaker.samples(cue)
    finally:
        del engine.speak
    return calls


def package(name: str, *needs: str) -> None:
    """PyPI's ``name`` (its newest version) and the packages it ``needs`` that this venv
    lacks, installed once with this venv's pip into a folder of their own (the bench's
    tools, kept out of the project's environment), and importable."""
    folder = BENCH / name
    if not (folder / ".complete").is_file():
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--upgrade"]
        command += ["--target", str(folder), "--no-deps", name, *needs]
        if subprocess.run(command).returncode != 0:
            sys.exit(
                f"bench: could not install {name} from PyPI (offline?): it is only needed "
                f"for this comparison; with a network, run again, or run `{' '.join(command)}`"
            )
        (folder / ".complete").touch()
    sys.path.insert(0, str(folder))


def session(path: Path, change: Callable[[object], None] = lambda options: None) -> object:
    """An onnxruntime session of ``path`` on one thread, as ours is, with ``change`` made to
    its options."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    change(options)
    return onnxruntime.InferenceSession(
        str(path), sess_options=options, providers=["CPUExecutionProvider"]
    )


def ours(path: Path | None = None, change: Callable[[object], None] | None = None) -> Say:
    """Our :meth:`Kokoro.speak`, its session made from ``path`` with ``change`` (none: as
    :class:`Kokoro` makes it)."""
    import onnxruntime

    engine = copy.copy(SHARED)
    if path is None and change is None:
        engine.session = onnxruntime.InferenceSession(
            str(model.check_model()),
            SHARED.session.get_session_options(),
            SHARED.session.get_providers(),
        )
    else:
        engine.session = session(path or model.check_model(), change or (lambda o: None))
    return lambda call: engine.speak(call.phonemes, call.voice, call.speed)


def kokoro_onnx() -> Say:
    """kokoro-onnx's ``Kokoro.create`` on the same model, voices and phonemes."""
    package("kokoro-onnx")
    from kokoro_onnx import Kokoro as Peer

    voices = BENCH / "voices.npz"  # its format: name -> (510, 1, 256)
    tables = {n: SHARED.voice(n)[:, None, :] for n in model.voice_hashes()}
    np.savez(voices, **tables)
    peer = Peer.from_session(session(model.check_model()), str(voices))

    def say(call: Call) -> np.ndarray:
        voice = call.voice if isinstance(call.voice, str) else call.voice[:, None, :]
        return peer.create(call.phonemes, voice, call.speed, is_phonemes=True)[0]

    say.untrimmed = lambda call: peer.create(  # type: ignore[attr-defined]
        call.phonemes,
        call.voice if isinstance(call.voice, str) else call.voice[:, None, :],
        call.speed,
        is_phonemes=True,
        trim=False,
    )[0]
    return say


def ort_format() -> Path:
    """The model saved once in onnxruntime's own format, its graph optimised."""
    path = BENCH / "kokoro.ort"
    if not path.is_file():

        def save(options: object) -> None:
            options.optimized_model_filepath = str(path)  # type: ignore[attr-defined]
            options.add_session_config_entry("session.save_model_format", "ORT")  # type: ignore[attr-defined]

        session(model.check_model(), save)
    return path


class _Graph:
    """The int8 graph being made float: who makes and who uses each value, and the float
    weights and nodes made so far."""

    def __init__(self, graph: object) -> None:
        from onnx import numpy_helper

        self.to_array = numpy_helper.to_array
        self.inits = {t.name: t for t in graph.initializer}  # type: ignore[attr-defined]
        self.made = {o: k for k, n in enumerate(graph.node) for o in n.output}  # type: ignore[attr-defined]
        self.nodes = list(graph.node)  # type: ignore[attr-defined]
        self.users: dict[str, list[int]] = {}
        for k, node in enumerate(self.nodes):
            for name in node.input:
                self.users.setdefault(name, []).append(k)
        self.weights: dict[str, np.ndarray] = {}
        self.gone: set[int] = set()  # the integer nodes' followers, which the float ones replace
        self.new: dict[int, object] = {}  # the float node in the integer node's place

    def array(self, name: str) -> np.ndarray:
        return self.to_array(self.inits[name]).astype(np.float32)

    def only_user(self, name: str) -> int:
        (user,) = self.users[name]
        return user

    def float_bias(self, name: str) -> str:
        """The float bias that the quantised bias ``name`` was computed from."""
        node = self.nodes[self.made[name]]
        while not (
            found := [i for i in node.input if i in self.inits and self.inits[i].data_type == 1]
        ):
            node = self.nodes[self.made[node.input[0]]]
        return found[0]

    def linear(self, k: int) -> None:
        """MatMulInteger or ConvInteger (then the bias added, if any, the result cast and
        multiplied by input scale x weight scale) as MatMul or Conv of the float input."""
        from onnx import helper

        node = self.nodes[k]
        bias, after = [], self.only_user(node.output[0])
        if self.nodes[after].op_type == "Add":
            added = self.nodes[after]
            bias = [self.float_bias(next(i for i in added.input if i != node.output[0]))]
            self.gone.add(after)
            after = self.only_user(added.output[0])
        cast = self.nodes[after]
        scaled = self.nodes[self.only_user(cast.output[0])]
        self.gone |= {after, self.only_user(cast.output[0])}
        scales = self.nodes[self.made[next(i for i in scaled.input if i != cast.output[0])]]
        (scale,) = [i for i in scales.input if i in self.inits]
        quantised, zero = node.input[1], node.input[3]
        weight = f"{quantised}_f32"
        self.weights[weight] = (self.array(quantised) - self.array(zero)) * self.array(scale)
        op = "MatMul" if node.op_type == "MatMulInteger" else "Conv"
        x = self.nodes[self.made[node.input[0]]].input[0]  # before DynamicQuantizeLinear
        self.new[k] = helper.make_node(op, [x, weight, *bias], [scaled.output[0]])
        self.new[k].attribute.extend(node.attribute)  # type: ignore[attr-defined]

    def lstm(self, k: int) -> None:
        """DynamicQuantizeLSTM as LSTM: its weights are stored (dirs, input, 4 x hidden)."""
        from onnx import helper

        node = self.nodes[k]
        x, w, r, b, lengths, h, c, peep, ws, wz, rs, rz = node.input
        for q, s, z in ((w, ws, wz), (r, rs, rz)):
            table = (self.array(q) - self.array(z)[:, None, None]) * self.array(s)[:, None, None]
            self.weights[f"{q}_f32"] = table.transpose(0, 2, 1).copy()
        inputs = [x, f"{w}_f32", f"{r}_f32", b, lengths, h, c, peep]
        self.new[k] = helper.make_node("LSTM", inputs, list(node.output))
        self.new[k].attribute.extend(node.attribute)  # type: ignore[attr-defined]

    def kept(self, outputs: set[str]) -> list[object]:
        """The nodes, the float ones in place, without what fed only the integer ones
        (input quantisers, bias scales)."""
        nodes = [self.new.get(k, n) for k, n in enumerate(self.nodes) if k not in self.gone]
        while True:
            used = {i for n in nodes for i in n.input} | outputs  # type: ignore[attr-defined]
            kept = [n for n in nodes if any(o in used for o in n.output)]  # type: ignore[attr-defined]
            if len(kept) == len(nodes):
                return nodes
            nodes = kept


def dequantised() -> Path:
    """The model with its int8 weights dequantised to float32 (made once): each
    MatMulInteger and ConvInteger, whose input the int8 graph quantises on the fly, as a
    float MatMul or Conv; each DynamicQuantizeLSTM as an LSTM; the float bias used as it
    is, where the int8 graph rounded it down to the input's scale."""
    path = BENCH / "kokoro-f32.onnx"
    if path.is_file():
        return path
    package("onnx", "ml_dtypes")  # protobuf: this venv's
    import onnx
    from onnx import numpy_helper

    full = onnx.load(str(model.check_model()))
    work = _Graph(full.graph)
    for k, node in enumerate(work.nodes):
        if node.op_type in ("MatMulInteger", "ConvInteger"):
            work.linear(k)
        elif node.op_type == "DynamicQuantizeLSTM":
            work.lstm(k)
    nodes = work.kept({o.name for o in full.graph.output})
    used = {i for n in nodes for i in n.input}  # type: ignore[attr-defined]
    tensors = [t for t in full.graph.initializer if t.name in used]
    tensors += [numpy_helper.from_array(a, n) for n, a in work.weights.items()]
    del full.graph.node[:], full.graph.initializer[:]
    full.graph.node.extend(nodes)
    full.graph.initializer.extend(tensors)
    BENCH.mkdir(parents=True, exist_ok=True)
    onnx.save(full, str(path))
    return path


def signed_convolutions() -> Path:
    """The model with its convolutions' uint8 weights and zero points stored as int8 (both
    less 128: the same differences, the same integer sums), for onnxruntime's int8 kernels
    (made once)."""
    path = BENCH / "kokoro-conv-s8.onnx"
    if path.is_file():
        return path
    package("onnx", "ml_dtypes")  # protobuf: this venv's
    import onnx
    from onnx import numpy_helper

    full = onnx.load(str(model.check_model()))
    convolution = {
        n.input[k] for n in full.graph.node if n.op_type == "ConvInteger" for k in (1, 3)
    }
    others = {i for n in full.graph.node if n.op_type != "ConvInteger" for i in n.input}
    assert not convolution & others, "a convolution's weight is shared with another node"
    for tensor in full.graph.initializer:
        if tensor.name in convolution:
            signed = numpy_helper.to_array(tensor).astype(np.int16) - 128
            tensor.CopyFrom(numpy_helper.from_array(signed.astype(np.int8), tensor.name))
    BENCH.mkdir(parents=True, exist_ok=True)
    onnx.save(full, str(path))
    return path


def _options(**values: object) -> Callable[[object], None]:
    def change(options: object) -> None:
        for key, value in values.items():
            setattr(options, key, value)

    return change


def _config(key: str, value: str) -> Callable[[object], None]:
    return lambda options: options.add_session_config_entry(key, value)  # type: ignore[attr-defined]


def variants() -> dict[str, Callable[[], Say]]:
    import onnxruntime as ort

    level = ort.GraphOptimizationLevel
    return {
        "ours": ours,
        "kokoro-onnx": kokoro_onnx,
        "opt-basic": lambda: ours(change=_options(graph_optimization_level=level.ORT_ENABLE_BASIC)),
        "opt-extended": lambda: ours(
            change=_options(graph_optimization_level=level.ORT_ENABLE_EXTENDED)
        ),
        "no-arena": lambda: ours(change=_options(enable_cpu_mem_arena=False)),
        "no-mem-pattern": lambda: ours(change=_options(enable_mem_pattern=False)),
        "no-spinning": lambda: ours(change=_config("session.intra_op.allow_spinning", "0")),
        "parallel": lambda: ours(change=_options(execution_mode=ort.ExecutionMode.ORT_PARALLEL)),
        "ort-format": lambda: ours(ort_format()),
        "f32": lambda: ours(dequantised()),
        "conv-s8": lambda: ours(signed_convolutions()),
    }


def apart(a: np.ndarray, b: np.ndarray) -> str:
    """How far ``b`` is from ``a``: equal, or their lengths, SNR and spectral distance."""
    if a.shape == b.shape and np.array_equal(a, b):
        return "equal"
    n = min(len(a), len(b))
    snr = 10 * np.log10(np.sum(a[:n] ** 2) / max(float(np.sum((a[:n] - b[:n]) ** 2)), 1e-30))
    return f"lengths {len(a)}/{len(b)}, SNR {snr:.1f} dB, spectra {spectral_db(a, b):.2f} dB apart"


def spectral_db(a: np.ndarray, b: np.ndarray) -> float:
    """Mean |difference| of the two long-term spectra (2048-point frames, averaged), in dB,
    over the bins within 60 dB of ``a``'s loudest: blind to phase and timing shifts."""

    def spectrum(x: np.ndarray) -> np.ndarray:
        frames = x[: len(x) // 2048 * 2048].reshape(-1, 2048) * np.hanning(2048)
        return 10 * np.log10(np.mean(np.abs(np.fft.rfft(frames)) ** 2, axis=0) + 1e-20)

    sa, sb = spectrum(a), spectrum(b)
    loud = sa > sa.max() - 60
    return float(np.mean(np.abs(sa[loud] - sb[loud])))


def run(names: list[str], calls: list[Call], rounds: int) -> None:
    made = variants()
    says, load = {}, {}
    for name in names:
        made[name]()  # what it needs made once (a model file, a package) is made here
        t = time.process_time()
        says[name] = made[name]()
        load[name] = time.process_time() - t
    speech = sum(len(says["ours"](c)) for c in calls) / MODEL_RATE  # a warm-up for ours too
    for name in names[1:]:
        for c in calls:
            says[name](c)  # each session's arena grown on every call's sizes before timing
    cpu: dict[str, list[float]] = {n: [] for n in names}
    outputs: dict[str, list[np.ndarray]] = {}
    for k in range(rounds):
        order = names[k % len(names) :] + names[: k % len(names)]
        for name in order:
            t = time.process_time()
            outputs[name] = [says[name](c) for c in calls]
            cpu[name].append((time.process_time() - t) / speech)
    base = statistics.median(cpu["ours"])
    print(f"\n{len(calls)} calls, {speech:.1f} s of speech, {rounds} rounds, one thread each\n")
    print(
        "| variant | CPU s per s of speech, median | rounds | / ours | load CPU s | audio vs ours |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for name in names:
        got = says[name]
        check = [got.untrimmed(c) for c in calls] if hasattr(got, "untrimmed") else outputs[name]
        if name == "ours":
            same = "(the reference)"
        elif all(np.array_equal(a, b) for a, b in zip(outputs["ours"], check, strict=True)):
            same = "equal, every call" + (" (untrimmed)" if hasattr(got, "untrimmed") else "")
        else:
            same = apart(np.concatenate(outputs["ours"]), np.concatenate(check))
        med = statistics.median(cpu[name])
        spread = "–".join(f"{v:.3f}" for v in (min(cpu[name]), max(cpu[name])))
        print(f"| {name} | {med:.3f} | {spread} | {med / base:.2f} | {load[name]:.2f} | {same} |")


def whole_lines(count: int, rounds: int) -> None:
    """A cue per call (what the engine does) against the whole line per call, side by side:
    the first ``count`` intro lines of more than one cue in each language, said by the
    line's voice alone (Mandarin's terms too: the line is one call)."""
    from voice.phonemes import g2p_of, phonemes

    feeds: dict[str, list[tuple[str, float, list[str]]]] = {"cue": [], "line": []}
    for lang in LANGS:
        speaker = lecture_speaker(lang, terms="")
        g2p, joint = g2p_of(speaker.voice), " " if lang == "en" else ""
        said = [c for c in (said_cues(line, lang) for line in lines(lang)) if len(c) > 1]
        for cues in said[:count]:
            feeds["cue"].append((speaker.voice, speaker.speed, [phonemes(c, g2p) for c in cues]))
            feeds["line"].append((speaker.voice, speaker.speed, [phonemes(joint.join(cues), g2p)]))
    engine = model.kokoro()
    cpu: dict[str, list[float]] = {"cue": [], "line": []}
    seconds: dict[str, float] = {}
    for k in range(rounds):
        for name in ("cue", "line")[:: 1 if k % 2 else -1]:
            t, n = time.process_time(), 0
            for voice, speed, pieces in feeds[name]:
                n += sum(len(engine.speak(p, voice, speed)) for p in pieces)
            cpu[name].append(time.process_time() - t)
            seconds[name] = n / MODEL_RATE
    cues = sum(len(pieces) for _, _, pieces in feeds["cue"])
    print(f"\n{len(feeds['line'])} lines of {cues} cues (zh-TW and en), {rounds} rounds\n")
    # the same words either way; a cue said alone carries the model's quiet at its ends
    # (trimmed later), so the lines' CPU time is compared, not only per second said
    print("| calls | speech s, untrimmed | CPU s per s of it | CPU s, median | / a cue per call |")
    print("| --- | --- | --- | --- | --- |")
    base = statistics.median(cpu["cue"])
    for name in ("cue", "line"):
        spent = statistics.median(cpu[name])
        per = spent / seconds[name]
        print(
            f"| a {name} per call | {seconds[name]:.1f} | {per:.3f} | {spent:.1f} "
            f"| {spent / base:.2f} |"
        )


def profile(calls: list[Call]) -> None:
    """Where our session's time goes, by operator type (onnxruntime's own profiler)."""
    import json
    from collections import Counter

    engine = copy.copy(SHARED)
    engine.session = session(
        model.check_model(),
        _options(enable_profiling=True, profile_file_prefix=str(BENCH / "ort-profile")),
    )
    for call in calls:
        engine.speak(call.phonemes, call.voice, call.speed)
    events = json.loads(Path(engine.session.end_profiling()).read_text())
    spent: Counter[str] = Counter()
    for event in events:
        if event.get("cat") == "Node" and event["name"].endswith("_kernel_time"):
            spent[event["args"]["op_name"]] += event["dur"]
    total = sum(spent.values())
    print(f"\n{len(calls)} calls, {total / 1e6:.1f} s in operators\n")
    print("| operator | share of the time |")
    print("| --- | --- |")
    for op, micros in spent.most_common(10):
        print(f"| {op} | {micros / total:.1%} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", default=[], help="also measure (or all)")
    parser.add_argument("--lines", type=int, default=2, help="intro lines of each language")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--whole-lines", action="store_true", help="a cue or a line per call")
    parser.add_argument("--profile", action="store_true", help="our time by operator type")
    args = parser.parse_args()
    if args.profile:
        profile(recorded_calls(args.lines))
        return
    if args.whole_lines:
        whole_lines(args.lines, args.rounds)
        return
    known = list(variants())
    extra = known[2:] if "all" in args.variant else args.variant
    unknown = [v for v in extra if v not in known]
    if unknown:
        sys.exit(f"bench: unknown variant {', '.join(unknown)} (known: {', '.join(known)})")
    run(["ours", "kokoro-onnx", *extra], recorded_calls(args.lines), args.rounds)


if __name__ == "__main__":
    main()
