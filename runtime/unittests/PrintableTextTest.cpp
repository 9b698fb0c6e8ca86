//===- PrintableTextTest.cpp - Messages that are always valid text --------===//

#include "paracc/runtime/PrintableText.h"
#include "paracc/runtime/Status.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace paracc::rt;

TEST(PrintableText, KeepsPrintableUtf8) {
  // ASCII, 2-, 3- and 4-byte characters, newline and tab stay as they are.
  std::string text = "model.onnx \xc3\xa8 \xe2\x80\x94 \xf0\x9f\x98\x80\n\tend";
  EXPECT_EQ(printableText(text), text);
  EXPECT_TRUE(isPrintableText(text));
}

TEST(PrintableText, EscapesBytesThatAreNotText) {
  // A lone lead byte, a lone continuation byte, an invalid byte, ESC, DEL.
  EXPECT_EQ(printableText("mod\xe5l"), "mod\\xe5l");
  EXPECT_EQ(printableText("a\x80z"), "a\\x80z");
  EXPECT_EQ(printableText("\xff"), "\\xff");
  EXPECT_EQ(printableText("\x1b[31m"), "\\x1b[31m");
  EXPECT_EQ(printableText("\x7f"), "\\x7f");
  EXPECT_EQ(printableText(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_FALSE(isPrintableText("mod\xe5l"));
}

TEST(PrintableText, RejectsMalformedSequences) {
  // Overlong '/', a surrogate (U+D800), above U+10FFFF, a truncated 3-byte
  // sequence at the end, a C1 control (U+0085).
  EXPECT_EQ(printableText("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(printableText("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(printableText("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
  EXPECT_EQ(printableText("x\xe2\x80"), "x\\xe2\\x80");
  EXPECT_EQ(printableText("\xc2\x85"), "\\xc2\\x85");
  // The boundaries that are valid: U+00A0, U+FFFD, U+10FFFF.
  EXPECT_TRUE(isPrintableText("\xc2\xa0\xef\xbf\xbd\xf4\x8f\xbf\xbf"));
}

TEST(PrintableText, EscapingTwiceChangesNothing) {
  std::string once = printableText("a\xe5\x80\x1b");
  EXPECT_TRUE(isPrintableText(once));
  EXPECT_EQ(printableText(once), once);
}

TEST(PrintableText, StatusMessagesAreText) {
  Status st = errorf("its weights are in '/src/exampl", "\xe5", "s/x.data'");
  EXPECT_EQ(st.message(), "its weights are in '/src/exampl\\xe5s/x.data'");
  EXPECT_EQ(st.withContext("state 'w'").message(),
            "state 'w': its weights are in '/src/exampl\\xe5s/x.data'");
}

TEST(PrintableText, StreamJoinsCharactersSplitAcrossWrites) {
  std::ostringstream target;
  {
    std::ostream out(nullptr);
    PrintableTextBuf filter(target.rdbuf());
    out.rdbuf(&filter);
    // "è" split over two writes and a flush between them; then a bad byte.
    out << "mod\xc3" << std::flush << "\xa8le\n";
    out << "bad \xe5 byte\n";
    out << "no newline \xe2\x80";
  }
  // The unfinished character at the end is escaped when the buffer goes.
  EXPECT_EQ(target.str(),
            "mod\xc3\xa8le\nbad \\xe5 byte\nno newline \\xe2\\x80");
}

TEST(PrintableText, ScopeRestoresTheStream) {
  std::ostringstream text;
  std::ostream &out = text; // ostringstream::rdbuf() hides the stream's
  std::streambuf *original = out.rdbuf();
  {
    PrintableStreamScope scope(out);
    EXPECT_NE(out.rdbuf(), original);
    out << "x\xff\n";
  }
  EXPECT_EQ(out.rdbuf(), original);
  EXPECT_EQ(text.str(), "x\\xff\n");
}
