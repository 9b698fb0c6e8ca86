"""Build a model for a config, validate it and write it with onnxruntime's outputs."""

from pathlib import Path

import numpy as np
import onnx
import onnxruntime

from . import gpt, gpt2, io, llama
from .config import ModelConfig

BUILDERS = {"gpt": gpt.build, "gpt2": gpt2.build, "llama": llama.build}


def make_inputs(cfg: ModelConfig) -> dict[str, np.ndarray]:
    """Random input_ids [B, S] and, with --loss, labels = input_ids (HF convention).

    Drawn from default_rng(seed + 1) so that the data does not depend on how
    many weights were drawn before it.
    """
    rng = np.random.default_rng(cfg.seed + 1)
    input_ids = rng.integers(0, cfg.vocab, size=(cfg.batch, cfg.seq), dtype=np.int64)
    feeds = {"input_ids": input_ids}
    if cfg.loss:
        feeds["labels"] = input_ids.copy()
    return feeds


def generate(cfg: ModelConfig, out_dir: Path) -> dict[str, np.ndarray]:
    """Write DIR/model.onnx, test_data_set_0 and config.json; return the outputs.

    Raises if onnx.checker rejects the model or onnxruntime cannot run it.
    """
    cfg = cfg.resolved()
    path = io.save_model(BUILDERS[cfg.arch](cfg), out_dir, cfg.external_data)
    if cfg.shape_only:
        # Initializers without data: a graph for compiling with random
        # weights (paracc --random-weights); nothing to run or check here.
        io.write_config(out_dir, cfg.to_json())
        return {}
    io.check_model(path)
    inputs = make_inputs(cfg)
    outputs = io.run_onnxruntime(path, inputs)
    for name, value in outputs.items():
        if not np.all(np.isfinite(value)):
            raise RuntimeError(f"onnxruntime produced non-finite values in {name!r}")
    if cfg.dropout > 0:
        # onnxruntime's masks are its own: no reference outputs.
        outputs = {}
    io.write_test_data(out_dir, inputs, outputs)
    io.write_config(out_dir, _describe(cfg, inputs, outputs))
    return outputs


def _describe(cfg: ModelConfig, inputs: dict[str, np.ndarray],
              outputs: dict[str, np.ndarray]) -> dict:
    """The contents of config.json: hyper-parameters, I/O shapes, provenance."""
    config = {
        **cfg.to_json(),
        "inputs": {k: list(v.shape) for k, v in inputs.items()},
        "outputs": {k: list(v.shape) for k, v in outputs.items()},
        "reference": f"onnxruntime {onnxruntime.__version__} CPU, optimisations off",
        "generator": f"onnx {onnx.__version__}, numpy {np.__version__}",
    }
    if cfg.loss:
        config["loss_definition"] = ("mean cross-entropy of logits[:, :-1] against "
                                     "labels[:, 1:] (HF shift); labels = input_ids")
    return config
