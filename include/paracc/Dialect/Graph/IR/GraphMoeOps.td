//===- GraphMoeOps.td - Mixture-of-experts ops ----------------*- tablegen -*-===//
//
// A mixture of experts' expert computation as one op: the tokens each go to
// the k experts their router picked, through each expert's feed-forward
// network, and come back weighted and summed. The router itself (logits,
// softmax, top-k, renormalisation, a sigmoid or grouped variant) stays in
// ordinary graph ops, so that any routing an exporter writes is supported
// and differentiated like the rest of the graph; this op is what expert
// parallelism partitions and what the runtime runs as grouped products.
// `--paracc-raise-moe` forms it from the gathered-weights form exporters
// write. Each shape rule has a negative lit test in
// test/Dialect/Graph/moe-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_GRAPH_IR_GRAPHMOEOPS_TD
#define PARACC_DIALECT_GRAPH_IR_GRAPHMOEOPS_TD

include "paracc/Dialect/Graph/IR/GraphDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Graph_MoeExpertsOp : Graph_Op<"moe_experts", [Pure]> {
  let summary = "Tokens through the experts their router picked, combined";
  let description = [{
    `x` is `[T, H]` (T tokens), `indices` `[T, k]` (each token's experts, in
    `[0, E)`), `weights` `[T, k]` (their routing weights), `w_in`
    `[E, F, H]` and `w_out` `[E, H, I]`, each expert's weights stored
    `[out, in]` as transformers stores them. For token t:

        y[t] = sum_j weights[t, j] * w_out[e] . act(w_in[e] . x[t]),
               e = indices[t, j]

    With `gated` (the default), F = 2 I and `w_in[e]`'s first I rows are
    the gate, the next I the up projection: act(h) is
    `activation(h[:I]) * h[I:]` (SwiGLU with "silu"); without it F = I and
    act is the activation. `activation` is "silu", "gelu" (erf), "gelu_tanh"
    or "relu". A token routed to one expert twice gets both shares.

    Dropless: every token reaches its k experts (the runtime groups them by
    expert and runs one product per expert and projection).

    ```mlir
    %y = graph.moe_experts %x, %indices, %weights, %w_in, %w_out
        {activation = "silu"}
        : (tensor<64x32xf32>, tensor<64x2xi64>, tensor<64x2xf32>,
           tensor<8x96x32xf32>, tensor<8x32x48xf32>) -> tensor<64x32xf32>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$x, Graph_I64Tensor:$indices,
                       Graph_FloatTensor:$weights, Graph_FloatTensor:$w_in,
                       Graph_FloatTensor:$w_out,
                       DefaultValuedStrAttr<StrAttr, "silu">:$activation,
                       DefaultValuedAttr<BoolAttr, "true">:$gated);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $x `,` $indices `,` $weights `,` $w_in `,` $w_out attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// E, the experts; k, each token's picks; H, I.
    int64_t getNumExperts() {
      return ::llvm::cast<::mlir::RankedTensorType>(getWIn().getType())
          .getDimSize(0);
    }
    int64_t getTopK() {
      return ::llvm::cast<::mlir::RankedTensorType>(getIndices().getType())
          .getDimSize(1);
    }
  }];
}

def Graph_MoeExpertsGradOp : Graph_Op<"moe_experts_grad", [Pure]> {
  let summary = "The gradients of graph.moe_experts";
  let description = [{
    Given `dy`, the gradient of a `graph.moe_experts` result, and that op's
    operands and attributes, the gradients of `x`, the routing `weights`,
    `w_in` and `w_out` (the indices, a selection, have none). Each expert's
    first projection is recomputed from `x` rather than saved. `dw_in` and
    `dw_out` sum over the tokens: with the tokens split over ranks they are
    partial sums.

    ```mlir
    %dx, %dweights, %dw_in, %dw_out = graph.moe_experts_grad %dy, %x,
        %indices, %weights, %w_in, %w_out {activation = "silu"}
        : (tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x2xi64>,
           tensor<64x2xf32>, tensor<8x96x32xf32>, tensor<8x32x48xf32>)
        -> (tensor<64x32xf32>, tensor<64x2xf32>, tensor<8x96x32xf32>,
            tensor<8x32x48xf32>)
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$dy, Graph_FloatTensor:$x,
                       Graph_I64Tensor:$indices, Graph_FloatTensor:$weights,
                       Graph_FloatTensor:$w_in, Graph_FloatTensor:$w_out,
                       DefaultValuedStrAttr<StrAttr, "silu">:$activation,
                       DefaultValuedAttr<BoolAttr, "true">:$gated);
  let results = (outs Graph_FloatTensor:$dx, Graph_FloatTensor:$dweights,
                      Graph_FloatTensor:$dw_in, Graph_FloatTensor:$dw_out);
  let assemblyFormat = [{
    $dy `,` $x `,` $indices `,` $weights `,` $w_in `,` $w_out attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Graph_ExpertLoadOp : Graph_Op<"expert_load", [Pure]> {
  let summary = "How many (token, pick) slots a router sent to each expert";
  let description = [{
    `indices` is a router's picks `[T, k]` (as `graph.moe_experts` reads
    them); the result `[E]` counts, for each expert e, the slots equal to e:
        result[e] = #{(t, j) : indices[t, j] = e}
    An index outside `[0, E)` is counted nowhere (`graph.moe_experts`
    refuses it). The counts are f32, exact up to 2^24 slots per expert.
    A statistic, not part of the model's math: `--paracc-return-expert-load`
    returns it from a training step (the routing stats of the progress line
    and the JSON log). With the tokens split over ranks each rank's counts
    are a partial sum.
    ```mlir
    %counts = graph.expert_load %indices : tensor<64x2xi64> -> tensor<8xf32>
    ```
  }];
  let arguments = (ins Graph_I64Tensor:$indices);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = [{
    $indices attr-dict `:` type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// E, the experts counted.
    int64_t getNumExperts() {
      return ::llvm::cast<::mlir::RankedTensorType>(getType()).getDimSize(0);
    }
  }];
}

#endif // PARACC_DIALECT_GRAPH_IR_GRAPHMOEOPS_TD
