// SPDX-License-Identifier: GPL-3.0-or-later
// The JSON parser and writer: valid documents, malformed text of many kinds with positions,
// nesting limits, exact integers, and float formatting checked against NumPy.
#include "core/error.h"
#include "numpy_oracle.h"
#include "protocol_test.h"

#include <QTest>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace ss;
using namespace ss::testing;

class TestJson : public QObject
{
    Q_OBJECT

private slots:
    void parsesValidDocuments_data();
    void parsesValidDocuments();
    void refusesMalformedText_data();
    void refusesMalformedText();
    void limitsNesting();
    void keepsNumbersAsWritten_data();
    void keepsNumbersAsWritten();
    void writesStructure();
    void escapesStrings_data();
    void escapesStrings();
    void roundTripsEveryControlCharacter();
    void writesNonFiniteFloatsAsStrings();
    void writesInt64Extremes();
    void floatsAreShortestAndExactAccordingToNumpy();
    void utf8Helpers();
};

void TestJson::parsesValidDocuments_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("compact");
    QTest::newRow("integer") << QByteArray("42") << QByteArray("42");
    QTest::newRow("negative") << QByteArray("-7") << QByteArray("-7");
    QTest::newRow("float keeps being a float") << QByteArray("1.0") << QByteArray("1.0");
    QTest::newRow("exponent") << QByteArray("1e5") << QByteArray("1e+05");
    QTest::newRow("float") << QByteArray("2.5") << QByteArray("2.5");
    QTest::newRow("literals") << QByteArray("[true, false, null]")
                              << QByteArray("[true,false,null]");
    QTest::newRow("whitespace everywhere")
        << QByteArray(" \t\r\n{ \"a\" : [ 1 , 2 ] , \"b\" : { } }\n ")
        << QByteArray("{\"a\":[1,2],\"b\":{}}");
    QTest::newRow("member order kept")
        << QByteArray("{\"z\":1,\"a\":2,\"m\":3}") << QByteArray("{\"z\":1,\"a\":2,\"m\":3}");
    QTest::newRow("empty containers") << QByteArray("[[],{},\"\"]") << QByteArray("[[],{},\"\"]");
    QTest::newRow("escapes") << QByteArray(R"("\"\\\/\b\f\n\r\t")")
                             << QByteArray(R"("\"\\/\b\f\n\r\t")");
    QTest::newRow("unicode escape")
        << QByteArray(R"("caf\u00e9")") << QByteArray("\"caf\xc3\xa9\"");
    QTest::newRow("surrogate pair")
        << QByteArray(R"("\ud83d\ude00")") << QByteArray("\"\xf0\x9f\x98\x80\"");
    QTest::newRow("raw UTF-8") << QByteArray("\"\xe2\x82\xac\"") << QByteArray("\"\xe2\x82\xac\"");
    // RFC 8259 lets a reader ignore a byte-order mark at the start (Notepad saves one).
    QTest::newRow("byte-order mark")
        << QByteArray("\xef\xbb\xbf{\"a\": 1}") << QByteArray("{\"a\":1}");
    QTest::newRow("deep but allowed") << QByteArray(128, '[') + QByteArray(128, ']')
                                      << QByteArray(128, '[') + QByteArray(128, ']');
}

void TestJson::parsesValidDocuments()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, compact);
    QCOMPARE(testing::compact(parseJson(text.toStdString())), compact.toStdString());
}

