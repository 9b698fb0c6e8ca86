"""Writes small models with ONNX If and onnxruntime's outputs for them.

usage: if_models.py OUT_DIR

Cases (OUT_DIR/NAME/model.onnx + test_data_set_0):
  squeeze   the legacy torch.onnx exporter's Squeeze of a dim it could not
            prove is 1 (opset 11): If(Shape(x)[1] == 1, Squeeze, Identity),
            here with x [3, 1, 4], so the then-branch is taken;
  else      a condition that is false, the else-branch reading an
            initializer of the outer graph (a MatMul weight) and one of its
            own;
  nested    an If inside a taken branch, its condition computed from shapes
            inside the branch.
"""

import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def shape_test(prefix, x, axis, value, op="Equal"):
    """Nodes computing Shape(x)[axis] OP value into PREFIX_cond."""
    return [
        helper.make_node("Shape", [x], [f"{prefix}_shape"]),
        helper.make_node("Constant", [], [f"{prefix}_axis"],
                         value=numpy_helper.from_array(np.array(axis, np.int64))),
        helper.make_node("Gather", [f"{prefix}_shape", f"{prefix}_axis"],
                         [f"{prefix}_dim"], axis=0),
        helper.make_node("Constant", [], [f"{prefix}_value"],
                         value=numpy_helper.from_array(np.array(value, np.int64))),
        helper.make_node(op, [f"{prefix}_dim", f"{prefix}_value"],
                         [f"{prefix}_cond"]),
    ]


def branch(name, nodes, output, inits=()):
    return helper.make_graph(
        nodes, name, [],
        [helper.make_tensor_value_info(output, TensorProto.FLOAT, None)],
        list(inits))


def write(out, name, nodes, x, inits=(), opset=11):
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 7
    (y,) = ort.InferenceSession(m.SerializeToString(),
                                providers=["CPUExecutionProvider"]).run(
                                    None, {"x": x})
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(m, os.path.join(d, "model.onnx"))
    with open(os.path.join(d, "test_data_set_0", "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())
    with open(os.path.join(d, "test_data_set_0", "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(y, "y").SerializeToString())
    print(name, list(y.shape))


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(0)
    two = numpy_helper.from_array(np.array(2.0, np.float32), "two")

    # squeeze: as the legacy exporter writes x.squeeze(1) * 2.
    squeeze = branch("then", [helper.make_node(
        "Squeeze", ["x"], ["squeezed"], axes=[1])], "squeezed")
    same = branch("else", [helper.make_node("Identity", ["x"], ["same"])],
                  "same")
    write(out, "squeeze", shape_test("c", "x", 1, 1) + [
        helper.make_node("If", ["c_cond"], ["picked"], then_branch=squeeze,
                         else_branch=same, name="squeeze_if"),
        helper.make_node("Mul", ["picked", "two"], ["y"]),
    ], rng.standard_normal((3, 1, 4)).astype(np.float32), [two])

    # else: x [2, 5]; Shape(x)[0] == 3 is false.
    w = numpy_helper.from_array(
        rng.standard_normal((5, 4)).astype(np.float32), "w")
    bias = numpy_helper.from_array(
        rng.standard_normal((4,)).astype(np.float32), "bias")
    taken = branch("else", [
        helper.make_node("MatMul", ["x", "w"], ["xw"]),
        helper.make_node("Add", ["xw", "bias"], ["projected"]),
    ], "projected", [bias])
    skipped = branch("then", [helper.make_node(
        "ReduceSum", ["x"], ["summed"], keepdims=1)], "summed")
    write(out, "else", shape_test("c", "x", 0, 3) + [
        helper.make_node("If", ["c_cond"], ["y"], then_branch=skipped,
                         else_branch=taken, name="else_if"),
    ], rng.standard_normal((2, 5)).astype(np.float32), [w])

    # nested: x [4, 6]; the outer If takes its then-branch (dim 0 == 4),
    # whose inner If tests dim 1 > 5 (true).
    inner_then = branch("inner_then", [helper.make_node(
        "Relu", ["x"], ["relu"])], "relu")
    inner_else = branch("inner_else", [helper.make_node(
        "Neg", ["x"], ["neg"])], "neg")
    outer_then = branch("outer_then", shape_test("d", "x", 1, 5, "Greater") + [
        helper.make_node("If", ["d_cond"], ["inner"], then_branch=inner_then,
                         else_branch=inner_else, name="inner_if"),
    ], "inner")
    outer_else = branch("outer_else", [helper.make_node(
        "Identity", ["x"], ["plain"])], "plain")
    write(out, "nested", shape_test("c", "x", 0, 4) + [
        helper.make_node("If", ["c_cond"], ["y"], then_branch=outer_then,
                         else_branch=outer_else, name="outer_if"),
    ], rng.standard_normal((4, 6)).astype(np.float32))


if __name__ == "__main__":
    main()
