"""Times onnxruntime on a model: the peer of paracc's CPU benchmarks.

usage: ort_time.py MODEL.onnx INPUT.pb [--threads N] [--runs N]
                   [--save OUTPUT.pb]

One warm-up, then --runs runs (default 5) on the CPU execution provider
with its default graph optimizations and --threads intra-op threads
(default: every core); prints one RESULT line with the median ms. --save
writes the first output, for paracc's to be compared with.
"""

import argparse
import os
import statistics
import time

import onnx
import onnxruntime as ort
from onnx import numpy_helper


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("input")
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--save")
    a = p.parse_args()
    options = ort.SessionOptions()
    options.intra_op_num_threads = a.threads
    session = ort.InferenceSession(a.model, options,
                                   providers=["CPUExecutionProvider"])
    tensor = onnx.load_tensor(a.input)
    feeds = {session.get_inputs()[0].name: numpy_helper.to_array(tensor)}
    out = session.run(None, feeds)
    times = []
    for _ in range(a.runs):
        t = time.perf_counter()
        session.run(None, feeds)
        times.append((time.perf_counter() - t) * 1e3)
    if a.save:
        with open(a.save, "wb") as f:
            f.write(numpy_helper.from_array(out[0], session.get_outputs()[0].name)
                    .SerializeToString())
    print(f"RESULT onnxruntime {ort.__version__}, {a.threads} thread(s): "
          f"median {statistics.median(times):.1f} ms of {a.runs} runs "
          f"(min {min(times):.1f})")


if __name__ == "__main__":
    main()
