//===- GraphTrainingOps.td - Backward, optimizer and state ops -*- tablegen -*-===//
//
// The ops training adds to the graph dialect: the backward ops that
// `--paracc-autodiff` emits for forward ops whose gradient is not a
// composition of other graph ops, the optimizer updates that
// `--paracc-optimizer` emits, and the state sources and sinks of a training
// step (optimizer moments read with `graph.state`, updated values written
// with `graph.assign`). Each shape rule has a negative lit test in
// test/Dialect/Graph/training-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_GRAPH_IR_GRAPHTRAININGOPS_TD
#define PARACC_DIALECT_GRAPH_IR_GRAPHTRAININGOPS_TD

include "paracc/Dialect/Graph/IR/GraphDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Graph_F32Scalar : 0DTensorOf<[F32]>,
    BuildableType<"::mlir::RankedTensorType::get({}, $_builder.getF32Type())">;

//===----------------------------------------------------------------------===//
// Backward ops
//===----------------------------------------------------------------------===//

def Graph_LayerNormGradOp : Graph_Op<"layer_norm_grad",
    [Pure, AllTypesMatch<["dy", "x", "dx"]>,
     OptionalTypesMatchWith<"accumulate has x's type", "x", "accumulate",
                            "$_self">,
     AllTypesMatch<["scale", "dscale", "dbias"]>]> {
  let summary = "Gradient of graph.layer_norm";
  let description = [{
    Given `dy`, the gradient of `graph.layer_norm`'s result, and the forward
    operands `x` and `scale`, computes the gradients of `x`, `scale` and the
    bias. The statistics are recomputed from `x` (nothing is saved from the
    forward). `scale` has the normalized dims' shape. With `accumulate` (of
    x's type), `dx` is the gradient plus it: another gradient of `x`,
    summed as dx is written (FuseAccumulation makes these).

    ```mlir
    %dx, %ds, %db = graph.layer_norm_grad %dy, %x, %scale
        {axis = 2 : i64, epsilon = 1.0e-05 : f64}
        : tensor<2x64x256xf32>, tensor<256xf32>
    %dx2, %ds2, %db2 = graph.layer_norm_grad %dy, %x, %scale accumulate %g
        {axis = 2 : i64, epsilon = 1.0e-05 : f64}
        : tensor<2x64x256xf32>, tensor<256xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$dy, Graph_FloatTensor:$x,
                       Graph_FloatTensor:$scale,
                       Optional<Graph_FloatTensor>:$accumulate,
                       I64Attr:$axis, F64Attr:$epsilon);
  let results = (outs Graph_FloatTensor:$dx, Graph_FloatTensor:$dscale,
                      Graph_FloatTensor:$dbias);
  let assemblyFormat = [{
    $dy `,` $x `,` $scale (`accumulate` $accumulate^)? attr-dict `:`
    type($x) `,` type($scale)
  }];
  let hasVerifier = 1;
}

def Graph_RmsNormGradOp : Graph_Op<"rms_norm_grad",
    [Pure, AllTypesMatch<["dy", "x", "dx"]>,
     OptionalTypesMatchWith<"accumulate has x's type", "x", "accumulate",
                            "$_self">,
     AllTypesMatch<["scale", "dscale"]>]> {
  let summary = "Gradient of graph.rms_norm";
  let description = [{
    The gradients of `x` and `scale` of `graph.rms_norm` given the gradient
    `dy` of its result; the statistics are recomputed from `x`. With
    `accumulate` (of x's type), `dx` is the gradient plus it, as for
    `graph.layer_norm_grad`.
  }];
  let arguments = (ins Graph_FloatTensor:$dy, Graph_FloatTensor:$x,
                       Graph_FloatTensor:$scale,
                       Optional<Graph_FloatTensor>:$accumulate,
                       I64Attr:$axis, F64Attr:$epsilon);
  let results = (outs Graph_FloatTensor:$dx, Graph_FloatTensor:$dscale);
  let assemblyFormat = [{
    $dy `,` $x `,` $scale (`accumulate` $accumulate^)? attr-dict `:`
    type($x) `,` type($scale)
  }];
  let hasVerifier = 1;
}

def Graph_GeluGradOp : Graph_Op<"gelu_grad",
    [Pure, AllTypesMatch<["dy", "x", "dx"]>]> {
  let summary = "Gradient of graph.gelu";
  let description = [{
    `dx = dy * gelu'(x)` for the exact (`approximate = "none"`) or the tanh
    form of the activation.
  }];
  let arguments = (ins Graph_FloatTensor:$dy, Graph_FloatTensor:$x,
                       DefaultValuedStrAttr<StrAttr, "none">:$approximate);
  let results = (outs Graph_FloatTensor:$dx);
  let assemblyFormat = "$dy `,` $x attr-dict `:` type($x)";
  let hasVerifier = 1;
}

