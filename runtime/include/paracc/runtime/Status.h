//===- Status.h - Error reporting without exceptions ----------*- C++ -*-===//
//
// The runtime reports failures as values so that it can be linked into
// programs built without exceptions (the compiler tools) and so that every
// error carries a readable message.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_STATUS_H
#define PARACC_RUNTIME_STATUS_H

#include "paracc/runtime/PrintableText.h"

#include <optional>
#include <string>
#include <utility>

namespace paracc::rt {

/// Success, or an error with a message. The message is kept as printable
/// UTF-8 (printableText): it often quotes bytes read from a file.
class [[nodiscard]] Status {
public:
  Status() = default;
  static Status ok() { return Status(); }
  static Status error(std::string message) {
    Status s;
    s.message_ = isPrintableText(message) ? std::move(message)
                                          : printableText(message);
    s.failed_ = true;
    return s;
  }
  bool isOk() const { return !failed_; }
  explicit operator bool() const { return !failed_; }
  const std::string &message() const { return message_; }
  /// This status with the message prefixed by `context: ` (success stays
  /// success).
  Status withContext(const std::string &context) const {
    return failed_ ? error(context + ": " + message_) : *this;
  }

private:
  std::string message_;
  bool failed_ = false;
};

/// A value or an error.
template <typename T> class [[nodiscard]] StatusOr {
public:
  StatusOr(T value) : value_(std::move(value)) {}
  StatusOr(Status status) : status_(std::move(status)) {}
  bool isOk() const { return status_.isOk(); }
  explicit operator bool() const { return status_.isOk(); }
  const Status &status() const { return status_; }
  T &value() { return *value_; }
  const T &value() const { return *value_; }
  T &operator*() { return *value_; }
  T *operator->() { return &*value_; }

private:
  Status status_;
  std::optional<T> value_;
};

/// Builds a message from streamable parts: errorf("bad dim ", d).
template <typename... Args> Status errorf(const Args &...args);

} // namespace paracc::rt

#include <sstream>

template <typename... Args>
paracc::rt::Status paracc::rt::errorf(const Args &...args) {
  std::ostringstream os;
  (os << ... << args);
  return Status::error(os.str());
}

#define PARACC_RETURN_IF_ERROR(expr)                                           \
  do {                                                                         \
    ::paracc::rt::Status _st = (expr);                                         \
    if (!_st.isOk())                                                           \
      return _st;                                                              \
  } while (0)

#endif // PARACC_RUNTIME_STATUS_H
