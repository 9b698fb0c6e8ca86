#!/usr/bin/env python3
"""Real exporter graphs of small convolutional models, for paracc's tests.

usage: vision.py OUT_DIR [--only NAME ...] [--list]

Builds small models of the convolutional kinds users export (a ResNet-style
classifier with BatchNorm in eval mode, a ViT from transformers' config
class, a Whisper-style Conv1d audio front-end, a ConvNeXt block, a
UNet-style level (GroupNorm, ConvTranspose, InstanceNorm), a module that
exercises Conv's attributes: dilation, groups, asymmetric padding,
strides, 1-D and 3-D kernels, average pooling, and one of F.interpolate's
modes: Resize nearest, linear and cubic) with seeded random
weights, exports them with torch.onnx as a user would (the dynamo exporter
with its optimizer, the default, as NAME; and the legacy TorchScript
exporter at opset 17, as NAME-legacy), and writes for each case
OUT_DIR/NAME/:

  model.onnx               the exported graph (weights inside; the dynamo
                           exporter's per-node metadata dropped)
  test_data_set_0/         input_0.pb and onnxruntime's output_0.pb
  config.json              the case, its op types, the opset, the config
                           and the tool versions

NAME and NAME-legacy share their weights and inputs. Every output is checked
against PyTorch's here (to 1e-5), and onnxruntime's is what the tests compare
with. Where an exporter fails on a case (or its graph's output is not
PyTorch's), OUT_DIR/NAME/ holds only FAILED.txt, the message, and the other
form is still written.

Needs torch, transformers, onnxscript, onnx and onnxruntime (not the test
venv: the outputs are committed, so CI needs none of these).
"""

import json
import os
import shutil
import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxscript
import torch
import torch.nn as nn
import torch.nn.functional as F
import transformers

from exporting import (case_arguments, export, record_failure, run_ort,
                       selected_cases, write_pb)

LEGACY_OPSET = 17
TOLERANCE = 1e-5


