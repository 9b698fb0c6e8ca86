#!/usr/bin/env python3
"""Classifier loss graphs of vision.py's models, with PyTorch's training
references, for paracc's training tests.

usage: vision_training.py OUT_DIR [--only NAME ...] [--list]

For each case, the model of vision.py (the same seeded weights) in training
mode under a cross-entropy loss, (images, labels) -> loss, exported by
torch.onnx as a user would (the dynamo exporter as NAME; the legacy
TorchScript exporter with training=TRAINING, which writes BatchNormalization
in training mode, as NAME-legacy), and OUT_DIR/NAME/:

  loss.onnx                the exported loss graph (weights inside; the
                           dynamo exporter's optimizer off, see
                           export_loss)
  loss_test_data_set_0/    input_0.pb (images), input_1.pb (labels) and
                           onnxruntime's loss (output_0.pb)
  gradients.npz            PyTorch's gradients of that batch's loss, keyed
                           by the parameters' initializer names
  batches/batch_NN/        BATCHES batches (input_0.pb, input_1.pb), step k
                           takes batch k mod BATCHES
  reference.json           PyTorch's AdamW run over them (runs.adamw: loss,
                           grad_norm, lr per step) and, for BatchNorm models,
                           the running statistics after RUNNING_STEPS steps
                           keyed by initializer name: PyTorch's buffers
                           ("pytorch") and ONNX's definition ("onnx", see
                           onnx_running_statistics)

The loss is checked against PyTorch's here. Where an exporter's graph
computes another loss than PyTorch's (torch 2.15's dynamo exporter leaves
BatchNorm out of a model in training mode), OUT_DIR/NAME/ holds only
FAILED.txt with the message.

Needs torch, transformers, onnxscript, onnx and onnxruntime (not the test
venv: the outputs are committed, so CI needs none of these).
"""

import json
import os
import shutil
import sys

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F

import vision
from exporting import (case_arguments, export, record_failure, run_ort,
                       selected_cases, write_pb)

STEPS = 30
BATCHES = 6
RUNNING_STEPS = 3
TRAIN_LR, TRAIN_BETAS, TRAIN_EPS, TRAIN_WEIGHT_DECAY = 3e-3, (0.9, 0.95), 1e-8, 0.1
TOLERANCE = 1e-5

# name: vision.py's model, batch shape, classes, parameters PyTorch does not
# train here because paracc imports them as constants today (small float
# initializers of rank > 2 that no convolution reads: ViT's cls token and
# position embeddings; the buffer-recognition work of the model-coverage
# issue replaces that rule), recorded in reference.json.
MODELS = {
    "resnet": ("resnet", (4, 3, 16, 16), 10, ()),
    "vit": ("vit", (4, 3, 16, 16), 5,
            ("m.m.vit.embeddings.cls_token",
             "m.m.vit.embeddings.position_embeddings")),
    # F.interpolate's modes (Resize) over conv features, the flat result
    # scored as logits: the gradient reaches the convolutions through the
    # resampling gathers.
    "resize": ("resize", (4, 4, 6, 6), 2532, ()),
}
CASES = {(base if exporter == "dynamo" else f"{base}-legacy"): (base, exporter)
         for base in MODELS for exporter in ("dynamo", "legacy")}


class ClassifierLoss(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.m = model

    def forward(self, images, labels):
        return F.cross_entropy(self.m(images), labels)


def make_loss(model_name, seed, frozen, exported=None):
    """The loss over vision.py's seeded model, `frozen` not trained. With
    `exported` (a loss.onnx), the buffers start from its initializers: the
    legacy exporter traces the model in training mode, so the running
    statistics it writes have seen the traced batch."""
    model, _ = vision.make_model(model_name, seed)
    loss = ClassifierLoss(model).train()
    for name, p in loss.named_parameters():
        if name in frozen:
            p.requires_grad_(False)
    if exported:
        inits = {i.name: onnx.numpy_helper.to_array(i)
                 for i in onnx.load(exported).graph.initializer}
        with torch.no_grad():
            for name, b in loss.named_buffers():
                if name in inits and b.is_floating_point():
                    b.copy_(torch.from_numpy(inits[name].copy()))
    return loss


def export_loss(module, args, path, exporter):
    """As vision.py's export, but the legacy exporter keeps training mode
    (BatchNormalization with its running statistics), and the dynamo
    exporter's graph optimizer is off: it folds a parameter read through a
    batch-sized Expand (ViT's cls token) into a constant of the batch's
    size, which would train one copy per image."""
    export(module, args, ["images", "labels"], ["loss"], path, exporter,
           vision.LEGACY_OPSET, optimize=False, training=True)


def batches(shape, classes, seed):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(shape, generator=g),
             torch.randint(0, classes, (shape[0],), generator=g))
            for _ in range(BATCHES)]


def initializer_names(path, loss):
    """Each parameter's initializer: the one of its name, else (an
    exporter that renamed it) the one holding its exact values."""
    inits = {i.name: onnx.numpy_helper.to_array(i)
             for i in onnx.load(path).graph.initializer}
    names = {}
    for pname, p in loss.named_parameters():
        value = p.detach().numpy()
        if pname in inits and inits[pname].shape == value.shape:
            names[pname] = pname
            continue
        match = [n for n, a in inits.items()
                 if a.shape == value.shape and np.array_equal(a, value)]
        if len(match) != 1:
            raise RuntimeError(f"no single initializer holds {pname}: {match}")
        names[pname] = match[0]
    return names


