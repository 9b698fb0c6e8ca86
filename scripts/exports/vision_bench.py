#!/usr/bin/env python3
"""Benchmark models of the model-coverage issue's GPU rows: a ResNet-50 and a
ViT-B/16 classifier (transformers' ResNetForImageClassification and
ViTForImageClassification at those models' published shapes, 1000 classes,
random weights: nothing downloaded) under a cross-entropy loss, exported by
torch.onnx for paracc to train at one batch of 224x224 images.

usage: vision_bench.py OUT_DIR --model resnet-50|vit-b16 [--batch 128]

writes OUT_DIR/loss.onnx, (images [B, 3, 224, 224] f32, labels [B] i64) ->
loss, shape-only (the data of paracc's parameters left out: paracc compiles
it with --random-weights and the device draws them), and OUT_DIR/peer.json,
what bench/peers/vision_torch.py builds the same model from. ResNet-50 goes
through the legacy exporter in training mode (BatchNormalization updating
its running statistics; torch 2.15's dynamo exporter leaves BatchNorm out
of a model in training mode, see vision_training.py), ViT-B/16 through the
dynamo exporter.

Needs torch, transformers, onnxscript and onnx.
"""

import argparse
import json
import os
import warnings

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
import transformers

from exporting import export

MODELS = {
    "resnet-50": ("ResNetConfig", "ResNetForImageClassification",
                  dict(num_channels=3, embedding_size=64,
                       hidden_sizes=[256, 512, 1024, 2048],
                       depths=[3, 4, 6, 3], layer_type="bottleneck",
                       hidden_act="relu", num_labels=1000), "legacy"),
    "vit-b16": ("ViTConfig", "ViTForImageClassification",
                dict(hidden_size=768, num_hidden_layers=12,
                     num_attention_heads=12, intermediate_size=3072,
                     image_size=224, patch_size=16, num_labels=1000,
                     attn_implementation="sdpa"), "dynamo"),
}
LEGACY_OPSET = 17


class ClassifierLoss(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.m = model

    def forward(self, images, labels):
        return F.cross_entropy(self.m(pixel_values=images).logits, labels)


def build(name):
    config_name, model_name, kwargs, _ = MODELS[name]
    config = getattr(transformers, config_name)(**kwargs)
    torch.manual_seed(0)
    return getattr(transformers, model_name)(config)


def strip_parameters(path):
    """Leaves out the data of paracc's parameters: float initializers of
    >= 2 elements that are matrices, vectors, large, or a convolution's
    weight or bias (ONNXImporter.cpp's rule), keeping other constants."""
    model = onnx.load(path)
    conv_inputs = {i for n in model.graph.node if n.op_type == "Conv"
                   for i in n.input[1:]}
    for init in model.graph.initializer:
        count = int(np.prod(init.dims)) if init.dims else 1
        if init.data_type == onnx.TensorProto.FLOAT and count >= 2 and (
                len(init.dims) <= 2 or count > (1 << 20)
                or init.name in conv_inputs):
            init.ClearField("raw_data")
            init.ClearField("float_data")
    onnx.save(model, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--model", choices=sorted(MODELS), required=True)
    ap.add_argument("--batch", type=int, default=128)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    model = build(args.model)
    exporter = MODELS[args.model][3]
    images = torch.randn(args.batch, 3, 224, 224)
    labels = torch.randint(0, 1000, (args.batch,))
    path = os.path.join(args.out, "loss.onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        export(ClassifierLoss(model).train(), (images, labels),
               ["images", "labels"], ["loss"], path, exporter, LEGACY_OPSET,
               optimize=exporter != "dynamo", training=True)
    strip_parameters(path)
    params = sum(p.numel() for p in model.parameters())
    peer = {"name": args.model, "config_class": MODELS[args.model][0],
            "model_class": MODELS[args.model][1],
            "config": MODELS[args.model][2], "parameters": params,
            "batch": args.batch, "torch": torch.__version__,
            "transformers": transformers.__version__}
    with open(os.path.join(args.out, "peer.json"), "w") as f:
        json.dump(peer, f, indent=1)
    print(f"{args.model}: {params / 1e6:.1f}M parameters, batch {args.batch}, "
          f"{len(onnx.load(path).graph.node)} nodes -> {path} (shape-only)")


if __name__ == "__main__":
    main()
