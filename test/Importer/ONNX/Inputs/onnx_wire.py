"""Writes small ONNX protobuf files for the importer tests.

The lit Python may not have the `onnx` package, so this encodes the few
messages the tests need directly in the protobuf wire format.

  onnx_wire.py model OUT
      A binary model: y = Add(x: f32[2,3], b), b an f32[3] initializer.
  onnx_wire.py function-model OUT
      A binary model calling a model-local function whose attribute has a
      default (FunctionProto.attribute_proto, IR 9).
  onnx_wire.py tensor OUT NAME DTYPE DIMS VALUES
      A TensorProto file (input_N.pb); DTYPE is f32 or i64, DIMS like 2x3
      (or 'scalar'), VALUES comma-separated.
  onnx_wire.py raw OUT DTYPE VALUES
      Raw little-endian values (an external data file).
  onnx_wire.py truncate IN OUT LEN
      The first LEN bytes of IN.
  onnx_wire.py prefixes IN OUTDIR
      OUTDIR/N.onnx holding the first N bytes of IN, for N = 1 .. size - 1.
  onnx_wire.py garbage OUT SEED LEN
      LEN pseudo-random bytes from SEED.
"""

import os
import struct
import sys


def varint(n):
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_varint(num, n):
    return varint(num << 3) + varint(n)


def field_bytes(num, data):
    if isinstance(data, str):
        data = data.encode()
    return varint((num << 3) | 2) + varint(len(data)) + data


DTYPES = {"f32": (1, "<f", float), "i64": (7, "<q", int)}


def tensor_proto(name, dtype, dims, values):
    code, fmt, conv = DTYPES[dtype]
    raw = b"".join(struct.pack(fmt, conv(v)) for v in values)
    msg = b"".join(field_varint(1, d) for d in dims)  # dims
    msg += field_varint(2, code)  # data_type
    msg += field_bytes(8, name)  # name
    msg += field_bytes(9, raw)  # raw_data
    return msg


def value_info(name, elem_type, dims):
    shape = b"".join(field_bytes(1, field_varint(1, d)) for d in dims)
    tensor_type = field_varint(1, elem_type) + field_bytes(2, shape)
    return field_bytes(1, name) + field_bytes(2, field_bytes(1, tensor_type))


def add_model():
    node = (field_bytes(1, "x") + field_bytes(1, "b") + field_bytes(2, "y") +
            field_bytes(3, "add") + field_bytes(4, "Add"))
    graph = (field_bytes(1, node) + field_bytes(2, "g") +
             field_bytes(5, tensor_proto("b", "f32", [3], [1, 2, 3])) +
             field_bytes(11, value_info("x", 1, [2, 3])) +
             field_bytes(12, value_info("y", 1, [2, 3])))
    opset = field_bytes(1, "") + field_varint(2, 17)
    return (field_varint(1, 8) + field_bytes(2, "onnx_wire") +
            field_bytes(7, graph) + field_bytes(8, opset))


def int_attr(name, value):
    # AttributeProto: name = 1, i = 3, type = 20 (INT = 2).
    return field_bytes(1, name) + field_varint(3, value) + field_varint(20, 2)


def function_model():
    """y0 = SoftmaxF(x) with the function's default axis 0, y1 = SoftmaxF(x)
    with the caller's axis 1; SoftmaxF is a model-local function whose
    Softmax refers to its attribute `axis`."""
    # AttributeProto: name = 1, type = 20, ref_attr_name = 21.
    ref = (field_bytes(1, "axis") + field_varint(20, 2) +
           field_bytes(21, "axis"))
    body = (field_bytes(1, "in") + field_bytes(2, "out") +
            field_bytes(4, "Softmax") + field_bytes(5, ref))
    # FunctionProto: name = 1, input = 4, output = 5, node = 7,
    # opset_import = 9, domain = 10, attribute_proto = 11.
    function = (field_bytes(1, "SoftmaxF") + field_bytes(4, "in") +
                field_bytes(5, "out") + field_bytes(7, body) +
                field_bytes(9, field_varint(2, 17)) +
                field_bytes(10, "local") +
                field_bytes(11, int_attr("axis", 0)))

    def call(output, attrs):
        return (field_bytes(1, "x") + field_bytes(2, output) +
                field_bytes(3, "call_" + output) +
                field_bytes(4, "SoftmaxF") + attrs + field_bytes(7, "local"))

    graph = (field_bytes(1, call("y0", b"")) +
             field_bytes(1, call("y1", field_bytes(5, int_attr("axis", 1)))) +
             field_bytes(2, "g") +
             field_bytes(11, value_info("x", 1, [2, 3])) +
             field_bytes(12, value_info("y0", 1, [2, 3])) +
             field_bytes(12, value_info("y1", 1, [2, 3])))
    # ModelProto: functions = 25.
    return (field_varint(1, 9) + field_bytes(7, graph) +
            field_bytes(8, field_varint(2, 17)) +
            field_bytes(8, field_bytes(1, "local") + field_varint(2, 1)) +
            field_bytes(25, function))


def parse_dims(text):
    return [] if text == "scalar" else [int(d) for d in text.split("x")]


def main(argv):
    cmd, out = argv[1], argv[2]
    if cmd == "model":
        data = add_model()
    elif cmd == "function-model":
        data = function_model()
    elif cmd == "tensor":
        name, dtype, dims, values = argv[3:7]
        data = tensor_proto(name, dtype, parse_dims(dims),
                            values.split(",") if values else [])
    elif cmd == "raw":
        _, fmt, conv = DTYPES[argv[3]]
        data = b"".join(struct.pack(fmt, conv(v)) for v in argv[4].split(","))
    elif cmd == "truncate":
        with open(argv[2], "rb") as f:
            data = f.read()[:int(argv[4])]
        out = argv[3]
    elif cmd == "prefixes":
        with open(argv[2], "rb") as f:
            data = f.read()
        os.makedirs(argv[3], exist_ok=True)
        for n in range(1, len(data)):
            with open(os.path.join(argv[3], "%d.onnx" % n), "wb") as f:
                f.write(data[:n])
        return
    elif cmd == "garbage":
        seed, length = int(argv[3]), int(argv[4])
        state, data = seed * 2654435761 + 1, bytearray()
        for _ in range(length):
            state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
            data.append(state >> 56)
        data = bytes(data)
    else:
        sys.exit("unknown command " + cmd)
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main(sys.argv)
