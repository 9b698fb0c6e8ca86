//===- KernelFolding.h - Constant folding with runtime kernels -*- C++ -*-===//
//
// Evaluates an op whose operands are all constants by running the runtime's
// CPU kernel for it, so that folding and execution share one definition of
// every op. The importer uses it to fold the shape and mask subgraphs that
// exporters emit.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_ENCODING_KERNELFOLDING_H
#define PARACC_ENCODING_KERNELFOLDING_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "paracc/Support/RuntimeAlias.h"
#include "paracc/runtime/Tensor.h"

namespace mlir::paracc {

/// Converts a dense constant to a runtime tensor (a copy).
FailureOr<rt::Tensor> tensorFromAttr(DenseElementsAttr attr);
/// Converts a runtime tensor to a dense constant of `type`.
DenseElementsAttr attrFromTensor(RankedTensorType type,
                                 const rt::Tensor &tensor);

/// Evaluates `op` on constant operands. Fails (silently) when the op has no
/// kernel or a result would exceed `maxResultElements`; reports kernel errors
/// as diagnostics on the op.
FailureOr<SmallVector<DenseElementsAttr>>
evaluateWithKernels(Operation *op, ArrayRef<DenseElementsAttr> operands,
                    int64_t maxResultElements = 1 << 20);

/// Replaces every op in [begin, end) whose operands are all
/// `graph.constant`s by constants, in order. Returns the number of folded
/// ops.
/// `onReplace(old, new)` is called for every replaced value.
int64_t foldConstantOps(
    Block::iterator begin, Block::iterator end,
    int64_t maxResultElements = 1 << 20,
    function_ref<void(Value, Value)> onReplace = nullptr);

} // namespace mlir::paracc

#endif // PARACC_ENCODING_KERNELFOLDING_H
