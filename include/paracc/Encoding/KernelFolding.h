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

#include <optional>
#include <vector>

namespace mlir::paracc {

/// Converts a dense constant to a runtime tensor (a copy).
FailureOr<rt::Tensor> tensorFromAttr(DenseElementsAttr attr);
/// Converts a runtime tensor to a dense constant of `type`.
DenseElementsAttr attrFromTensor(RankedTensorType type,
                                 const rt::Tensor &tensor);

/// Runs the CPU kernel of graph op `op` on `operands` (its operands'
/// values, in order) and returns its results, shaped like the op's results,
/// of their element types or of `resultDType` (data movement run on other
/// values than the op's, e.g. on element indices). Fails when the op has no
/// kernel, a result would exceed `maxResultElements` or the kernel refuses
/// (reported on the op only when the types are the op's own).
FailureOr<std::vector<rt::Tensor>>
evaluateOnTensors(Operation *op, ArrayRef<const rt::Tensor *> operands,
                  int64_t maxResultElements,
                  std::optional<rt::DType> resultDType = std::nullopt);

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
