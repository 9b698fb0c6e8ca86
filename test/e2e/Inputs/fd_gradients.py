"""Checks paracc's gradients against finite differences of onnxruntime.

usage: fd_gradients.py MODEL.onnx DATA_DIR GRADS.npz [--rtol R]
                       [--parameters-from-gradients]

MODEL is a loss model (one scalar output) with float32 initializers; DATA_DIR
has its inputs (input_N.pb); GRADS.npz is what `paracc train --save-gradients`
wrote (the loss and a gradient per parameter). The model is converted to
float64 (initializers, constants, casts, inputs and outputs) and, for every
parameter p, the directional derivative along a random unit direction v,
(L(p + h v) - L(p - h v)) / 2h with h = 1e-4 in float64, is compared with
paracc's <grad p, v>. Prints each parameter's relative error; exits 1 if one
exceeds --rtol. Every float32 initializer is a parameter, or with
--parameters-from-gradients those GRADS.npz has (what paracc trains: the
exporters also write folded constants, e.g. rotary tables and scalars, as
float initializers); the tests then check their count against the PyTorch
model's.
"""

import argparse
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, numpy_helper


def to_float64(model):
    g = model.graph
    for init in g.initializer:
        if init.data_type == TensorProto.FLOAT:
            a = numpy_helper.to_array(init).astype(np.float64)
            init.CopyFrom(numpy_helper.from_array(a, init.name))
    for vi in list(g.input) + list(g.output) + list(g.value_info):
        if vi.type.tensor_type.elem_type == TensorProto.FLOAT:
            vi.type.tensor_type.elem_type = TensorProto.DOUBLE
    for node in g.node:
        for attr in node.attribute:
            if attr.name == "to" and attr.i == TensorProto.FLOAT:
                attr.i = TensorProto.DOUBLE
            if attr.type == onnx.AttributeProto.TENSOR and \
                    attr.t.data_type == TensorProto.FLOAT:
                a = numpy_helper.to_array(attr.t).astype(np.float64)
                attr.t.CopyFrom(numpy_helper.from_array(a, attr.t.name))
    del g.value_info[:]
    return model


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("data")
    p.add_argument("grads")
    p.add_argument("--rtol", type=float, default=1e-3)
    p.add_argument("--parameters-from-gradients", action="store_true")
    args = p.parse_args()
    model = onnx.load(args.model)
    grads = np.load(args.grads)
    params = {i.name: numpy_helper.to_array(i).astype(np.float64)
              for i in model.graph.initializer
              if i.data_type == TensorProto.FLOAT and
              (not args.parameters_from_gradients or i.name in grads.files)}
    model = to_float64(model)
    # The parameters become inputs so that one session evaluates any point.
    names = list(params)
    kept = [i for i in model.graph.initializer if i.name not in params]
    inputs = {}
    for k, vi in enumerate(model.graph.input):
        t = onnx.load_tensor(os.path.join(args.data, f"input_{k}.pb"))
        inputs[vi.name] = numpy_helper.to_array(t)
    for n in names:
        a = params[n]
        model.graph.input.append(onnx.helper.make_tensor_value_info(
            n, TensorProto.DOUBLE, a.shape))
    del model.graph.initializer[:]
    model.graph.initializer.extend(kept)
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), opts,
                                providers=["CPUExecutionProvider"])
    out = sess.get_outputs()[0].name

    def loss(values):
        feed = dict(inputs)
        feed.update(values)
        return float(sess.run([out], feed)[0])

    base = loss(params)
    print(f"loss: paracc {float(grads['loss']):.7f} onnxruntime (f64) {base:.7f}")
    rng = np.random.default_rng(0)
    h = 1e-4
    worst = 0.0
    bad = []
    for n in names:
        if n not in grads:
            bad.append(f"{n}: no gradient from paracc")
            continue
        v = rng.standard_normal(params[n].shape)
        v /= np.linalg.norm(v)
        plus = dict(params)
        plus[n] = params[n] + h * v
        minus = dict(params)
        minus[n] = params[n] - h * v
        fd = (loss(plus) - loss(minus)) / (2 * h)
        got = float(np.sum(grads[n].astype(np.float64) * v))
        scale = max(abs(fd), 1e-3 * np.linalg.norm(grads[n]), 1e-12)
        err = abs(got - fd) / scale
        worst = max(worst, err)
        if err > args.rtol:
            bad.append(f"{n}: paracc {got:.6e} finite difference {fd:.6e} "
                       f"(rel {err:.2e})")
    print(f"{len(names)} parameters: worst relative error of the directional "
          f"derivative {worst:.2e}")
    if bad:
        print("MISMATCH\n" + "\n".join(bad))
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