void TestJson::refusesMalformedText_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("position");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("empty") << QByteArray("") << 0 << "the text ended";
    QTest::newRow("only spaces") << QByteArray("   ") << 3 << "the text ended";
    QTest::newRow("unclosed object") << QByteArray("{") << 1 << "member name";
    QTest::newRow("unclosed list") << QByteArray("[1,") << 3 << "the text ended";
    QTest::newRow("trailing comma in list") << QByteArray("[1,]") << 3 << "trailing comma";
    QTest::newRow("trailing comma in object") << QByteArray("{\"a\":1,}") << 7 << "trailing comma";
    QTest::newRow("single quotes") << QByteArray("{'a':1}") << 1 << "member name in double quotes";
    QTest::newRow("missing colon") << QByteArray("{\"a\" 1}") << 5 << "expected ':'";
    QTest::newRow("missing comma") << QByteArray("[1 2]") << 3 << "expected ',' or ']'";
    QTest::newRow("leading zero") << QByteArray("01") << 0 << "leading zeros";
    QTest::newRow("dot without digits") << QByteArray("1.") << 1 << "digits after '.'";
    QTest::newRow("dot first") << QByteArray(".5") << 0 << "expected a value";
    QTest::newRow("lone minus") << QByteArray("-") << 0 << "digits after '-'";
    QTest::newRow("empty exponent") << QByteArray("1e") << 1 << "exponent";
    QTest::newRow("plus sign") << QByteArray("+1") << 0 << "expected a value";
    QTest::newRow("NaN literal") << QByteArray("[NaN]") << 1 << "\"nan\"";
    QTest::newRow("Infinity literal") << QByteArray("[-Infinity]") << 1 << "\"-inf\"";
    QTest::newRow("lower-case nan") << QByteArray("nan") << 0 << "unknown word 'nan'";
    QTest::newRow("misspelt true") << QByteArray("tru") << 0 << "unknown word 'tru'";
    QTest::newRow("unterminated string") << QByteArray("[\"abc") << 1 << "unterminated string";
    QTest::newRow("raw newline in string") << QByteArray("\"a\nb\"") << 2 << "U+000A";
    QTest::newRow("bad escape") << QByteArray("\"\\x\"") << 1 << "backslash followed by";
    QTest::newRow("short unicode escape") << QByteArray("\"\\u12\"") << 1 << "four hex digits";
    QTest::newRow("lone high surrogate") << QByteArray("\"\\ud800\"") << 1 << "unpaired surrogate";
    QTest::newRow("lone low surrogate") << QByteArray("\"\\udc00\"") << 1 << "unpaired surrogate";
    QTest::newRow("invalid UTF-8 in a string")
        << QByteArray("\"ab\xff\"") << 3 << "invalid UTF-8 byte 0xff";
    QTest::newRow("overlong UTF-8") << QByteArray("\"\xc0\xaf\"") << 1 << "invalid UTF-8";
    QTest::newRow("encoded surrogate") << QByteArray("\"\xed\xa0\x80\"") << 1 << "invalid UTF-8";
    QTest::newRow("stray byte") << QByteArray("\xff") << 0 << "invalid UTF-8 byte";
    QTest::newRow("two values") << QByteArray("1 2") << 2 << "after the JSON value";
    QTest::newRow("extra bracket") << QByteArray("[]]") << 2 << "after the JSON value";
    QTest::newRow("duplicate member")
        << QByteArray("{\"a\":1,\"a\":2}") << 7 << "duplicate member name";
    QTest::newRow("number beyond float64")
        << QByteArray("[1e400]") << 1 << "beyond the range of float64";
    // Only a top-level id keeps an out-of-range number (to echo it).
    QTest::newRow("beyond float64 in an object")
        << QByteArray("{\"x\":1e400}") << 5 << "beyond the range of float64";
    QTest::newRow("beyond float64 in a nested id")
        << QByteArray("{\"a\":{\"id\":1e400}}") << 11 << "beyond the range of float64";
    QTest::newRow("NUL byte") << QByteArray("[1,\0]", 5) << 3 << "control character U+0000";
    // A character out of place is named by its code point too: it may be invisible.
    QTest::newRow("byte-order mark after the start")
        << QByteArray(" \xef\xbb\xbf{}") << 1 << "found character '\xef\xbb\xbf' (U+FEFF)";
    QTest::newRow("no-break space") << QByteArray("[1,\xc2\xa0\x32]") << 3 << "(U+00A0)";
    QTest::newRow("position counts characters, not bytes")
        << QByteArray("[\"\xc3\xa9\xc3\xa9\", x]") << 7 << "unknown word 'x'";
}

