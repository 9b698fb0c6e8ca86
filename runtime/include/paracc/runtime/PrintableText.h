//===- PrintableText.h - Messages that are always valid text --*- C++ -*-===//
//
// Messages quote bytes read from files: paths and tensor names from an
// executable, op and value names from a model. A damaged or hostile file can
// put any bytes there, and a message that is not valid UTF-8 breaks the logs,
// terminals and tools (a test harness decoding strictly) that read it. Every
// message is passed through printableText() before it is printed: the bytes
// that are not printable UTF-8 are written as `\xNN`.
//
//===----------------------------------------------------------------------===//

#ifndef PARACC_RUNTIME_PRINTABLETEXT_H
#define PARACC_RUNTIME_PRINTABLETEXT_H

#include <cstdint>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace paracc::rt {

// Inline: Status::error uses them, and every runtime library includes it.
namespace detail {

/// The number of bytes of the UTF-8 sequence that `lead` starts, and the
/// range its second byte must lie in (RFC 3629, table 3-7 of Unicode); 0 for
/// a byte that starts no sequence.
struct LeadByte {
  size_t length = 0;
  uint8_t secondMin = 0x80, secondMax = 0xBF;
};

inline LeadByte classifyLead(uint8_t lead) {
  if (lead < 0x80)
    return {1};
  if (lead >= 0xC2 && lead <= 0xDF)
    return {2};
  if (lead == 0xE0)
    return {3, 0xA0, 0xBF};
  if (lead == 0xED) // no surrogates
    return {3, 0x80, 0x9F};
  if (lead >= 0xE1 && lead <= 0xEF)
    return {3};
  if (lead == 0xF0)
    return {4, 0x90, 0xBF};
  if (lead >= 0xF1 && lead <= 0xF3)
    return {4};
  if (lead == 0xF4) // nothing above U+10FFFF
    return {4, 0x80, 0x8F};
  return {};
}

/// Whether bytes 1.. of `text` (as far as it goes, up to `length`) are the
/// continuation bytes `lead` allows.
inline bool validContinuation(std::string_view text, const LeadByte &lead) {
  for (size_t i = 1; i < lead.length && i < text.size(); ++i) {
    uint8_t b = uint8_t(text[i]);
    uint8_t lo = i == 1 ? lead.secondMin : 0x80;
    uint8_t hi = i == 1 ? lead.secondMax : 0xBF;
    if (b < lo || b > hi)
      return false;
  }
  return true;
}

inline constexpr char kHexDigits[] = "0123456789abcdef";

} // namespace detail

/// The length of the well-formed UTF-8 sequence starting at `text[0]` that
/// encodes a printable character (RFC 3629: no overlong forms, surrogates or
/// code points above U+10FFFF; not a C0/C1 control or DEL, except newline
/// and tab), or 0 when those bytes are not one.
inline size_t printableSequenceLength(std::string_view text) {
  if (text.empty())
    return 0;
  uint8_t lead = uint8_t(text[0]);
  detail::LeadByte kind = detail::classifyLead(lead);
  if (kind.length == 0 || kind.length > text.size() ||
      !detail::validContinuation(text, kind))
    return 0;
  if (kind.length == 1)
    return (lead >= 0x20 && lead < 0x7F) || lead == '\n' || lead == '\t' ? 1
                                                                         : 0;
  // U+0080..U+009F, the C1 controls, are 0xC2 0x80..0x9F.
  if (lead == 0xC2 && uint8_t(text[1]) < 0xA0)
    return 0;
  return kind.length;
}

/// `text` with every byte that does not belong to a printable UTF-8
/// character written as `\xNN` (two lower-case hex digits). Valid printable
/// UTF-8 passes unchanged, the result is always valid UTF-8, and applying it
/// twice changes nothing more than applying it once.
inline std::string printableText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    size_t length = printableSequenceLength(text.substr(i));
    if (length) {
      out.append(text.data() + i, length);
      i += length;
      continue;
    }
    uint8_t b = uint8_t(text[i++]);
    out += "\\x";
    out += detail::kHexDigits[b >> 4];
    out += detail::kHexDigits[b & 15];
  }
  return out;
}

/// Whether `text` is printable UTF-8 already (printableText(text) == text).
inline bool isPrintableText(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    size_t length = printableSequenceLength(text.substr(i));
    if (!length)
      return false;
    i += length;
  }
  return true;
}

/// A stream buffer that forwards what is written to `target`, line by line,
/// through printableText(). A character split across two writes is joined
/// before it is checked; a partial one still pending at a flush waits for
/// the next write (at most 3 bytes), and is escaped when the buffer goes.
class PrintableTextBuf : public std::streambuf {
public:
  explicit PrintableTextBuf(std::streambuf *target) : target_(target) {}
  ~PrintableTextBuf() override;

protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char *s, std::streamsize n) override;
  int sync() override;

private:
  /// Writes the complete characters of `pending_` (all of it when `all`).
  bool forward(bool all);

  std::streambuf *target_;
  std::string pending_;
};

/// While alive, routes `stream` through a PrintableTextBuf; restores the
/// stream's own buffer on destruction. A tool's main() keeps one for
/// std::cout and one for std::cerr.
class PrintableStreamScope {
public:
  explicit PrintableStreamScope(std::ostream &stream);
  ~PrintableStreamScope();
  PrintableStreamScope(const PrintableStreamScope &) = delete;
  PrintableStreamScope &operator=(const PrintableStreamScope &) = delete;

private:
  std::ostream &stream_;
  std::streambuf *original_;
  PrintableTextBuf filter_;
};

} // namespace paracc::rt

#endif // PARACC_RUNTIME_PRINTABLETEXT_H
