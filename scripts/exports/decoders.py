#!/usr/bin/env python3
"""Real exporter graphs of transformers decoders, for paracc's tests.

usage: decoders.py OUT_DIR [--only NAME ...] [--list]
       decoders.py OUT_DIR --bench NAME --batch B --seq S [--loss]
                   [--with-weights]

Builds small models of the families users export (Llama, Qwen2, Mistral with
GQA and a sliding window, Phi-3) from transformers' config classes with
seeded random weights, exports them with torch.onnx as a user would (the
dynamo exporter with its optimizer, the default; and the legacy TorchScript
exporter), and writes for each case OUT_DIR/NAME/:

  model.onnx               the exported graph (weights inside; the dynamo
                           exporter's per-node metadata dropped)
  test_data_set_0/         input_N.pb and onnxruntime's output_0.pb (logits)
  config.json              the case, the config and the tool versions

and for cases with a loss (next-token cross-entropy on the logits, as a user
writes it: transformers' built-in `.loss` pads the labels with Pad):

  loss.onnx                (input_ids, labels) -> loss, the same weights
  loss_test_data_set_0/    its inputs and onnxruntime's loss
  tokens.u16               a token stream (window k is step k's batch)
  reference.json           PyTorch's AdamW run from the exported weights
                           (runs.adamw: loss, grad_norm, lr per step)

The forms covered are the ones paracc must recognise attention in: sdpa with
the mask folded by the exporter (short sequences), built at run time from
Range-derived indices (long sequences: too large to fold), banded for a
sliding window, with a padding mask from an `attention_mask` input (left and
right padding, so that some query rows see no key), GQA by Expand/Reshape,
eager attention, and the legacy exporter's forms. Every output is checked
against PyTorch's here, and onnxruntime's is what the tests compare with.

With --bench, a benchmark model of a real model's shape instead (BENCH:
the 386M Llama of the real-exports issue, Llama-3.2-1B's and
Qwen2.5-0.5B's shapes, a small Llama for the CPU; random weights, nothing
downloaded), exported at one batch and sequence (with --loss the training
model), its weights left out (shape-only: paracc compiles it with
--random-weights, the device draws them) unless --with-weights (then with
OUT_DIR/input_ids.pb, for onnxruntime to run it too), and OUT_DIR/peer.json, what bench/peers/hf_decoder_torch.py builds
the same transformers model from.

Needs torch, transformers, onnxscript, onnx and onnxruntime (not the test
venv: the outputs are committed, so CI needs none of these).
"""

import json
import os
import sys
import warnings

import numpy as np
import onnx
import onnxruntime as ort
import torch
import torch.nn.functional as F
import transformers

from exporting import (case_arguments, export, run_ort, selected_cases,
                       write_pb)

FAMILIES = {
    "llama": (transformers.LlamaConfig, transformers.LlamaForCausalLM, {}),
    "qwen2": (transformers.Qwen2Config, transformers.Qwen2ForCausalLM, {}),
    "mistral": (transformers.MistralConfig, transformers.MistralForCausalLM, {}),
    "phi3": (transformers.Phi3Config, transformers.Phi3ForCausalLM,
             {"pad_token_id": 0}),
}

TINY = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=2,
            num_attention_heads=4, num_key_value_heads=2, vocab_size=64,
            max_position_embeddings=4096, tie_word_embeddings=False)

