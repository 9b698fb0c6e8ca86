"""Saving, checking and running a generated model, and writing its test data.

The layout is the ONNX backend-test one: DIR/model.onnx (+ model.onnx.data),
DIR/test_data_set_0/input_N.pb and output_N.pb (TensorProtos named after the
graph's inputs and outputs), plus DIR/config.json.
"""

import json
import shutil
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

MODEL_FILE = "model.onnx"
DATA_FILE = "model.onnx.data"
TEST_SET = "test_data_set_0"


def save_model(model: onnx.ModelProto, out_dir: Path, external_data: bool) -> Path:
    """Write model.onnx; with external_data every initializer goes to model.onnx.data."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / MODEL_FILE
    # onnx appends to an existing data file, so a stale one must go first.
    (out_dir / DATA_FILE).unlink(missing_ok=True)
    onnx.save_model(model, str(path), save_as_external_data=external_data,
                    all_tensors_to_one_file=True, location=DATA_FILE, size_threshold=0)
    return path


def check_model(path: Path) -> None:
    """Run onnx.checker with full_check (strict shape inference); raises on failure."""
    onnx.checker.check_model(str(path), full_check=True)


def run_onnxruntime(path: Path, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Evaluate the saved model on onnxruntime's CPU provider, graph as written.

    Graph optimisations are disabled so that the reference is the unfused graph.
    """
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        names = [o.name for o in session.get_outputs()]
        return dict(zip(names, session.run(names, feeds)))
    except Exception as err:  # onnxruntime raises several unrelated types
        raise RuntimeError(f"onnxruntime cannot run {path}: {err}") from err


def write_test_data(out_dir: Path, inputs: dict[str, np.ndarray],
                    outputs: dict[str, np.ndarray]) -> Path:
    """Write a fresh test_data_set_0 with input_N.pb / output_N.pb in graph order."""
    set_dir = out_dir / TEST_SET
    shutil.rmtree(set_dir, ignore_errors=True)
    set_dir.mkdir(parents=True)
    for prefix, tensors in (("input", inputs), ("output", outputs)):
        for i, (name, value) in enumerate(tensors.items()):
            proto = numpy_helper.from_array(value, name)
            (set_dir / f"{prefix}_{i}.pb").write_bytes(proto.SerializeToString())
    return set_dir


def write_config(out_dir: Path, config: dict) -> Path:
    """Write config.json (sorted keys, so reruns diff cleanly)."""
    path = out_dir / "config.json"
    path.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    return path
