//===- ExportONNX.h - The trained model back to ONNX -----------*- C++ -*-===//

#ifndef PARACC_TOOLS_PARACC_EXPORTONNX_H
#define PARACC_TOOLS_PARACC_EXPORTONNX_H

#include "mlir/Support/LLVM.h"
#include "paracc/Support/WeightStore.h"
#include "paracc/runtime/Tensor.h"

#include <map>
#include <string>

namespace mlir::paracc {

/// Writes `modelPath`'s model to `outPath` with every initializer as
/// external data in `outPath`.data: the `trained` values where given, the
/// model's own (`weights`) otherwise.
LogicalResult
exportTrainedONNX(StringRef modelPath, StringRef outPath,
                  const WeightStore &weights,
                  const std::map<std::string, ::paracc::rt::Tensor> &trained);

} // namespace mlir::paracc

#endif // PARACC_TOOLS_PARACC_EXPORTONNX_H
