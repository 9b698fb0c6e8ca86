"""Writes random image-classification batches for paracc-run --data-dir:
OUT/batch_NN/input_0.pb (images [B, 3, H, W] f32, standard normal) and
input_1.pb (labels [B] i64 in [0, CLASSES)), as ONNX TensorProtos encoded
here (the GPU machine need not have the onnx package).

usage: write_image_batches.py OUT BATCHES B H W CLASSES
"""

import os
import sys

import numpy as np


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def tensor_proto(array, name, data_type):
    """TensorProto: dims (1), data_type (2), name (8), raw_data (9)."""
    out = bytearray()
    for d in array.shape:
        out += b"\x08" + varint(d)
    out += b"\x10" + varint(data_type)
    encoded = name.encode()
    out += b"\x42" + varint(len(encoded)) + encoded
    raw = np.ascontiguousarray(array).tobytes()
    out += b"\x4a" + varint(len(raw)) + raw
    return bytes(out)


def main():
    out, batches, batch, height, width, classes = sys.argv[1:7]
    rng = np.random.default_rng(0)
    for k in range(int(batches)):
        d = os.path.join(out, "batch_%02d" % k)
        os.makedirs(d, exist_ok=True)
        images = rng.standard_normal(
            (int(batch), 3, int(height), int(width))).astype(np.float32)
        labels = rng.integers(0, int(classes), int(batch)).astype(np.int64)
        with open(os.path.join(d, "input_0.pb"), "wb") as f:
            f.write(tensor_proto(images, "images", 1))
        with open(os.path.join(d, "input_1.pb"), "wb") as f:
            f.write(tensor_proto(labels, "labels", 7))


if __name__ == "__main__":
    main()
