"""What decoders.py and vision.py share: exporting a module as users do,
writing tensors, and running onnxruntime without its graph rewrites."""

import argparse
import os
import shutil
import sys
import traceback
import warnings

import onnx
import onnxruntime as ort
import torch
from onnx import numpy_helper


def export(module, args, names, outputs, path, exporter, legacy_opset,
           optimize=True, training=False):
    """torch.onnx's dynamo exporter (weights inside; "dynamo-opsetN" at
    opset N; its graph optimizer unless not `optimize`) or the legacy
    TorchScript one at `legacy_opset`; then the dynamo exporter's per-node
    metadata (stack traces, class hierarchies: most of a small model's
    bytes; the graph is unchanged without it) dropped and the model
    checked."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if exporter.startswith("dynamo"):
            # "dynamo-opsetN": at opset N instead of the exporter's default.
            # "dynamo-unoptimized": without the exporter's graph optimizer.
            opset = (int(exporter.split("-opset")[1]) if "-opset" in exporter
                     else None)
            optimize = optimize and exporter != "dynamo-unoptimized"
            torch.onnx.export(module, args, path, dynamo=True,
                              input_names=names, output_names=outputs,
                              external_data=False, opset_version=opset,
                              optimize=optimize)
        else:
            # training: the module kept in training mode (BatchNorm with
            # its running statistics), nothing folded.
            extra = dict(training=torch.onnx.TrainingMode.TRAINING,
                         do_constant_folding=False) if training else {}
            torch.onnx.export(module, args, path, dynamo=False,
                              input_names=names, output_names=outputs,
                              opset_version=legacy_opset, **extra)
    model = onnx.load(path)
    for node in model.graph.node:
        del node.metadata_props[:]
    onnx.save(model, path)
    onnx.checker.check_model(path)


def write_pb(array, path, name):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def read_pb(path):
    """The array in a TensorProto file (write_pb's)."""
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    return numpy_helper.to_array(tensor)


def run_ort(path, feeds, threads=None):
    """onnxruntime's CPU outputs with its graph optimizations off (the
    exported graph as written), on `threads` threads if given."""
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    if threads is not None:
        options.intra_op_num_threads = threads
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def case_arguments(doc, cases, add_arguments=None):
    """The export scripts' command line: OUT, --only NAME... and --list,
    which prints `cases` and exits; `add_arguments(parser)` adds a script's
    own."""
    ap = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--list", action="store_true")
    if add_arguments:
        add_arguments(ap)
    args = ap.parse_args()
    if args.list:
        for name, spec in cases.items():
            print(name, spec)
        sys.exit(0)
    return args


def selected_cases(args, cases):
    """The cases `--only` selects (all without it) as (position, name,
    spec), after refusing names `cases` lacks; PyTorch is set to one thread
    so that the references have one summation order."""
    unknown = set(args.only or ()) - set(cases)
    if unknown:
        sys.exit(f"unknown cases: {' '.join(sorted(unknown))} "
                 f"(--list shows them)")
    torch.set_num_threads(1)
    return [(i, name, spec) for i, (name, spec) in enumerate(cases.items())
            if not args.only or name in args.only]


def record_failure(d, message):
    """Replaces case folder `d` by FAILED.txt (`message` and the traceback
    being handled), prints the message's first line and returns it: a
    failed export is a result the tests read, not a crash."""
    shutil.rmtree(d)
    os.makedirs(d)
    with open(os.path.join(d, "FAILED.txt"), "w") as f:
        f.write(message + "\n\n" + traceback.format_exc())
    print(message.splitlines()[0], file=sys.stderr)
    return message
