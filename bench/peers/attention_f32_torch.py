"""The f32 attention peer: PyTorch's scaled_dot_product_attention on f32
operands with TF32 allowed (torch.backends.cuda.matmul.allow_tf32 and
cudnn.allow_tf32, as bench_torch.py --precision f32 sets them), causal, at
the shapes of paracc's attention bench "tf32" rows (AttentionBench.cu):
batch 8 x 16 heads of 64 at seq 1024, 8 heads of 128, and batch 2 at seq
4096. Each backend PyTorch has for f32 (the memory-efficient kernel and the
math fallback) and its default choice; forward and backward median times
(CUDA events, 20 runs after 3) and TFLOP/s counted as the bench counts them
(forward 4 B H S^2 D / 2, backward 2.5x that).
Usage: python3 attention_f32_torch.py   (prints one RESULT json line per row)
"""
import json

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def median_ms(fn, iters=20):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        e0 = torch.cuda.Event(enable_timing=True)
        e1 = torch.cuda.Event(enable_timing=True)
        e0.record()
        fn()
        e1.record()
        torch.cuda.synchronize()
        times.append(e0.elapsed_time(e1))
    times.sort()
    return times[len(times) // 2]


def main():
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    shapes = [(8, 16, 1024, 64), (8, 8, 1024, 128), (2, 16, 4096, 64), (2, 8, 4096, 128)]
    backends = {"default": None, "efficient": SDPBackend.EFFICIENT_ATTENTION,
                "math": SDPBackend.MATH}
    for B, H, S, D in shapes:
        q, k, v = (torch.randn(B, H, S, D, device="cuda", requires_grad=True) for _ in range(3))
        do = torch.randn(B, H, S, D, device="cuda")
        fwd_flops = 4 * B * H * S * S * D / 2
        for name, be in backends.items():
            def fwd():
                return F.scaled_dot_product_attention(q, k, v, is_causal=True)

            def fwd_bwd():
                o = fwd()
                torch.autograd.grad(o, (q, k, v), do)

            try:
                if be is None:
                    tf, tfb = median_ms(fwd), median_ms(fwd_bwd)
                else:
                    with sdpa_kernel(be):
                        tf, tfb = median_ms(fwd), median_ms(fwd_bwd)
                tb = tfb - tf
                r = dict(backend=name, B=B, H=H, S=S, D=D, fwd_ms=tf, bwd_ms=tb,
                         fwd_tflops=fwd_flops / tf / 1e9, bwd_tflops=2.5 * fwd_flops / tb / 1e9)
            except Exception as e:  # a backend that does not take this shape
                r = dict(backend=name, B=B, H=H, S=S, D=D, error=str(e).splitlines()[0][:120])
            print("RESULT " + json.dumps(r), flush=True)
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
