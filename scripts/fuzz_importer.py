#!/usr/bin/env python3
"""Structure-aware fuzzing of paracc's ONNX importer and compiler.

Usage: fuzz_importer.py PARACC MODEL.onnx WORKDIR [--runs N] [--seed S]
                        [--mesh M ...] [--run]

Each run takes the model, applies one to three random edits of the kind a
broken exporter or a hostile file would make (a dim set to 0, -1, 1 or
2^40; an attribute's value changed or dropped; an input of a node dropped,
duplicated or renamed to a missing value; an op type swapped; the opset
changed; an initializer's data truncated or its type changed; a node
removed; an output's type changed; a byte that is not text written into a
name, an op type or a domain), writes it and runs
``PARACC model.onnx --emit=compiled --mesh M`` (or runs the model with
``--run``). A run passes when paracc exits 0 or with an error message and a
code below 128; it fails on a signal (crash, abort), an LLVM assertion or
"LLVM ERROR" / a stack dump in its output, output that is not valid UTF-8
(messages quote names from the model), or a hang (60 s). The failing
models are kept in WORKDIR/failures with the command that failed. Exits 1
if any run failed.
"""

import argparse
import copy
import random
import re
import subprocess
import sys
from pathlib import Path

import onnx
from onnx import TensorProto, helper

BAD_MARKERS = ("Assertion", "LLVM ERROR", "Stack dump", "PLEASE submit",
               "AddressSanitizer", "runtime error:", "terminate called")
DIMS = [0, -1, 1, 3, 1 << 40, (1 << 62) + 1]
OP_TYPES = ["Add", "MatMul", "Reshape", "Transpose", "Softmax", "Gather",
            "Concat", "Split", "Slice", "LayerNormalization", "Gemm", "Where",
            "Cast", "Expand", "ReduceMean", "Unsqueeze", "NoSuchOp"]
# Bytes a broken file can put in a name: a lone continuation byte, a lead
# byte without its continuation, an invalid byte, ESC, DEL.
NOT_TEXT = [0x80, 0xE5, 0xFF, 0x1B, 0x7F, 0xC0]
DTYPES = [TensorProto.FLOAT, TensorProto.INT64, TensorProto.FLOAT16,
          TensorProto.BFLOAT16, TensorProto.BOOL, TensorProto.STRING,
          TensorProto.DOUBLE, 0]


def mutate_dim(m, rng):
    vis = list(m.graph.input) + list(m.graph.output) + list(m.graph.value_info)
    vis = [v for v in vis if v.type.tensor_type.shape.dim]
    if not vis:
        return "no dims"
    v = rng.choice(vis)
    d = rng.choice(v.type.tensor_type.shape.dim)
    d.dim_value = rng.choice(DIMS)
    return f"dim of {v.name} -> {d.dim_value}"


def mutate_attribute(m, rng):
    nodes = [n for n in m.graph.node if n.attribute]
    if not nodes:
        return "no attributes"
    n = rng.choice(nodes)
    a = rng.choice(n.attribute)
    choice = rng.randrange(4)
    if choice == 0:
        n.attribute.remove(a)
        return f"dropped {n.op_type}.{a.name}"
    if a.type == onnx.AttributeProto.INT:
        a.i = rng.choice([-1, 0, 2, 7, 1 << 40, -(1 << 40)])
    elif a.type == onnx.AttributeProto.INTS:
        a.ints[:] = rng.choice([[], [0], [-1], [5, 5], [1 << 40], [0, 1, 2, 3, 4]])
    elif a.type == onnx.AttributeProto.FLOAT:
        a.f = rng.choice([0.0, -1.0, float("nan"), float("inf")])
    elif a.type == onnx.AttributeProto.TENSOR:
        a.t.dims[:] = rng.choice([[], [0], [3], [1 << 40]])
    elif a.type == onnx.AttributeProto.STRING:
        a.s = rng.choice([b"", b"bogus", b"tanh"])
    else:
        a.type = onnx.AttributeProto.FLOATS
    return f"changed {n.op_type}.{a.name}"


def mutate_inputs(m, rng):
    nodes = [n for n in m.graph.node if n.input]
    if not nodes:
        return "no nodes"
    n = rng.choice(nodes)
    choice = rng.randrange(4)
    if choice == 0:
        del n.input[rng.randrange(len(n.input))]
        return f"dropped an input of {n.name}"
    if choice == 1:
        n.input.append(rng.choice(list(n.input)))
        return f"duplicated an input of {n.name}"
    if choice == 2:
        n.input[rng.randrange(len(n.input))] = "missing_value"
        return f"renamed an input of {n.name}"
    n.input[rng.randrange(len(n.input))] = ""
    return f"emptied an input of {n.name}"


def mutate_op_type(m, rng):
    n = rng.choice(list(m.graph.node))
    old = n.op_type
    n.op_type = rng.choice(OP_TYPES)
    return f"{n.name}: {old} -> {n.op_type}"


def mutate_opset(m, rng):
    for o in m.opset_import:
        if o.domain in ("", "ai.onnx"):
            o.version = rng.choice([1, 7, 12, 13, 16, 22, 99, -1])
            return f"opset -> {o.version}"
    return "no opset"


