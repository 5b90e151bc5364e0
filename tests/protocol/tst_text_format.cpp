// SPDX-License-Identifier: GPL-3.0-or-later
// Human-readable output: tensors print exactly as NumPy's str() prints them (checked against
// NumPy itself), and the table and wrapping helpers the CLI uses.
#include "numpy_oracle.h"
#include "protocol/tensor_json.h"
#include "protocol/text_format.h"
#include "protocol_test.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace ss;
using namespace ss::testing;

namespace {

const Limits kLimits = Limits::machineDefault();

Tensor literal(const char* text, DType dtype)
{
    return parseTensorLiteral(text, dtype, kLimits);
}

Tensor filled(DType dtype, const Shape& shape, Fill fill = Fill::Arange, std::uint64_t seed = 0)
{
    return makeFilled(dtype, shape, fill, seed, kLimits);
}

} // namespace

class TestTextFormat : public QObject
{
    Q_OBJECT

private slots:
    void printsLikeNumpy();
    void highlightsWithoutChangingTheLayout();
    void compactShapes();
    void wrapsText();
    void rendersTables();
};

void TestTextFormat::printsLikeNumpy()
{
    std::vector<std::pair<std::string, Tensor>> cases;
    auto add = [&](const std::string& name, const Tensor& t) { cases.emplace_back(name, t); };
    add("int32 (5,6)", filled(DType::Int32, {5, 6}));
    add("int32 (2,3,4)", filled(DType::Int32, {2, 3, 4}));
    add("summarised rows and columns", filled(DType::Int32, {30, 100}));
    add("summarised vector", filled(DType::Int64, {2000}));
    add("summarised last axis of 3", filled(DType::Int32, {2, 3, 200}));
    add("summarised everywhere", filled(DType::Int16, {10, 10, 50}));
    add("rank 8", filled(DType::Int32, {1, 1, 1, 1, 1, 1, 1, 5}));
    add("wrapping wide integers",
        literal(
            "[0, 1000000000000000, -2000000000000000, 3000000000000000, 4, 5, 6, 7, 8, 9, 10, 11]",
            DType::Int64));
    add("int8 negatives", literal("[[-128, 5], [127, -1]]", DType::Int8));
    add("uint8 random", filled(DType::UInt8, {4, 4}, Fill::Random, 5));
    add("float32 thirds", [] {
        Tensor t = filled(DType::Float32, {40});
        for (std::int64_t i = 0; i < 40; ++i)
            t.data<float>()[i] /= 3;
        return t;
    }());
    add("float64 random", filled(DType::Float64, {3, 4}, Fill::Random, 3));
    add("float32 random", filled(DType::Float32, {3, 4}, Fill::Random, 4));
    add("aligned points", literal("[0.5, 10.25, -3.0]", DType::Float64));
    add("whole floats", literal("[1, 2]", DType::Float32));
    add("small values go scientific", literal("[1e-5, 1, 123.25]", DType::Float64));
    add("large values go scientific", literal("[1e16, 1]", DType::Float64));
    add("scientific with nan", literal("[-1.5e-7, 2, \"nan\"]", DType::Float64));
    add("three-digit exponents", literal("[1e100, 1]", DType::Float64));
    add("nan and inf", literal("[\"nan\", 1.5, \"inf\"]", DType::Float32));
    add("only non-finite", literal("[\"nan\", \"-inf\"]", DType::Float64));
    add("signed zeros", literal("[0, -0.0]", DType::Float64));
    add("precision capped at 8",
        literal("[0.123456789123, 0.3333333333333333, 2.5]", DType::Float64));
    add("float32 integers", literal("[16777216, 0.1]", DType::Float32));
    // Scientific digits beyond a value's shortest are its own, not zeros (subnormals show it).
    add("float64 subnormals", literal("[5e-324, 1.5e-323, 2.2250738585072014e-308, 1e-310]",
                                      DType::Float64));
    add("float64 subnormal beside 1", literal("[5e-324, 1]", DType::Float64));
    add("float32 subnormals", literal("[1e-45, 5.877472e-39, 1.1754942e-38]", DType::Float32));
    add("float32 subnormal beside 1.5", literal("[1e-45, 1.5]", DType::Float32));
    add("float32 tenth beside 7 digits", literal("[0.1, 1.2345678e-5]", DType::Float32));
    add("float16 subnormals", literal("[6e-8, 3.05e-5, 6.104e-5, 1.5]", DType::Float16));
    add("float16 subnormal beside 1", literal("[6e-8, 1]", DType::Float16));
    add("summarised floats", [] {
        Tensor t = filled(DType::Float64, {40, 40});
        for (std::int64_t i = 0; i < t.size(); ++i)
            t.data<double>()[i] *= 0.5;
        return t;
    }());
    add("bools", literal("[[true, false], [false, false]]", DType::Bool));
    add("all true", literal("[true, true]", DType::Bool));
    add("strings", literal("[[\"a\", \"bbb\"], [\"cc\", \"d\"]]", DType::String));
    add("strings needing escapes",
        literal("[\"a'b\", \"x\\\\y\", \"\\u00e9\", \"t\\tn\\n\"]", DType::String));
    add("empty", filled(DType::Int32, {0, 3}));
    add("empty inner", filled(DType::Float32, {2, 0}));
    add("int scalar", literal("5", DType::Int32));
    add("float32 scalar", literal("0.1", DType::Float32));
    add("negative zero scalar", literal("-0.0", DType::Float64));
    add("large scalar", literal("1e16", DType::Float64));
    add("whole scalar", literal("3", DType::Float64));
    add("bool scalar", literal("true", DType::Bool));
    add("string scalar", literal("\"abc\"", DType::String));
    // A .npy of bytes ('|S') prints as NumPy prints bytes: b'...', \x past ASCII.
    const auto bytes = [&](const char* json) {
        Tensor t = literal(json, DType::String);
        t.setHoldsBytes(true);
        return t;
    };
    add("bytes", bytes("[[\"a'b\", \"x\\\\y\"], [\"\\u00e9\", \"t\\tn\\n\\\"'\"]]"));
    add("bytes scalar", bytes("\"\\u5b57\""));

    QByteArray input;
    for (const auto& [name, t] : cases) {
        std::string json;
        JsonWriter w(json);
        writeTensor(w, t);
        input += QByteArray::fromStdString(json) + "\n";
    }
    const QString script = QStringLiteral(R"(
import sys, json, numpy as np
for line in sys.stdin:
    t = json.loads(line, parse_int=lambda s: -0.0 if s == '-0' else int(s))
    dtype = {'string': bytes if t.get('bytes') else str}.get(t['dtype'], t['dtype'])
    data = [float(v) if isinstance(v, str) and t['dtype'].startswith('float') else v for v in t['data']]
    data = [v.encode() for v in data] if t.get('bytes') else data
    a = np.array(data, dtype=dtype).reshape(t['shape'])
    print(str(a))
    print('----8<----')
)");
    const QList<QByteArray> expected = runNumpy(script, input).split('\n');
    std::vector<std::string> theirs(1);
    for (const QByteArray& line : expected) {
        if (line == "----8<----")
            theirs.emplace_back();
        else
            theirs.back() += (theirs.back().empty() ? "" : "\n") + line.toStdString();
    }
    QCOMPARE(theirs.size(), cases.size() + 1);
    for (std::size_t k = 0; k < cases.size(); ++k) {
        const std::string ours = formatTensor(cases[k].second);
        if (ours != theirs[k])
            QFAIL(qPrintable(QString::fromStdString(cases[k].first + ":\nours:\n" + ours +
                                                    "\nNumPy:\n" + theirs[k])));
    }
}