void TestJson::refusesMalformedText()
{
    QFETCH(QByteArray, text);
    QFETCH(int, position);
    QFETCH(QString, fragment);
    try {
        parseJson(std::string_view(text.constData(), std::size_t(text.size())));
        QFAIL("no error");
    } catch (const OpError& e) {
        QCOMPARE(e.code(), ErrorCode::BadRequest);
        QVERIFY2(QString::fromStdString(e.what()).contains(fragment), e.what());
        QVERIFY2(
            QString::fromStdString(e.what()).endsWith(" at character " + QString::number(position)),
            e.what());
        QCOMPARE(e.position().value_or(-1), position);
    }
}

void TestJson::limitsNesting()
{
    for (const char open : {'[', '{'}) {
        // 100000 levels would overflow the stack of a naive recursive parser.
        std::string deep;
        for (int k = 0; k < 100000; ++k)
            deep += open == '[' ? "[" : "{\"a\":";
        try {
            parseJson(deep);
            QFAIL("no error");
        } catch (const OpError& e) {
            QCOMPARE(e.code(), ErrorCode::BadRequest);
            QVERIFY2(std::string(e.what()).find("nested deeper than 128") != std::string::npos,
                     e.what());
        }
    }
    QVERIFY_THROWS_EXCEPTION(OpError, parseJson(std::string(129, '[') + std::string(129, ']')));
}

void TestJson::keepsNumbersAsWritten_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("isInteger");
    QTest::addColumn<bool>("fitsInt64");
    QTest::addColumn<qint64>("integer");
    QTest::addColumn<double>("value");
    QTest::addColumn<float>("value32");
    QTest::addColumn<bool>("overflows32");
    const qint64 max = std::numeric_limits<qint64>::max();
    const qint64 min = std::numeric_limits<qint64>::min();
    QTest::newRow("int64 max") << QByteArray("9223372036854775807") << true << true << max
                               << 9.223372036854775807e18 << 9.223372e18f << false;
    QTest::newRow("int64 min") << QByteArray("-9223372036854775808") << true << true << min
                               << -9.223372036854775808e18 << -9.223372e18f << false;
    QTest::newRow("int64 max + 1") << QByteArray("9223372036854775808") << true << false
                                   << qint64(0) << 9.223372036854775808e18 << 9.223372e18f << false;
    QTest::newRow("2^53 + 1 stays exact")
        << QByteArray("9007199254740993") << true << true << qint64(9007199254740993)
        << 9007199254740992.0 << 9007199254740992.0f << false;
    QTest::newRow("one point zero")
        << QByteArray("1.0") << false << false << qint64(0) << 1.0 << 1.0f << false;
    QTest::newRow("exponent") << QByteArray("1E+2") << false << false << qint64(0) << 100.0
                              << 100.0f << false;
    QTest::newRow("float32 rounds once from the text")
        << QByteArray("16777217") << true << true << qint64(16777217) << 16777217.0 << 16777216.0f
        << false;
    QTest::newRow("point one") << QByteArray("0.1") << false << false << qint64(0) << 0.1 << 0.1f
                               << false;
    QTest::newRow("largest float32") << QByteArray("3.4028235e38") << false << false << qint64(0)
                                     << 3.4028235e38 << std::numeric_limits<float>::max() << false;
    QTest::newRow("beyond float32") << QByteArray("3.5e38") << false << false << qint64(0) << 3.5e38
                                    << std::numeric_limits<float>::infinity() << true;
    QTest::newRow("float32 underflow is zero")
        << QByteArray("1e-50") << false << false << qint64(0) << 1e-50 << 0.0f << false;
    QTest::newRow("smallest float32 subnormal")
        << QByteArray("1e-45") << false << false << qint64(0) << 1e-45
        << std::numeric_limits<float>::denorm_min() << false;
    QTest::newRow("float64 underflow is zero")
        << QByteArray("1e-400") << false << false << qint64(0) << 0.0 << 0.0f << false;
}

void TestJson::keepsNumbersAsWritten()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, isInteger);
    QFETCH(bool, fitsInt64);
    QFETCH(qint64, integer);
    QFETCH(double, value);
    QFETCH(float, value32);
    QFETCH(bool, overflows32);
    const Json j = parseJson(text.toStdString());
    QVERIFY(j.isNumber());
    const JsonNumber& n = j.number();
    QCOMPARE(n.isInteger, isInteger);
    QCOMPARE(n.fitsInt64, fitsInt64);
    if (fitsInt64) QCOMPARE(qint64(n.integer), integer);
    QCOMPARE(n.value, value);
    QCOMPARE(n.value32, value32);
    QCOMPARE(n.overflows32, overflows32);
}

