//===- Passes.td - Graph dialect passes --------------------*- tablegen -*-===//

#ifndef PARACC_DIALECT_GRAPH_TRANSFORMS_PASSES_TD
#define PARACC_DIALECT_GRAPH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FoldConstantsPass : Pass<"paracc-fold-constants", "func::FuncOp"> {
  let summary = "Evaluate ops whose operands are all constants";
  let description = [{
    Replaces every graph op whose operands are `graph.constant`s by the
    constant it computes, evaluated with the runtime's CPU kernel for the op
    (the same code that executes it), so folding cannot disagree with
    execution. Results larger than `max-elements` are left alone.

    Before:
    ```mlir
    %a = graph.constant dense<[1, 2]> : tensor<2xi64>
    %b = graph.constant dense<[3, 4]> : tensor<2xi64>
    %c = graph.add %a, %b : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
    ```
    After:
    ```mlir
    %c = graph.constant dense<[4, 6]> : tensor<2xi64>
    ```
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "1 << 20",
           "Largest result (in elements) to fold">,
  ];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def GraphFusionPass : Pass<"paracc-graph-fusion", "func::FuncOp"> {
  let summary = "Fuse the elementwise patterns exporters emit into graph ops";
  let description = [{
    Recognises the decomposed forms that ONNX exporters write for operations
    the graph dialect has natively, and replaces them:

    - RMSNorm: `x * reciprocal(sqrt(reduce_mean(x^2) + eps)) * w`, and the
      `x / sqrt(...)` and `rsqrt` forms, becomes `graph.rms_norm`;
    - SiLU: `x * sigmoid(x)` becomes `graph.silu`, and SwiGLU's
      `silu(gate) * up` (one type) `graph.silu_mul`;
    - rotary position embedding: `x * cos + concat(-x[..., D/2:],
      x[..., :D/2]) * sin` with constant tables becomes `graph.rotary`;
    - GELU (tanh form): `0.5 x (1 + tanh(0.79788456 (x + 0.044715 x^3)))`
      becomes `graph.gelu {approximate = "tanh"}`;
    - GELU (erf form): `0.5 x (1 + erf(x / sqrt(2)))` becomes `graph.gelu`;
    - softmax and log-softmax decomposed with the max shift, as JAX writes
      them (`e / sum(e)` with `e = exp(x - max(x))`, the max possibly
      raised to an initial -inf; `s - log(sum(exp(s)))` with
      `s = x - max(x)`), the reductions along the last axis with or without
      keepdims, become `graph.softmax` and `graph.log_softmax` (so that
      attention fuses from StableHLO);
    - `reshape(transpose(reshape(x)))` where the inner reshape merges the
      leading dims, the transpose keeps the merged dim first and the outer
      reshape splits it again becomes one `graph.transpose` (of a reshape of
      `x` when the split differs): GPT-2's export of `k.transpose(-1, -2)`,
      and torch.onnx's sdpa, which transposes K repeated for grouped-query
      attention as `[B Hkv G, S, D]`;
    - attention (last, over the whole function; `AttentionFusion.cpp`):
      `softmax(q k^T * scale [+ mask | where(c, ., fill)]) v`, with the scale
      on the product or split over q and k^T, an optional NaN guard
      `where(is_nan(p), 0, p)` and dropout with ratio 0, becomes
      `graph.attention`. A mask's condition (`where(c, 0, fill)` added, or
      selected) is analysed (`AttentionMasks.h`): its constant factors are
      evaluated with the runtime's kernels, however the exporter built them
      (folded, or from Range-derived indices at run time), and a causal band
      becomes `causal` with its `window` (sliding window); a padding mask
      read from an input (moves of its elements and casts to bool, checked
      by running them on element indices) becomes a `[B, 1, 1, Sk]`
      additive operand; another constant condition an additive constant.
      Query rows that see no key must come out as the graph computes them:
      with a -inf fill only under the NaN guard (both give 0); with a finite
      fill (a uniform average of v in the graph) an additive constant keeps
      the fill, and a padding mask gets `where(no key, mean(v), attention)`
      after the op. Any other added mask stays the operand as it is; forms
      whose empty rows cannot be reproduced are left unfused;
    - a slice that keeps every element is its operand, and a concatenation
      drops its empty operands (Phi-3's rotary embedding over the whole head
      dim, split into the rotated part and an empty pass-through part);
    - `slice(matmul(x, w))` with a 2-D `w`, the product used only by the
      slice and the slice keeping the last dim whole, becomes
      `matmul(slice(x), w)`: only the kept rows are computed (a language
      model's logits without the last position for the shifted next-token
      loss; its gradient then pads the small input, not the logits).

    Before:
    ```mlir
    %sq = graph.mul %x, %x : ...
    %m = graph.reduce_mean %sq, [2] : tensor<2x8x64xf32> -> tensor<2x8x1xf32>
    %e = graph.add %m, %eps : ...
    %s = graph.sqrt %e : tensor<2x8x1xf32>
    %r = graph.reciprocal %s : tensor<2x8x1xf32>
    %n = graph.mul %x, %r : ...
    %y = graph.mul %n, %w : ...
    ```
    After:
    ```mlir
    %y = graph.rms_norm %x, %w {axis = 2 : i64, epsilon = 1.0e-06 : f64} : ...
    ```
  }];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def RaiseMoePass : Pass<"paracc-raise-moe", "func::FuncOp"> {
  let summary = "Raise the gathered-weights experts form to graph.moe_experts";
  let description = [{
    Exporters write a mixture of experts' expert computation (transformers'
    `batched_mm` forward, under both torch.onnx exporters) as: each token
    copied k times (`expand` of a reshape, token-major), each copy's expert
    weights gathered from the stacked `[E, out, in]` tables by its expert
    index (`gather_nd` or `gather`), two batched matrix-vector products
    around the activation (`silu_mul` of the halves of the first, by
    `split` or two slices, or one gelu/relu/silu), the results scaled by
    the routing weights and summed over the copies. The pass finds that
    chain from its sum and replaces it by one `graph.moe_experts` of the
    tokens, the routing (indices and weights `[T, k]`) and the two tables,
    which never materializes the gathered `[T k, F, H]` weights. Routing
    stays as it was written (any softmax, top-k and renormalisation). Runs
    in the cleanup pipeline, after graph fusion has formed `silu_mul`.

    Before (shapes only):
    ```mlir
    %c = graph.expand %xr : tensor<32x1x32xf32> -> tensor<32x2x32xf32>
    %w1 = graph.gather_nd %w_in, %ids : (tensor<4x96x32xf32>, tensor<64x1xi64>) -> tensor<64x96x32xf32>
    %h = graph.matmul %w1, %c3 : (tensor<64x96x32xf32>, tensor<64x32x1xf32>) -> tensor<64x96x1xf32>
    ... split, silu_mul, the second gather and product ...
    %p = graph.mul %o, %r : (tensor<64x32xf32>, tensor<64x1xf32>) -> tensor<64x32xf32>
    %s = graph.reduce_sum %p3, [1] {keepdims = false} : tensor<32x2x32xf32> -> tensor<32x32xf32>
    ```
    After:
    ```mlir
    %s = graph.moe_experts %x, %indices, %weights, %w_in, %w_out : (tensor<32x32xf32>, tensor<32x2xi64>, tensor<32x2xf32>, tensor<4x96x32xf32>, tensor<4x32x48xf32>) -> tensor<32x32xf32>
    ```
  }];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def FuseLinearPass : Pass<"paracc-fuse-linear", "func::FuncOp"> {
  let summary = "Fuse matmul + bias + activation or residual into graph.linear";
  let description = [{
    A matmul by a 2-D right operand (or a Gemm without transposes, alpha and
    beta 1), the add of a bias vector on its last dim when the product has
    no other user, and then either a following GELU or ReLU of that sum or
    the add of a tensor of the same type (a residual) when the sum has no
    other user, become one `graph.linear`. Runs after partitioning (tensor
    parallelism recognises matmuls and their bias adds as separate ops).
    Transposes around products fold into the product: `matmul(x,
    transpose(w))` with a 2-D `w` becomes a `graph.gemm` with `trans_b`
    (a tied language-model head), a gemm of a 2-D transpose reads its
    operand with the flag flipped (its input gradient), and
    `transpose(gemm(a, b))` becomes the gemm of `b` and `a` with their flags
    swapped and flipped (its weight gradient).

    Before:
    ```mlir
    %y = graph.matmul %x, %w : (tensor<8x64xf32>, tensor<64x256xf32>) -> tensor<8x256xf32>
    %z = graph.add %y, %b : (tensor<8x256xf32>, tensor<256xf32>) -> tensor<8x256xf32>
    %a = graph.gelu %z {approximate = "tanh"} : tensor<8x256xf32>
    %p = graph.matmul %a, %w2 : (tensor<8x256xf32>, tensor<256x64xf32>) -> tensor<8x64xf32>
    %r = graph.add %x, %p : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    ```
    After:
    ```mlir
    %a = graph.linear %x, %w, %b {activation = "gelu_tanh"} : (tensor<8x64xf32>, tensor<64x256xf32>, tensor<256xf32>) -> tensor<8x256xf32>
    %r = graph.linear %a, %w2 residual %x : (tensor<8x256xf32>, tensor<256x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def FuseAccumulationPass : Pass<"paracc-fuse-accumulation", "func::FuncOp"> {
  let summary = "Fold gradient accumulations into the ops that produce them";
  let description = [{
    Backward passes sum gradients: a value read by several ops gets the sum
    of their gradients, each a separate add that reads two tensors and
    writes a third. An add whose operand (seen through one reshape) is the
    only use of

    - a `graph.gemm` without `c` (transposed or not, as every backward
      product is) becomes that Gemm's `c` with beta 1: cuBLASLt reads the
      other addend as its C. A fused QKV projection's data gradient, the
      sum of three products, becomes a chain of three Gemms.
    - the `dx` of a `graph.layer_norm_grad` / `graph.rms_norm_grad` without
      an addend becomes its `accumulate` operand: the kernel adds it as it
      writes dx. The residual stream's gradient takes each block's norm
      gradient this way.
    - a `graph.gather_grad` without an addend becomes its `accumulate`
      operand: an embedding table tied to the output projection (GPT-2,
      Llama-3.2) gets its two gradients in one pass, the rows starting from
      the projection's gradient, instead of a zero fill of the table, the
      scatter and an add over the table.

    The other addend must have the sum's type (no broadcast) and be defined
    before the producer (the fused op takes the producer's place). Runs in the
    lowering pipeline, after partitioning and FuseLinear.

    Before:
    ```mlir
    %p = graph.gemm %dy, %w {trans_b = true} : (tensor<8x32xf32>, tensor<64x32xf32>) -> tensor<8x64xf32>
    %s = graph.add %g, %p : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    %dx, %ds, %db = graph.layer_norm_grad %s, %x, %scale {axis = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<8x64xf32>, tensor<64xf32>
    %r = graph.add %h, %dx : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    ```
    After:
    ```mlir
    %s = graph.gemm %dy, %w, %g {trans_b = true} : (tensor<8x32xf32>, tensor<64x32xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    %r, %ds, %db = graph.layer_norm_grad %s, %x, %scale accumulate %h {axis = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<8x64xf32>, tensor<64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def FuseElementwisePass : Pass<"paracc-fuse-elementwise", "func::FuncOp"> {
  let summary = "Fuse chains of elementwise ops into graph.fused_elementwise";
  let description = [{
    Groups elementwise ops (unary and binary ops, where, cast, clip, and the
    `graph.expand`s they read) whose results have one shape into
    `graph.fused_elementwise` ops, each run as one kernel: an op joins the
    group of an operand's producer when its result has the producer's shape
    and the same discardable attributes (pipeline actions, micro-batches),
    and when every use of the group's values outside it comes after the op,
    so that the fused op can take the op's place without reordering
    anything else. A value used only inside its group never reaches memory;
    the others are the fused op's results. A reduction is first moved after
    its operand's other readers (up to its own first user and not past an
    op of other discardable attributes), so that a reduction reading a
    value between its producer and another elementwise reader — BatchNorm's
    backward sums a gradient, then multiplies it by the centered input —
    does not keep that reader out of the group; the operand lives no
    longer. Rank-0 splat constants become
    immediates of the body. Groups of one op stay as they are. Only f16,
    bf16, f32 and i1 tensors fuse. The last lowering pass: nothing but the
    executable's encoding sees the fused ops.

    BatchNorm's normalization in training (x − mean) · scale + shift and the
    ReLU after it, one pass over the activation instead of four:
    ```mlir
    %0 = graph.sub %x, %mean : (tensor<4x8x8x8xf32>, tensor<1x8x1x1xf32>) -> tensor<4x8x8x8xf32>
    %1 = graph.mul %0, %s : (tensor<4x8x8x8xf32>, tensor<1x8x1x1xf32>) -> tensor<4x8x8x8xf32>
    %2 = graph.add %1, %b : (tensor<4x8x8x8xf32>, tensor<8x1x1xf32>) -> tensor<4x8x8x8xf32>
    %3 = graph.relu %2 : tensor<4x8x8x8xf32>
    ```
    becomes
    ```mlir
    %3 = graph.fused_elementwise %x, %mean, %s, %b : (...) -> tensor<4x8x8x8xf32> {
    ^bb0(%a: tensor<f32>, %m: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
      %0 = graph.sub %a, %m : (tensor<f32>, tensor<f32>) -> tensor<f32>
      ...
      graph.yield %3 : tensor<f32>
    }
    ```
  }];
  let options = [
    Option<"maxOps", "max-ops", "int64_t", "64",
           "The most ops one fused op holds">,
  ];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def FoldBroadcastsPass : Pass<"paracc-fold-broadcasts", "func::FuncOp"> {
  let summary = "Let broadcasting binary ops read a graph.expand's operand";
  let description = [{
    An elementwise binary op (add, sub, mul, div, max, min) one of whose
    operands is a `graph.expand` reads the expand's operand instead when
    numpy broadcasting against the other operand gives the same result
    shape; an expand left without users is then dead. Autodiff writes the
    gradient of a reduction (BatchNorm's statistics, a mean over the batch)
    as an expand of a per-channel tensor multiplied or added into a full
    one: materializing the expand wrote and read a whole activation for
    nothing. Runs after partitioning, in the lowering pipeline, so the
    sharding passes see the separate ops.

    Before:
    ```mlir
    %e = graph.expand %s : tensor<1x16x1x1xf32> -> tensor<4x16x8x8xf32>
    %y = graph.mul %e, %x : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    ```
    After:
    ```mlir
    %y = graph.mul %s, %x : (tensor<1x16x1x1xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def FuseSquareSumsPass : Pass<"paracc-fuse-square-sums", "func::FuncOp"> {
  let summary = "Fuse reduce_sum(mul(x, x)) into graph.reduce_sum_square";
  let description = [{
    The sum over one or more axes of a floating tensor multiplied by itself,
    when the product has no other user, becomes one `graph.reduce_sum_square`:
    one pass over x instead of writing and reading its square. Training's
    gradient norm sums each gradient's squares this way (two instructions
    per parameter before, one after). Runs after partitioning, in the
    lowering pipeline: the sharding passes see the separate ops.

    Before:
    ```mlir
    %sq = graph.mul %g, %g : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %s = graph.reduce_sum %sq, [0, 1] {keepdims = false} : tensor<64x256xf32> -> tensor<f32>
    ```
    After:
    ```mlir
    %s = graph.reduce_sum_square %g, [0, 1] {keepdims = false} : tensor<64x256xf32> -> tensor<f32>
    ```
  }];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def GroupParameterUpdatesPass
    : Pass<"paracc-group-parameter-updates", "func::FuncOp"> {
  let summary = "Update, square and cast many parameters per op";
  let description = [{
    A training step does a few small things to every parameter: cast the
    f32 master weight to the compute type, square and sum its gradient for
    the norm, update it. With hundreds of parameters (most of them vectors:
    biases, norm scales) one op per parameter means hundreds of tiny
    kernels. Runs last in the lowering pipeline, after partitioning and
    gradient buckets, and makes them multi-tensor ops (PyTorch's fused
    AdamW and `torch._foreach_*`):

    - `graph.adamw` ops with the same `lr`, `step` and `grad_scale` operands,
      coefficients and discardable attributes become one
      `graph.foreach_adamw`, placed at the first of them (an update joins
      only if its operands are already defined there);
    - a run of `graph.concat` operands that are each the sum of squares of
      one whole tensor (`reshape(reduce_sum_square(x))`, the gradient norm's
      terms) becomes one `graph.foreach_sum_square`;
    - `graph.cast` ops of `graph.weight` values with one source and one
      result element type become one `graph.foreach_cast`;
    - where a gradient reaches these as an exact widening `graph.cast` (a
      bf16 gradient made f32), the multi-tensor ops read the narrow
      gradient and the cast goes away when nothing else uses it.

    Every value is computed as before (bit for bit on the CPU backend).

    Before (two parameters, simplified):
    ```mlir
    %g1 = graph.cast %dw : tensor<8x2xbf16> -> tensor<8x2xf32>
    %p1, %m1, %v1 = graph.adamw %w, %g1, %mw, %vw, %lr, %step, %scale {...} : tensor<8x2xf32>
    %p2, %m2, %v2 = graph.adamw %b, %db, %mb, %vb, %lr, %step, %scale {...} : tensor<2xf32>
    ```
    After:
    ```mlir
    %r:6 = graph.foreach_adamw %lr, %step, %scale {...}
        [%w, %dw, %mw, %vw : tensor<8x2xf32>, tensor<8x2xbf16>],
        [%b, %db, %mb, %vb : tensor<2xf32>, tensor<2xf32>]
    ```
  }];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def AttentionLayoutPass : Pass<"paracc-attention-layout", "func::FuncOp"> {
  let summary = "Attention on [.., S, H, D] operands, without head transposes";
  let description = [{
    Exporters transpose q, k and v from the linear layers' `[B, S, H, D]` to
    `[B, H, S, D]` for attention and transpose the result back. When every
    operand can be rebuilt sequence-first without a transpose and every
    reader of the result ends in a transpose back, the op becomes a
    `sequence_first` attention on the untransposed values and the
    transposes (each a full pass over an activation) go away. Runs after
    partitioning, like `paracc-fuse-linear`. A training step's
    `graph.attention_grad` (dy, q, k, v in; dq, dk, dv out) becomes
    `sequence_first` the same way.

    Between the transposes and the attention, the chains of ops that do not
    care about the layout are rebuilt in the sequence-first layout: the
    rotary embedding (its `[1, 1, S, D]` tables reshaped to `[1, S, 1, D]`;
    tables that vary per head are left alone), grouped-query attention's
    repeat of K and V (reshape, expand, reshape, done over
    `[B, S, Hkv, G, D]`) and, in the backward, its sum over the group
    (reshape, reduce_sum, reshape) and the rotary embedding's transposed
    map. A chain value that something else also reads head-first is not
    rebuilt (it would be computed twice), and the op is left alone.

    Before:
    ```mlir
    %q = graph.transpose %qs, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
    %k = graph.transpose %ks, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
    %v = graph.transpose %vs, [0, 2, 1, 3] : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
    %a = graph.attention %q, %k, %v {causal = true, scale = 0.35355339059327373 : f64} : (...) -> tensor<2x4x16x8xf32>
    %y = graph.transpose %a, [0, 2, 1, 3] : tensor<2x4x16x8xf32> -> tensor<2x16x4x8xf32>
    ```
    After:
    ```mlir
    %y = graph.attention %qs, %ks, %vs {causal = true, scale = 0.35355339059327373 : f64, sequence_first = true} : (...) -> tensor<2x16x4x8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def AttentionKeyValueGroupsPass
    : Pass<"paracc-attention-kv-groups", "func::FuncOp"> {
  let summary = "Grouped-query attention without repeating K and V";
  let description = [{
    Exporters write grouped-query attention (Llama, Mistral, Qwen2: H query
    heads over Hkv = H / G key/value heads) as a repeat of k and v to the
    query heads before the attention, `reshape` to `[..., Hkv, 1, ...]`,
    `expand` to `[..., Hkv, G, ...]`, `reshape` to `[..., H, ...]`, and the
    backward sums the repeated gradients over each group (`reshape` to
    `[..., Hkv, G, ...]`, `reduce_sum` over G). Attention ops take k and v
    with the Hkv heads directly (query head i reads key head i / G), so the
    repeat, its memory and the sums go away: `graph.attention` and
    `graph.attention_with_stats` read the unrepeated k and v, and a
    `graph.attention_grad` whose dk and dv reach only the group sums
    returns the Hkv-headed gradients in their place. The head dim is the
    one after the sequence dim (`sequence_first`) or the last leading dim.
    Runs in the lowering pipeline, after partitioning (sharding rules see
    equal heads) and `paracc-attention-layout` (which moves the repeat into
    the sequence-first layout), before `paracc-save-attention-stats` (the
    forward and its backward then read the same k and v).

    Before:
    ```mlir
    %k1 = graph.reshape %k : tensor<2x16x2x8xf32> -> tensor<2x16x2x1x8xf32>
    %k2 = graph.expand %k1 : tensor<2x16x2x1x8xf32> -> tensor<2x16x2x2x8xf32>
    %k4 = graph.reshape %k2 : tensor<2x16x2x2x8xf32> -> tensor<2x16x4x8xf32>
    %y = graph.attention %q, %k4, %v4 {causal = true, scale = 0.35355339059327373 : f64, sequence_first = true} : (...) -> tensor<2x16x4x8xf32>
    ```
    After:
    ```mlir
    %k1 = graph.reshape %k : tensor<2x16x2x8xf32> -> tensor<2x16x2x1x8xf32>
    %kg = graph.reshape %k1 : tensor<2x16x2x1x8xf32> -> tensor<2x16x2x8xf32>
    %y = graph.attention %q, %kg, %vg {causal = true, scale = 0.35355339059327373 : f64, sequence_first = true} : (tensor<2x16x4x8xf32>, tensor<2x16x2x8xf32>, tensor<2x16x2x8xf32>) -> tensor<2x16x4x8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def SaveAttentionStatsPass
    : Pass<"paracc-save-attention-stats", "func::FuncOp"> {
  let summary = "Keep attention's softmax statistics for its backward";
  let description = [{
    A flash-style attention backward needs each query row's log-sum-exp of
    its scores to rebuild the probabilities tile by tile. Without it, the
    backward first runs the forward again (one more attention forward per
    layer and step). For each `graph.attention_grad` whose forward, a
    `graph.attention` with the same operands and attributes, runs before it
    in the same block, the forward becomes `graph.attention_with_stats` and
    the backward reads its result and statistics (`saved`). The statistics
    are one f32 per query row and head, kept from the forward to the
    backward. Runs in the lowering pipeline after the layout and precision
    passes (the forward and the backward then have their final operands);
    an attention whose backward reads other operands (recomputed elsewhere,
    another block) is left as it is.

    Before:
    ```mlir
    %y = graph.attention %q, %k, %v {causal = true, scale = 1.250000e-01 : f64} : (...) -> tensor<2x4x64x64xbf16>
    %dq, %dk, %dv = graph.attention_grad %dy, %q, %k, %v {causal = true, scale = 1.250000e-01 : f64} : (...) -> (...)
    ```
    After:
    ```mlir
    %y, %lse = graph.attention_with_stats %q, %k, %v {causal = true, scale = 1.250000e-01 : f64} : (...) -> (tensor<2x4x64x64xbf16>, tensor<2x4x64xf32>)
    %dq, %dk, %dv = graph.attention_grad %dy, %q, %k, %v saved(%y, %lse) {causal = true, scale = 1.250000e-01 : f64} : (...) -> (...)
    ```
  }];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def SaveSoftmaxStatsPass
    : Pass<"paracc-save-softmax-stats", "func::FuncOp"> {
  let summary = "Keep a cross-entropy loss's softmax statistics for its "
                "backward";
  let description = [{
    The gradient of a softmax cross-entropy needs the softmax of the scores:
    each row's maximum and its sum of exponentials, then one more pass to
    write `softmax - onehot`. The forward loss found the same two numbers.
    For each `graph.cross_entropy_grad` of logits whose forward, a
    `graph.softmax_cross_entropy` with the same scores, labels, weight and
    `ignore_index` and no log-softmax result, runs before it in the same
    block, the forward becomes `graph.softmax_cross_entropy_with_stats` and
    the backward reads its statistics (`stats`, 8 bytes per label): the
    backward reads the scores once instead of twice (an LM head's
    `[tokens, vocab]` logits are the largest activation of a language
    model). Runs in the lowering pipeline after the precision pass, next to
    `--paracc-save-attention-stats`; a loss whose gradient reads other
    scores (recomputed, another block) is left as it is.

    Before:
    ```mlir
    %loss = graph.softmax_cross_entropy %x, %l : (tensor<8x100xbf16>, tensor<8xi64>) -> tensor<f32>
    %dx = graph.cross_entropy_grad %g, %x, %l : (tensor<8xf32>, tensor<8x100xbf16>, tensor<8xi64>) -> tensor<8x100xbf16>
    ```
    After:
    ```mlir
    %loss, %stats = graph.softmax_cross_entropy_with_stats %x, %l : (tensor<8x100xbf16>, tensor<8xi64>) -> (tensor<f32>, tensor<8x2xf32>)
    %dx = graph.cross_entropy_grad %g, %x, %l stats(%stats) : (tensor<8xf32>, tensor<8x100xbf16>, tensor<8xi64>, tensor<8x2xf32>) -> tensor<8x100xbf16>
    ```
  }];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def ConvertPrecisionPass : Pass<"paracc-convert-precision", "func::FuncOp"> {
  let summary = "Compute in bf16 (or f16) with f32 at the program's edges";
  let description = [{
    Every f32 tensor inside the function becomes `type` (bf16 or f16):
    weights (converted when the executable is written), constants, and every
    op's result; f32 arguments are cast on entry and f32 results cast back
    before returning. Kernels keep f32 accumulation (matmuls, norms,
    softmax, attention), so this is the usual "bf16 with f32 accumulation"
    policy. A product returned as it is (a matmul by a 2-D weight or a bare
    `graph.linear`, such as the LM head's logits, or a concat of such
    products, the micro-batches' logits) becomes a `graph.linear` with
    `f32_result`: its f32 accumulator leaves the program directly, without a
    rounding to bf16 and a cast pass over the result.

    With `master-weights` (mixed-precision training, before autodiff): the
    weights stay f32 and each is cast to `type` where it is read, and the
    losses give f32 results: `nll_loss` and a weighted
    `softmax_cross_entropy` (or one with a `log_prob` result) from f32
    operands, any other `softmax_cross_entropy` from its `type` scores as
    they are (its kernels compute in f32; no f32 copy of the logits, and its
    gradient comes back in `type`). Differentiating the cast gives f32 gradients, so the
    optimizer updates f32 master weights with f32 moments while the
    products, norms and attention run in `type`.
  }];
  let options = [
    Option<"type", "type", "::mlir::paracc::Precision",
           "::mlir::paracc::Precision::BF16",
           "The element type to compute in: bf16 or f16">,
    Option<"masterWeights", "master-weights", "bool", "false",
           "Keep weights and losses in f32 (mixed-precision training)">,
  ];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def AutodiffPass : Pass<"paracc-autodiff", "func::FuncOp"> {
  let summary = "Reverse-mode differentiation of a scalar loss";
  let description = [{
    The function must return one scalar float value, the loss. The pass
    appends the loss's gradient with respect to every float parameter
    (`graph.weight`) as extra results, each marked `graph.gradient_of = "<name>"` and named after the
    parameter. Gradients are built by walking the ops backwards and asking
    each op's GradientOpInterface for its operands' gradients given its
    results'; the gradients of a value used several times are summed, and so
    are those of the uses of one parameter (tied embeddings). An op the loss
    depends on through a parameter and that has no gradient rule is an
    error naming it.

    A parameter that tensor parallelism split into blocks (a fused q/k/v
    projection) gets one gradient per block, marked with the block's
    `offsets` in `graph.gradient_offsets`, unless `whole-parameters` is set:
    then the blocks' gradients are concatenated into the whole parameter's.

    Before:
    ```mlir
    func.func @main(%x: tensor<4x8xf32>) -> tensor<f32> {
      %w = graph.weight "w" : tensor<8x2xf32>
      %y = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
      %l = graph.reduce_sum %y, [0, 1] {keepdims = false} : tensor<4x2xf32> -> tensor<f32>
      return %l : tensor<f32>
    }
    ```
    After (simplified):
    ```mlir
    func.func @main(%x: tensor<4x8xf32>)
        -> (tensor<f32>, tensor<8x2xf32> {graph.gradient_of = "w", graph.name = "w"}) {
      ...
      %one = graph.constant dense<1.0> : tensor<f32>
      %dy = graph.expand %one : tensor<f32> -> tensor<4x2xf32>
      %dw = graph.gemm %x, %dy {trans_a = true} : ... -> tensor<8x2xf32>
      return %l, %dw : tensor<f32>, tensor<8x2xf32>
    }
    ```

    Not every weight is a parameter. Frozen, and recorded on the function
    as `graph.frozen_parameters` (name -> why) for explain and the training
    driver: weights the function assigns itself (model state: BatchNorm's
    running statistics in training mode); names `freeze` matches, or
    `train-only` does not; and unless `auto-freeze` is off, the buffers
    exporters write as initializers: weights an importer marked
    `graph.buffer` (BatchNorm's running statistics in inference form) and
    position tables, weights whose every path to the results passes through
    `graph.sin`/`graph.cos` (rotary `inv_freq`). A `freeze` or `train-only`
    that matches no weight is warned about.

    The ops a forward op's rule creates take the forward op's attributes
    named in `inherit-attributes` (by default its pipeline stage,
    `dist.stage`, so that the backward of a stage runs on that stage); the
    sums of a parameter's reads take none.
  }];
  let options = [
    Option<"freeze", "freeze", "std::string", "\"\"",
           "Parameters whose name matches this regular expression get no "
           "gradient">,
    Option<"trainOnly", "train-only", "std::string", "\"\"",
           "Only parameters whose name matches this regular expression get "
           "a gradient">,
    Option<"autoFreeze", "auto-freeze", "bool", "true",
           "Freeze the buffers exporters write as initializers (weights an "
           "importer marked graph.buffer, position tables that reach the "
           "loss only through sin/cos)">,
    Option<"wholeParameters", "whole-parameters", "bool", "false",
           "Concatenate the gradients of a parameter's blocks">,
    Option<"inheritedAttributes", "inherit-attributes", "std::string",
           "\"dist.stage\"",
           "Comma-separated discardable attributes that the ops of a forward "
           "op's gradient take from it (its pipeline stage)">,
  ];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def OptimizerPass : Pass<"paracc-optimizer", "func::FuncOp"> {
  let summary = "Turn a differentiated loss into a training step";
  let description = [{
    Consumes the gradient results of `--paracc-autodiff` (marked
    `graph.gradient_of`) and makes the function one training step: it
    takes two more inputs, `lr` and `step` (f32 scalars: the learning rate
    of this step and its 1-based count, which the host's schedule supplies),
    returns the loss and `grad_norm` (the global L2 norm of the gradients
    before clipping, as torch.nn.utils.clip_grad_norm_ reports it), and
    updates every parameter in place with `graph.adamw` (or `graph.sgd`),
    reading its moments with `graph.state` and writing parameters and
    moments with `graph.assign`. With `clip-grad-norm` > 0 the gradients are
    scaled by `min(1, clip / (grad_norm + 1e-6))` first.

    After (AdamW, one parameter, simplified):
    ```mlir
    func.func @main(%x: ..., %lr: tensor<f32> {graph.name = "lr"},
                    %step: tensor<f32> {graph.name = "step"})
        -> (tensor<f32>, tensor<f32> {graph.name = "grad_norm"}) {
      ...
      %m = graph.state "w.exp_avg" : tensor<8x2xf32>
      %v = graph.state "w.exp_avg_sq" : tensor<8x2xf32>
      %p2, %m2, %v2 = graph.adamw %w, %dw, %m, %v, %lr, %step, %scale
          {beta1 = 0.9, beta2 = 0.95, eps = 1.0e-08, weight_decay = 0.1}
          : tensor<8x2xf32>
      graph.assign "w", %p2 : tensor<8x2xf32>
      graph.assign "w.exp_avg", %m2 : tensor<8x2xf32>
      graph.assign "w.exp_avg_sq", %v2 : tensor<8x2xf32>
      return %loss, %norm : tensor<f32>, tensor<f32>
    }
    ```
  }];
  let options = [
    Option<"optimizer", "optimizer", "std::string", "\"adamw\"",
           "adamw or sgd">,
    Option<"beta1", "beta1", "double", "0.9", "AdamW's beta1">,
    Option<"beta2", "beta2", "double", "0.999", "AdamW's beta2">,
    Option<"eps", "eps", "double", "1e-8", "AdamW's eps">,
    Option<"weightDecay", "weight-decay", "double", "0.01",
           "Decoupled (AdamW) or L2 (SGD) weight decay">,
    Option<"momentum", "momentum", "double", "0.0", "SGD's momentum">,
    Option<"dampening", "dampening", "double", "0.0", "SGD's dampening">,
    Option<"nesterov", "nesterov", "bool", "false", "SGD's Nesterov momentum">,
    Option<"clipGradNorm", "clip-grad-norm", "double", "0.0",
           "Clip the gradients' global L2 norm to this (0: no clipping)">,
    Option<"stepName", "step-name", "std::string", "\"\"",
           "Rename the function to this (the runtime runs the training step "
           "named `step`; empty: keep its name)">,
  ];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def SeedDropoutPass : Pass<"paracc-seed-dropout", "func::FuncOp"> {
  let summary = "Give every dropout the run's seed";
  let description = [{
    Sets the `seed` attribute of every `graph.dropout` to `seed`. The
    runtime draws each dropout's mask from the seed, the op's stream, the
    step and the offsets, so one seed makes a training run reproducible and
    two seeds give two independent runs.

    With `seed=7`:
    ```mlir
    %y = graph.dropout %x, %step, %offsets
        {ratio = 1.000000e-01 : f64, seed = 7 : i64, stream = 42 : i64} : ...
    ```
  }];
  let options = [
    Option<"seed", "seed", "uint64_t", "0", "The dropout masks' seed">,
  ];
}

def AddLossPass : Pass<"paracc-add-loss", "func::FuncOp"> {
  let summary = "Make a logits model a loss model (mean cross-entropy)";
  let description = [{
    The function returns logits `[B, S, V]` (its only result). With
    `kind = "next-token-ce"` the loss is the mean cross-entropy of
    `logits[:, :-1]` against the token input shifted by one,
    `input_ids[:, 1:]` (causal language modelling, as Hugging Face's
    models compute it; the token input is the first integer argument). With
    `kind = "ce"` a new argument `labels` (i64 `[B, S]`) is added and the
    loss is the mean cross-entropy of every position against it. The
    function then returns that scalar loss.

    After (next-token-ce, simplified):
    ```mlir
    %l = graph.slice %logits, starts = [0, 0, 0], limits = [2, 15, 128], steps = [1, 1, 1]
    %t = graph.slice %ids, starts = [0, 1], limits = [2, 16], steps = [1, 1]
    %s = graph.reshape %l : tensor<2x15x128xf32> -> tensor<30x128xf32>
    %y = graph.reshape %t : tensor<2x15xi64> -> tensor<30xi64>
    %loss = graph.softmax_cross_entropy %s, %y : (...) -> tensor<f32>
    ```
  }];
  let options = [
    Option<"kind", "kind", "std::string", "\"next-token-ce\"",
           "next-token-ce or ce">,
  ];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def MoeAuxLossPass : Pass<"paracc-moe-aux-loss", "func::FuncOp"> {
  let summary = "Add the experts' load-balancing and router z-losses to the loss";
  let description = [{
    For training a mixture of experts (`--moe-aux-loss C`, `--moe-z-loss C`:
    off unless asked, since they change the user's loss). For each
    `graph.moe_experts` whose picks come from a `graph.topk` over a softmax
    of router logits `z` `[T, E]` (`p = softmax(z)`, as transformers'
    Mixtral, Qwen2-MoE and OLMoE route):

        aux = E * sum_e (c_e / T) * mean_t p[t, e]
        zl  = mean_t (logsumexp_e z[t, e])^2

    where `c_e` counts the (token, pick) slots routed to expert e (a count:
    no gradient; `aux` is k for perfectly even routing). `aux` is
    transformers' `load_balancing_loss_func` for one layer, `zl` ST-MoE's
    router z-loss. The function's loss (its first result, a float scalar)
    becomes `loss + aux-coef * sum(aux) + z-coef * sum(zl)` over the layers;
    partitioning makes the means over split tokens global ones. Refused:
    a function whose first result is not a float scalar, and an experts op
    whose picks do not come from a top-k of a softmax (the op is named).

    After (one layer, simplified):
    ```mlir
    %p = graph.softmax %z {axis = 1}
    %v, %i = graph.topk %p {axis = 1, k = 2}
    %hit = graph.equal %i3, %experts     // [T, k, 1] == [1, 1, E]
    %c = graph.reduce_sum %hitf, [0, 1]  // [E]
    %aux = ... E * sum(c / T * reduce_mean(%p, [0]))
    %loss2 = graph.add %loss, %scaled
    ```
  }];
  let options = [
    Option<"auxCoef", "aux-coef", "double", "0.0",
           "The load-balancing loss's coefficient (0: left out)">,
    Option<"zCoef", "z-coef", "double", "0.0",
           "The router z-loss's coefficient (0: left out)">,
  ];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def MoeCapacityPass : Pass<"paracc-moe-capacity", "func::FuncOp"> {
  let summary = "Drop the picks beyond each expert's capacity";
  let description = [{
    For a mixture of experts run with a capacity (`--moe-capacity-factor
    F`): each expert takes at most
    `C = max(1, ceil(F x S x k / E))` picks per sequence (S tokens, k picks
    each, E experts), the earliest in token order (Megatron-LM's
    "position" drop policy; GShard's groups are the sequences here). The
    routing weights of the other picks become zero, so they add nothing to
    the token's output (its residual carries it) and get no gradient; the
    experts still compute them (dropless kernels). The counts are built
    with ordinary graph ops from the picks: a one-hot over the experts,
    a cumulative sum along each sequence, a comparison with C, gathered
    back to the picks, and a product with the weights. A sequence is
    never split by data or expert parallelism, so the result is the same
    on every mesh; under context parallelism the sum along the sequence
    is gathered. The tokens of each `graph.moe_experts` must be the
    reshape of a `[batch, seq, hidden]` tensor (as exporters flatten them);
    otherwise the pass fails with an error at the op.
    `--paracc-return-expert-load` with the same factor counts the dropped
    picks of each training step.

    Before:
    ```mlir
    %x = graph.reshape %h : tensor<2x16x32xf32> -> tensor<32x32xf32>
    %y = graph.moe_experts %x, %i, %w, %w_in, %w_out : ...
    ```
    After (`capacity-factor=1.0`, 4 experts, k = 2: C = 8 per sequence):
    ```mlir
    %hits = ... : tensor<32x4xf32>     // picks per token and expert
    %place = graph.cumsum %hits3 {axis = 1 : i64} : tensor<2x16x4xf32> ...
    %fits = graph.less_equal %place2, %c8 : ... -> tensor<32x4xi1>
    %kept = graph.gather_elements %fitsf, %i {axis = 1 : i64} ...
    %w2 = graph.mul %w, %kept : tensor<32x2xf32>
    %y = graph.moe_experts %x, %i, %w2, %w_in, %w_out : ...
    ```
  }];
  let options = [
    Option<"capacityFactor", "capacity-factor", "double", "1.0",
           "Each expert's capacity per sequence, in multiples of an even "
           "share of the picks">,
  ];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

def ReturnExpertLoadPass : Pass<"paracc-return-expert-load", "func::FuncOp"> {
  let summary = "Return a training step's tokens per expert, for routing stats";
  let description = [{
    For training a mixture of experts: after `--paracc-optimizer`, counts
    each `graph.moe_experts`' picks per expert (`graph.expert_load` of its
    indices, placed after the op with its pipeline-stage and micro-batch
    attributes) and returns them as one more result, `expert_tokens`
    `[L, E]` f32, a row per experts op in program order (the model's MoE
    layers). Partitioning sums the counts of tokens split over ranks and
    micro-batches, so the table is the whole step's. `paracc train` prints
    the worst layer's max/mean load in its progress line and writes the
    table and each layer's max/mean to the JSON log. A function without
    experts is left alone; one whose layers have different expert counts
    too (a remark says so).

    With `capacity-factor` F > 0 (the model was compiled with
    `--paracc-moe-capacity` at F), it also returns `expert_dropped` `[L]`
    f32: the picks of each layer beyond its experts' capacity, summed over
    the sequences and experts (`max(count - C, 0)` per sequence and
    expert), which paracc train shows as a share of the picks.

    After (two layers of four experts):
    ```mlir
    %y0 = graph.moe_experts %x0, %i0, ...
    %c0 = graph.expert_load %i0 : tensor<32x2xi64> -> tensor<4xf32>
    ...
    %r0 = graph.reshape %c0 : tensor<4xf32> -> tensor<1x4xf32>
    %t = graph.concat %r0, %r1 {axis = 0}
    return %loss, %norm, %sq, %t
    ```
  }];
  let options = [
    Option<"capacityFactor", "capacity-factor", "double", "0.0",
           "The factor paracc-moe-capacity ran with (0: none; no "
           "expert_dropped result)">,
  ];
  let dependentDialects = ["::mlir::paracc::graph::GraphDialect"];
}

#endif // PARACC_DIALECT_GRAPH_TRANSFORMS_PASSES_TD
