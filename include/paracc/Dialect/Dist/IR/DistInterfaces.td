//===- DistInterfaces.td - Sharding rule interface ---------*- tablegen -*-===//

#ifndef PARACC_DIALECT_DIST_IR_DISTINTERFACES_TD
#define PARACC_DIALECT_DIST_IR_DISTINTERFACES_TD

include "mlir/IR/OpBase.td"

def ShardingRuleOpInterface : OpInterface<"ShardingRuleOpInterface"> {
  let cppNamespace = "::mlir::paracc::dist";
  let description = [{
    The factor-based sharding rule of an op (the model is Shardy's
    OpShardingRule and GSPMD): the op's iteration space is a set of factors;
    every operand and result dimension is the product of some factors, major
    to minor. A factor sharded over mesh axes splits every dimension it
    appears in. Parallel factors shard freely; sharding a reduction factor
    leaves the results as partial sums over its axes; need-replication
    factors must not be sharded. Propagation and partitioning use only this
    rule, never the op's class.
  }];
  let methods = [
    InterfaceMethod<"Returns the op's sharding rule.",
      "::mlir::paracc::dist::OpShardingRule", "getShardingRule", (ins)>,
  ];
}

#endif // PARACC_DIALECT_DIST_IR_DISTINTERFACES_TD
