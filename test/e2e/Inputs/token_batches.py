"""Writes a token file's windows as batch folders for paracc train --data-dir.

usage: token_batches.py TOKENS.u16 BATCH SEQ OUT_DIR

Window j (tokens[j*B*S:(j+1)*B*S] as [B, S]) becomes OUT_DIR/batch_JJJJ/
input_0.pb (input_ids) and input_1.pb (labels, the same tokens): what
--data gives the loss model, so both runs must agree step for step.
"""

import os
import sys

import numpy as np
from onnx import numpy_helper


def main() -> int:
    path, batch, seq, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    tokens = np.fromfile(path, dtype="<u2").astype(np.int64)
    window = batch * seq
    for j in range(len(tokens) // window):
        ids = tokens[j * window:(j + 1) * window].reshape(batch, seq)
        folder = os.path.join(out, f"batch_{j:04d}")
        os.makedirs(folder, exist_ok=True)
        for i, name in enumerate(["input_ids", "labels"]):
            with open(os.path.join(folder, f"input_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(ids, name).SerializeToString())
    return 0


if __name__ == "__main__":
    sys.exit(main())
