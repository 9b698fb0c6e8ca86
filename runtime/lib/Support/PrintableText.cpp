//===- PrintableText.cpp - Messages that are always valid text -*- C++ -*-===//

#include "paracc/runtime/PrintableText.h"

using namespace paracc::rt;

namespace {

/// The number of bytes at the end of `text` that begin a printable character
/// whose remaining bytes have not arrived yet (0 when there are none).
size_t incompleteTail(std::string_view text) {
  size_t n = text.size();
  for (size_t back = 1; back <= 3 && back <= n; ++back) {
    std::string_view tail = text.substr(n - back);
    detail::LeadByte lead = detail::classifyLead(uint8_t(tail[0]));
    if (lead.length > back && detail::validContinuation(tail, lead))
      return back;
  }
  return 0;
}

} // namespace

PrintableTextBuf::~PrintableTextBuf() { forward(/*all=*/true); }

bool PrintableTextBuf::forward(bool all) {
  size_t keep = all ? 0 : incompleteTail(pending_);
  if (pending_.size() == keep)
    return true;
  std::string text =
      printableText(std::string_view(pending_).substr(0, pending_.size() - keep));
  pending_.erase(0, pending_.size() - keep);
  return target_->sputn(text.data(), std::streamsize(text.size())) ==
         std::streamsize(text.size());
}

PrintableTextBuf::int_type PrintableTextBuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof()))
    return traits_type::not_eof(c);
  pending_ += traits_type::to_char_type(c);
  if (traits_type::to_char_type(c) == '\n' && !forward(/*all=*/false))
    return traits_type::eof();
  return c;
}

std::streamsize PrintableTextBuf::xsputn(const char *s, std::streamsize n) {
  pending_.append(s, size_t(n));
  // Forward whole lines as they complete; keep the unfinished last one.
  size_t end = pending_.rfind('\n');
  if (end != std::string::npos) {
    std::string rest = pending_.substr(end + 1);
    pending_.resize(end + 1);
    bool ok = forward(/*all=*/false);
    pending_ += rest;
    if (!ok)
      return 0;
  }
  return n;
}

int PrintableTextBuf::sync() {
  if (!forward(/*all=*/false))
    return -1;
  return target_->pubsync();
}

PrintableStreamScope::PrintableStreamScope(std::ostream &stream)
    : stream_(stream), original_(stream.rdbuf()), filter_(original_) {
  stream_.rdbuf(&filter_);
}

PrintableStreamScope::~PrintableStreamScope() {
  stream_.flush();
  stream_.rdbuf(original_);
  // filter_'s destructor forwards what is still pending to original_.
}
