//===- ParsedOptions.h - The C API's options, typed -------------*- C++ -*-===//
//
// Every key paracc_options_set takes is an option that the compiler's and
// the driver's options structs bind (OptionsBinder.h), plus the C API's own
// `train` and `progress`. ParsedOptions holds them all, typed; the entry
// points read the parts they need.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_CAPI_PARSEDOPTIONS_H
#define PARACC_CAPI_PARSEDOPTIONS_H

#include "paracc/Driver/Compile.h"
#include "paracc/Driver/Plan.h"
#include "paracc/Driver/RunOptions.h"

#include <string>

struct paracc_options;

namespace paracc::capi {

struct ParsedOptions {
  mlir::paracc::ModelSource source;
  mlir::paracc::CompileOptions compile;
  /// A training step (train=1) with these options.
  bool train = false;
  mlir::paracc::TrainingOptions training;
  mlir::paracc::TokenBatchOptions tokens;
  mlir::paracc::PlanOptions plan;
  mlir::paracc::RunOptions run;
  mlir::paracc::TrainerOptions trainer;
  /// The trainer prints each step's line to standard output.
  bool progress = false;

  /// Binds every option above: the C API's table.
  void bindOptions(mlir::paracc::OptionsBinder &binder);
};

/// `options`' values (null: none) over the defaults; false with `error`
/// ("paracc: error: option 'zero': must be in [0, 3], got 4") when one does
/// not parse.
bool parseOptions(const paracc_options *options, ParsedOptions &result,
                  std::string &error);

} // namespace paracc::capi

#endif // PARACC_CAPI_PARSEDOPTIONS_H