# name: family, exporter, attention implementation, batch, seq, padding
# (None, or the number of leading pads of row 0 and trailing pads of row 1),
# extra config, whether a loss model and a PyTorch run are made.
CASES = {
    "llama-sdpa": ("llama", "dynamo", "sdpa", 2, 16, None, {}, True),
    "llama-sdpa-padded": ("llama", "dynamo", "sdpa", 2, 16, (3, 2), {}, False),
    "llama-sdpa-long": ("llama", "dynamo", "sdpa", 1, 2048, None, {}, False),
    "llama-eager": ("llama", "dynamo", "eager", 2, 16, None, {}, True),
    # The loss as transformers computes it (model(labels=...).loss: the
    # labels padded with -100 by Pad, then shifted).
    "llama-builtin-loss": ("llama", "dynamo", "sdpa", 2, 16, None,
                           {"loss": "builtin"}, True),
    "llama-legacy": ("llama", "legacy", "sdpa", 2, 16, (3, 2), {}, False),
    "qwen2-sdpa": ("qwen2", "dynamo", "sdpa", 2, 16, None, {}, True),
    "qwen2-legacy": ("qwen2", "legacy", "sdpa", 2, 16, (0, 0), {}, False),
    "mistral-sdpa": ("mistral", "dynamo", "sdpa", 2, 16, None,
                     {"sliding_window": None}, True),
    "mistral-window": ("mistral", "dynamo", "sdpa", 2, 16, None,
                       {"sliding_window": 5}, True),
    "mistral-window-long": ("mistral", "dynamo", "sdpa", 1, 2048, None,
                            {"sliding_window": 300}, False),
    "mistral-legacy": ("mistral", "legacy", "sdpa", 2, 16, (0, 0),
                       {"sliding_window": 5}, False),
    "phi3-sdpa": ("phi3", "dynamo", "sdpa", 2, 16, None, {}, True),
    "phi3-legacy": ("phi3", "legacy", "sdpa", 2, 16, (0, 0), {}, False),
    # The dynamo exporter without its graph optimizer: the rotary inv_freq
    # buffer stays an initializer (paracc freezes it by default). Last: a
    # case's seed is its position here.
    "mistral-unoptimized": ("mistral", "dynamo-unoptimized", "sdpa", 2, 16,
                            None, {"sliding_window": None}, True),
    # Opset 23: the exporter writes ONNX's fused Attention and
    # RMSNormalization.
    "llama-opset23": ("llama", "dynamo-opset23", "sdpa", 2, 16, None, {},
                      True),
}

# Real models' shapes for benchmarks (random weights).
BENCH = {
    "llama-386m": ("llama", dict(
        hidden_size=1024, intermediate_size=2816, num_hidden_layers=24,
        num_attention_heads=16, num_key_value_heads=8, vocab_size=50304,
        max_position_embeddings=8192, tie_word_embeddings=False)),
    "llama-3.2-1b": ("llama", dict(
        hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
        num_attention_heads=32, num_key_value_heads=8, head_dim=64,
        vocab_size=128256, max_position_embeddings=8192,
        tie_word_embeddings=True, rope_theta=500000.0)),
    # A Llama-style model for the CPU backend (seq 2048, 4 heads, 2 KV).
    "llama-cpu": ("llama", dict(
        hidden_size=256, intermediate_size=688, num_hidden_layers=4,
        num_attention_heads=4, num_key_value_heads=2, vocab_size=8192,
        max_position_embeddings=4096, tie_word_embeddings=False)),
    "qwen2.5-0.5b": ("qwen2", dict(
        hidden_size=896, intermediate_size=4864, num_hidden_layers=24,
        num_attention_heads=14, num_key_value_heads=2, vocab_size=151936,
        max_position_embeddings=8192, tie_word_embeddings=True,
        rope_theta=1000000.0)),
}

TRAIN_STEPS = 30
TRAIN_LR = 3e-3
TRAIN_BETAS = (0.9, 0.95)
TRAIN_EPS = 1e-8
TRAIN_WEIGHT_DECAY = 0.1


def make_model(family, attn, extra, seed):
    config_class, model_class, defaults = FAMILIES[family]
    extra = dict(extra)
    # Mixture-of-experts models (moe.py): transformers' experts forward
    # ("eager": a loop over the experts hit; "batched_mm": every token's
    # experts' weights gathered, batched matmuls).
    experts = extra.pop("experts_implementation", None)
    config = config_class(**{**TINY, **defaults, **extra})
    config._attn_implementation = attn
    if experts:
        config._experts_implementation = experts
    torch.manual_seed(seed)
    model = model_class(config)
    # Seeded weights, every parameter distinct: norms initialised to ones
    # would be merged into one initializer by the exporter's optimizer.
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.copy_(torch.empty(p.shape).uniform_(-0.2, 0.2, generator=g) +
                    (1.0 if "norm" in name else 0.0))
    return model.eval(), config


class Logits(torch.nn.Module):
    def __init__(self, model, with_mask):
        super().__init__()
        self.m = model
        self.with_mask = with_mask

    def forward(self, input_ids, attention_mask=None):
        return self.m(input_ids=input_ids, attention_mask=attention_mask,
                      use_cache=False).logits


class NextTokenLoss(torch.nn.Module):
    def __init__(self, model, builtin=False):
        super().__init__()
        self.m = model
        self.builtin = builtin

    def forward(self, input_ids, labels):
        if self.builtin:
            return self.m(input_ids=input_ids, labels=labels,
                          use_cache=False).loss
        logits = self.m(input_ids=input_ids, use_cache=False).logits
        v = logits.shape[-1]
        return F.cross_entropy(logits[:, :-1].reshape(-1, v),
                               labels[:, 1:].reshape(-1))


