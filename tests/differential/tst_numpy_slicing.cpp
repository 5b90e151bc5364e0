// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's getitem against NumPy's basic indexing on thousands of random subscripts: same
// values, same shapes, and an error exactly where NumPy raises one, with the message TensorFlow
// gives for the same mistake. One python process answers the whole batch.
//
// Where TensorFlow deliberately reads a subscript differently from NumPy (a list is a tuple, a
// scalar bool is a mask, integers must fit in int64), the cases
// are named in tensorflowDiffers() and assert TensorFlow's answer.
#include "../engine/numpy_oracle.h"
#include "../engine/op_runner.h"
#include "subscript_gen.h"

#include <QMap>
#include <QRegularExpression>
#include <QTest>

#include <limits>

using namespace ss;
using namespace ss::testing;

namespace {

constexpr int kRandomCases = 10000;
constexpr std::uint64_t kSeed = 20240611;

// Reads lines "shape<TAB>expression" and answers each with
// "ok<TAB>shape<TAB>values" or "err<TAB>ExceptionType<TAB>message".
const char* const kNumpyScript = R"PY(
import sys, types
import numpy as np
ns = {'np': np, 'numpy': np, 'tf': types.SimpleNamespace(newaxis=None), 'newaxis': None}
out = []
for line in sys.stdin.read().split('\n'):
    if not line:
        continue
    shape_text, expr = line.split('\t', 1)
    shape = tuple(int(v) for v in shape_text.split(',')) if shape_text else ()
    ns['x'] = np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64).reshape(shape)
    try:
        r = np.asarray(eval(expr, ns))
        out.append('ok\t' + ','.join(map(str, r.shape)) + '\t' +
                   ' '.join(map(str, r.ravel().tolist())))
    except Exception as e:
        msg = str(e).replace('\n', ' ').replace('\t', ' ')
        out.append('err\t' + type(e).__name__ + '\t' + msg)
sys.stdout.write('\n'.join(out) + '\n')
)PY";

struct Answer
{
    bool ok = false;
    Shape shape;
    std::vector<std::int64_t> values;
    std::string error; // NumPy: "Type: message"; engine: "code: message"
    std::string message;
};

QString shapeText(const Shape& s)
{
    QStringList parts;
    for (std::int64_t d : s)
        parts << QString::number(d);
    return parts.join(',');
}

std::string describe(const Answer& a)
{
    if (!a.ok) return "error " + a.error;
    std::string v;
    for (std::size_t k = 0; k < a.values.size() && k < 12; ++k)
        v += (k ? " " : "") + std::to_string(a.values[k]);
    return "shape " + shapeString(a.shape) + " [" + v + (a.values.size() > 12 ? " ..." : "") + "]";
}

Answer engineAnswer(const Shape& shape, const std::string& text)
{
    Answer a;
    try {
        const OpRun run =
            runOp("getitem", {{iota(shape, 0, DType::Int64)}}, {{"expr", Attr(text)}});
        a.ok = true;
        a.shape = run.outputs[0].shape();
        a.values = values(run.outputs[0]);
    } catch (const OpError& e) {
        a.error = std::string(errorCodeName(e.code())) + ": " + e.what();
        a.message = e.what();
    }
    return a;
}

Answer parseNumpyLine(const QByteArray& line)
{
    const QList<QByteArray> f = line.split('\t');
    Answer a;
    if (f.size() != 3) throw std::runtime_error("unreadable NumPy answer: " + line.toStdString());
    a.ok = f[0] == "ok";
    if (a.ok) {
        for (const QByteArray& d : f[1].split(','))
            if (!d.isEmpty()) a.shape.push_back(d.toLongLong());
        for (const QByteArray& v : f[2].split(' '))
            if (!v.isEmpty()) a.values.push_back(v.toLongLong());
    } else {
        a.error = (f[1] + ": " + f[2]).toStdString();
        a.message = f[2].toStdString();
    }
    return a;
}

bool sameResult(const Answer& a, const Answer& b)
{
    return a.ok && b.ok && a.shape == b.shape && a.values == b.values;
}

// TensorFlow's message for the mistake NumPy reports, the name of the error class and the
// protocol's code for it. NumPy and TensorFlow check in the same order (the whole spec first, then
// dimension by dimension), so the first error each finds is the same mistake.
struct ExpectedError
{
    std::string kind;
    std::string message;
    std::string code = "invalid_argument";
};

