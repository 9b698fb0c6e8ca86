#!/usr/bin/env python3
"""Real exporter graphs of a transformers encoder (non-causal attention), for
paracc's tests.

usage: encoders.py OUT_DIR [--only NAME ...] [--list]

Builds a small BERT (BertModel without its pooler) from transformers'
config class with seeded random weights, exports it with torch.onnx as a
user would (the dynamo exporter with its optimizer, the default; and the
legacy TorchScript exporter), and writes for each case OUT_DIR/NAME/:

  model.onnx               the exported graph (weights inside; the dynamo
                           exporter's per-node metadata dropped)
  test_data_set_0/         input_N.pb and onnxruntime's output_0.pb (the
                           last hidden state)
  config.json              the case, the config and the tool versions

The forms covered are the ones paracc must recognise bidirectional attention
in, for context parallelism (the sequence split over ranks): sdpa with a
padding mask from an `attention_mask` input (row 1 right-padded: its padded
keys are masked, every query row sees some key), sdpa with no mask at all
(input_ids only; short and long sequences), and the legacy exporter's form.
Every output is checked against PyTorch's here, and onnxruntime's is what
the tests compare with.

Needs torch, transformers, onnxscript, onnx and onnxruntime (not the test
venv: the outputs are committed, so CI needs none of these).
"""

import json
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
import torch
import transformers

from exporting import (case_arguments, export, run_ort, selected_cases,
                       write_pb)

TINY = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=2,
            num_attention_heads=4, vocab_size=64)

# name: exporter, attention implementation, batch, seq, right padding of
# row 1 (None: no attention_mask input), max_position_embeddings (BERT's
# learned position table, [max_position_embeddings, hidden], and its
# position_ids and token_type_ids buffers are most of a model's bytes: kept
# small, above the sequence so that the exporter slices them).
CASES = {
    "bert-sdpa": ("dynamo", "sdpa", 2, 16, 3, 64),
    "bert-sdpa-nomask": ("dynamo", "sdpa", 2, 16, None, 64),
    "bert-sdpa-long": ("dynamo", "sdpa", 1, 2048, None, 2112),
    "bert-legacy": ("legacy", "sdpa", 2, 16, 3, 64),
}


def make_model(attn, max_positions, seed):
    config = transformers.BertConfig(
        **TINY, max_position_embeddings=max_positions)
    config._attn_implementation = attn
    torch.manual_seed(seed)
    model = transformers.BertModel(config, add_pooling_layer=False)
    # Seeded weights, every parameter distinct: LayerNorm weights initialised
    # to ones would be merged into one initializer by the exporter's
    # optimizer.
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.copy_(torch.empty(p.shape).uniform_(-0.2, 0.2, generator=g) +
                    (1.0 if "norm.weight" in name.lower() else 0.0))
    return model.eval(), config


class LastHiddenState(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.m = model

    def forward(self, input_ids, attention_mask=None):
        return self.m(input_ids=input_ids,
                      attention_mask=attention_mask).last_hidden_state


def make_case(name, spec, out_dir, seed):
    exporter, attn, batch, seq, padding, max_positions = spec
    model, config = make_model(attn, max_positions, seed)
    d = os.path.join(out_dir, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    g = torch.Generator().manual_seed(seed + 1)
    ids = torch.randint(0, config.vocab_size, (batch, seq), generator=g)
    args, names = (ids,), ["input_ids"]
    if padding is not None:
        mask = torch.ones(batch, seq, dtype=torch.int64)
        if padding:
            mask[1, seq - padding:] = 0
        args, names = (ids, mask), ["input_ids", "attention_mask"]
    # In eval mode itself: the legacy exporter restores the wrapper's mode
    # on everything below it afterwards, and BERT's dropout is not zero.
    wrapper = LastHiddenState(model).eval()
    path = os.path.join(d, "model.onnx")
    export(wrapper, args, names, ["last_hidden_state"], path, exporter, 18)
    feeds = {n: a.numpy() for n, a in zip(names, args)}
    (hidden,) = run_ort(path, feeds)
    with torch.no_grad():
        expected = wrapper(*args).numpy()
    # Non-causal with right padding only: every query row sees a key, so
    # every row (padded ones too) is compared.
    err = np.abs(hidden - expected).max()
    if not err < 1e-4:
        sys.exit(f"{name}: onnxruntime and PyTorch differ by {err}")
    for i, (n, a) in enumerate(zip(names, args)):
        write_pb(a.numpy(), os.path.join(d, "test_data_set_0", f"input_{i}.pb"), n)
    write_pb(hidden, os.path.join(d, "test_data_set_0", "output_0.pb"),
             "last_hidden_state")
    info = {"case": name, "family": "bert", "model_class": "BertModel",
            "add_pooling_layer": False, "exporter": exporter,
            "attn_implementation": attn, "batch": batch, "seq": seq,
            "right_padding_row_1": padding, "config": config.to_diff_dict(),
            "torch": torch.__version__, "transformers": transformers.__version__,
            "onnx": onnx.__version__, "onnxruntime": ort.__version__,
            "seed": seed}
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(info, f, indent=1, default=str)
    print(f"{name}: {exporter} {attn} [{batch},{seq}] "
          f"{len(onnx.load(path).graph.node)} nodes, "
          f"onnxruntime vs PyTorch {err:.1e}")


def main():
    args = case_arguments(__doc__, CASES)
    for i, name, spec in selected_cases(args, CASES):
        make_case(name, spec, args.out, seed=200 + i)
    return 0


if __name__ == "__main__":
    sys.exit(main())
