"""Checks an exported model: onnxruntime's loss on a token window equals the
loss paracc logged for that step.

usage: exported_loss.py MODEL.onnx TOKENS.u16 BATCH SEQ LOG.jsonl STEP [--rtol R]

Step k's batch is window k of the token file (as input_ids and labels); the
log's entry for STEP is the loss before that step's update, i.e. the loss of
the parameters after STEP steps, which the exported model must reproduce.
"""

import argparse
import json
import sys

import numpy as np
import onnxruntime as ort


def main() -> int:
    p = argparse.ArgumentParser()
    for a in ("model", "tokens"):
        p.add_argument(a)
    p.add_argument("batch", type=int)
    p.add_argument("seq", type=int)
    p.add_argument("log")
    p.add_argument("step", type=int)
    p.add_argument("--rtol", type=float, default=1e-5)
    args = p.parse_args()
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    sess = ort.InferenceSession(args.model, opts, providers=["CPUExecutionProvider"])
    tokens = np.fromfile(args.tokens, np.uint16).astype(np.int64)
    n = args.batch * args.seq
    windows = tokens.size // n
    j = args.step % windows
    batch = tokens[j * n:(j + 1) * n].reshape(args.batch, args.seq)
    feed = {i.name: batch for i in sess.get_inputs()}
    loss = float(sess.run(None, feed)[0])
    logged = [json.loads(l) for l in open(args.log)][args.step]
    assert logged["step"] == args.step
    err = abs(loss - logged["loss"]) / abs(logged["loss"])
    print(f"onnxruntime loss {loss:.7f}, paracc's at step {args.step} "
          f"{logged['loss']:.7f}: rel error {err:.2e}")
    if err > args.rtol:
        print("MISMATCH")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