void TestTextFormat::highlightsWithoutChangingTheLayout()
{
    const Tensor t = filled(DType::Int32, {3, 4});
    PrintOptions options;
    options.highlight = [](std::int64_t i) { return i % 5 == 0; };
    const std::string coloured = formatTensor(t, options);
    QVERIFY(coloured.starts_with("[[\x1b[1;33m 0\x1b[0m  1"));
    std::string plain;
    for (std::size_t i = 0; i < coloured.size(); ++i) {
        if (coloured[i] == '\x1b')
            i = coloured.find('m', i);
        else
            plain += coloured[i];
    }
    QCOMPARE(plain, formatTensor(t));
}

void TestTextFormat::compactShapes()
{
    QCOMPARE(compactShape({2, 1, 5, 5, 2, 5}), std::string("(2,1,5,5,2,5)"));
    QCOMPARE(compactShape({5}), std::string("(5,)"));
    QCOMPARE(compactShape({}), std::string("()"));
}

void TestTextFormat::wrapsText()
{
    QCOMPARE(wrapText("one two three four", 9),
             (std::vector<std::string>{"one two", "three", "four"}));
    QCOMPARE(wrapText("averyveryverylongword x", 5),
             (std::vector<std::string>{"averyveryverylongword", "x"}));
    QCOMPARE(wrapText("", 5), std::vector<std::string>{""});
    QCOMPARE(displayWidth("\x1b[1m\xc3\xa9t\xc3\xa9\x1b[0m"), 3);
}

void TestTextFormat::rendersTables()
{
    TextTable t;
    t.addColumn("dim", TextTable::Align::Right);
    t.addColumn("name");
    t.addColumn("notes");
    t.addRow({"0", "alpha", "short"});
    t.addRow({"10", "b", "first note that is long enough to wrap\nsecond"});
    QCOMPARE(t.render("  ", 40), std::string("  dim  name   notes\n"
                                             "    0  alpha  short\n"
                                             "   10  b      first note that is long\n"
                                             "                enough to wrap\n"
                                             "              second\n"));
}

QTEST_APPLESS_MAIN(TestTextFormat)
#include "tst_text_format.moc"