void TestJson::writesStructure()
{
    std::string out;
    JsonWriter w(out);
    w.beginObject();
    w.key("a");
    w.beginArray();
    w.value(1);
    w.value(2.0);
    w.value("x");
    w.null();
    w.beginObject();
    w.endObject();
    w.beginArray();
    w.endArray();
    w.endArray();
    w.key("b");
    w.value(false);
    w.key("c");
    const float floats[] = {0.1f, -0.0f, 1e30f};
    w.array(floats, 3);
    w.key("d");
    w.raw("[0,1]");
    w.endObject();
    QCOMPARE(out,
             std::string(R"({"a":[1,2.0,"x",null,{},[]],"b":false,"c":[0.1,-0,1e+30],"d":[0,1]})"));
    // Untyped, "-0" is the integer 0 (as in Python); tensors read it as a float with its sign.
    QCOMPARE(compact(parseJson(out)),
             std::string(R"({"a":[1,2.0,"x",null,{},[]],"b":false,"c":[0.1,0,1e+30],"d":[0,1]})"));
}

void TestJson::escapesStrings_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("plain") << QByteArray("abc") << QByteArray("\"abc\"");
    QTest::newRow("quote and backslash") << QByteArray("a\"b\\c") << QByteArray(R"("a\"b\\c")");
    QTest::newRow("named controls") << QByteArray("\n\t\r\b\f") << QByteArray(R"("\n\t\r\b\f")");
    QTest::newRow("other controls") << QByteArray("\x01\x1f", 2) << QByteArray(R"("\u0001\u001f")");
    QTest::newRow("NUL") << QByteArray("a\0b", 3) << QByteArray(R"("a\u0000b")");
    QTest::newRow("DEL stays") << QByteArray("\x7f") << QByteArray("\"\x7f\"");
    QTest::newRow("UTF-8 stays") << QByteArray("\xc3\xa9\xf0\x9f\x98\x80")
                                 << QByteArray("\"\xc3\xa9\xf0\x9f\x98\x80\"");
    QTest::newRow("invalid byte becomes U+FFFD") << QByteArray("a\xff"
                                                               "b")
                                                 << QByteArray("\"a\xef\xbf\xbd"
                                                               "b\"");
    QTest::newRow("truncated sequence becomes U+FFFD")
        << QByteArray("\xe2\x82") << QByteArray("\"\xef\xbf\xbd\xef\xbf\xbd\"");
}

void TestJson::escapesStrings()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, json);
    std::string out;
    appendJsonString(out, std::string_view(input.constData(), std::size_t(input.size())));
    QCOMPARE(out, json.toStdString());
    QVERIFY(parseJson(out).isString()); // always valid JSON
}

void TestJson::roundTripsEveryControlCharacter()
{
    std::string all;
    for (int c = 0; c < 0x80; ++c)
        all += char(c);
    all += "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
    std::string out;
    appendJsonString(out, all);
    QCOMPARE(parseJson(out).toString(), all);
}

void TestJson::writesNonFiniteFloatsAsStrings()
{
    const float f[] = {std::numeric_limits<float>::quiet_NaN(),
                       std::numeric_limits<float>::infinity(),
                       -std::numeric_limits<float>::infinity()};
    const double d[] = {std::numeric_limits<double>::quiet_NaN(),
                        std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity()};
    std::string a, b, c;
    JsonWriter(a).array(f, 3);
    JsonWriter(b).array(d, 3);
    JsonWriter w(c);
    w.value(std::numeric_limits<double>::infinity());
    QCOMPARE(a, std::string(R"(["nan","inf","-inf"])"));
    QCOMPARE(b, a);
    QCOMPARE(c, std::string("\"inf\""));
}