def onnx_running_statistics(loss):
    """The running statistics as ONNX's BatchNormalization (training mode)
    defines them, kept beside PyTorch's by hooks: the same update, but of
    the batch's biased variance where PyTorch's buffer takes the unbiased
    one (the legacy exporter writes PyTorch's BatchNorm as ONNX's without
    converting). Returns the dict the hooks keep up to date."""
    kept = {}
    for name, module in loss.named_modules():
        if not isinstance(module, (nn.BatchNorm1d, nn.BatchNorm2d)):
            continue
        kept[name + ".running_mean"] = module.running_mean.detach().clone()
        kept[name + ".running_var"] = module.running_var.detach().clone()

        def hook(module, args, name=name):
            x = args[0].detach()
            dims = [d for d in range(x.dim()) if d != 1]
            m = 1.0 - module.momentum
            for stat, batch in (("running_mean", x.mean(dims)),
                                ("running_var", x.var(dims, unbiased=False))):
                key = f"{name}.{stat}"
                kept[key] = kept[key] * m + batch * (1.0 - m)

        module.register_forward_pre_hook(hook)
    return kept


def pytorch_run(loss, data):
    spec = onnx_running_statistics(loss)
    opt = torch.optim.AdamW([p for p in loss.parameters() if p.requires_grad],
                            lr=TRAIN_LR, betas=TRAIN_BETAS,
                            eps=TRAIN_EPS, weight_decay=TRAIN_WEIGHT_DECAY)
    steps, running = [], None
    for k in range(STEPS):
        images, labels = data[k % BATCHES]
        opt.zero_grad()
        value = loss(images, labels)
        value.backward()
        norm = torch.sqrt(sum((p.grad.double() ** 2).sum()
                              for p in loss.parameters() if p.requires_grad))
        steps.append({"step": k, "loss": value.item(),
                      "grad_norm": norm.item(), "lr": TRAIN_LR})
        opt.step()
        if k + 1 == RUNNING_STEPS and spec:
            running = {
                "pytorch": {n: b.detach().numpy().tolist()
                            for n, b in loss.named_buffers()
                            if n.endswith(("running_mean", "running_var"))},
                "onnx": {n: v.numpy().tolist() for n, v in spec.items()}}
    return steps, running


def make_case(name, base, exporter, out_dir, seed):
    model_name, shape, classes, frozen = MODELS[base]
    loss = make_loss(model_name, seed, frozen)
    d = os.path.join(out_dir, name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    data = batches(shape, classes, seed + 1)
    images, labels = data[0]
    path = os.path.join(d, "loss.onnx")
    try:
        export_loss(loss, (images, labels), path, exporter)
        # The export ran the model in training mode: start again from the
        # seeded weights and the running statistics the file holds.
        loss = make_loss(model_name, seed, frozen, path)
        feeds = {"images": images.numpy(), "labels": labels.numpy()}
        (ort_loss,) = run_ort(path, feeds, threads=1)
        expected = loss(images, labels)
        err = abs(float(ort_loss) - expected.item())
        if not err < TOLERANCE:
            raise RuntimeError(f"onnxruntime's loss {float(ort_loss):.6f} is "
                               f"not PyTorch's {expected.item():.6f}")
    except Exception as e:
        message = f"{name}: {exporter} export of {base}'s loss failed: " \
                  f"{type(e).__name__}: {e}"
        return record_failure(d, message)
    names = initializer_names(path, loss)
    expected.backward()
    grads = {names[n]: p.grad.numpy() for n, p in loss.named_parameters()
             if p.requires_grad}
    grads["loss"] = np.asarray(expected.item(), dtype=np.float32)
    np.savez(os.path.join(d, "gradients.npz"), **grads)
    ldir = os.path.join(d, "loss_test_data_set_0")
    os.makedirs(ldir)
    write_pb(images.numpy(), os.path.join(ldir, "input_0.pb"), "images")
    write_pb(labels.numpy(), os.path.join(ldir, "input_1.pb"), "labels")
    write_pb(np.asarray(ort_loss), os.path.join(ldir, "output_0.pb"), "loss")
    for k, (x, y) in enumerate(data):
        bdir = os.path.join(d, "batches", f"batch_{k:02d}")
        os.makedirs(bdir)
        write_pb(x.numpy(), os.path.join(bdir, "input_0.pb"), "images")
        write_pb(y.numpy(), os.path.join(bdir, "input_1.pb"), "labels")
    steps, running = pytorch_run(make_loss(model_name, seed, frozen, path),
                                 data)
    reference = {"optimizer": {"name": "adamw", "lr": TRAIN_LR,
                               "betas": TRAIN_BETAS, "eps": TRAIN_EPS,
                               "weight_decay": TRAIN_WEIGHT_DECAY},
                 "batch": shape[0], "batches": BATCHES,
                 "runs": {"adamw": {"steps": steps}},
                 "exporter": exporter, "torch": torch.__version__,
                 "frozen": list(frozen)}
    if running:
        inits = {i.name for i in onnx.load(path).graph.initializer}
        reference["running_statistics"] = {
            "after_steps": RUNNING_STEPS,
            **{kind: {n: v for n, v in values.items() if n in inits}
               for kind, values in running.items()}}
    with open(os.path.join(d, "reference.json"), "w") as f:
        json.dump(reference, f, indent=1)
    print(f"{name}: {exporter} {list(shape)}, "
          f"{len(onnx.load(path).graph.node)} nodes, "
          f"onnxruntime vs PyTorch loss {err:.1e}, {len(grads) - 1} "
          f"gradients, loss {steps[0]['loss']:.4f} -> {steps[-1]['loss']:.4f}")
    return None


def main():
    args = case_arguments(__doc__, CASES)
    for _, name, (base, exporter) in selected_cases(args, CASES):
        make_case(name, base, exporter, args.out,
                  seed=300 + list(MODELS).index(base))
    return 0


if __name__ == "__main__":
    sys.exit(main())