ExpectedError tensorflowError(const Answer& numpy, const Shape& shape, bool int64MaxIndex)
{
    if (int64MaxIndex)
        return {"index 2^63-1 (no room for its end)",
                "index 9223372036854775807 leaves no room for its end (index + 1) in a 64-bit "
                "integer"};
    const QString msg = QString::fromStdString(numpy.message);
    if (msg == "slice step cannot be zero")
        return {"stride 0", ""}; // the dimension index is checked with a pattern below
    if (msg.startsWith("too many indices for array")) {
        const std::string r = std::to_string(shape.size());
        return {"too many indices",
                "Index out of range using input dim " + r + "; input has only " + r + " dims"};
    }
    if (msg == "an index can only have a single ellipsis ('...')")
        return {"two ellipses", "Multiple ellipses in slice spec not allowed"};
    static const QRegularExpression bounds(
        QStringLiteral("^index (-?\\d+) is out of bounds for axis (\\d+) with size (\\d+)$"));
    if (const auto m = bounds.match(msg); m.hasMatch()) {
        const std::int64_t index = m.captured(1).toLongLong();
        const std::int64_t size = m.captured(3).toLongLong();
        // TensorFlow prints the index after wrapping a negative one.
        const std::int64_t wrapped = index < 0 ? index + size : index;
        return {"index out of bounds",
                "slice index " + std::to_string(wrapped) + " of dimension " +
                    m.captured(2).toStdString() + " out of bounds.",
                "out_of_range"};
    }
    return {"unmapped NumPy error", ""};
}

struct RandomCase
{
    Shape shape;
    GeneratedSubscript subscript;
    int numpyLine = -1;
};

// A subscript where TensorFlow and NumPy part ways on purpose: lists and booleans that
// TensorFlow reads as basic indexing, and indices TensorFlow refuses where NumPy answers.
struct DifferenceCase
{
    const char* name;
    Shape shape;
    std::string text;        // given to the engine, and to NumPy literally
    std::string tfReference; // NumPy text that gives TensorFlow's answer; empty: TF errors
    std::string tfError;     // TensorFlow's (or the engine's) error, "code: message"
    bool numpyRaises;        // NumPy errors too; otherwise NumPy gives a different result
    int numpyLine = -1;
    int referenceLine = -1;
};

} // namespace

class TestNumpySlicing : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        SubscriptGenerator gen(kSeed);
        QByteArray batch;
        int line = 0;
        auto ask = [&](const Shape& shape, const std::string& text) {
            batch += shapeText(shape).toUtf8() + '\t' + QByteArray::fromStdString(text) + '\n';
            return line++;
        };
        for (int k = 0; k < kRandomCases; ++k) {
            RandomCase c;
            c.shape = gen.shape();
            c.subscript = gen.subscript(int(c.shape.size()));
            c.numpyLine = ask(c.shape, c.subscript.numpyText);
            m_random.push_back(std::move(c));
        }
        m_differences = differenceCases();
        for (DifferenceCase& d : m_differences) {
            d.numpyLine = ask(d.shape, d.text);
            if (!d.tfReference.empty()) d.referenceLine = ask(d.shape, d.tfReference);
        }
        const QList<QByteArray> lines =
            runNumpy(QString::fromUtf8(kNumpyScript), batch).split('\n');
        for (int k = 0; k < line; ++k)
            m_numpy.push_back(parseNumpyLine(lines.value(k)));
    }

    void randomSubscripts_data()
    {
        QTest::addColumn<int>("rank");
        for (int r = 0; r <= 6; ++r)
            QTest::newRow(qPrintable(QStringLiteral("rank %1").arg(r))) << r;
    }

    void randomSubscripts()
    {
        QFETCH(int, rank);
        QStringList failures;
        int cases = 0;
        for (const RandomCase& c : m_random) {
            if (int(c.shape.size()) != rank) continue;
            ++cases;
            const Answer& numpy = m_numpy[std::size_t(c.numpyLine)];
            const Answer engine = engineAnswer(c.shape, c.subscript.engineText);
            std::string problem;
            if (numpy.ok) {
                if (!sameResult(engine, numpy))
                    problem = "results differ";
                else
                    ++m_counts[numpy.values.empty() ? "shape (empty result)" : "value"];
            } else {
                const ExpectedError want =
                    tensorflowError(numpy, c.shape, c.subscript.hasInt64MaxIndex);
                static const QRegularExpression stride(
                    QStringLiteral("^strides\\[\\d+\\] must be non-zero$"));
                const bool messageOk =
                    want.kind == "stride 0"
                        ? stride.match(QString::fromStdString(engine.message)).hasMatch()
                        : !want.message.empty() && engine.message == want.message;
                if (engine.ok || engine.error.rfind(want.code + ": ", 0) != 0 || !messageOk)
                    problem = "expected TensorFlow's error for \"" + want.kind + "\"" +
                              (want.message.empty() ? "" : ": " + want.message);
                else
                    ++m_counts["error: " + want.kind];
            }
            if (c.subscript.listForm && problem.empty())
                ++m_counts["(of which list subscripts read as tuples)"];
            if (!problem.empty())
                failures << QString::fromStdString(
                    c.subscript.engineText + " on " + shapeString(c.shape) + ": " + problem +
                    "; engine " + describe(engine) + "; NumPy " + c.subscript.numpyText +
                    " gives " + describe(numpy));
        }
        m_total += cases;
        QVERIFY2(cases > 0, "no cases of this rank");
        QVERIFY2(failures.isEmpty(),
                 qPrintable(QString::number(failures.size()) + " of " + QString::number(cases) +
                            " disagree:\n" + failures.mid(0, 10).join('\n')));
    }

    void tensorflowDiffers_data()
    {
        QTest::addColumn<int>("index");
        for (int k = 0; k < int(m_differences.size()); ++k)
            QTest::newRow(m_differences[std::size_t(k)].name) << k;
    }

    void tensorflowDiffers()
    {
        QFETCH(int, index);
        const DifferenceCase& d = m_differences[std::size_t(index)];
        const Answer engine = engineAnswer(d.shape, d.text);
        const Answer& numpy = m_numpy[std::size_t(d.numpyLine)];
        if (d.referenceLine >= 0) {
            const Answer& reference = m_numpy[std::size_t(d.referenceLine)];
            QVERIFY2(reference.ok, reference.error.c_str());
            QVERIFY2(
                sameResult(engine, reference),
                ("engine " + describe(engine) + ", TensorFlow " + describe(reference)).c_str());
        } else {
            QVERIFY2(!engine.ok, ("engine " + describe(engine)).c_str());
            QCOMPARE(engine.error, d.tfError);
        }
        // The row is only meaningful if NumPy really answers differently.
        if (d.numpyRaises)
            QVERIFY2(!numpy.ok, ("NumPy " + describe(numpy)).c_str());
        else
            QVERIFY2(numpy.ok && !sameResult(engine, numpy), ("NumPy " + describe(numpy)).c_str());
    }

    void cleanupTestCase()
    {
        QStringList lines;
        for (auto it = m_counts.cbegin(); it != m_counts.cend(); ++it)
            lines
                << QStringLiteral("  %1: %2").arg(QString::fromStdString(it.key())).arg(it.value());
        qInfo().noquote()
            << QStringLiteral("%1 random subscripts agree with NumPy by class:\n").arg(m_total)
            << lines.join('\n');
    }

