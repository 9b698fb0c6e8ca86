"""What the one-node model scripts share (attention_op_models.py,
normalization_models.py, opset23_models.py): saving a model with
onnxruntime's output for its inputs as OUT_DIR/NAME/model.onnx and
test_data_set_0/ (input_K.pb in graph input order, output_0.pb)."""

import os

import onnx
import onnxruntime as ort
from onnx import numpy_helper


def write_case(out_dir, name, model, feeds, output_name):
    """Saves `model` (its inputs named and ordered as `feeds`' keys) and
    onnxruntime's first output, named `output_name`."""
    d = os.path.join(out_dir, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    sess = ort.InferenceSession(model.SerializeToString(),
                                providers=["CPUExecutionProvider"])
    (y,) = sess.run(None, feeds)[:1]
    for k, (n, value) in enumerate(feeds.items()):
        with open(os.path.join(d, "test_data_set_0", f"input_{k}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(value, n).SerializeToString())
    with open(os.path.join(d, "test_data_set_0", "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(y, output_name).SerializeToString())