void TestJson::writesInt64Extremes()
{
    const std::int64_t v[] = {std::numeric_limits<std::int64_t>::min(), -1, 0,
                              std::numeric_limits<std::int64_t>::max()};
    std::string out;
    JsonWriter(out).array(v, 4);
    QCOMPARE(out, std::string("[-9223372036854775808,-1,0,9223372036854775807]"));
    const Json back = parseJson(out);
    for (std::size_t k = 0; k < 4; ++k)
        QCOMPARE(back.toArray()[k].toInt64(), v[k]);
}

// Every float is written so that it reads back exactly (checked with exact rational arithmetic
// in Python) and in no more characters than the shorter of NumPy's shortest positional and
// scientific forms (Dragon4).
void TestJson::floatsAreShortestAndExactAccordingToNumpy()
{
    std::mt19937_64 random(20240611);
    QByteArray lines;
    std::vector<float> floats{0.1f,
                              1.0f,
                              -0.0f,
                              1e-45f,
                              std::numeric_limits<float>::max(),
                              std::numeric_limits<float>::min(),
                              16777216.0f,
                              3.0e-39f,
                              123456.79f};
    std::vector<double> doubles{0.1,
                                1.0,
                                5e-324,
                                std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::min(),
                                9007199254740993.0,
                                1e23,
                                0.3};
    while (floats.size() < 3000) {
        const auto bits = std::uint32_t(random());
        float f;
        std::memcpy(&f, &bits, 4);
        if (std::isfinite(f)) floats.push_back(f);
    }
    while (doubles.size() < 3000) {
        const std::uint64_t bits = random();
        double d;
        std::memcpy(&d, &bits, 8);
        if (std::isfinite(d)) doubles.push_back(d);
    }
    for (const float f : floats) {
        std::string text;
        appendFloat32(text, f);
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        float back = 0;
        std::from_chars(text.data(), text.data() + text.size(), back);
        QCOMPARE(std::memcmp(&back, &f, 4), 0);
        lines += "f32 " + QByteArray::number(bits) + " " + QByteArray::fromStdString(text) + "\n";
    }
    for (const double d : doubles) {
        std::string text;
        appendFloat64(text, d);
        std::uint64_t bits;
        std::memcpy(&bits, &d, 8);
        lines += "f64 " + QByteArray::number(quint64(bits)) + " " +
                 QByteArray::fromStdString(text) + "\n";
    }
    const QString script = QStringLiteral(R"(
import sys, numpy as np
from fractions import Fraction
for line in sys.stdin:
    kind, bits, text = line.split()
    t = np.float32 if kind == 'f32' else np.float64
    u = np.uint32 if kind == 'f32' else np.uint64
    v = np.array([int(bits)], dtype=u).view(t)[0]
    x = Fraction(text)
    f = Fraction(float(v))
    for n in (np.nextafter(v, t(-np.inf)), np.nextafter(v, t(np.inf))):
        if np.isfinite(n) and abs(x - Fraction(float(n))) < abs(x - f):
            print('not exact', line.strip())
    shortest = min(len(np.format_float_positional(v, unique=True, trim='-')),
                   len(np.format_float_scientific(v, unique=True, trim='-')))
    if len(text) > shortest:
        print('not shortest', line.strip(), np.format_float_positional(v, unique=True, trim='-'),
              np.format_float_scientific(v, unique=True, trim='-'))
)");
    const QByteArray problems = runNumpy(script, lines);
    QVERIFY2(problems.isEmpty(), problems.left(2000).constData());
}

void TestJson::utf8Helpers()
{
    QCOMPARE(findInvalidUtf8("abc\xc3\xa9"), std::nullopt);
    QCOMPARE(findInvalidUtf8("ab\xc3"), std::optional<std::size_t>(2));
    QCOMPARE(characterPosition("\xc3\xa9x", 2), 1);
    const std::u32string cps = decodeUtf8("a\xc3\xa9\xf0\x9f\x98\x80\xff");
    QCOMPARE(cps, std::u32string(U"a\u00e9\U0001F600\uFFFD"));
    std::string back;
    for (const char32_t cp : cps)
        appendUtf8(back, cp);
    QCOMPARE(back, std::string("a\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbd"));
}

QTEST_APPLESS_MAIN(TestJson)
#include "tst_json.moc"
