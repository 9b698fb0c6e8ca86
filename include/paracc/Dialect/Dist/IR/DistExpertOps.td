//===- DistExpertOps.td - Expert parallelism's ops ------------*- tablegen -*-===//
//
// graph.moe_experts with its experts split over a group (expert
// parallelism): each member holds its block of the experts and its own
// tokens; tokens travel to the members holding their experts and back by
// all-to-all. The number of tokens an expert receives depends on the
// routing, so the exchange is one op with the experts' computation inside
// rather than collectives of static shapes around graph ops. Each check has
// a negative lit test in test/Dialect/Dist/expert-parallel-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_DIST_IR_DISTEXPERTOPS_TD
#define PARACC_DIALECT_DIST_IR_DISTEXPERTOPS_TD

def Dist_ExpertParallelMoeOp : Dist_CollectiveOp<"expert_parallel_moe"> {
  let summary = "graph.moe_experts with the experts split over a group";
  let description = [{
    The group's n members each hold their own tokens (`x` `[T, H]`, their
    `indices` and routing `weights` `[T, k]`) and one block of the E
    experts: member i holds experts `[i E/n, (i+1) E/n)` as `w_in`
    `[E/n, F, H]` and `w_out` `[E/n, H, I]`. `indices` name experts
    globally, in `[0, E)`. The result is what `graph.moe_experts` computes
    for this member's tokens over all E experts (its formula, `activation`
    and `gated` are that op's):

    1. the members exchange how many of their (token, pick) slots go to
       each member (the expert's owner);
    2. each member sends those tokens' rows to the owners (a variable-size
       all-to-all), each owner runs its experts on the rows it received,
       grouped by expert;
    3. the results travel back the same way, and each token sums its k
       results times its routing weights, in pick order.

    Dropless: every slot reaches its expert. Traffic per member, with
    routing spread evenly: (n-1)/n of the T k rows each way.
    `load_imbalance` (r >= 1, default 1: even routing) is what the cost
    model assumes of the busiest member: it receives r times an even share
    of the rows and runs r times an even share of the experts' work, and
    the group waits for it. It does not change the result.

    ```mlir
    // ep2: this member holds experts 2 and 3 of 4.
    %y = dist.expert_parallel_moe %x, %indices, %weights, %w_in, %w_out
        over ["ep"] {activation = "silu"}
        : (tensor<16x32xf32>, tensor<16x2xi64>, tensor<16x2xf32>,
           tensor<2x96x32xf32>, tensor<2x32x48xf32>) -> tensor<16x32xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$x, Dist_Tensor:$indices,
      Dist_Tensor:$weights, Dist_Tensor:$w_in, Dist_Tensor:$w_out,
      StrArrayAttr:$axes, DefaultValuedStrAttr<StrAttr, "silu">:$activation,
      DefaultValuedAttr<BoolAttr, "true">:$gated,
      DefaultValuedAttr<F64Attr, "1.0">:$load_imbalance);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat = [{
    $x `,` $indices `,` $weights `,` $w_in `,` $w_out `over` $axes attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Dist_ExpertParallelMoeGradOp
    : Dist_CollectiveOp<"expert_parallel_moe_grad"> {
  let summary = "The gradients of dist.expert_parallel_moe";
  let description = [{
    Given `dy`, the gradient of a `dist.expert_parallel_moe` result, and
    that op's operands, the gradients of this member's `x` and routing
    `weights`, and of the experts it holds (`w_in`, `w_out`). Each member
    sends its slots' `x` and `dy` rows and routing weights to the experts'
    owners, which recompute their experts' first projection and return
    each slot's share of `dx` and its routing weight's gradient; the
    owners' `dw_in` and `dw_out` sum over every token of the group routed
    to their experts. Those sums are complete over the group; over any
    other axis the tokens are split on (data parallelism) they are partial
    sums. Traffic per member, routing spread evenly: (n-1)/n of the T k
    rows three times (x and dy out, dx back); `load_imbalance` as for the
    forward op.

    ```mlir
    %dx, %dweights, %dw_in, %dw_out = dist.expert_parallel_moe_grad %dy,
        %x, %indices, %weights, %w_in, %w_out over ["ep"]
        {activation = "silu"}
        : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x2xi64>,
           tensor<16x2xf32>, tensor<2x96x32xf32>, tensor<2x32x48xf32>)
        -> (tensor<16x32xf32>, tensor<16x2xf32>, tensor<2x96x32xf32>,
            tensor<2x32x48xf32>)
    ```
  }];
  let arguments = (ins Dist_Tensor:$dy, Dist_Tensor:$x, Dist_Tensor:$indices,
      Dist_Tensor:$weights, Dist_Tensor:$w_in, Dist_Tensor:$w_out,
      StrArrayAttr:$axes, DefaultValuedStrAttr<StrAttr, "silu">:$activation,
      DefaultValuedAttr<BoolAttr, "true">:$gated,
      DefaultValuedAttr<F64Attr, "1.0">:$load_imbalance);
  let results = (outs Dist_Tensor:$dx, Dist_Tensor:$dweights,
                      Dist_Tensor:$dw_in, Dist_Tensor:$dw_out);
  let assemblyFormat = [{
    $dy `,` $x `,` $indices `,` $weights `,` $w_in `,` $w_out `over` $axes
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // PARACC_DIALECT_DIST_IR_DISTEXPERTOPS_TD