def mutate_initializer(m, rng):
    inits = list(m.graph.initializer)
    if not inits:
        return "no initializers"
    t = rng.choice(inits)
    choice = rng.randrange(4)
    if choice == 0 and t.raw_data:
        t.raw_data = t.raw_data[: len(t.raw_data) // 2]
        return f"truncated {t.name}"
    if choice == 1:
        t.data_type = rng.choice(DTYPES)
        return f"type of {t.name} -> {t.data_type}"
    if choice == 2:
        t.dims[:] = [rng.choice(DIMS) for _ in t.dims] or [7]
        return f"dims of {t.name} -> {list(t.dims)}"
    del t.dims[:]
    return f"dims of {t.name} removed"


def mutate_remove_node(m, rng):
    i = rng.randrange(len(m.graph.node))
    name = m.graph.node[i].name
    del m.graph.node[i]
    return f"removed {name}"


def mutate_output_type(m, rng):
    o = rng.choice(list(m.graph.output))
    o.type.tensor_type.elem_type = rng.choice(DTYPES)
    return f"output {o.name} type -> {o.type.tensor_type.elem_type}"


def mutate_string(m, rng, byte_edits):
    """Picks a string of the model (a node, value or initializer name, an op
    type, an opset domain) to get a byte that is not text once serialized:
    protobuf's Python API only stores valid UTF-8."""
    g = m.graph
    strings = ([n.op_type for n in g.node] + [n.name for n in g.node] +
               [x for n in g.node for x in list(n.input) + list(n.output)] +
               [t.name for t in g.initializer] +
               [v.name for v in list(g.input) + list(g.output)] +
               [o.domain for o in m.opset_import])
    strings = [x for x in strings if len(x.encode()) >= 2]
    if not strings:
        return "no strings"
    text = rng.choice(strings).encode()
    index, byte = rng.randrange(len(text)), rng.choice(NOT_TEXT)
    byte_edits.append((text, index, byte, rng.random()))
    return f"{text!r}[{index}] -> {byte:#x}"


def serialize(m, byte_edits):
    """The model's bytes, with each string edit applied to one of the
    string's occurrences as a length-prefixed field."""
    data = bytearray(m.SerializeToString())
    for text, index, byte, pick in byte_edits:
        field = bytes([len(text)]) + text if len(text) < 128 else text
        spots = [m.start() for m in re.finditer(re.escape(field), data)]
        if spots:
            at = spots[int(pick * len(spots))] + len(field) - len(text)
            data[at + index] = byte
    return bytes(data)


MUTATIONS = [mutate_dim, mutate_attribute, mutate_inputs, mutate_op_type,
             mutate_opset, mutate_initializer, mutate_remove_node,
             mutate_output_type, mutate_string]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paracc")
    ap.add_argument("model")
    ap.add_argument("workdir")
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mesh", action="append", default=None)
    ap.add_argument("--verbose", action="store_true",
                    help="print every run's edits and paracc's last line")
    ap.add_argument("--run", action="store_true",
                    help="run the model on the CPU instead of --emit=compiled")
    args = ap.parse_args()
    meshes = args.mesh or ["1", "tp2", "dp2,tp2"]
    base = onnx.load(args.model, load_external_data=True)
    work = Path(args.workdir)
    (work / "failures").mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    codes = {}
    failures = 0
    for i in range(args.runs):
        m = copy.deepcopy(base)
        byte_edits = []
        edits = []
        for _ in range(rng.randint(1, 3)):
            mutation = rng.choice(MUTATIONS)
            edits.append(mutation(m, rng, byte_edits)
                         if mutation is mutate_string else mutation(m, rng))
        blob = serialize(m, byte_edits)
        path = work / "model.onnx"
        path.write_bytes(blob)
        mesh = rng.choice(meshes)
        cmd = [args.paracc, str(path), "--mesh", mesh, "--device", "cpu"]
        if not args.run:
            cmd.append("--emit=compiled")
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=60)
            code = p.returncode
            raw = p.stdout[-4000:] + p.stderr[-4000:]
            text = raw.decode(errors="replace")
            try:
                p.stdout.decode()
                p.stderr.decode()
                not_utf8 = False
            except UnicodeDecodeError:
                not_utf8 = True
        except subprocess.TimeoutExpired:
            code, text, not_utf8 = "hang", "", False
        codes[code] = codes.get(code, 0) + 1
        bad = code == "hang" or code < 0 or code >= 128 or any(
            b in text for b in BAD_MARKERS) or not_utf8
        if code != 0 and not bad and "error" not in text:
            bad = True  # a failure without a message
        last = text.strip().splitlines()[-1] if text.strip() else ""
        if args.verbose:
            print(f"run {i} (exit {code}, mesh {mesh}): {'; '.join(edits)}\n  {last}")
        if bad:
            failures += 1
            keep = work / "failures" / f"run{i}.onnx"
            keep.write_bytes(blob)
            why = " output not UTF-8" if not_utf8 else ""
            print(f"FAIL run {i} (exit {code}{why}): {'; '.join(edits)}\n"
                  f"  {' '.join(cmd[:1] + [str(keep)] + cmd[2:])}\n"
                  f"  {last}")
    summary = ", ".join(f"exit {k}: {v}" for k, v in sorted(codes.items(), key=str))
    print(f"fuzzed {args.runs} models (seed {args.seed}): {summary}; "
          f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