def token_stream(vocab, batch, seq, steps, seed):
    """A cycle through 24 ids followed nine times in ten (the loss falls)."""
    rng = np.random.default_rng(seed)
    cycle = rng.integers(0, vocab, 24)
    out, k = [], 0
    for _ in range(batch * seq * steps):
        if rng.random() < 0.9:
            out.append(cycle[k % len(cycle)])
            k += 1
        else:
            out.append(rng.integers(0, vocab))
    return np.array(out, dtype=np.uint16)


def pytorch_run(model, tokens, batch, seq, builtin_loss=False):
    """AdamW on every parameter from the exported weights; the loss and the
    global gradient norm before each update."""
    loss_module = NextTokenLoss(model, builtin_loss).train()
    opt = torch.optim.AdamW(model.parameters(), lr=TRAIN_LR, betas=TRAIN_BETAS,
                            eps=TRAIN_EPS, weight_decay=TRAIN_WEIGHT_DECAY)
    steps = []
    for k in range(TRAIN_STEPS):
        window = tokens[k * batch * seq:(k + 1) * batch * seq].astype(np.int64)
        ids = torch.from_numpy(window.reshape(batch, seq))
        opt.zero_grad()
        loss = loss_module(ids, ids)
        loss.backward()
        norm = torch.sqrt(sum((p.grad.double() ** 2).sum()
                              for p in model.parameters()))
        steps.append({"step": k, "loss": loss.item(),
                      "grad_norm": norm.item(), "lr": TRAIN_LR})
        opt.step()
    return steps


