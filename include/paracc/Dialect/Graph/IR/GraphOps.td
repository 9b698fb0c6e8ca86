//===- GraphOps.td - Graph dialect operations --------------*- tablegen -*-===//
//
// Operations of the graph dialect. Each op documents its semantics; shape
// and type rules are checked by type inference (ops with InferTypeOpAdaptor)
// or by an explicit verifier, and each rule has a negative lit test in
// test/Dialect/Graph/invalid.mlir (attention-linear-invalid.mlir for
// graph.attention and graph.linear).
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_GRAPH_IR_GRAPHOPS_TD
#define PARACC_DIALECT_GRAPH_IR_GRAPHOPS_TD

include "paracc/Dialect/Graph/IR/GraphDialect.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Sources: constants and weights
//===----------------------------------------------------------------------===//

def Graph_ConstantOp : Graph_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "A constant tensor";
  let description = [{
    A tensor known at compile time: small model constants and the values of
    folded shape and mask computations.

    ```mlir
    %0 = graph.constant dense<[2, 64]> : tensor<2xi64>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Graph_WeightOp : Graph_Op<"weight", [Pure]> {
  let summary = "A named model parameter";
  let description = [{
    A parameter of the model, named by `name` (the ONNX initializer name).
    Its data is not part of the IR: the compiler's weight store holds it and
    the executable carries it. Two weight ops with the same name are the same
    parameter (tied embeddings).

    ```mlir
    %w = graph.weight "transformer.h.0.attn.c_attn.weight" : tensor<256x768xf32>
    ```

    With `offsets` and `source_shape` the op is a block of the named
    parameter: the parameter has shape `source_shape` and the op's value is
    the block of the result type's shape starting at `offsets`. Tensor
    parallelism uses this to split a fused q/k/v projection into three.
  }];
  let arguments = (ins StrAttr:$name,
                       OptionalAttr<DenseI64ArrayAttr>:$offsets,
                       OptionalAttr<DenseI64ArrayAttr>:$source_shape);
  let results = (outs Graph_Tensor:$result);
  let builders = [
    OpBuilder<(ins "::mlir::Type":$type, "::llvm::StringRef":$name), [{
      build($_builder, $_state, type, $_builder.getStringAttr(name), nullptr,
            nullptr);
    }]>
  ];
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Unary elementwise
//===----------------------------------------------------------------------===//

class Graph_UnaryOp<string mnemonic, Type operandType, string doc,
                    list<Trait> traits = []>
    : Graph_Op<mnemonic, traits # [Pure, AllTypesMatch<["x", "result"]>]> {
  let summary = "Elementwise " # doc;
  let description = "Computes `" # doc # "` of each element.";
  let arguments = (ins operandType:$x);
  let results = (outs operandType:$result);
  let assemblyFormat = "$x attr-dict `:` type($result)";
}

def Graph_NegOp : Graph_UnaryOp<"neg", Graph_SignedTensor, "-x">;
def Graph_AbsOp : Graph_UnaryOp<"abs", Graph_NumericTensor, "|x|">;
def Graph_SignOp : Graph_UnaryOp<"sign", Graph_NumericTensor, "sign(x)">;
def Graph_SqrtOp : Graph_UnaryOp<"sqrt", Graph_FloatTensor, "sqrt(x)">;
def Graph_RsqrtOp : Graph_UnaryOp<"rsqrt", Graph_FloatTensor, "1/sqrt(x)">;
def Graph_ReciprocalOp
    : Graph_UnaryOp<"reciprocal", Graph_FloatTensor, "1/x">;
def Graph_ExpOp : Graph_UnaryOp<"exp", Graph_FloatTensor, "exp(x)">;
def Graph_LogOp : Graph_UnaryOp<"log", Graph_FloatTensor, "log(x)">;
def Graph_TanhOp : Graph_UnaryOp<"tanh", Graph_FloatTensor, "tanh(x)">;
def Graph_ErfOp : Graph_UnaryOp<"erf", Graph_FloatTensor, "erf(x)">;
def Graph_SigmoidOp
    : Graph_UnaryOp<"sigmoid", Graph_FloatTensor, "1/(1+exp(-x))">;
def Graph_ReluOp : Graph_UnaryOp<"relu", Graph_SignedTensor, "max(x, 0)">;
def Graph_SiluOp : Graph_UnaryOp<"silu", Graph_FloatTensor, "x*sigmoid(x)">;
def Graph_SiluMulOp : Graph_Op<"silu_mul",
    [Pure, AllTypesMatch<["gate", "up", "result"]>]> {
  let summary = "The SwiGLU product silu(gate) * up";
  let description = [{
    `gate * sigmoid(gate) * up`, elementwise, of one shape: the gated linear
    unit of Llama-family MLPs, `act(x W_gate) * (x W_up)` with SiLU.
    `--paracc-graph-fusion` forms it from `mul(silu(gate), up)`, so that the
    forward is one pass over its operands and the backward
    (`graph.silu_mul_grad`) another, instead of a kernel per multiplication
    of the decomposed form.

    ```mlir
    %y = graph.silu_mul %gate, %up : tensor<8x1024x2816xbf16>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$gate, Graph_FloatTensor:$up);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$gate `,` $up attr-dict `:` type($result)";
}
def Graph_RotaryOp : Graph_Op<"rotary",
    [Pure, AllTypesMatch<["x", "result"]>]> {
  let summary = "Rotary position embedding, the rotate-half form";
  let description = [{
    `x * cos + rotate_half(x) * sin` over the last dim of `x` (even, D), with
    `rotate_half(x) = concat(-x[..., D/2:], x[..., :D/2])`: transformers'
    `apply_rotary_pos_emb` (Llama, Qwen2, Mistral, Phi-3). `cos` and `sin`
    broadcast to `x` and have its element type. With `transposed`, the
    transposed map instead, `x * cos + rotate_half^T(x * sin)` with
    `rotate_half^T(z) = concat(z[..., D/2:], -z[..., :D/2])`: the gradient
    with respect to `x` (the embedding is linear in `x`).
    `--paracc-graph-fusion` forms it from the exporters' slices, negation,
    concatenation, products and sum when `cos` and `sin` are constants.

    ```mlir
    %y = graph.rotary %x, %cos, %sin : (tensor<8x16x1024x64xbf16>,
        tensor<1x1x1024x64xbf16>, tensor<1x1x1024x64xbf16>) -> tensor<8x16x1024x64xbf16>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$x, Graph_FloatTensor:$cos,
                       Graph_FloatTensor:$sin,
                       DefaultValuedAttr<BoolAttr, "false">:$transposed);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $x `,` $cos `,` $sin attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}
def Graph_SinOp : Graph_UnaryOp<"sin", Graph_FloatTensor, "sin(x)">;
def Graph_CosOp : Graph_UnaryOp<"cos", Graph_FloatTensor, "cos(x)">;
def Graph_TanOp : Graph_UnaryOp<"tan", Graph_FloatTensor, "tan(x)">;
def Graph_AsinOp : Graph_UnaryOp<"asin", Graph_FloatTensor, "asin(x)">;
def Graph_AcosOp : Graph_UnaryOp<"acos", Graph_FloatTensor, "acos(x)">;
def Graph_AtanOp : Graph_UnaryOp<"atan", Graph_FloatTensor, "atan(x)">;
def Graph_SinhOp : Graph_UnaryOp<"sinh", Graph_FloatTensor, "sinh(x)">;
def Graph_CoshOp : Graph_UnaryOp<"cosh", Graph_FloatTensor, "cosh(x)">;
def Graph_AsinhOp : Graph_UnaryOp<"asinh", Graph_FloatTensor, "asinh(x)">;
def Graph_AcoshOp : Graph_UnaryOp<"acosh", Graph_FloatTensor, "acosh(x)">;
def Graph_AtanhOp : Graph_UnaryOp<"atanh", Graph_FloatTensor, "atanh(x)">;
def Graph_FloorOp : Graph_UnaryOp<"floor", Graph_FloatTensor, "floor(x)">;
def Graph_CeilOp : Graph_UnaryOp<"ceil", Graph_FloatTensor, "ceil(x)">;
def Graph_RoundOp
    : Graph_UnaryOp<"round", Graph_FloatTensor, "round half to even(x)">;
def Graph_NotOp : Graph_UnaryOp<"not", Graph_BoolTensor, "!x">;

def Graph_GeluOp : Graph_Op<"gelu", [Pure, AllTypesMatch<["x", "result"]>]> {
  let summary = "Gaussian error linear unit";
  let description = [{
    `x * Phi(x)`; with `approximate = "tanh"` the tanh form
    `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))` (GPT-2's).
  }];
  let arguments = (ins Graph_FloatTensor:$x,
                       DefaultValuedStrAttr<StrAttr, "none">:$approximate);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($result)";
  let hasVerifier = 1;
}

class Graph_PredicateUnaryOp<string mnemonic, string doc>
    : Graph_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = doc;
  let description = doc # "; the result is a bool tensor of the same shape.";
  let arguments = (ins Graph_FloatTensor:$x);
  let results = (outs Graph_BoolTensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($result)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location>,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferBoolLike(context, adaptor.getX().getType(), types);
    }
  }];
}

def Graph_IsNaNOp : Graph_PredicateUnaryOp<"is_nan", "Whether x is NaN">;
def Graph_IsInfOp : Graph_PredicateUnaryOp<"is_inf", "Whether x is infinite"> {
  let arguments = (ins Graph_FloatTensor:$x,
                       DefaultValuedAttr<BoolAttr, "true">:$detect_positive,
                       DefaultValuedAttr<BoolAttr, "true">:$detect_negative);
}

//===----------------------------------------------------------------------===//
// Binary elementwise (numpy broadcasting)
//===----------------------------------------------------------------------===//

class Graph_BinaryOp<string mnemonic, Type operandType, string doc,
                     list<Trait> traits = []>
    : Graph_Op<mnemonic, traits # [Pure, InferTypeOpAdaptor]> {
  let summary = "Elementwise " # doc # " with broadcasting";
  let description = "Computes `" # doc # "` elementwise. Operands have "
      # "the same element type and broadcast like numpy.";
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  // Comparisons override this to produce i1.
  code resultElementType = "nullptr";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferBroadcastBinary(context, loc, adaptor.getLhs().getType(),
                                  adaptor.getRhs().getType(), }]
      # resultElementType # [{, types);
    }
  }];
}

def Graph_AddOp : Graph_BinaryOp<"add", Graph_NumericTensor, "a + b",
                                 [Commutative]>;
def Graph_SubOp : Graph_BinaryOp<"sub", Graph_NumericTensor, "a - b">;
def Graph_MulOp : Graph_BinaryOp<"mul", Graph_NumericTensor, "a * b",
                                 [Commutative]>;
def Graph_DivOp
    : Graph_BinaryOp<"div", Graph_NumericTensor, "a / b (integers truncate)">;
def Graph_PowOp : Graph_BinaryOp<"pow", Graph_NumericTensor, "a ^ b">;
def Graph_MaxOp : Graph_BinaryOp<"max", Graph_NumericTensor, "max(a, b)",
                                 [Commutative]>;
def Graph_MinOp : Graph_BinaryOp<"min", Graph_NumericTensor, "min(a, b)",
                                 [Commutative]>;
def Graph_ModOp : Graph_BinaryOp<"mod", Graph_NumericTensor, "a mod b"> {
  let description = [{
    The remainder of `a / b`. With `fmod = true` it has the sign of the
    dividend (C's fmod); otherwise the sign of the divisor (Python's %).
  }];
  let arguments = (ins Graph_NumericTensor:$lhs, Graph_NumericTensor:$rhs,
                       DefaultValuedAttr<BoolAttr, "false">:$fmod);
}
def Graph_AndOp : Graph_BinaryOp<"and", Graph_BoolTensor, "a && b",
                                 [Commutative]>;
def Graph_OrOp : Graph_BinaryOp<"or", Graph_BoolTensor, "a || b",
                                [Commutative]>;
def Graph_XorOp : Graph_BinaryOp<"xor", Graph_BoolTensor, "a != b",
                                 [Commutative]>;

class Graph_CompareOp<string mnemonic, string doc, list<Trait> traits = []>
    : Graph_BinaryOp<mnemonic, Graph_Tensor, doc, traits> {
  let resultElementType = "::mlir::IntegerType::get(context, 1)";
  let results = (outs Graph_BoolTensor:$result);
}

def Graph_EqualOp : Graph_CompareOp<"equal", "a == b", [Commutative]>;
def Graph_LessOp : Graph_CompareOp<"less", "a < b">;
def Graph_LessEqualOp : Graph_CompareOp<"less_equal", "a <= b">;
def Graph_GreaterOp : Graph_CompareOp<"greater", "a > b">;
def Graph_GreaterEqualOp : Graph_CompareOp<"greater_equal", "a >= b">;

def Graph_WhereOp : Graph_Op<"where", [Pure, InferTypeOpAdaptor]> {
  let summary = "Select elements by a bool condition, with broadcasting";
  let description = [{
    `cond ? a : b` elementwise; the three operands broadcast together.
  }];
  let arguments = (ins Graph_BoolTensor:$cond, Graph_Tensor:$a,
                       Graph_Tensor:$b);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat =
      "$cond `,` $a `,` $b attr-dict `:` functional-type(operands, results)";
}

def Graph_CastOp : Graph_Op<"cast", [Pure]> {
  let summary = "Element type conversion";
  let description = [{
    Converts each element to the result's element type. Floats convert to
    integers by truncation toward zero; conversion to bool is `x != 0`.
  }];
  let arguments = (ins Graph_Tensor:$x);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($result)";
  let hasVerifier = 1;
}

def Graph_ClipOp : Graph_Op<"clip", [Pure, AllTypesMatch<["x", "result"]>]> {
  let summary = "Clamp to [min, max]";
  let description = "`min(max(x, min), max)` elementwise.";
  let arguments = (ins Graph_NumericTensor:$x, F64Attr:$min, F64Attr:$max);
  let results = (outs Graph_NumericTensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def Graph_MatMulOp : Graph_Op<"matmul", [Pure, InferTypeOpAdaptor]> {
  let summary = "Batched matrix product with broadcasting (ONNX MatMul)";
  let description = [{
    `numpy.matmul`: the last two dims are the matrix dims, the leading dims
    broadcast; a 1-D lhs is a row vector and a 1-D rhs a column vector, and
    the added dim is removed from the result.

    ```mlir
    %y = graph.matmul %x, %w : (tensor<2x64x256xf32>, tensor<256x1024xf32>)
                               -> tensor<2x64x1024xf32>
    ```
  }];
  let arguments = (ins Graph_NumericTensor:$lhs, Graph_NumericTensor:$rhs);
  let results = (outs Graph_NumericTensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def Graph_GemmOp : Graph_Op<"gemm", [Pure, InferTypeOpAdaptor]> {
  let summary = "General matrix multiply (ONNX Gemm)";
  let description = [{
    `alpha * op(a) * op(b) + beta * c` where `op` transposes when the
    corresponding `trans_*` flag is set; `a` and `b` are matrices and `c`, if
    present, broadcasts to the result.
  }];
  let arguments = (ins Graph_NumericTensor:$a, Graph_NumericTensor:$b,
                       Optional<Graph_NumericTensor>:$c,
                       DefaultValuedAttr<BoolAttr, "false">:$trans_a,
                       DefaultValuedAttr<BoolAttr, "false">:$trans_b,
                       DefaultValuedAttr<F64Attr, "1.0">:$alpha,
                       DefaultValuedAttr<F64Attr, "1.0">:$beta);
  let results = (outs Graph_NumericTensor:$result);
  let assemblyFormat =
      "$a `,` $b (`,` $c^)? attr-dict `:` functional-type(operands, results)";
}

def Graph_LinearOp : Graph_Op<"linear",
    [Pure, InferTypeOpAdaptor, AttrSizedOperandSegments]> {
  let summary = "Matrix product with a fused bias, activation or residual";
  let description = [{
    `activation(x @ w + bias) + residual` with `x [..., K]`, `w [K, N]`,
    `bias [N]` and `residual` of the result's type: what
    `--paracc-fuse-linear` makes of a matmul, its bias add, its activation or
    the residual add that follows it once the program is partitioned, so
    that a backend runs them as one product with an epilogue (cuBLASLt's
    bias and GELU epilogues, its `C` operand for the residual).
    `activation` is "none", "gelu_tanh", "gelu" or "relu"; a residual goes
    with "none" only.

    With `f32_result`, bf16 or f16 operands give an f32 result: the
    product's f32 accumulator, not rounded to the operands' type (what
    `--paracc-convert-precision` makes of a product whose result leaves the
    program in f32, such as the logits). It takes no bias, residual or
    activation.

    The discardable attribute `dist.addends_on_first = [axes]` (set by
    `--paracc-fold-reduction-addends` on a product whose partial sums are
    all-reduced over those mesh axes) adds bias and residual on the group's
    first member only, so that the reduction adds them once.
  }];
  let arguments = (ins Graph_FloatTensor:$x, Graph_FloatTensor:$w,
                       Optional<Graph_FloatTensor>:$bias,
                       Optional<Graph_FloatTensor>:$residual,
                       DefaultValuedStrAttr<StrAttr, "none">:$activation,
                       DefaultValuedAttr<BoolAttr, "false">:$f32_result);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $x `,` $w (`,` $bias^)? (`residual` $residual^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Normalization and softmax
//===----------------------------------------------------------------------===//

def Graph_LayerNormOp : Graph_Op<"layer_norm",
    [Pure, AllTypesMatch<["x", "result"]>]> {
  let summary = "Layer normalization over the trailing dims";
  let description = [{
    Normalizes `x` over dims `[axis, rank)`:
    `(x - mean) / sqrt(var + epsilon) * scale + bias`, with the statistics in
    at least f32. `scale` and `bias` broadcast to the normalized dims.
  }];
  let arguments = (ins Graph_FloatTensor:$x, Graph_FloatTensor:$scale,
                       Optional<Graph_FloatTensor>:$bias,
                       I64Attr:$axis, F64Attr:$epsilon);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $x `,` $scale (`,` $bias^)? attr-dict `:` type($x) `,` type($scale)
    (`,` type($bias)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def Graph_ConvOp : Graph_Op<"conv", [Pure]> {
  let summary = "Convolution over 1 to 3 spatial dims (ONNX Conv)";
  let description = [{
    ONNX's Conv (a cross-correlation) on `x` [N, C, S_1..S_r] with the
    weight `w` [M, C / group, K_1..K_r] and an optional `bias` [M], r in
    1..3: `group` groups of C / group input and M / group output channels
    (group = C = M: depthwise). Per spatial dim the `strides`, the padding
    before and after (`pads_begin`, `pads_end`; an exporter's auto_pad is
    resolved by the importer) and the `dilations`. The result is [N, M,
    O_1..O_r] with O_i = (S_i + pads_begin_i + pads_end_i -
    dilations_i (K_i - 1) - 1) / strides_i + 1 (floor). The verifier checks
    every size and attribute against that.

    ```mlir
    %y = graph.conv %x, %w, %b {dilations = array<i64: 1, 1>, group = 1 : i64,
        pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>,
        strides = array<i64: 2, 2>}
        : (tensor<2x3x32x32xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>)
        -> tensor<2x8x16x16xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$x, Graph_FloatTensor:$w,
                       Optional<Graph_FloatTensor>:$bias,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads_begin,
                       DenseI64ArrayAttr:$pads_end,
                       DenseI64ArrayAttr:$dilations, I64Attr:$group);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat =
      "$x `,` $w (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_ConvTransposeOp : Graph_Op<"conv_transpose", [Pure]> {
  let summary = "Transposed convolution (ONNX ConvTranspose; conv's input gradient)";
  let description = [{
    The adjoint of `graph.conv` with respect to its input: `x` [N, C_in,
    X_1..X_r] spread through the weight `w` [C_in, C_out / group,
    K_1..K_r] into the result [N, C_out, R_1..R_r], plus an optional
    `bias` [C_out]. The attributes are those of the convolution it
    transposes: a `graph.conv` with the same `strides`, `pads_begin`,
    `pads_end`, `dilations` and `group`, applied to a tensor of the
    result's shape with the weight `w`, gives `x`'s shape. The result's
    sizes are given by its type, so an exporter's `output_padding` and
    `output_shape` are resolved by the importer (R_i = (X_i - 1) strides_i
    - pads_begin_i - pads_end_i + dilations_i (K_i - 1) + 1 +
    output_padding_i, output_padding_i < strides_i).

    Autodiff writes `conv_transpose(dy, w)` for a convolution's input
    gradient.

    ```mlir
    %y = graph.conv_transpose %x, %w {dilations = array<i64: 1, 1>,
        group = 1 : i64, pads_begin = array<i64: 1, 1>,
        pads_end = array<i64: 1, 1>, strides = array<i64: 2, 2>}
        : (tensor<2x8x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<2x3x32x32xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$x, Graph_FloatTensor:$w,
                       Optional<Graph_FloatTensor>:$bias,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads_begin,
                       DenseI64ArrayAttr:$pads_end,
                       DenseI64ArrayAttr:$dilations, I64Attr:$group);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat =
      "$x `,` $w (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_PoolOp : Graph_Op<"pool", [Pure]> {
  let summary = "Max or average pooling over 1 to 3 spatial dims";
  let description = [{
    ONNX's MaxPool (`kind = "max"`) and AveragePool (`"avg"`) on `x` [N, C,
    S_1..S_r], r in 1..3, with a `kernel`, `strides` and padding per
    spatial dim (floor output sizes, as Conv's with dilation 1; no ceil
    mode). Padding is never the maximum; an average divides by the window's
    elements inside the input, or by the whole kernel with
    `count_include_pad`. Global pooling is a reduction, not this op.

    ```mlir
    %y = graph.pool %x {count_include_pad = false, kernel = array<i64: 3, 3>,
        kind = "max", pads_begin = array<i64: 1, 1>,
        pads_end = array<i64: 1, 1>, strides = array<i64: 2, 2>}
        : (tensor<2x8x16x16xf32>) -> tensor<2x8x8x8xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$x, StrAttr:$kind,
                       DenseI64ArrayAttr:$kernel, DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$pads_begin,
                       DenseI64ArrayAttr:$pads_end,
                       DefaultValuedAttr<BoolAttr, "false">:$count_include_pad);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_RmsNormOp : Graph_Op<"rms_norm",
    [Pure, AllTypesMatch<["x", "result"]>]> {
  let summary = "Root-mean-square normalization over the trailing dims";
  let description = [{
    `x / sqrt(mean(x^2 over [axis, rank)) + epsilon) * scale` (Llama's
    RMSNorm). The importer fuses the exporters' Pow/ReduceMean/Add/Sqrt/Div
    pattern into this op.
  }];
  let arguments = (ins Graph_FloatTensor:$x, Graph_FloatTensor:$scale,
                       I64Attr:$axis, F64Attr:$epsilon);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat =
      "$x `,` $scale attr-dict `:` type($x) `,` type($scale) `->` type($result)";
  let hasVerifier = 1;
}

class Graph_SoftmaxLikeOp<string mnemonic, string doc>
    : Graph_Op<mnemonic, [Pure, AllTypesMatch<["x", "result"]>]> {
  let summary = doc # " along one axis";
  let description = doc # " along `axis` (numerically stable).";
  let arguments = (ins Graph_FloatTensor:$x, I64Attr:$axis);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Graph_SoftmaxOp : Graph_SoftmaxLikeOp<"softmax", "Softmax">;
def Graph_LogSoftmaxOp : Graph_SoftmaxLikeOp<"log_softmax", "Log-softmax">;

def Graph_AttentionOp : Graph_Op<"attention",
    [Pure, InferTypeOpAdaptor, AttrSizedOperandSegments]> {
  let summary = "Scaled dot-product attention";
  let description = [{
    `softmax(scale * q kᵀ + mask) v` over the last two dims, the leading
    (batch, head) dims equal across `q [..., Sq, D]`, `k [..., Sk, D]` and
    `v [..., Sk, Dv]`, but for the head dim (the last leading dim): k and v
    may have Hkv heads, a divisor of q's H, and query head i then reads key
    head i / (H / Hkv) (grouped-query attention, formed after partitioning
    by `--paracc-attention-kv-groups`). With `causal`, query i sees keys j <= i (queries and
    keys aligned at the end when Sq < Sk); with `window` w > 0 as well (a
    sliding window, Mistral's), only the last w of those: keys j with
    i - w < j <= i. The optional `mask` is additive and broadcasts to
    `[..., Sq, Sk]`. A row whose keys are all masked yields zeros.
    `--paracc-graph-fusion` forms this op from the exporters'
    matmul/scale/mask/softmax/matmul chain, with masks built from indices
    (causal, banded) turned into `causal` and `window` and a padding mask
    kept as a small `[B, 1, 1, Sk]` operand; kernels compute it tile by tile
    without materializing the score matrix.

    With `sequence_first`, q, k, v and the result carry a head dim after the
    sequence dim — `q [..., Sq, H, D]`, `k [..., Sk, H, D]`,
    `v [..., Sk, H, Dv]`, result `[..., Sq, H, Dv]` — the layout in which
    linear layers produce them; the attention runs over `(..., H)` and the
    mask broadcasts to `[..., H, Sq, Sk]`. k and v may have Hkv heads there
    too. `--paracc-attention-layout` uses
    it to drop the head transposes around the op.

    `start(%s)`, a 0-d i64 tensor, places the queries among the keys: query
    i is at key position `s + i` for `causal` and `window` (without it, `s`
    is `Sk - Sq`). Partitioning adds it when the queries are split over
    ranks (context parallelism): each rank's block of queries starts at its
    own global position while it sees every key.

    ```mlir
    %y = graph.attention %q, %k, %v start(%s) {causal = true, scale = 1.250000e-01 : f64}
        : (tensor<1x4x32x16xf32>, tensor<1x4x64x16xf32>, tensor<1x4x64x16xf32>,
           tensor<i64>) -> tensor<1x4x32x16xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$q, Graph_FloatTensor:$k,
                       Graph_FloatTensor:$v,
                       Optional<Graph_FloatTensor>:$mask,
                       Optional<0DTensorOf<[I64]>>:$query_start,
                       F64Attr:$scale,
                       DefaultValuedAttr<BoolAttr, "false">:$causal,
                       DefaultValuedAttr<BoolAttr, "false">:$sequence_first,
                       DefaultValuedAttr<I64Attr, "0">:$window);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $q `,` $k `,` $v (`,` $mask^)? (`start` `(` $query_start^ `)`)? attr-dict
    `:` functional-type(operands, results)
  }];
}

def Graph_AttentionMergeOp : Graph_Op<"attention_merge",
    [Pure, AllTypesMatch<["out", "partial", "result"]>,
     AllTypesMatch<["stats", "partial_stats", "result_stats"]>]> {
  let summary = "Combine two attentions over disjoint sets of keys";
  let description = [{
    `out` and `partial` are the results of one set of queries attending to
    two disjoint sets of keys, `stats` and `partial_stats` their rows'
    log-sum-exps (`graph.attention_with_stats`; -inf for a row that saw no
    key). The results are the attention over both sets and its statistics:
    `result_stats = log(exp(stats) + exp(partial_stats))` and `result =
    exp(stats - result_stats) out + exp(partial_stats - result_stats)
    partial`, computed in f32; a row that saw no key in either gets zeros and
    -inf. The statistics are shaped like the attention's: `[lead..., Sq]`,
    or `[lead..., H, Sq]` with `sequence_first`. Ring attention (context
    parallelism) merges each block of keys that reaches a rank into what it
    has so far this way (the online softmax, one block at a time).

    ```mlir
    %y, %lse = graph.attention_merge %y0, %lse0, %y1, %lse1
        : tensor<1x4x32x16xf32>, tensor<1x4x32xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$out, F32Tensor:$stats,
                       Graph_FloatTensor:$partial, F32Tensor:$partial_stats,
                       DefaultValuedAttr<BoolAttr, "false">:$sequence_first);
  let results = (outs Graph_FloatTensor:$result, F32Tensor:$result_stats);
  let assemblyFormat = [{
    $out `,` $stats `,` $partial `,` $partial_stats attr-dict `:` type($out)
    `,` type($stats)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

def Graph_GatherOp : Graph_Op<"gather", [Pure, InferTypeOpAdaptor]> {
  let summary = "Take slices along an axis by index (ONNX Gather)";
  let description = [{
    `result[i..., j..., k...] = data[i..., indices[j...], k...]` with the
    indexed dim at `axis`. An embedding lookup is a gather on axis 0 of the
    table. Negative indices count from the end.
  }];
  let arguments = (ins Graph_Tensor:$data, Graph_IndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat =
      "$data `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Graph_GatherElementsOp
    : Graph_Op<"gather_elements", [Pure, InferTypeOpAdaptor]> {
  let summary = "Elementwise gather along an axis (ONNX GatherElements)";
  let description = [{
    The result has the shape of `indices`; `result[..., i, ...] =
    data[..., indices[..., i, ...], ...]` with `i` at `axis`.
  }];
  let arguments = (ins Graph_Tensor:$data, Graph_IndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat =
      "$data `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Graph_GatherNDOp : Graph_Op<"gather_nd", [Pure, InferTypeOpAdaptor]> {
  let summary = "Gather by index tuples (ONNX GatherND)";
  let description = [{
    Each innermost vector of `indices` addresses a slice of `data` after the
    first `batch_dims` dims, which `data` and `indices` share.
  }];
  let arguments = (ins Graph_Tensor:$data, Graph_I64Tensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat =
      "$data `,` $indices attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Graph_ReshapeOp : Graph_Op<"reshape", [Pure]> {
  let summary = "Same elements, new shape";
  let description = "The result type gives the new shape.";
  let arguments = (ins Graph_Tensor:$x);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_TransposeOp : Graph_Op<"transpose", [Pure, InferTypeOpAdaptor]> {
  let summary = "Permute dimensions";
  let description = "Result dim `i` is operand dim `perm[i]`.";
  let arguments = (ins Graph_Tensor:$x, DenseI64ArrayAttr:$perm);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$x `,` $perm attr-dict `:` type($x) `->` type($result)";
  let hasFolder = 1;
}

def Graph_SliceOp : Graph_Op<"slice", [Pure, InferTypeOpAdaptor]> {
  let summary = "Strided slice with one start/limit/step per dimension";
  let description = [{
    Per dimension `d`, takes elements `starts[d], starts[d] + steps[d], ...`
    up to (excluding) `limits[d]`. The attributes are normalized: one entry
    per dim, starts in range, steps non-zero; a negative step walks down and
    its limit may be -1. The importer turns ONNX Slice (negative indices,
    clamping, omitted axes) into this form.

    ```mlir
    %y = graph.slice %x, starts = [0, 2], limits = [4, 8], steps = [1, 2]
        : tensor<4x8xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Graph_Tensor:$x, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$limits, DenseI64ArrayAttr:$steps);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = [{
    $x `,` `starts` `=` $starts `,` `limits` `=` $limits `,` `steps` `=` $steps
    attr-dict `:` type($x) `->` type($result)
  }];
}

def Graph_ConcatOp : Graph_Op<"concat", [Pure, InferTypeOpAdaptor]> {
  let summary = "Concatenate along an axis";
  let description = "All operands have the same rank, element type and "
                    "dims except at `axis`.";
  let arguments = (ins Variadic<Graph_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat =
      "$inputs attr-dict `:` functional-type(operands, results)";
}

def Graph_SplitOp : Graph_Op<"split", [Pure]> {
  let summary = "Split along an axis into pieces";
  let description = [{
    The result types give the size of each piece along `axis`; the sizes add
    up to the operand's dim.
  }];
  let arguments = (ins Graph_Tensor:$x, I64Attr:$axis);
  let results = (outs Variadic<Graph_Tensor>:$results);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($results)";
  let hasVerifier = 1;
}

def Graph_ExpandOp : Graph_Op<"expand", [Pure]> {
  let summary = "Broadcast to a larger shape";
  let description = [{
    numpy broadcasting of the operand to the result type's shape (ONNX Expand
    with the target shape folded into the type).
  }];
  let arguments = (ins Graph_Tensor:$x);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Graph_ReduceOp<string mnemonic, string doc>
    : Graph_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = doc # " over the given axes";
  let description = doc # " over `axes` (sorted, non-negative, unique); "
      # "with `keepdims` the reduced dims stay as size 1.";
  let arguments = (ins Graph_NumericTensor:$x, DenseI64ArrayAttr:$axes,
                       DefaultValuedAttr<BoolAttr, "true">:$keepdims);
  let results = (outs Graph_NumericTensor:$result);
  let assemblyFormat = "$x `,` $axes attr-dict `:` type($x) `->` type($result)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferReduce(loc, adaptor.getX().getType(), adaptor.getAxes(),
                         adaptor.getKeepdims(), nullptr, types);
    }
  }];
}

def Graph_ReduceSumOp : Graph_ReduceOp<"reduce_sum", "Sum">;
def Graph_ReduceMeanOp : Graph_ReduceOp<"reduce_mean", "Mean">;
def Graph_ReduceMaxOp : Graph_ReduceOp<"reduce_max", "Maximum">;
def Graph_ReduceMinOp : Graph_ReduceOp<"reduce_min", "Minimum">;
def Graph_ReduceProdOp : Graph_ReduceOp<"reduce_prod", "Product">;
// Made after autodiff and partitioning by paracc-fuse-square-sums (the
// gradient norm's squares), so it has no gradient rule (its sharding rule is
// reduce_sum's: sums of squares over shards add up); the importer decomposes
// ONNX's ReduceSumSquare into mul and reduce_sum.
def Graph_ReduceSumSquareOp
    : Graph_ReduceOp<"reduce_sum_square", "Sum of squares (x * x)">;

class Graph_ArgReduceOp<string mnemonic, string doc>
    : Graph_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = "Index of the " # doc # " along an axis";
  let description = "The i64 index of the " # doc # " along `axis`; ties "
      # "pick the first index, or the last with `select_last_index`.";
  let arguments = (ins Graph_NumericTensor:$x, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "true">:$keepdims,
                       DefaultValuedAttr<BoolAttr, "false">:$select_last_index);
  let results = (outs Graph_I64Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($result)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferArgReduce(context, loc, adaptor.getX().getType(),
                            adaptor.getAxis(), adaptor.getKeepdims(), types);
    }
  }];
}

def Graph_ArgMaxOp : Graph_ArgReduceOp<"argmax", "maximum">;
def Graph_ArgMinOp : Graph_ArgReduceOp<"argmin", "minimum">;

def Graph_TopKOp : Graph_Op<"topk", [Pure, InferTypeOpAdaptor]> {
  let summary = "The k largest (or smallest) elements along an axis (ONNX TopK)";
  let description = [{
    `values` and `indices` are `x`'s shape with `k` at `axis`: the k largest
    elements of each vector along `axis` (the smallest with
    `largest = false`) and their i64 positions, in order (largest first;
    smallest first with `largest = false`); of equal elements the one at the
    lower position comes first. NaN counts as larger than any number.
    `sorted = false` allows any order (paracc's kernels sort anyway).

    A mixture-of-experts router's selection (its gradient goes to the picked
    elements of `x`; the indices have none).

    ```mlir
    %w, %i = graph.topk %probs {axis = 1 : i64, k = 2 : i64}
        : tensor<32x8xf32> -> (tensor<32x2xf32>, tensor<32x2xi64>)
    ```
  }];
  let arguments = (ins Graph_NumericTensor:$x, I64Attr:$axis, I64Attr:$k,
                       DefaultValuedAttr<BoolAttr, "true">:$largest,
                       DefaultValuedAttr<BoolAttr, "true">:$sorted);
  let results = (outs Graph_NumericTensor:$values, Graph_I64Tensor:$indices);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` `(` type(results) `)`";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferTopK(context, loc, adaptor.getX().getType(),
                       adaptor.getAxis(), adaptor.getK(), types);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

class Graph_LossOp<string mnemonic, string doc>
    : Graph_Op<mnemonic, [Pure]> {
  let summary = doc;
  let arguments = (ins Graph_FloatTensor:$scores, Graph_IndexTensor:$labels,
                       Optional<Graph_FloatTensor>:$weight,
                       DefaultValuedStrAttr<StrAttr, "mean">:$reduction,
                       OptionalAttr<I64Attr>:$ignore_index);
  let assemblyFormat = [{
    $scores `,` $labels (`,` $weight^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Graph_SoftmaxCrossEntropyOp : Graph_LossOp<"softmax_cross_entropy",
    "Softmax cross-entropy loss (ONNX SoftmaxCrossEntropyLoss)"> {
  let description = [{
    `scores` is `[N, C, d...]`, `labels` `[N, d...]`. The loss of an element
    is `-weight[label] * log_softmax(scores)[label]` (0 where the label is
    `ignore_index`); `reduction` is "none" (result `[N, d...]`), "sum" or
    "mean" (divided by the summed weights of the counted elements). The
    optional second result is the log-softmax of the scores.

    The loss has the scores' element type, or f32 for bf16/f16 scores
    without weights: the kernels compute in f32 from the scores as they are,
    so a mixed-precision program needs no f32 copy of its logits
    (`--paracc-convert-precision` keeps such losses f32 this way).
  }];
  let results = (outs Graph_FloatTensor:$loss,
                      Optional<Graph_FloatTensor>:$log_prob);
}

def Graph_NllLossOp : Graph_LossOp<"nll_loss",
    "Negative log-likelihood loss (ONNX NegativeLogLikelihoodLoss)"> {
  let description = [{
    Like `graph.softmax_cross_entropy` but `scores` already holds
    log-probabilities.
  }];
  let results = (outs Graph_FloatTensor:$loss);
}

//===----------------------------------------------------------------------===//
// Generators and scans
//===----------------------------------------------------------------------===//

def Graph_RangeOp : Graph_Op<"range", [Pure]> {
  let summary = "Arithmetic sequence (ONNX Range)";
  let description = [{
    `start, start + delta, ...` below `limit` (above it for a negative
    delta); the scalar operands usually are constants and the op folds. The
    result length is part of its type.
  }];
  let arguments = (ins Graph_NumericTensor:$start, Graph_NumericTensor:$limit,
                       Graph_NumericTensor:$delta);
  let results = (outs Graph_NumericTensor:$result);
  let assemblyFormat = [{
    $start `,` $limit `,` $delta attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Graph_CumSumOp : Graph_Op<"cumsum",
    [Pure, AllTypesMatch<["x", "result"]>]> {
  let summary = "Cumulative sum along an axis";
  let description = "Inclusive (or `exclusive`) running sum along `axis`, "
                    "from the end with `reverse`.";
  let arguments = (ins Graph_NumericTensor:$x, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$exclusive,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs Graph_NumericTensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Graph_TriluOp : Graph_Op<"trilu", [Pure, AllTypesMatch<["x", "result"]>]> {
  let summary = "Upper or lower triangle of the last two dims";
  let description = [{
    Keeps elements on and above (`upper`) or on and below the diagonal
    shifted by `k`; the others become zero. Causal masks come from this op.
  }];
  let arguments = (ins Graph_Tensor:$x, BoolAttr:$upper,
                       DefaultValuedAttr<I64Attr, "0">:$k);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($result)";
  let hasVerifier = 1;
}

include "paracc/Dialect/Graph/IR/GraphTrainingOps.td"
include "paracc/Dialect/Graph/IR/GraphMoeOps.td"
include "paracc/Dialect/Graph/IR/GraphFusionOps.td"

#endif // PARACC_DIALECT_GRAPH_IR_GRAPHOPS_TD
