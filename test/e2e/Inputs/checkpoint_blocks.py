"""Checks that a sharded checkpoint's blocks tile every state tensor, or
(--to-v1) rewrites it in the first format: one state.npz of whole tensors.

Usage: checkpoint_blocks.py STEP_FOLDER [--to-v1]
"""
import json
import os
import sys

import numpy as np


def main():
    folder = sys.argv[1]
    manifest_path = os.path.join(folder, "manifest.json")
    with open(manifest_path) as f:
        manifest = json.load(f)
    assert manifest["format"] == "paracc-checkpoint-2", manifest["format"]
    files = {}
    whole = {}
    for name, info in manifest["state"].items():
        shape = info["shape"]
        covered = np.zeros(shape, dtype=np.int32)
        data = None
        for block in manifest["blocks"][name]:
            if block["file"] not in files:
                files[block["file"]] = np.load(os.path.join(folder, block["file"]))
            array = files[block["file"]][block["array"]]
            assert list(array.shape) == block["shape"], (name, block)
            index = tuple(slice(o, o + n) for o, n in zip(block["offsets"], array.shape))
            covered[index] += 1
            if data is None:
                data = np.zeros(shape, dtype=array.dtype)
            data[index] = array
        assert (covered == 1).all(), f"{name}: blocks overlap or leave gaps"
        whole[name] = data
    if len(sys.argv) > 2 and sys.argv[2] == "--to-v1":
        for f in list(files):
            os.remove(os.path.join(folder, f))
        np.savez(os.path.join(folder, "state.npz"), **whole)
        manifest["format"] = "paracc-checkpoint-1"
        del manifest["blocks"]
        with open(manifest_path, "w") as f:
            json.dump(manifest, f, indent=2)
        return
    kinds = [info["kind"] for info in manifest["state"].values()]
    print(f"{kinds.count('parameter')} parameters, "
          f"{kinds.count('optimizer_state')} moments: every tensor tiled by its blocks")


if __name__ == "__main__":
    main()