class BasicBlock(nn.Module):
    """torchvision's BasicBlock: two 3x3 convs with BN, a residual add."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride, bias=False),
                nn.BatchNorm2d(cout))

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(y + identity)


class TinyResNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, 2, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        self.layer1 = BasicBlock(8, 8, 1)
        self.layer2 = BasicBlock(8, 16, 2)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer2(self.layer1(x))
        return self.fc(torch.flatten(self.avgpool(x), 1))


class WhisperConv(nn.Module):
    """Whisper's encoder front-end: two Conv1d + exact GELU, positions, a
    LayerNorm."""

    def __init__(self, mels=8, width=16, frames=20):
        super().__init__()
        self.conv1 = nn.Conv1d(mels, width, 3, padding=1)
        self.conv2 = nn.Conv1d(width, width, 3, stride=2, padding=1)
        self.embed_positions = nn.Parameter(torch.zeros(frames // 2, width))
        self.layer_norm = nn.LayerNorm(width)

    def forward(self, x):
        x = F.gelu(self.conv1(x))
        x = F.gelu(self.conv2(x))
        x = x.permute(0, 2, 1)
        return self.layer_norm(x + self.embed_positions)


class ConvNeXtBlock(nn.Module):
    """A ConvNeXt stem and block (without layer scale or drop path)."""

    def __init__(self, dim=16):
        super().__init__()
        self.stem = nn.Conv2d(3, dim, 4, stride=4)
        self.dwconv = nn.Conv2d(dim, dim, 7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.pwconv2 = nn.Linear(4 * dim, dim)

    def forward(self, x):
        x = self.stem(x)
        y = self.dwconv(x).permute(0, 2, 3, 1)
        y = self.pwconv2(F.gelu(self.pwconv1(self.norm(y))))
        return x + y.permute(0, 3, 1, 2)


class UNetBlock(nn.Module):
    """A UNet-style level as diffusion models write it: GroupNorm + SiLU +
    conv twice with a residual, a strided downsampling conv, a
    ConvTranspose upsampling back, the skip concatenated, an
    InstanceNorm'ed output conv."""

    def __init__(self, channels=8, groups=4):
        super().__init__()
        self.inp = nn.Conv2d(3, channels, 3, padding=1)
        self.norm1 = nn.GroupNorm(groups, channels)
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.norm2 = nn.GroupNorm(groups, channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.down = nn.Conv2d(channels, 2 * channels, 3, stride=2, padding=1)
        self.up = nn.ConvTranspose2d(2 * channels, channels, 4, stride=2,
                                     padding=1)
        self.out = nn.Conv2d(2 * channels, 3, 1)
        self.out_norm = nn.InstanceNorm2d(3, affine=True)

    def forward(self, x):
        h = self.inp(x)
        r = self.conv1(F.silu(self.norm1(h)))
        h = h + self.conv2(F.silu(self.norm2(r)))
        u = self.up(F.silu(self.down(h)))
        return self.out_norm(self.out(torch.cat([h, u], 1)))


class ConvVariants(nn.Module):
    """Conv's attributes, each on the [2,4,12,12] input, into one output."""

    def __init__(self):
        super().__init__()
        self.dilated = nn.Conv2d(4, 4, 3, dilation=2)               # [.,4,8,8]
        self.grouped = nn.Conv2d(4, 4, 3, padding=1, groups=2)      # [.,4,12,12]
        self.padded = nn.Conv2d(4, 4, 3)                            # [.,4,13,11]
        self.strided1d = nn.Conv1d(4, 4, 3, stride=3)              # [.,4,48]
        self.conv3d = nn.Conv3d(1, 2, 2)                            # [.,2,3,11,11]
        self.avgpool = nn.AvgPool2d(2, 2)                           # [.,4,6,6]

    def forward(self, x):
        b = x.shape[0]
        outs = [
            self.dilated(x),
            self.grouped(x),
            # left 1, right 0, top 2, bottom 1: pads Conv cannot say
            # symmetrically.
            self.padded(F.pad(x, (1, 0, 2, 1))),
            self.strided1d(x.flatten(2)),
            self.conv3d(x.reshape(b, 1, 4, 12, 12)),
            self.avgpool(x),
        ]
        return torch.cat([t.flatten(1) for t in outs], 1)


class Resampling(nn.Module):
    """Resize as models write it (F.interpolate), each on conv features:
    nearest x2 (diffusers' Upsample2D), bilinear with and without
    align_corners, bicubic, nearest to a size of non-integer ratio, a
    bilinear downsampling and a 1-D linear one."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.conv1d = nn.Conv1d(4, 4, 3, padding=1)

    def forward(self, x):  # [2, 4, 6, 6]
        h = self.conv(x)
        outs = [
            F.interpolate(h, scale_factor=2, mode="nearest"),
            F.interpolate(h, scale_factor=2, mode="bilinear",
                          align_corners=False),
            F.interpolate(h, size=(9, 11), mode="bilinear",
                          align_corners=True),
            F.interpolate(h, scale_factor=2, mode="bicubic",
                          align_corners=False),
            F.interpolate(h, size=(9, 4), mode="nearest"),
            F.interpolate(h, size=(3, 4), mode="bilinear",
                          align_corners=False),
            F.interpolate(self.conv1d(h.flatten(2)), scale_factor=1.5,
                          mode="linear"),
        ]
        return torch.cat([t.flatten(1) for t in outs], 1)


class Logits(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.m = model

    def forward(self, pixel_values):
        return self.m(pixel_values=pixel_values).logits


VIT = dict(image_size=16, patch_size=4, num_channels=3, hidden_size=32,
           num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
           num_labels=5)


def make_vit(attn):
    config = transformers.ViTConfig(**VIT)
    config._attn_implementation = attn
    return Logits(transformers.ViTForImageClassification(config)), config


# base model: builder (returns the module and a transformers config or
# None), input name and shape, output name, the exporters it is written by.
MODELS = {
    "resnet": (lambda: (TinyResNet(), None), "input", (2, 3, 32, 32),
               "logits", ("dynamo", "legacy")),
    "vit": (lambda: make_vit("eager"), "pixel_values", (2, 3, 16, 16),
            "logits", ("dynamo", "legacy")),
    "vit-sdpa": (lambda: make_vit("sdpa"), "pixel_values", (2, 3, 16, 16),
                 "logits", ("dynamo",)),
    "whisper-conv": (lambda: (WhisperConv(), None), "input_features",
                     (2, 8, 20), "output", ("dynamo", "legacy")),
    "convnext": (lambda: (ConvNeXtBlock(), None), "input", (2, 3, 16, 16),
                 "output", ("dynamo", "legacy")),
    "conv-variants": (lambda: (ConvVariants(), None), "input",
                      (2, 4, 12, 12), "output", ("dynamo", "legacy")),
    # (each model's seed is its position here: new ones go last)
    "unet-block": (lambda: (UNetBlock(), None), "input", (2, 3, 16, 16),
                   "output", ("dynamo", "legacy", "dynamo-opset21")),
    "resize": (lambda: (Resampling(), None), "input", (2, 4, 6, 6),
               "output", ("dynamo", "legacy")),
}

# name: base model, exporter (the legacy form is NAME-legacy; the dynamo
# exporter at opset 21, which writes GroupNormalization, NAME-opset21).
SUFFIX = {"dynamo": "", "legacy": "-legacy", "dynamo-opset21": "-opset21"}
CASES = {f"{base}{SUFFIX[exporter]}": (base, exporter)
         for base, spec in MODELS.items() for exporter in spec[4]}

NORMS = (nn.BatchNorm1d, nn.BatchNorm2d, nn.LayerNorm, nn.GroupNorm,
         nn.InstanceNorm2d)


def make_model(base, seed):
    torch.manual_seed(seed)
    model, config = MODELS[base][0]()
    # Seeded weights, every parameter distinct: norms initialised to ones
    # (and BN's running statistics to 0 and 1) would make BN the identity
    # and be merged into one initializer by the exporter's optimizer.
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for module in model.modules():
            norm = isinstance(module, NORMS)
            for pname, p in module.named_parameters(recurse=False):
                p.copy_(torch.empty(p.shape).uniform_(-0.2, 0.2, generator=g) +
                        (1.0 if norm and pname == "weight" else 0.0))
            if isinstance(module, (nn.BatchNorm1d, nn.BatchNorm2d)):
                module.running_mean.uniform_(-0.5, 0.5, generator=g)
                module.running_var.uniform_(0.5, 1.5, generator=g)
    return model.eval(), config


def op_types(model):
    """The op types of the graph, its subgraphs and its local functions."""
    found = set()

    def visit(graph):
        for node in graph.node:
            found.add(node.op_type if node.domain in ("", "ai.onnx")
                      else f"{node.domain}.{node.op_type}")
            for attr in node.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    visit(attr.g)
                for sub in attr.graphs:
                    visit(sub)

    visit(model.graph)
    for function in model.functions:
        visit(function)
    return sorted(found)


def make_case(name, base, exporter, out_dir, seed):
    """Writes OUT_DIR/NAME/; returns None, or the failure's message."""
    _, input_name, shape, output_name, _ = MODELS[base]
    model, config = make_model(base, seed)
    d = os.path.join(out_dir, name)
    if os.path.isdir(d):
        shutil.rmtree(d)  # no stale model or FAILED.txt from an earlier run
    os.makedirs(d)
    g = torch.Generator().manual_seed(seed + 1)
    x = torch.randn(shape, generator=g)
    path = os.path.join(d, "model.onnx")
    try:
        export(model, (x,), [input_name], [output_name], path, exporter, LEGACY_OPSET)
        (out,) = run_ort(path, {input_name: x.numpy()}, threads=1)
        with torch.no_grad():
            expected = model(x).numpy()
        if out.shape != expected.shape:
            raise RuntimeError(f"onnxruntime's output is {out.shape}, "
                               f"PyTorch's {expected.shape}")
        err = float(np.abs(out - expected).max())
        if not err < TOLERANCE:
            raise RuntimeError(f"onnxruntime and PyTorch differ by {err:.3e}")
    except Exception as e:  # the exporter's failure, recorded for the tests
        message = f"{name}: {exporter} export of {base} failed: " \
                  f"{type(e).__name__}: {e}"
        return record_failure(d, message)
    os.makedirs(os.path.join(d, "test_data_set_0"))
    write_pb(x.numpy(), os.path.join(d, "test_data_set_0", "input_0.pb"),
             input_name)
    write_pb(out, os.path.join(d, "test_data_set_0", "output_0.pb"),
             output_name)
    onnx_model = onnx.load(path)
    ops = op_types(onnx_model)
    opset = next(o.version for o in onnx_model.opset_import
                 if o.domain in ("", "ai.onnx"))
    info = {"case": name, "model": base, "exporter": exporter,
            "opset": opset, "input": {input_name: list(shape)},
            "output": {output_name: list(out.shape)},
            "op_types": ops,
            "parameters": sum(p.numel() for p in model.parameters()),
            "onnxruntime_vs_pytorch": err,
            "config": config.to_diff_dict() if config is not None else None,
            "torch": torch.__version__, "transformers": transformers.__version__,
            "onnx": onnx.__version__, "onnxscript": onnxscript.__version__,
            "onnxruntime": ort.__version__, "seed": seed}
    if config is not None:
        info["attn_implementation"] = config._attn_implementation
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(info, f, indent=1, default=str)
    print(f"{name}: {exporter} opset {opset} {list(shape)} -> "
          f"{list(out.shape)}, {len(onnx_model.graph.node)} nodes, "
          f"{os.path.getsize(path) / 1024:.1f} KiB, "
          f"onnxruntime vs PyTorch {err:.1e}\n  ops: {' '.join(ops)}")
    return None


def main():
    args = case_arguments(__doc__, CASES)
    failed = []
    for _, name, (base, exporter) in selected_cases(args, CASES):
        # NAME and NAME-legacy: the same weights and inputs.
        message = make_case(name, base, exporter, args.out,
                            seed=200 + list(MODELS).index(base))
        if message:
            failed.append(name)
    if failed:
        print(f"failed (see NAME/FAILED.txt): {' '.join(failed)}",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
