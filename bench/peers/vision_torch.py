"""The peer of paracc's vision benchmarks: the transformers classifier that
scripts/exports/vision_bench.py exported (ResNet-50, ViT-B/16), built again
from its config (peer.json) with random weights and trained by PyTorch eager
or torch.compile.

usage: vision_torch.py PEER.json --mode eager|compile [--batch B]
                       [--channels-last] [--steps N] [--warmup N]

A training step: f32 master weights, bf16 autocast, the cross-entropy of
the logits (what paracc's loss.onnx computes), backward, fused AdamW (lr
1e-4); --channels-last puts the model and the images in channels-last
memory format (cuDNN's fast layout for convolutions). Times the median of
--steps steps after --warmup with CUDA events; prints one RESULT line: ms
per step, images/s and the peak memory PyTorch allocated.
"""

import argparse
import json
import statistics

import torch
import torch.nn.functional as F
import transformers


def main():
    p = argparse.ArgumentParser()
    p.add_argument("peer")
    p.add_argument("--mode", choices=["eager", "compile"], default="eager")
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--channels-last", action="store_true")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--warmup", type=int, default=5)
    a = p.parse_args()
    spec = json.load(open(a.peer))
    config = getattr(transformers, spec["config_class"])(**spec["config"])
    torch.manual_seed(0)
    model = getattr(transformers, spec["model_class"])(config).cuda().train()
    fmt = torch.channels_last if a.channels_last else torch.contiguous_format
    model = model.to(memory_format=fmt)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)

    def loss_of(images, labels):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            logits = model(pixel_values=images).logits
        return F.cross_entropy(logits.float(), labels)

    fn = torch.compile(loss_of) if a.mode == "compile" else loss_of

    def step(images, labels):
        opt.zero_grad(set_to_none=True)
        fn(images, labels).backward()
        opt.step()

    g = torch.Generator(device="cuda").manual_seed(1)
    batches = [(torch.randn(a.batch, 3, 224, 224, device="cuda", generator=g)
                .contiguous(memory_format=fmt),
                torch.randint(0, 1000, (a.batch,), device="cuda", generator=g))
               for _ in range(2)]
    for i in range(a.warmup):
        step(*batches[i % 2])
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    times = []
    for i in range(a.steps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        step(*batches[i % 2])
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    ms = statistics.median(times)
    peak = torch.cuda.max_memory_allocated() / 2**30
    print(f"RESULT {spec['name']} {a.mode}"
          f"{' channels-last' if a.channels_last else ''} train "
          f"[{a.batch},3,224,224]: {ms:.2f} ms/step, "
          f"{a.batch / ms * 1e3:,.0f} images/s, peak {peak:.2f} GiB "
          f"({spec['parameters'] / 1e6:.1f}M parameters, torch "
          f"{torch.__version__}, transformers {transformers.__version__})")


if __name__ == "__main__":
    main()