private:
    static std::vector<DifferenceCase> differenceCases()
    {
        const std::string invalid = "invalid_argument: ";
        const std::string typeError =
            invalid +
            "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
            "tf.int32/tf.int64 tensors are valid indices, got ";
        const std::string tooWide = " does not fit in a 64-bit integer, the widest index "
                                    "TensorFlow takes";
        return {
            {"list subscript is a tuple", {3, 4}, "x[[1, 2]]", "x[1, 2]", "", false},
            {"one-element list is an index", {3, 4}, "x[[2]]", "x[2]", "", false},
            {"list with None and ellipsis",
             {3, 4},
             "x[[None, ..., 0]]",
             "x[None, ..., 0]",
             "",
             true},
            {"empty list is the identity", {3, 4}, "x[[]]", "x[()]", "", false},
            {"x[True] is a scalar mask",
             {3, 4},
             "x[True]",
             "",
             invalid + "mask cannot be scalar.",
             false},
            {"x[False] is a scalar mask",
             {3, 4},
             "x[False]",
             "",
             invalid + "mask cannot be scalar.",
             false},
            {"bool inside a tuple",
             {3, 4},
             "x[1, True]",
             "",
             invalid +
                 "a bool inside a subscript (True) is not a valid index: TensorFlow stacks it "
                 "with the other begin/end/strides values and fails. Use x[mask] with a whole "
                 "bool tensor for a boolean mask",
             false},
            {"stride 0 (both raise)",
             {5},
             "x[::0]",
             "",
             invalid + "strides[0] must be non-zero",
             true},
            {"index past the end (both raise)",
             {3, 4},
             "x[:, 4]",
             "",
             "out_of_range: slice index 4 of dimension 1 out of bounds.",
             true},
            {"two ellipses (both raise)",
             {3, 4},
             "x[..., 1, ...]",
             "",
             invalid + "Multiple ellipses in slice spec not allowed",
             true},
            {"float index (both raise)", {3, 4}, "x[1.0]", "", typeError + "1.0", true},
            {"index 2^63 (both raise)",
             {3},
             "x[9223372036854775808]",
             "",
             invalid + "index 9223372036854775808" + tooWide,
             true},
            {"slice stop beyond int64",
             {3},
             "x[:99999999999999999999]",
             "",
             invalid + "index 99999999999999999999" + tooWide,
             false},
            {"slice step -2^63-1",
             {3},
             "x[::-9223372036854775809]",
             "",
             invalid + "index -9223372036854775809" + tooWide,
             false},
            // TensorFlow's StridedSlice kernel handles 8 processing dimensions outside its fast
            // paths; NumPy has no such limit.
            {"rank-9 input past StridedSlice's general kernel",
             {2, 1, 2, 1, 2, 1, 2, 1, 3},
             "x[..., ::-1]",
             "",
             "unimplemented: Unhandled input dimensions 9",
             false},
        };
    }

    std::vector<RandomCase> m_random;
    std::vector<DifferenceCase> m_differences;
    std::vector<Answer> m_numpy;
    QMap<std::string, int> m_counts;
    int m_total = 0;
};

QTEST_APPLESS_MAIN(TestNumpySlicing)
#include "tst_numpy_slicing.moc"
