//===- GraphFusionOps.td - Ops that lowering fuses into ---*- tablegen -*-===//
//
// Ops made by the lowering passes, never by an importer: a fused
// elementwise program (paracc-fuse-elementwise) and its terminator. Each
// verifier error has a negative lit test in
// test/Dialect/Graph/fused-elementwise-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_DIALECT_GRAPH_IR_GRAPHFUSIONOPS_TD
#define PARACC_DIALECT_GRAPH_IR_GRAPHFUSIONOPS_TD

include "paracc/Dialect/Graph/IR/GraphDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Graph_FusedElementwiseOp : Graph_Op<"fused_elementwise",
    [Pure, IsolatedFromAbove, SingleBlock]> {
  let summary = "Elementwise ops fused into one pass over their tensors";
  let description = [{
    A chain of elementwise ops over one iteration space, the results' common
    shape, run as one kernel: each element of every result is computed from
    the operands' elements at its position (each operand broadcasts to the
    results' shape by numpy rules) without the intermediate values reaching
    memory. The body computes one element: its block arguments are the
    operands' elements as rank-0 tensors of their element types, its ops are
    unary and binary elementwise ops, `graph.where`, `graph.cast`,
    `graph.clip` and rank-0 `graph.constant`s on rank-0 tensors, and
    `graph.yield` returns each result's element. Every op rounds to its own
    element type, so the fused op computes exactly what its ops did one by
    one.

    `paracc-fuse-elementwise` makes it from chains of such ops on tensors of
    one shape; nothing before the executable's encoding sees it.

    ```mlir
    %y, %c = graph.fused_elementwise %x, %mean, %scale
        : (tensor<8x16x4x4xbf16>, tensor<1x16x1x1xbf16>, tensor<16x1x1xbf16>)
        -> (tensor<8x16x4x4xbf16>, tensor<8x16x4x4xbf16>) {
    ^bb0(%a: tensor<bf16>, %m: tensor<bf16>, %s: tensor<bf16>):
      %0 = graph.sub %a, %m : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
      %1 = graph.mul %0, %s : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
      %2 = graph.relu %1 : tensor<bf16>
      graph.yield %2, %0 : tensor<bf16>, tensor<bf16>
    }
    ```
  }];
  let arguments = (ins Variadic<Graph_Tensor>:$inputs);
  let results = (outs Variadic<Graph_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The body's ops and terminator.
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
  }];
}

def Graph_YieldOp : Graph_Op<"yield",
    [Pure, Terminator, HasParent<"FusedElementwiseOp">]> {
  let summary = "The elements a fused body computes";
  let description = [{
    Ends a `graph.fused_elementwise` body with one rank-0 value per result of
    the op, of the result's element type.
  }];
  let arguments = (ins Variadic<Graph_Tensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // PARACC_DIALECT_GRAPH_IR_GRAPHFUSIONOPS_TD
