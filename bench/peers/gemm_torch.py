# bf16 matrix products through PyTorch (cuBLAS) on the shapes of
# runtime/bench/GemmBench.cu: median of 30 CUDA-event-timed products after 5
# warm-ups, rotating over 4 operand sets.
import json
import torch

shapes = [("q/k/v/proj 1024x1024", 8192, 1024, 1024),
          ("fused qkv 3072x1024", 8192, 3072, 1024),
          ("fc1 4096x1024", 8192, 4096, 1024),
          ("fc2 1024x4096", 8192, 1024, 4096),
          ("head 50304x1024", 8192, 50304, 1024),
          ("8192^3", 8192, 8192, 8192)]
for what, m, n, k in shapes:
    xs = [torch.randn(m, k, device="cuda", dtype=torch.bfloat16) * 0.1 for _ in range(4)]
    ws = [torch.randn(k, n, device="cuda", dtype=torch.bfloat16) * 0.1 for _ in range(4)]
    for i in range(5):
        torch.matmul(xs[i % 4], ws[i % 4])
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(31)]
    for i in range(30):
        ev[i].record()
        torch.matmul(xs[i % 4], ws[i % 4])
    ev[30].record()
    torch.cuda.synchronize()
    ms = sorted(ev[i].elapsed_time(ev[i + 1]) for i in range(30))[15]
    print("TORCH " + json.dumps(dict(shape=what, ms=ms, tflops=2 * m * n * k / ms / 1e9)), flush=True)