def make_case(name, spec, out_dir, seed):
    family, exporter, attn, batch, seq, padding, extra, with_loss = spec
    extra = dict(extra)
    builtin_loss = extra.pop("loss", None) == "builtin"
    model, config = make_model(family, attn, extra, seed)
    d = os.path.join(out_dir, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    g = torch.Generator().manual_seed(seed + 1)
    ids = torch.randint(0, config.vocab_size, (batch, seq), generator=g)
    args, names = (ids,), ["input_ids"]
    if padding is not None:
        mask = torch.ones(batch, seq, dtype=torch.int64)
        left, right = padding
        mask[0, :left] = 0
        if right:
            mask[1, seq - right:] = 0
        args, names = (ids, mask), ["input_ids", "attention_mask"]
    wrapper = Logits(model, padding is not None)
    path = os.path.join(d, "model.onnx")
    export(wrapper, args, names, ["logits"], path, exporter, 18)
    feeds = {n: a.numpy() for n, a in zip(names, args)}
    (logits,) = run_ort(path, feeds)
    with torch.no_grad():
        expected = wrapper(*args).numpy()
    rows = np.ones((batch, seq), dtype=bool)
    if padding is not None:
        # Query rows that see no key (left padding under a causal mask): the
        # exported graph softmaxes a row of equal fills there, where eager
        # PyTorch unmasks the row; onnxruntime's output is the reference.
        rows = np.cumsum(args[1].numpy(), axis=1) > 0
    err = np.abs(logits - expected).max(axis=-1)[rows].max()
    if not err < 1e-4:
        sys.exit(f"{name}: onnxruntime and PyTorch differ by {err}")
    for i, (n, a) in enumerate(zip(names, args)):
        write_pb(a.numpy(), os.path.join(d, "test_data_set_0", f"input_{i}.pb"), n)
    write_pb(logits, os.path.join(d, "test_data_set_0", "output_0.pb"), "logits")
    info = {"case": name, "family": family, "exporter": exporter,
            "attn_implementation": attn, "batch": batch, "seq": seq,
            "padding": padding, "config": config.to_diff_dict(),
            "torch": torch.__version__, "transformers": transformers.__version__,
            "onnx": onnx.__version__, "onnxruntime": ort.__version__,
            "seed": seed}
    if with_loss:
        loss_path = os.path.join(d, "loss.onnx")
        export(NextTokenLoss(model, builtin_loss).train(), (ids, ids),
               ["input_ids", "labels"], ["loss"], loss_path, exporter, 18)
        ldir = os.path.join(d, "loss_test_data_set_0")
        os.makedirs(ldir, exist_ok=True)
        (loss,) = run_ort(loss_path, {"input_ids": ids.numpy(),
                                      "labels": ids.numpy()})
        write_pb(ids.numpy(), os.path.join(ldir, "input_0.pb"), "input_ids")
        write_pb(ids.numpy(), os.path.join(ldir, "input_1.pb"), "labels")
        write_pb(np.asarray(loss), os.path.join(ldir, "output_0.pb"), "loss")
        tokens = token_stream(config.vocab_size, batch, seq, TRAIN_STEPS, seed)
        tokens.tofile(os.path.join(d, "tokens.u16"))
        steps = pytorch_run(model, tokens, batch, seq, builtin_loss)
        if abs(steps[0]["loss"] - float(
                run_ort(loss_path, {"input_ids": tokens[:batch * seq].astype(
                    np.int64).reshape(batch, seq), "labels": tokens[
                        :batch * seq].astype(np.int64).reshape(batch, seq)})[0])) > 1e-4:
            sys.exit(f"{name}: the loss model and PyTorch's first loss differ")
        reference = {"optimizer": {"name": "adamw", "lr": TRAIN_LR,
                                   "betas": TRAIN_BETAS, "eps": TRAIN_EPS,
                                   "weight_decay": TRAIN_WEIGHT_DECAY},
                     "batch": batch, "seq": seq,
                     "runs": {"adamw": {"steps": steps}}}
        with open(os.path.join(d, "reference.json"), "w") as f:
            json.dump(reference, f, indent=1)
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(info, f, indent=1, default=str)
    print(f"{name}: {exporter} {attn} [{batch},{seq}] "
          f"{len(onnx.load(path).graph.node)} nodes, "
          f"onnxruntime vs PyTorch {err:.1e}" + (", loss + 30 steps" if with_loss else ""))


def strip_weights(path):
    """Leaves out the data of what paracc takes as parameters (float
    initializers of >= 2 elements, of rank <= 2 or over 2^20 elements, as
    lib/Importer/ONNX/ONNXImporter.cpp decides), keeping the constants."""
    model = onnx.load(path, load_external_data=True)
    for init in model.graph.initializer:
        count = int(np.prod(init.dims)) if init.dims else 1
        if init.data_type == onnx.TensorProto.FLOAT and count >= 2 and (
                len(init.dims) <= 2 or count > (1 << 20)):
            init.ClearField("raw_data")
            init.ClearField("float_data")
            init.ClearField("external_data")
            init.data_location = onnx.TensorProto.DEFAULT
    for name in os.listdir(os.path.dirname(path)):
        if name.endswith(".data"):
            os.remove(os.path.join(os.path.dirname(path), name))
    onnx.save(model, path)


def make_bench(name, out, batch, seq, with_loss, with_weights=False):
    family, kwargs = BENCH[name]
    config_class, model_class, defaults = FAMILIES[family]
    config = config_class(**{**defaults, **kwargs})
    config._attn_implementation = "sdpa"
    torch.manual_seed(0)
    model = model_class(config).eval()
    os.makedirs(out, exist_ok=True)
    ids = torch.randint(0, config.vocab_size, (batch, seq))
    path = os.path.join(out, "loss.onnx" if with_loss else "model.onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if with_loss:
            torch.onnx.export(NextTokenLoss(model).train(), (ids, ids), path,
                              dynamo=True, input_names=["input_ids", "labels"],
                              output_names=["loss"], external_data=True)
        else:
            torch.onnx.export(Logits(model, False), (ids,), path, dynamo=True,
                              input_names=["input_ids"],
                              output_names=["logits"], external_data=True)
    if with_weights:
        write_pb(ids.numpy(), os.path.join(out, "input_ids.pb"), "input_ids")
    else:
        strip_weights(path)
    params = sum(p.numel() for p in model.parameters())
    peer = {"name": name, "family": family,
            "config_class": config_class.__name__,
            "model_class": model_class.__name__, "config": kwargs,
            "parameters": params, "torch": torch.__version__,
            "transformers": transformers.__version__}
    with open(os.path.join(out, "peer.json"), "w") as f:
        json.dump(peer, f, indent=1)
    print(f"{name}: {params / 1e6:.1f}M parameters, [{batch},{seq}], "
          f"{len(onnx.load(path, load_external_data=False).graph.node)} nodes "
          f"-> {path}" + ("" if with_weights else " (shape-only)"))


def main():
    def bench_arguments(ap):
        ap.add_argument("--bench", choices=sorted(BENCH))
        ap.add_argument("--batch", type=int, default=8)
        ap.add_argument("--seq", type=int, default=1024)
        ap.add_argument("--loss", action="store_true")
        ap.add_argument("--with-weights", action="store_true",
                        help="keep the (random) weights and write input_ids.pb")

    args = case_arguments(__doc__, CASES, bench_arguments)
    if args.bench:
        make_bench(args.bench, args.out, args.batch, args.seq, args.loss,
                   args.with_weights)
        return 0
    for i, name, spec in selected_cases(args, CASES):
        make_case(name, spec, args.out, seed=100 + i)
    return 0


if __name__ == "__main__":
    sys.exit(main())
