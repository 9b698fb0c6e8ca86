"""The peer of paracc's real-model benchmarks: the transformers decoder that
scripts/exports/decoders.py --bench exported, built again from its config
(peer.json) with random weights, run by PyTorch eager or torch.compile.

usage: hf_decoder_torch.py PEER.json --mode eager|compile [--fwd]
                           [--batch B] [--seq S] [--steps N] [--warmup N]
                           [--experts eager|batched_mm|grouped_mm]

Training: f32 master weights, bf16 autocast, fused AdamW (lr 1e-4), the
loss paracc's loss.onnx computes (next-token cross-entropy on the logits),
sdpa attention. Forward (--fwd): the logits under no_grad and bf16
autocast. Times the median of --steps steps after --warmup with CUDA
events; prints one RESULT line: ms per step, tokens/s, MFU (model FLOPs
6 N tokens + 12 L (heads x head_dim) S tokens for training, a third of that
forward, against 989 TFLOP/s) and the peak memory PyTorch allocated.
For a mixture of experts N counts the active parameters (each token's k of
E experts) and --experts picks transformers' experts forward (grouped_mm:
torch's grouped GEMM, which needs bf16 weights, so --bf16-params; with f32
master weights transformers falls back to a loop of f32 products; eager: a
loop over the experts hit).
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
    p.add_argument("--fwd", action="store_true")
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--seq", type=int, default=1024)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--experts", choices=["eager", "batched_mm", "grouped_mm"])
    p.add_argument("--bf16-params", action="store_true",
                   help="parameters and AdamW state in bf16 (no f32 master "
                   "weights): what torch's grouped GEMM needs")
    a = p.parse_args()
    spec = json.load(open(a.peer))
    config = getattr(transformers, spec["config_class"])(**spec["config"])
    config._attn_implementation = "sdpa"
    if a.experts:
        config._experts_implementation = a.experts
    torch.manual_seed(0)
    model = getattr(transformers, spec["model_class"])(config).cuda()
    if a.bf16_params:
        model = model.to(torch.bfloat16)
    nparams = sum(x.numel() for x in model.parameters())
    vocab = config.vocab_size

    def loss_of(ids):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            logits = model(input_ids=ids, use_cache=False).logits
            return F.cross_entropy(logits[:, :-1].reshape(-1, vocab).float(),
                                   ids[:, 1:].reshape(-1))

    def forward(ids):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return model(input_ids=ids, use_cache=False).logits

    if a.fwd:
        model.eval()
        fn = torch.compile(forward) if a.mode == "compile" else forward

        def step(ids):
            with torch.no_grad():
                fn(ids)
    else:
        model.train()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
        fn = torch.compile(loss_of) if a.mode == "compile" else loss_of

        def step(ids):
            opt.zero_grad(set_to_none=True)
            fn(ids).backward()
            opt.step()

    g = torch.Generator(device="cuda").manual_seed(1)
    batches = [torch.randint(0, vocab, (a.batch, a.seq), device="cuda",
                             generator=g) for _ in range(4)]
    for i in range(a.warmup):
        step(batches[i % 4])
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    times = []
    for i in range(a.steps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        step(batches[i % 4])
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    ms = statistics.median(times)
    tokens = a.batch * a.seq
    heads_dim = config.num_attention_heads * (
        getattr(config, "head_dim", None)
        or config.hidden_size // config.num_attention_heads)
    experts = getattr(config, "num_local_experts", None) or getattr(
        config, "num_experts", None)
    active = nparams
    if experts:
        routed = sum(x.numel() for n, x in model.named_parameters()
                     if ".experts." in n)
        active -= routed * (1 - config.num_experts_per_tok / experts)
    flops = 6 * active * tokens + 12 * config.num_hidden_layers * heads_dim * a.seq * tokens
    if a.fwd:
        flops //= 3
    peak = torch.cuda.max_memory_allocated() / 2**30
    print(f"RESULT {spec['name']} {a.mode} {'forward' if a.fwd else 'train'} "
          f"[{a.batch},{a.seq}]: {ms:.2f} ms/step, {tokens / ms * 1e3:,.0f} tok/s, "
          f"MFU {flops / (ms * 1e-3) / 989e12 * 100:.1f} %, peak {peak:.2f} GiB "
          f"({nparams / 1e6:.1f}M parameters, {active / 1e6:.1f}M active"
          f"{', experts ' + config._experts_implementation if experts else ''}"
          f"{', bf16 parameters' if a.bf16_params else ''}"
          f", torch {torch.__version__}, "
          f"transformers {transformers.__version__})")


if __name__ == "__main__":
    main()