def Graph_SiluMulGradOp : Graph_Op<"silu_mul_grad",
    [Pure, AllTypesMatch<["dy", "gate", "up", "dgate", "dup"]>]> {
  let summary = "Gradient of graph.silu_mul";
  let description = [{
    With `s = sigmoid(gate)`: `dup = dy * gate * s` and
    `dgate = dy * up * s * (1 + gate * (1 - s))`, elementwise, in one pass.

    ```mlir
    %dgate, %dup = graph.silu_mul_grad %dy, %gate, %up : tensor<8x1024x2816xbf16>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$dy, Graph_FloatTensor:$gate,
                       Graph_FloatTensor:$up);
  let results = (outs Graph_FloatTensor:$dgate, Graph_FloatTensor:$dup);
  let assemblyFormat = "$dy `,` $gate `,` $up attr-dict `:` type($gate)";
}

def Graph_AttentionWithStatsOp : Graph_Op<"attention_with_stats",
    [Pure, InferTypeOpAdaptor, AttrSizedOperandSegments]> {
  let summary = "graph.attention that also returns its softmax statistics";
  let description = [{
    The attention of `graph.attention` (same operands and attributes), and
    `stats`: each query row's log-sum-exp of its scaled, masked scores
    (natural log, f32; -inf for a row with no visible key), shaped like the
    scores without the key dim, `[lead..., Sq]` (sequence-first:
    `[lead..., H, Sq]`). A `graph.attention_grad` that is given this result
    and these statistics (`saved`) rebuilds the probabilities from them
    instead of running the forward again. `--paracc-save-attention-stats`
    forms it, after partitioning, for each attention whose gradient is
    taken in the same step.

    ```mlir
    %y, %lse = graph.attention_with_stats %q, %k, %v {causal = true, scale = 1.250000e-01 : f64}
        : (tensor<2x4x64x64xbf16>, tensor<2x4x64x64xbf16>, tensor<2x4x64x64xbf16>)
        -> (tensor<2x4x64x64xbf16>, tensor<2x4x64xf32>)
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
  let results = (outs Graph_FloatTensor:$result, F32Tensor:$stats);
  let assemblyFormat = [{
    $q `,` $k `,` $v (`,` $mask^)? (`start` `(` $query_start^ `)`)? attr-dict
    `:` functional-type(operands, results)
  }];
}

def Graph_SoftmaxCrossEntropyWithStatsOp
    : Graph_LossOp<"softmax_cross_entropy_with_stats",
                   "graph.softmax_cross_entropy that also returns its softmax "
                   "statistics"> {
  let description = [{
    The loss of `graph.softmax_cross_entropy` (same operands and attributes,
    no log-softmax result), and `stats`: for each element `[n, d...]` the
    maximum `m` of its scores over the classes and the sum `s` of
    `exp(score - m)`, f32, shaped like the labels with a last dim of 2
    (`[..., 0]` is m, `[..., 1]` is s; m is NaN when a score is NaN). A
    `graph.cross_entropy_grad` that is given them (`stats`) computes the
    probabilities as `exp(score - m) / s` in one pass over the scores
    instead of finding m and s again. `--paracc-save-softmax-stats` forms
    it, after partitioning, for each loss whose gradient is taken in the
    same step.

    ```mlir
    %loss, %stats = graph.softmax_cross_entropy_with_stats %scores, %labels
        : (tensor<8x1000xbf16>, tensor<8xi64>) -> (tensor<f32>, tensor<8x2xf32>)
    ```
  }];
  let results = (outs Graph_FloatTensor:$loss, F32Tensor:$stats);
}

def Graph_AttentionGradOp : Graph_Op<"attention_grad",
    [Pure, AttrSizedOperandSegments, AllTypesMatch<["q", "dq"]>,
     AllTypesMatch<["k", "dk"]>, AllTypesMatch<["v", "dv"]>]> {
  let summary = "Gradient of graph.attention";
  let description = [{
    The gradients of `q`, `k` and `v` of `graph.attention` (same `scale`,
    `causal`, `sequence_first`, `window`, mask and `start`) given `dy`, the gradient of its
    result. Kernels recompute the attention probabilities tile by tile (the
    flash-attention backward), so no score matrix is kept between the
    forward and the backward; the mask gets no gradient. With k and v of
    fewer heads than q (grouped-query attention), dk and dv sum over the
    query heads of each group.

    With `saved(%out, %stats)`, the forward's result and softmax statistics
    from `graph.attention_with_stats`, kernels that take them (cuDNN's)
    rebuild the probabilities from the statistics rather than rerunning the
    forward first; the gradients are the same either way. With `key_block`
    as well, `k` and `v` are one block of the keys of a larger attention
    whose result and statistics `saved` gives (ring attention, after
    partitioning): the probabilities are `exp(scores - stats)` and the
    softmax's correction `rowsum(dy * out)`, and the results are this
    block's share of that attention's gradients (dq summed over the blocks,
    dk and dv of this block).

    ```mlir
    %dq, %dk, %dv = graph.attention_grad %dy, %q, %k, %v
        {causal = true, scale = 1.250000e-01 : f64}
        : (tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>,
           tensor<2x4x64x64xf32>)
        -> (tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>)
    %dq2, %dk2, %dv2 = graph.attention_grad %dy, %q, %k, %v saved(%y, %lse)
        {causal = true, scale = 1.250000e-01 : f64}
        : (tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>,
           tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>, tensor<2x4x64xf32>)
        -> (tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>)
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$dy, Graph_FloatTensor:$q,
                       Graph_FloatTensor:$k, Graph_FloatTensor:$v,
                       Optional<Graph_FloatTensor>:$mask,
                       Optional<0DTensorOf<[I64]>>:$query_start,
                       Optional<Graph_FloatTensor>:$out,
                       Optional<F32Tensor>:$stats,
                       F64Attr:$scale,
                       DefaultValuedAttr<BoolAttr, "false">:$causal,
                       DefaultValuedAttr<BoolAttr, "false">:$sequence_first,
                       DefaultValuedAttr<I64Attr, "0">:$window,
                       DefaultValuedAttr<BoolAttr, "false">:$key_block);
  let results = (outs Graph_FloatTensor:$dq, Graph_FloatTensor:$dk,
                      Graph_FloatTensor:$dv);
  let assemblyFormat = [{
    $dy `,` $q `,` $k `,` $v (`,` $mask^)? (`start` `(` $query_start^ `)`)?
    (`saved` `(` $out^ `,` $stats `)`)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Graph_CrossEntropyGradOp : Graph_Op<"cross_entropy_grad",
    [Pure, AttrSizedOperandSegments, AllTypesMatch<["scores", "dscores"]>]> {
  let summary = "Gradient of a cross-entropy loss with respect to its scores";
  let description = [{
    `scores` is `[N, C, d...]`, `labels` and `dloss` are `[N, d...]`: `dloss`
    is the gradient of each element's loss (the reduction's scale already
    applied). With `log_prob = false` the scores are logits
    (`graph.softmax_cross_entropy`): `dscores = g * (softmax(scores) -
    onehot(label))`; with `log_prob = true` they are log-probabilities
    (`graph.nll_loss`): `dscores = -g * onehot(label)`, where
    `g = dloss * weight[label]`. Elements whose label is `ignore_index` get
    zero. `dloss` has the loss's element type: f32 with bf16/f16 scores is
    the gradient of such a loss, computed in f32 and rounded once into
    `dscores`. With `stats` (the softmax statistics that
    `graph.softmax_cross_entropy_with_stats` returned for these scores; only
    with `log_prob = false`) the kernels read the scores once.
  }];
  let arguments = (ins Graph_FloatTensor:$dloss, Graph_FloatTensor:$scores,
                       Graph_IndexTensor:$labels,
                       Optional<Graph_FloatTensor>:$weight,
                       Optional<F32Tensor>:$stats,
                       DefaultValuedAttr<BoolAttr, "false">:$log_prob,
                       OptionalAttr<I64Attr>:$ignore_index);
  let results = (outs Graph_FloatTensor:$dscores);
  let assemblyFormat = [{
    $dloss `,` $scores `,` $labels (`,` $weight^)? (`stats` `(` $stats^ `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Graph_GatherGradOp : Graph_Op<"gather_grad",
    [Pure, OptionalTypesMatchWith<"accumulate has the result's type", "result",
                                  "accumulate", "$_self">]> {
  let summary = "Gradient of graph.gather: a scatter-add into the data's shape";
  let description = [{
    The gradient of `graph.gather`'s data operand: zeros of the result type
    (the data's type) into which every slice of `dy` is added at the row its
    index names, so that repeated indices (a token seen twice) accumulate.
    This is the embedding table's gradient. With `accumulate` (of the
    result's type) the rows start from it instead of zeros: another
    gradient of the table, such as a tied output projection's, summed as
    the rows are written (FuseAccumulation makes these; the runtime may
    write the result over `accumulate`'s buffer when nothing reads it
    later).

    ```mlir
    %dw = graph.gather_grad %dy, %ids {axis = 0 : i64}
        : (tensor<2x64x256xf32>, tensor<2x64xi64>) -> tensor<1024x256xf32>
    %dw2 = graph.gather_grad %dy, %ids accumulate %dhead {axis = 0 : i64}
        : (tensor<2x64x256xf32>, tensor<2x64xi64>, tensor<1024x256xf32>)
          -> tensor<1024x256xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$dy, Graph_IndexTensor:$indices,
                       Optional<Graph_FloatTensor>:$accumulate,
                       I64Attr:$axis);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $dy `,` $indices (`accumulate` $accumulate^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Graph_ConvWeightGradOp : Graph_Op<"conv_weight_grad", [Pure]> {
  let summary = "Gradient of a convolution's weight";
  let description = [{
    The gradient of `graph.conv`'s weight: for the convolution of `x` [N,
    C, S_1..S_r] whose result has the gradient `dy` [N, M, O_1..O_r], the
    weight's gradient [M, C / group, K_1..K_r] (the result type gives the
    kernel sizes), summed over the batch and the output positions. The
    attributes are the convolution's. For `graph.conv_transpose` the roles
    swap: its weight's gradient is this op of (its result's gradient, its
    operand).

    ```mlir
    %dw = graph.conv_weight_grad %x, %dy {dilations = array<i64: 1, 1>,
        group = 1 : i64, pads_begin = array<i64: 1, 1>,
        pads_end = array<i64: 1, 1>, strides = array<i64: 2, 2>}
        : (tensor<2x3x32x32xf32>, tensor<2x8x16x16xf32>) -> tensor<8x3x3x3xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$x, Graph_FloatTensor:$dy,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads_begin,
                       DenseI64ArrayAttr:$pads_end,
                       DenseI64ArrayAttr:$dilations, I64Attr:$group);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$x `,` $dy attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_PoolGradOp : Graph_Op<"pool_grad", [Pure]> {
  let summary = "Gradient of graph.pool";
  let description = [{
    The gradient of `graph.pool`'s operand `x` given `dy`, the gradient of
    its result; the attributes are the pool's. Max pooling routes each
    window's gradient to the window's first maximum (recomputed from `x`);
    average pooling spreads it evenly over the elements the average divided
    by.

    ```mlir
    %dx = graph.pool_grad %x, %dy {count_include_pad = false,
        kernel = array<i64: 3, 3>, kind = "max", pads_begin = array<i64: 1, 1>,
        pads_end = array<i64: 1, 1>, strides = array<i64: 2, 2>}
        : (tensor<2x8x16x16xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x16x16xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$x, Graph_FloatTensor:$dy,
                       StrAttr:$kind, DenseI64ArrayAttr:$kernel,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads_begin,
                       DenseI64ArrayAttr:$pads_end,
                       DefaultValuedAttr<BoolAttr, "false">:$count_include_pad);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$x `,` $dy attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Training state
//===----------------------------------------------------------------------===//

def Graph_StateOp : Graph_Op<"state", [Pure]> {
  let summary = "A persistent training buffer that is not a model parameter";
  let description = [{
    Reads the state buffer `name` (an optimizer moment, say) at the start of
    the step. The buffer persists between steps: it starts as zeros and a
    `graph.assign` to the same name gives its next value. Reads see the value
    the step started with, whatever the order of the ops. Model parameters
    are `graph.weight`s, which `graph.assign` updates the same way.

    ```mlir
    %m = graph.state "m.lm_head.weight.exp_avg" : tensor<1024x256xf32>
    ```

    With `offsets` and `source_shape` the buffer is the block at `offsets`
    of a tensor of `source_shape`, like a `graph.weight` block: the moments
    of a parameter that tensor parallelism split into blocks.

    With `copy_of`, the buffer is the parameter `copy_of` (the same block,
    sharded the same way) cast to this buffer's narrower floating type: a
    persistent bf16 copy of an f32 master weight
    (`--paracc-persistent-weight-copies`). It does not start as zeros: the
    runtime casts the parameter into it whenever the parameters are loaded
    or restored, and checkpoints leave it out; the step keeps it equal to
    the cast of the parameter's new value (`graph.foreach_adamw`'s
    `new_param_copies`).

    ```mlir
    %w16 = graph.state "h.0.attn.weight.bf16" {copy_of = "h.0.attn.weight"}
        : tensor<1024x256xbf16>
    ```
  }];
  let arguments = (ins StrAttr:$name, OptionalAttr<DenseI64ArrayAttr>:$offsets,
      OptionalAttr<DenseI64ArrayAttr>:$source_shape,
      OptionalAttr<StrAttr>:$copy_of);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

def Graph_AssignOp : Graph_Op<"assign", [MemoryEffects<[MemWrite]>]> {
  let summary = "Writes the next value of a parameter or state buffer";
  let description = [{
    Makes `value` the value that the parameter (`graph.weight`) or state
    buffer (`graph.state`) called `name` holds after this step. The value
    must have the buffer's type. A buffer is assigned at most once per
    function; the write takes effect when the step ends, so every read of
    the buffer in the step sees its old value.

    ```mlir
    graph.assign "m.lm_head.weight", %updated : tensor<1024x256xf32>
    ```

    `offsets` names a block (of a `graph.weight` or `graph.state` block with
    the same offsets).
  }];
  let arguments = (ins StrAttr:$name, Graph_Tensor:$value,
                       OptionalAttr<DenseI64ArrayAttr>:$offsets);
  let assemblyFormat = "$name `,` $value attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// Random ops
//===----------------------------------------------------------------------===//

def Graph_DropoutOp : Graph_Op<"dropout",
    [Pure, AllTypesMatch<["x", "result"]>]> {
  let summary = "Dropout in training mode, from a counter-based generator";
  let description = [{
    `result = keep ? x / (1 - ratio) : 0`, where whether element `i` is kept
    is a pure function of the op's key and the element's global
    coordinates, so that the same mask comes out wherever and however often
    it is computed: in the backward (the gradient is this op applied to the
    result's gradient), when activation recompute runs it again, and on any
    sharding of the tensor.

    The key is (`seed`, `stream`: the op's own number, `step`: the training
    step, read from the step's `step` input once `--paracc-optimizer` wires
    it; 0 before). The coordinates are the local index plus `offsets`
    (one per dim; partitioning adds each shard's offset, and a pipeline
    micro-batch's, through `dist.axis_index`). With splitmix64 as `m`,
    `h = m(seed ^ m(stream ^ m(step)))`, then `h = m(h ^ c_d)` for each
    coordinate `c_d` in order; the element is kept when
    `(h >> 40) / 2^24 >= ratio`.
  }];
  let arguments = (ins Graph_FloatTensor:$x, Graph_F32Scalar:$step,
                       Graph_I64Tensor:$offsets, F64Attr:$ratio,
                       I64Attr:$seed, I64Attr:$stream);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $x `,` $step `,` $offsets attr-dict `:` type($x) `,` type($offsets)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Optimizer updates
//===----------------------------------------------------------------------===//

def Graph_AdamWOp : Graph_Op<"adamw",
    [Pure, AllTypesMatch<["param", "grad", "exp_avg", "exp_avg_sq",
                          "new_param", "new_exp_avg", "new_exp_avg_sq"]>]> {
  let summary = "One AdamW update of a parameter (torch.optim.AdamW)";
  let description = [{
    With `g = grad * grad_scale` (`grad_scale` is gradient clipping's
    coefficient, 1 without clipping) and `t = step` (1 on the first step):
    `param *= 1 - lr * weight_decay`; `exp_avg += (1 - beta1) (g - exp_avg)`;
    `exp_avg_sq = beta2 exp_avg_sq + (1 - beta2) g²`; then
    `param -= lr / (1 - beta1^t) * exp_avg /
    (sqrt(exp_avg_sq) / sqrt(1 - beta2^t) + eps)`: decoupled weight decay,
    bias correction and `eps` outside the square root, as PyTorch does.
    `lr`, `step` and `grad_scale` are f32 scalars.
  }];
  let arguments = (ins Graph_FloatTensor:$param, Graph_FloatTensor:$grad,
                       Graph_FloatTensor:$exp_avg,
                       Graph_FloatTensor:$exp_avg_sq, Graph_F32Scalar:$lr,
                       Graph_F32Scalar:$step, Graph_F32Scalar:$grad_scale,
                       F64Attr:$beta1, F64Attr:$beta2, F64Attr:$eps,
                       F64Attr:$weight_decay);
  let results = (outs Graph_FloatTensor:$new_param,
                      Graph_FloatTensor:$new_exp_avg,
                      Graph_FloatTensor:$new_exp_avg_sq);
  let assemblyFormat = [{
    $param `,` $grad `,` $exp_avg `,` $exp_avg_sq `,` $lr `,` $step `,`
    $grad_scale attr-dict `:` type($param)
  }];
  let hasVerifier = 1;
}

def Graph_SgdOp : Graph_Op<"sgd",
    [Pure, AllTypesMatch<["param", "grad", "momentum_buffer", "new_param",
                          "new_momentum_buffer"]>]> {
  let summary = "One SGD update with momentum (torch.optim.SGD)";
  let description = [{
    `g = grad * grad_scale + weight_decay * param`; with momentum the buffer
    becomes `g` on the first step (`step = 1`) and
    `momentum * buffer + (1 - dampening) g` after, and `g` becomes the buffer
    (or `g + momentum * buffer` with `nesterov`); then `param -= lr * g`.
  }];
  let arguments = (ins Graph_FloatTensor:$param, Graph_FloatTensor:$grad,
                       Graph_FloatTensor:$momentum_buffer,
                       Graph_F32Scalar:$lr, Graph_F32Scalar:$step,
                       Graph_F32Scalar:$grad_scale, F64Attr:$momentum,
                       F64Attr:$dampening, F64Attr:$weight_decay,
                       BoolAttr:$nesterov);
  let results = (outs Graph_FloatTensor:$new_param,
                      Graph_FloatTensor:$new_momentum_buffer);
  let assemblyFormat = [{
    $param `,` $grad `,` $momentum_buffer `,` $lr `,` $step `,` $grad_scale
    attr-dict `:` type($param)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Multi-tensor ("foreach") forms, made by --paracc-group-parameter-updates
//===----------------------------------------------------------------------===//

def Graph_ForeachAdamWOp
    : Graph_Op<"foreach_adamw", [Pure, SameVariadicOperandSize,
                                 AttrSizedResultSegments]> {
  let summary = "AdamW updates of many parameters in one op";
  let description = [{
    `graph.adamw` on each group `j` (`params[j]`, `grads[j]`, `exp_avgs[j]`,
    `exp_avg_sqs[j]`, each group with its own shape), with one learning
    rate, step count, gradient scale and one set of coefficients, as
    PyTorch's fused AdamW updates a parameter group. Results: the updated
    parameters, then the updated first moments, then the second moments, in
    the groups' order. `grads[j]` may have a narrower floating type than its
    f32 parameter (a bf16 gradient of mixed precision): it is widened
    exactly, so the update equals `graph.adamw` of `graph.cast` of it. One op
    runs as a few kernels instead of one per parameter.

    With `-> T` after every group's types, the op also returns each updated
    parameter cast to the narrower floating type `T` (`new_param_copies`,
    after the second moments): the persistent bf16 copy of the master weight
    that the next step's forward reads (`graph.state` with `copy_of`),
    written while the update has the value in registers instead of by a
    separate cast that reads the whole parameter again.

    ```mlir
    %r:6 = graph.foreach_adamw %lr, %step, %scale
        {beta1 = 0.9, beta2 = 0.95, eps = 1.0e-08, weight_decay = 0.1}
        [%w, %dw, %mw, %vw : tensor<8x2xf32>, tensor<8x2xbf16>],
        [%b, %db, %mb, %vb : tensor<2xf32>, tensor<2xf32>]
    %c:4 = graph.foreach_adamw %lr, %step, %scale
        {beta1 = 0.9, beta2 = 0.95, eps = 1.0e-08, weight_decay = 0.1}
        [%w, %dw, %mw, %vw : tensor<8x2xf32>, tensor<8x2xbf16> -> bf16]
    ```
  }];
  let arguments = (ins Variadic<Graph_FloatTensor>:$params,
                       Variadic<Graph_FloatTensor>:$grads,
                       Variadic<Graph_FloatTensor>:$exp_avgs,
                       Variadic<Graph_FloatTensor>:$exp_avg_sqs,
                       Graph_F32Scalar:$lr, Graph_F32Scalar:$step,
                       Graph_F32Scalar:$grad_scale,
                       F64Attr:$beta1, F64Attr:$beta2, F64Attr:$eps,
                       F64Attr:$weight_decay);
  let results = (outs Variadic<Graph_FloatTensor>:$new_params,
      Variadic<Graph_FloatTensor>:$new_exp_avgs,
      Variadic<Graph_FloatTensor>:$new_exp_avg_sqs,
      Variadic<Graph_FloatTensor>:$new_param_copies);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Graph_ForeachSumSquareOp : Graph_Op<"foreach_sum_square", [Pure]> {
  let summary = "The sums of squares of many tensors, as one vector";
  let description = [{
    `result[j]` is the sum of the squares of every element of `xs[j]`,
    accumulated in at least f32: a vector of `graph.reduce_sum_square` over
    all dims of each operand (widened to f32 first), as the gradient norm
    needs them.

    ```mlir
    %sq = graph.foreach_sum_square %dw, %db
        : tensor<8x2xbf16>, tensor<2xf32> -> tensor<2xf32>
    ```
  }];
  let arguments = (ins Variadic<Graph_FloatTensor>:$xs);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$xs attr-dict `:` type($xs) `->` type($result)";
  let hasVerifier = 1;
}

def Graph_ForeachCastOp : Graph_Op<"foreach_cast", [Pure]> {
  let summary = "Casts of many tensors in one op";
  let description = [{
    `results[j] = graph.cast xs[j]`. Every operand has one element type,
    every result one element type, and each result its operand's shape (the
    f32 master weights cast to bf16 for the forward).

    ```mlir
    %w16, %b16 = graph.foreach_cast %w, %b
        : tensor<8x2xf32>, tensor<2xf32> -> tensor<8x2xbf16>, tensor<2xbf16>
    ```
  }];
  let arguments = (ins Variadic<Graph_Tensor>:$xs);
  let results = (outs Variadic<Graph_Tensor>:$results);
  let assemblyFormat = "$xs attr-dict `:` type($xs) `->` type($results)";
  let hasVerifier = 1;
}

#endif // PARACC_DIALECT_GRAPH_IR_GRAPHTRAININGOPS_TD
